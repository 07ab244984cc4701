import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { startListService, trade, type ListService } from '../helpers/poll/list-service';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #25, point 2: steady volume below Max Pages per Poll, over 30+ polls with a restart (static
 * data through JSON) before each, in every list shape: each record exactly once, within
 * `ceil(new / page size) + 1` pages per poll, one request per quiet list.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const PER_POLL = 900;
const POLLS = 32;
/**
 * These tests count records and pages, not time: n8n's poll budget (36 s) is test/CryptoSettlementPollTrigger/budget.test.ts's
 * subject. A poll here reads up to ten pages, which a loaded 2-core machine may take longer than 36 s
 * for, and the harness abandons a poll past its budget; so the budget here is one that holds under load.
 */
const UNDER_LOAD = { budgetMs: 600_000 };

let service: ListService;
beforeEach(async () => {
	service = await startListService();
	service.clock = T0;
});
afterEach(async () => await service.close());

const credentials = () => ({
	appId: 'app-local',
	appSecret: 'secret-local-1',
	environment: 'sandbox',
	baseUrl: service.url,
	pin: '',
});

/** One minute of the service: `count` trades spread over it, the clock at its end. */
function aMinuteOf(count: number, from: number): void {
	const start = service.clock as number;
	for (let i = 1; i <= count; i++)
		service.records.trades.push(trade(from + i, start + Math.floor((i * 60_000) / count)));
	service.clock = start + 60_000;
}

describe.each([
	{
		shape: 'newest first, sorted by creation date',
		order: 'newestFirst',
		meta: 'full',
		sortBy: 'createdAt',
	},
	{
		shape: 'newest first, without meta.pages and meta.totalDocs',
		order: 'newestFirst',
		meta: 'hasNextPage',
		sortBy: 'createdAt',
	},
	{
		shape: 'oldest first, with meta.pages',
		order: 'oldestFirst',
		meta: 'full',
		sortBy: 'createdAt',
	},
	{
		shape: 'oldest first, without meta.pages',
		order: 'oldestFirst',
		meta: 'hasNextPage',
		sortBy: 'insertion',
	},
] as const)('$shape', ({ order, meta, sortBy }) => {
	test(`${PER_POLL} new trades per poll for ${POLLS} polls, restarting before each: every trade once, at most ceil(new/100)+1 pages a poll`, async () => {
		Object.assign(service, { order, meta, sortBy });
		aMinuteOf(500, 0);
		const poller = await Poller.create(
			{ source: 'records', events: ['*'] },
			credentials(),
			UNDER_LOAD,
		);
		expect((await poller.poll()).items).toBeNull();
		const baseline = service.records.trades.length;
		const emitted = new Emitted();
		const pagesPerPoll: number[] = [];
		for (let poll = 0; poll < POLLS; poll++) {
			aMinuteOf(PER_POLL, service.records.trades.length);
			poller.restart();
			service.clearRequests();
			const items = emitted.add(await poller.poll());
			expect(items).toHaveLength(PER_POLL);
			pagesPerPoll.push(service.pagesOf('trades').length);
			// A quiet list: one request.
			expect(service.pagesOf('withdrawals')).toHaveLength(1);
		}
		emitted.expectExactly(eventsOf('trade', service.records.trades.slice(baseline)));
		expect(Math.max(...pagesPerPoll)).toBeLessThanOrEqual(Math.ceil(PER_POLL / 100) + 1);
		// Nothing new: one request per list.
		service.clearRequests();
		expect((await poller.poll()).items).toBeNull();
		expect(service.requests).toHaveLength(2);
	});
});

test('records added while a walk reads the pages (duplicates across page boundaries): each emitted once', async () => {
	aMinuteOf(300, 0);
	const poller = await Poller.create(
		{ source: 'records', events: ['*'] },
		credentials(),
		UNDER_LOAD,
	);
	await poller.poll();
	const baseline = service.records.trades.length;
	const emitted = new Emitted();
	// After every page answered, 7 more trades arrive at the top: the next page repeats 7 records of this one.
	service.afterPage = (list) => {
		if (list === 'trades') aMinuteOf(7, service.records.trades.length);
	};
	for (let poll = 0; poll < 12; poll++) {
		aMinuteOf(450, service.records.trades.length);
		emitted.add(await poller.poll());
	}
	service.afterPage = undefined;
	emitted.add(await poller.poll());
	emitted.expectExactly(eventsOf('trade', service.records.trades.slice(baseline)));
});

test('more new records than Max Pages per Poll, with records arriving all along: the backlog is read by position, each record once', async () => {
	aMinuteOf(50, 0);
	const poller = await Poller.create(
		{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 3 } },
		credentials(),
		UNDER_LOAD,
	);
	await poller.poll();
	const baseline = service.records.trades.length;
	const emitted = new Emitted();
	aMinuteOf(1450, service.records.trades.length);
	for (let poll = 0; poll < 15; poll++) {
		aMinuteOf(120, service.records.trades.length);
		poller.restart();
		emitted.add(await poller.poll());
	}
	for (let poll = 0; poll < 10; poll++) emitted.add(await poller.poll());
	emitted.expectExactly(eventsOf('trade', service.records.trades.slice(baseline)));
});
