import type { IDataObject } from 'n8n-workflow';
import { LISTING_LAG_MS } from '../../nodes/CryptoSettlementPollTrigger/cursor';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { trade } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #34, points 1, 2 and 6: what a real service's lists do between two answers. A record listed
 * a moment late (a read replica, an index that lags) under a backlog; a status that goes back for
 * one answer (a lagging replica); a record without `createdAt` missing from one answer. The lag is
 * the list service's own logical clock: a record is shown once the clock has passed its creation
 * date plus its lag, so no verdict depends on how fast the machine is.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
/** The lag: up to 150 ms after records dated later. */
const MAX_LAG_MS = 150;

// n8n's clock is the test's (list-service-per-test.ts): a poll is never cut or abandoned for the machine's speed.
const local = listServiceForEachTest(T0, { testClock: true });

/** Each record's lag (ms, service clock) before the list shows it. */
const lagOf = new WeakMap<IDataObject, number>();

/**
 * `count` trades created over `spanMs` of the service's clock ending at the new clock. `half`: every
 * second one lags up to MAX_LAG_MS (deterministic); `first`: the oldest record created within
 * MAX_LAG_MS of the burst's end lags MAX_LAG_MS, so it is listed behind the rest of the burst. Returns them and how many the list does not show yet.
 */
function burst(
	count: number,
	spanMs: number,
	lagging: 'half' | 'first' | 'none' = 'half',
): { added: IDataObject[]; hidden: number } {
	const start = local.service.clock as number;
	const end = start + spanMs;
	const added: IDataObject[] = [];
	for (let i = 1; i <= count; i++) {
		const record = trade(++local.created, start + Math.floor((i * spanMs) / (count + 1)));
		if (lagging === 'half' && i % 2 === 0)
			lagOf.set(record, (MAX_LAG_MS * (((i * 7) % 10) + 1)) / 10);
		added.push(record);
	}
	// The oldest record still hidden at the end of the burst when lagging MAX_LAG_MS.
	const lone = added.find((record) => Date.parse(String(record.createdAt)) > end - MAX_LAG_MS);
	if (lagging === 'first' && lone) lagOf.set(lone, MAX_LAG_MS);
	local.service.records.trades.push(...added);
	local.service.clock = end;
	return { added, hidden: added.filter((record) => !shown(record)).length };
}

function shown(record: IDataObject): boolean {
	return (
		Date.parse(String(record.createdAt)) + (lagOf.get(record) ?? 0) <=
		(local.service.clock as number)
	);
}

/**
 * Half of the records lagging (the case, under a backlog), and the oldest of each burst
 * alone (it comes back three or four pages below the records read before it, with no other record
 * listed late near it: only reading the last second again finds it).
 */
describe.each([
	{
		name: 'a backlog of 1,500, then bursts of 300 new trades in 100 ms, polls a minute apart, half lagging',
		backlog: 1500,
		perPoll: 300,
		intervalMs: 60_000,
		spanMs: 100,
		lagging: 'half',
	},
	{
		name: 'a backlog of 1,500, then bursts of 600 new trades in 200 ms, polls 5 s apart, half lagging',
		backlog: 1500,
		perPoll: 600,
		intervalMs: 5_000,
		spanMs: 200,
		lagging: 'half',
	},
	{
		name: 'bursts of 300 new trades in 100 ms, polls a minute apart, one of each lagging alone',
		backlog: 300,
		perPoll: 300,
		intervalMs: 60_000,
		spanMs: 100,
		lagging: 'first',
	},
	{
		name: 'bursts of 600 new trades in 200 ms, polls 5 s apart, one of each lagging alone',
		backlog: 600,
		perPoll: 600,
		intervalMs: 5_000,
		spanMs: 200,
		lagging: 'first',
	},
] as const)(
	'records listed up to 150 ms late: $name',
	({ backlog, perPoll, intervalMs, spanMs, lagging }) => {
		test('each trade is emitted exactly once', async () => {
			expect(MAX_LAG_MS).toBeLessThan(LISTING_LAG_MS);
			local.service.view = (_list, record) => (shown(record) ? record : undefined);
			// Before activation, nothing lags: every record the service holds at activation is old.
			burst(500, 60_000, 'none');
			const poller = await Poller.create(
				{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 8 } },
				local.credentials(),
			);
			expect((await poller.poll()).items).toBeNull();
			const baseline = local.service.records.trades.length;
			const emitted = new Emitted();
			let hiddenAtPolls = 0;
			for (let poll = 0; poll < 6; poll++) {
				// The burst ends at the poll: its last records are not listed yet, records dated later are.
				local.service.clock = (local.service.clock as number) + intervalMs - spanMs;
				// The first poll may find a backlog beyond Max Pages per Poll: the next ones continue below it.
				hiddenAtPolls += burst(poll === 0 ? backlog : perPoll, spanMs, lagging).hidden;
				poller.restart();
				emitted.add(await poller.poll());
			}
			// The case is exercised: records were missing from answers that listed records dated after them.
			expect(hiddenAtPolls).toBeGreaterThanOrEqual(6);
			for (let poll = 0; poll < 4; poll++) {
				local.service.clock = (local.service.clock as number) + intervalMs;
				emitted.add(await poller.poll());
			}
			emitted.expectExactly(eventsOf('trade', local.service.records.trades.slice(baseline)));
		});
	},
);

test('a status going back for one answer (a lagging replica): each event once, never a status earlier in the life cycle', async () => {
	burst(200, 60_000);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	await poller.poll();
	const [done, moving] = [
		trade(++local.created, (local.service.clock as number) + 1000),
		trade(++local.created, (local.service.clock as number) + 2000, 'pending'),
	];
	local.service.records.trades.push(done, moving);
	local.service.clock = (local.service.clock as number) + 60_000;
	const emitted = new Emitted();
	/** What the lagging replica answers for one poll: each record's status before. */
	let replica: Record<string, string> = {};
	local.service.view = (_list, record) =>
		replica[String(record.id)] ? { ...record, status: replica[String(record.id)] } : record;
	const steps: Array<() => void> = [
		() => undefined,
		() => (moving.status = 'completed'),
		() => (replica = { [String(done.id)]: 'pending', [String(moving.id)]: 'pending' }),
		() => (replica = {}),
		() => (replica = { [String(moving.id)]: 'flagged' }),
		() => (replica = {}),
	];
	for (const step of steps) {
		step();
		local.service.clock = (local.service.clock as number) + 60_000;
		poller.restart();
		emitted.add(await poller.poll());
	}
	emitted.expectExactly([
		`trade.completed ${String(done.id)}`,
		`trade.pending ${String(moving.id)}`,
		`trade.completed ${String(moving.id)}`,
	]);
	// In the order lived: pending before completed.
	expect(emitted.events.indexOf(`trade.pending ${String(moving.id)}`)).toBeLessThan(
		emitted.events.indexOf(`trade.completed ${String(moving.id)}`),
	);
});

test('a record without createdAt missing from one answer, then back: emitted once', async () => {
	const undated = (count: number) => {
		const added = Array.from({ length: count }, () => trade(++local.created, undefined));
		local.service.records.trades.push(...added);
		local.service.clock = (local.service.clock as number) + 60_000;
		return added;
	};
	undated(300);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	await poller.poll();
	const emitted = new Emitted();
	const fresh: IDataObject[] = [];
	const missing = new Set<unknown>();
	local.service.view = (_list, record) => (missing.has(record.id) ? undefined : record);
	for (let poll = 0; poll < 6; poll++) {
		const added = undated(poll % 2 ? 0 : 5);
		fresh.push(...added);
		missing.clear();
		// The newest record read before (and on one poll the one below it) is missing from this answer only.
		if (poll > 0)
			for (const record of fresh.slice(-1 - (poll % 2) - added.length, fresh.length - added.length))
				missing.add(record.id);
		poller.restart();
		emitted.add(await poller.poll());
	}
	missing.clear();
	emitted.add(await poller.poll());
	emitted.expectExactly(eventsOf('trade', fresh));
});
