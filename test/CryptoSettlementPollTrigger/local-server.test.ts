import { Poller } from '../helpers/poll/poll-harness';
import { shortBackoff } from '../helpers/node';
import { idsOf, trade } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';

/**
 * The poll trigger against a small local API whose answers each test controls: list order (either
 * way), fewest pages read, a failure half way, a 429, late-arriving records and Max Pages per Poll.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;

const local = listServiceForEachTest(T0);

/** `count` new trades, one a second on the service's clock (the clock moves with them). */
function addTrades(count: number, status = 'completed'): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		local.created++;
		local.service.clock = T0 + local.created * 1000;
		local.service.records.trades.push(trade(local.created, local.service.clock, status));
		ids.push(String(local.service.records.trades.at(-1)!.id));
	}
	return ids;
}

/**
 * A trade left pending behind 139 newer ones, after the polls that saw it and then only the newer
 * ones: no page a later poll reads shows it, so it is followed by its own id.
 */
async function pendingOutOfPages(): Promise<{ poller: Poller; pending: string }> {
	addTrades(120);
	const poller = await Poller.create(
		{ source: 'records', events: ['trade.completed'] },
		local.credentials(),
	);
	await poller.poll();
	const [pending] = addTrades(1, 'pending');
	expect((await poller.poll()).items).toBeNull();
	const later = addTrades(139);
	expect(idsOf((await poller.poll()).items)).toEqual(later);
	return { poller, pending };
}

describe.each(['newestFirst', 'oldestFirst'] as const)('a list sorted %s', (order) => {
	test('new records are found, emitted once and oldest first, reading the fewest pages', async () => {
		local.service.order = order;
		addTrades(250);
		const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
		expect((await poller.poll()).items).toBeNull();
		// First poll: the newest page only (plus page 1, to tell the order, when the list is oldest first).
		expect(local.service.pagesOf('trades')).toEqual(order === 'newestFirst' ? [1] : [1, 3]);

		const added = addTrades(3);
		local.service.clearRequests();
		const polled = await poller.poll();
		expect(idsOf(polled.items)).toEqual(added);
		expect(polled.items![0]).toMatchObject({
			event: 'trade.completed',
			amountInUSD: 251,
			destinationAddress: 'addr-251',
			source: 'records',
		});
		// Later polls: the page that held the position, nothing more.
		expect(local.service.pagesOf('trades')).toEqual([order === 'newestFirst' ? 1 : 3]);
		expect((await poller.poll()).items).toBeNull();
	});

	test('a status change of an older record still followed is emitted, looked up once no page shows it', async () => {
		local.service.order = order;
		const { poller, pending } = await pendingOutOfPages();
		local.service.records.trades.find((record) => record.id === pending)!.status = 'completed';
		local.service.clock! += minute;
		local.service.clearRequests();
		expect(idsOf((await poller.poll()).items)).toEqual([pending]);
		expect(local.service.requests.map((request) => request.path)).toContain(
			`/trades/transactions/${pending}`,
		);
		expect((await poller.poll()).items).toBeNull();
	});
});

// A lookup that proves nothing (a lagging replica's 404, an answer without the record or about another
// one) must not end the follow, nor emit: the record's own later status change would be lost. A lookup
// that fails (a 5xx for this record alone, its id refused, a lookup route the account may not use) must
// not fail the poll either: every other event of every list would wait until that record is final.
describe('a record still followed whose lookup proves nothing or fails', () => {
	shortBackoff();
	const refusal = (status: number, message: string) => ({
		status,
		body: { success: false, message, errors: [], meta: {}, data: {} },
	});
	test.each([
		['answered 404', refusal(404, 'transaction not found'), ''],
		[
			'answered without the record',
			{
				status: 200,
				body: { success: true, message: 'transaction retrieved', errors: [], meta: {}, data: null },
			},
			'',
		],
		[
			'answered with a record of another id',
			{
				status: 200,
				body: {
					success: true,
					message: 'transaction retrieved',
					errors: [],
					meta: {},
					data: { id: 't999999', status: 'completed', createdAt: '2026-03-01T11:00:00.000Z' },
				},
			},
			'',
		],
		[
			'answered 422 (its id refused)',
			refusal(422, 'validation errors'),
			': validation errors (HTTP 422)',
		],
		[
			'answered 403 (a lookup route the account may not use)',
			refusal(403, 'you do not have API access'),
			': you do not have API access (HTTP 403)',
		],
		['answered 500 at every attempt', refusal(500, 'something went wrong!'), ': '],
	])(
		'%s once stays followed, the poll emits the others: its status change is emitted later, once',
		async (_name, reply, failure) => {
			const { poller, pending } = await pendingOutOfPages();
			local.service.fault = (path) =>
				path === `/trades/transactions/${pending}` ? reply : undefined;
			const [other] = addTrades(1);
			local.service.clock! += minute;
			local.service.clearRequests();
			const missed = await poller.poll();
			expect(missed.error).toBeUndefined();
			expect(idsOf(missed.items)).toEqual([other]);
			expect(local.service.requests.map((request) => request.path)).toContain(
				`/trades/transactions/${pending}`,
			);
			const warning = missed.logs.find(
				(log) =>
					log.level === 'warn' &&
					log.message.includes('1 trades not yet final could not be read by id'),
			);
			expect(warning?.message).toContain(
				failure ? `or a failed lookup${failure}` : 'or a failed lookup);',
			);
			local.service.fault = undefined;
			local.service.records.trades.find((record) => record.id === pending)!.status = 'completed';
			local.service.clock! += minute;
			expect(idsOf((await poller.poll()).items)).toEqual([pending]);
			expect((await poller.poll()).items).toBeNull();
		},
	);
});

// A record the poll cannot identify can never be emitted: a deposit the service lists without an id
// would be lost without a word. The poll says so, and still emits every other record once.
test('records listed without an id are not emitted, and the poll warns how many', async () => {
	addTrades(3);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	expect((await poller.poll()).items).toBeNull();
	const [, nameless] = addTrades(3);
	delete local.service.records.trades.find((record) => record.id === nameless)!.id;
	const polled = await poller.poll();
	expect(idsOf(polled.items)).toHaveLength(2);
	expect(polled.logs.filter((log) => log.level === 'warn').map((log) => log.message)).toEqual([
		'Crypto Settlement Poll Trigger: 1 trades read by this poll show no id, so they cannot be told apart and are not emitted; check them in the dashboard',
	]);
	expect((await poller.poll()).items).toBeNull();
});

test('a poll that fails half way emits nothing and does not move; the next poll emits everything once', async () => {
	addTrades(5);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	await poller.poll();
	const before = poller.staticData;
	const added = addTrades(225);
	local.service.fault = (path, query) =>
		path === '/trades/transactions' && query.get('page') === '2'
			? { status: 400, body: { success: false, message: 'boom', errors: [], meta: {}, data: {} } }
			: undefined;
	const failed = await poller.poll();
	expect(failed.error?.message).toContain('boom (HTTP 400)');
	expect(failed.items).toBeNull();
	expect(poller.staticData).toEqual(before);

	local.service.fault = undefined;
	expect(idsOf((await poller.poll()).items)).toEqual(added);
	expect((await poller.poll()).items).toBeNull();
});

test('a 429 ends the poll quietly (no error, no events, position kept); the next poll catches up', async () => {
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	await poller.poll();
	const before = poller.staticData;
	const added = addTrades(1);
	local.service.fault = () => ({
		status: 429,
		body: { message: 'too many requests' },
		headers: { 'retry-after': '0' },
	});
	const limited = await poller.poll();
	expect(limited.error).toBeUndefined();
	expect(limited.items).toBeNull();
	expect(limited.logs.some((log) => log.level === 'warn' && log.message.includes('429'))).toBe(
		true,
	);
	expect((poller.staticData.pollState as { lists: unknown }).lists).toEqual(
		(before.pollState as { lists: unknown }).lists,
	);
	local.service.fault = undefined;
	expect(idsOf((await poller.poll()).items)).toEqual(added);
});

test('the overlap catches a record that becomes visible late, with an earlier creation date', async () => {
	addTrades(1);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	await poller.poll();
	local.service.records.trades.push(trade(900, T0 + 10 * minute));
	local.service.clock = T0 + 10 * minute;
	expect(idsOf((await poller.poll()).items)).toEqual(['t000900']);
	// Created 4 minutes before the newest record seen, listed only now.
	local.service.records.trades.push(trade(901, T0 + 6 * minute));
	expect(idsOf((await poller.poll()).items)).toEqual(['t000901']);
	expect((await poller.poll()).items).toBeNull();
});

test('Max Pages per Poll bounds the pages read; the next poll reads on from where it stopped; nothing is lost or doubled', async () => {
	addTrades(1);
	const poller = await Poller.create(
		{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 2 } },
		local.credentials(),
	);
	await poller.poll();
	const added = addTrades(250);
	local.service.clearRequests();
	const busy = await poller.poll();
	expect(local.service.pagesOf('trades')).toEqual([1, 2]);
	expect(idsOf(busy.items)).toEqual(added.slice(-200));
	expect(busy.logs.some((log) => log.level === 'warn' && log.message.includes('2 pages'))).toBe(
		true,
	);
	local.service.clearRequests();
	const rest = await poller.poll();
	// The page after the last record read (page 3, found by position: counted from the list's oldest
	// end) through the gap, then the newest end with the page left.
	expect(local.service.pagesOf('trades')).toEqual([3, 1]);
	expect(idsOf(rest.items)).toEqual(added.slice(0, 50));
	expect((await poller.poll()).items).toBeNull();
});
