import { CryptoSettlementPollTrigger } from '../../nodes/CryptoSettlementPollTrigger/CryptoSettlementPollTrigger.node';
import { MIN_PAGES } from '../../nodes/CryptoSettlementPollTrigger/poll';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #34, point 8: resuming a walk stopped at Max Pages per Poll must make progress with the
 * smallest budget the editor allows, while records keep arriving (which moves every page).
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

// n8n's clock is the test's (list-service-per-test.ts): a poll is never cut or abandoned for the machine's speed.
const local = listServiceForEachTest(T0, { testClock: true });

const aMinuteOf = local.aMinuteOf;

/**
 * With `meta.totalDocs` the page is counted exactly: every poll reads records of the backlog. Without
 * it, a poll after more than a page of arrivals may spend its two pages finding the place, and the
 * next one reads from there: never two polls in a row without progress.
 */
describe.each([
	{ meta: 'full', idleInARow: 0, arriving: [37, 100, 63, 0, 199] },
	{ meta: 'hasNextPage', idleInARow: 1, arriving: [37, 100, 63, 0, 199] },
] as const)('Max Pages per Poll 2, meta $meta', ({ meta, idleInARow, arriving }) => {
	test(`a backlog of 1,000 with trades arriving: at most ${idleInARow} poll(s) in a row without an event until all is read, each trade once`, async () => {
		local.service.meta = meta;
		aMinuteOf(300);
		const poller = await Poller.create(
			{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 2 } },
			local.credentials(),
		);
		await poller.poll();
		const baseline = local.service.records.trades.length;
		aMinuteOf(1000);
		const emitted = new Emitted();
		const perPoll: number[] = [];
		for (let poll = 0; poll < 60; poll++) {
			if (poll < 20) aMinuteOf(arriving[poll % arriving.length]);
			else local.service.clock = (local.service.clock as number) + 60_000;
			poller.restart();
			const before = emitted.events.length;
			emitted.add(await poller.poll());
			perPoll.push(emitted.events.length - before);
			if (emitted.events.length === local.service.records.trades.length - baseline) break;
		}
		const idleRuns = perPoll
			.join(' ')
			.split(/[1-9]\d*/)
			.map((run) => run.trim().split(' ').filter(Boolean).length);
		expect(Math.max(...idleRuns)).toBeLessThanOrEqual(idleInARow);
		emitted.expectExactly(eventsOf('trade', local.service.records.trades.slice(baseline)));
	});
});

test('the editor refuses Max Pages per Poll below 2; a workflow saved with 1 reads 2 pages', async () => {
	const { properties } = new CryptoSettlementPollTrigger().description;
	const options = properties.find((property) => property.name === 'options')?.options as Array<{
		name: string;
		typeOptions?: { minValue?: number };
	}>;
	expect(options.find((option) => option.name === 'maxPagesPerPoll')?.typeOptions?.minValue).toBe(
		MIN_PAGES,
	);
	expect(MIN_PAGES).toBe(2);
	aMinuteOf(10);
	const poller = await Poller.create(
		{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 1 } },
		local.credentials(),
	);
	await poller.poll();
	aMinuteOf(500);
	local.service.clearRequests();
	const result = await poller.poll();
	expect(local.service.pagesOf('trades')).toEqual([1, 2]);
	expect(result.items).toHaveLength(200);
});
