import type { IDataObject } from 'n8n-workflow';
import { Poller, pageOf, startLocalServer, type LocalServer } from './poll-harness';

/**
 * The poll trigger against a small local API whose answers each test controls: list order (either
 * way), fewest pages read, a failure half way, a 429, late-arriving records and Max Pages per Poll.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;

let server: LocalServer;
let trades: IDataObject[];
let withdrawals: IDataObject[];
let order: 'newestFirst' | 'oldestFirst';
/** Overrides the answer for one request (page 2 failing, a 429…). */
let fault: ((path: string, query: URLSearchParams) => { status: number; body: unknown; headers?: Record<string, string> } | undefined) | undefined;

function trade(n: number, createdAt: number, status = 'completed'): IDataObject {
	return { id: `t${String(n).padStart(4, '0')}`, status, amountReceived: n, address: `addr-${n}`, createdAt: new Date(createdAt).toISOString() };
}

const sorted = (list: IDataObject[]) =>
	[...list].sort((a, b) => (order === 'newestFirst' ? -1 : 1) * (Date.parse(String(a.createdAt)) - Date.parse(String(b.createdAt))));

beforeEach(async () => {
	trades = [];
	withdrawals = [];
	order = 'newestFirst';
	fault = undefined;
	server = await startLocalServer((_method, path, query) => {
		const injected = fault?.(path, query);
		if (injected) return injected;
		if (path === '/trades/transactions') return pageOf(sorted(trades), query);
		if (path === '/payments/withdrawals') return pageOf(sorted(withdrawals), query);
		return { status: 404, body: { success: false, message: 'not found', errors: [], meta: {}, data: {} } };
	});
});
afterEach(async () => await server.close());

const credentials = () => ({ appId: 'app-local', appSecret: 'secret-local-1', environment: 'sandbox', baseUrl: server.url, pin: '' });
const tradePages = () => server.requests.filter((request) => request.path === '/trades/transactions').map((request) => Number(request.query.get('page')));
const ids = (items: IDataObject[] | null) => (items ?? []).map((item) => String(item.id));

describe.each(['newestFirst', 'oldestFirst'] as const)('a list sorted %s', (listOrder) => {
	test('new records are found, emitted once and oldest first, reading the fewest pages', async () => {
		order = listOrder;
		for (let n = 1; n <= 250; n++) trades.push(trade(n, T0 + n * minute));
		const poller = await Poller.create({ source: 'records', events: ['*'] }, credentials());
		expect((await poller.poll()).items).toBeNull();
		// First poll: the newest page only (plus the first page, to tell the order, when the list is oldest first).
		expect(tradePages()).toEqual(listOrder === 'newestFirst' ? [1] : [1, 3]);

		for (let n = 251; n <= 253; n++) trades.push(trade(n, T0 + n * minute));
		server.requests.length = 0;
		const polled = await poller.poll();
		expect(ids(polled.items)).toEqual(['t0251', 't0252', 't0253']);
		expect(polled.items![0]).toMatchObject({ event: 'trade.completed', amountInUSD: 251, destinationAddress: 'addr-251', source: 'records' });
		expect(tradePages()).toEqual(listOrder === 'newestFirst' ? [1] : [1, 3]);
		expect((await poller.poll()).items).toBeNull();
	});

	test('a status change of an older record still followed is emitted', async () => {
		order = listOrder;
		for (let n = 1; n <= 120; n++) trades.push(trade(n, T0 + n * minute));
		const poller = await Poller.create({ source: 'records', events: ['trade.completed'] }, credentials());
		await poller.poll();
		trades.push(trade(121, T0 + 121 * minute, 'pending'));
		expect((await poller.poll()).items).toBeNull();
		for (let n = 122; n <= 260; n++) trades.push(trade(n, T0 + n * minute));
		expect((await poller.poll()).items).toHaveLength(139);
		trades.find((record) => record.id === 't0121')!.status = 'completed';
		expect(ids((await poller.poll()).items)).toEqual(['t0121']);
	});
});

test('a poll that fails half way emits nothing and does not move; the next poll emits everything once', async () => {
	for (let n = 1; n <= 5; n++) trades.push(trade(n, T0 + n * minute));
	const poller = await Poller.create({ source: 'records', events: ['*'] }, credentials());
	await poller.poll();
	const before = poller.staticData;
	for (let n = 6; n <= 230; n++) trades.push(trade(n, T0 + n * minute));
	fault = (path, query) =>
		path === '/trades/transactions' && query.get('page') === '2'
			? { status: 400, body: { success: false, message: 'boom', errors: [], meta: {}, data: {} } }
			: undefined;
	const failed = await poller.poll();
	expect(failed.error?.message).toContain('boom (HTTP 400)');
	expect(failed.items).toBeNull();
	expect(poller.staticData).toEqual(before);

	fault = undefined;
	const recovered = await poller.poll();
	expect(ids(recovered.items)).toEqual(trades.slice(5).map((record) => String(record.id)));
	expect((await poller.poll()).items).toBeNull();
});

test('a 429 ends the poll quietly (no error, no events, position kept); the next poll catches up', async () => {
	const poller = await Poller.create({ source: 'records', events: ['*'] }, credentials());
	await poller.poll();
	const before = poller.staticData;
	trades.push(trade(1, T0));
	fault = () => ({ status: 429, body: { message: 'too many requests' }, headers: { 'retry-after': '1' } });
	const limited = await poller.poll();
	expect(limited.error).toBeUndefined();
	expect(limited.items).toBeNull();
	expect(limited.logs.some((log) => log.level === 'warn' && log.message.includes('429'))).toBe(true);
	expect(poller.staticData).toEqual(before);
	fault = undefined;
	expect(ids((await poller.poll()).items)).toEqual(['t0001']);
});

test('the overlap window catches a record that becomes visible late, with an earlier creation date', async () => {
	trades.push(trade(1, T0));
	const poller = await Poller.create({ source: 'records', events: ['*'] }, credentials());
	await poller.poll();
	trades.push(trade(2, T0 + 10 * minute));
	expect(ids((await poller.poll()).items)).toEqual(['t0002']);
	// Created 4 minutes before the newest record seen, listed only now.
	trades.push(trade(3, T0 + 6 * minute));
	expect(ids((await poller.poll()).items)).toEqual(['t0003']);
	expect((await poller.poll()).items).toBeNull();
});

test('Max Pages per Poll bounds the pages read; a poll that reaches it keeps its position and nothing is lost or doubled', async () => {
	trades.push(trade(0, T0));
	const poller = await Poller.create({ source: 'records', events: ['*'], options: { maxPagesPerPoll: 2 } }, credentials());
	await poller.poll();
	for (let n = 1; n <= 250; n++) trades.push(trade(n, T0 + n * minute));
	server.requests.length = 0;
	const busy = await poller.poll();
	expect(tradePages()).toEqual([1, 2]);
	expect(busy.items).toHaveLength(200);
	expect(busy.logs.some((log) => log.level === 'warn' && log.message.includes('2 pages'))).toBe(true);
	const rest = await poller.poll();
	expect(ids(rest.items)).toEqual(trades.slice(1, 51).map((record) => String(record.id)));
	expect((await poller.poll()).items).toBeNull();
});
