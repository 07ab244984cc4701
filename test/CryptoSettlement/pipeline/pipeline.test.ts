/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { rateLimitWaitMs } from '../../../nodes/service/pacing';
import { SPECS } from '../../../nodes/CryptoSettlement/operations';
import {
	api,
	BASE,
	expectNoSecrets,
	fail,
	ok,
	runNode,
	setupNock,
	type NodeRun,
} from '../../helpers/node';

setupNock();

beforeEach(() => {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	// Each test starts a day later, so the process-wide pacing windows of earlier tests have expired.
	jest.setSystemTime(Date.now() + 86_400_000);
});
afterEach(() => jest.useRealTimers());

/** Runs the node while advancing the fake clock, so waits and backoffs take no real time. */
async function runTimed(
	...args: Parameters<typeof runNode>
): Promise<NodeRun & { elapsedMs: number }> {
	const started = Date.now();
	let done = false;
	const promise = runNode(...args).finally(() => (done = true));
	while (!done) {
		// Let real I/O (the mocked sockets) progress before moving the fake clock a little.
		await new Promise((resolve) => setImmediate(resolve));
		await jest.advanceTimersByTimeAsync(10);
	}
	return { ...(await promise), elapsedMs: Date.now() - started };
}

const records = (n: number, from = 0) =>
	Array.from({ length: n }, (_, i) => ({ id: `w${from + i}` }));
const meta = (page: number, pages: number, totalDocs: number) => ({
	page,
	pages,
	totalDocs,
	hasNextPage: page < pages,
	hasPrevPage: page > 1,
	nextPage: page < pages ? page + 1 : null,
	prevPage: page > 1 ? page - 1 : null,
});

/** A list endpoint over `total` records that caps the page size at `maxSize`. */
function listServer(total: number, maxSize = 100) {
	const seen: Array<{ page: number; size: number }> = [];
	api()
		.get('/trades/wallets')
		.query(true)
		.times(1000)
		.reply((uri) => {
			const query = new URL(uri, BASE).searchParams;
			const page = Number(query.get('page'));
			const size = Math.min(Number(query.get('size')), maxSize);
			seen.push({ page, size: Number(query.get('size')) });
			const start = (page - 1) * size;
			const pages = Math.max(1, Math.ceil(total / size));
			return [
				200,
				ok(
					records(Math.max(0, Math.min(size, total - start)), start),
					'ok',
					meta(page, pages, total),
				),
			];
		});
	return seen;
}

describe('pagination', () => {
	const getAll = (extra: IDataObject) => ({ resource: 'wallet', operation: 'getAll', ...extra });

	test.each([
		['no records', 0, { returnAll: true }, 0, [{ page: 1, size: 100 }]],
		['one record', 1, { returnAll: true }, 1, [{ page: 1, size: 100 }]],
		['exactly one full page', 100, { returnAll: true }, 100, [{ page: 1, size: 100 }]],
		['many pages', 250, { returnAll: true }, 250, [1, 2, 3].map((page) => ({ page, size: 100 }))],
		[
			'a limit inside a page asks for no more',
			250,
			{ returnAll: false, limit: 30 },
			30,
			[{ page: 1, size: 30 }],
		],
		[
			'a limit across pages',
			250,
			{ returnAll: false, limit: 150 },
			150,
			[1, 2].map((page) => ({ page, size: 100 })),
		],
	])('%s', async (_name, total, params, expected, requests) => {
		const seen = listServer(total);
		const run = await runTimed(getAll(params));
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(expected);
		expect(run.items.map((item) => item.json.id)).toEqual(records(expected).map((r) => r.id));
		expect(seen).toEqual(requests);
	});

	test('a service that returns fewer than asked is followed by hasNextPage', async () => {
		const seen = listServer(120, 50);
		const run = await runTimed(getAll({ returnAll: true }));
		expect(run.items).toHaveLength(120);
		expect(seen.map((request) => request.page)).toEqual([1, 2, 3]);
	});

	test('hasNextPage true on an empty page stops instead of looping', async () => {
		api()
			.get('/trades/wallets')
			.query(true)
			.reply(200, ok(records(2), 'ok', meta(1, 9, 2)));
		// Pages 2 to 9 are fetched at once (meta.pages is 9); all are empty, yet say there is more.
		const rest = api()
			.get('/trades/wallets')
			.query(true)
			.times(8)
			.reply(200, ok([], 'ok', { ...meta(2, 9, 2), hasNextPage: true }));
		const run = await runTimed(getAll({ returnAll: true }));
		expect(run.items).toHaveLength(2);
		expect(rest.isDone()).toBe(true);
		expect(nock.pendingMocks()).toHaveLength(0);
	});
});

describe('rate limits and retries', () => {
	const getWallet = {
		resource: 'wallet',
		operation: 'get',
		walletId: { __rl: true, mode: 'id', value: 'w1' },
	};

	test('429 waits the Retry-After seconds, then succeeds', async () => {
		api()
			.get('/trades/wallets/w1')
			.reply(429, { message: 'too many requests' }, { 'Retry-After': '7' });
		api()
			.get('/trades/wallets/w1')
			.reply(200, ok({ id: 'w1' }));
		const run = await runTimed(getWallet);
		expect(run.items[0].json).toEqual({ id: 'w1' });
		expect(run.elapsedMs).toBeGreaterThanOrEqual(7000);
		// The wait itself is the one the pipeline computes (no upper bound on elapsed time: a loaded machine is slower).
		expect(rateLimitWaitMs({ 'retry-after': '7' })).toBe(7000);
	});

	test('429 with only X-RateLimit-Reset waits until the reset', async () => {
		const reset = Math.ceil(Date.now() / 1000) + 12;
		api()
			.get('/trades/wallets/w1')
			.reply(429, { message: 'too many requests' }, { 'X-RateLimit-Reset': String(reset) });
		api()
			.get('/trades/wallets/w1')
			.reply(200, ok({ id: 'w1' }));
		const run = await runTimed(getWallet);
		expect(run.items[0].json).toEqual({ id: 'w1' });
		expect(run.elapsedMs).toBeGreaterThanOrEqual(11000);
		expect(rateLimitWaitMs({ 'x-ratelimit-reset': String(reset) }, reset * 1000 - 12_000)).toBe(
			12_000,
		);
	});

	test('429 without either header backs off and retries', async () => {
		api().get('/trades/wallets/w1').reply(429, { message: 'too many requests' });
		api()
			.get('/trades/wallets/w1')
			.reply(200, ok({ id: 'w1' }));
		const run = await runTimed(getWallet);
		expect(run.items[0].json).toEqual({ id: 'w1' });
		expect(run.elapsedMs).toBeGreaterThan(0);
	});

	test('429 for ever ends in a clear, bounded error that says when to try again', async () => {
		const scope = api()
			.get('/trades/pbc/sell/rates')
			.times(7)
			.reply(
				429,
				{ message: 'too many requests' },
				{ 'Retry-After': '30', 'X-RateLimit-Limit': '20' },
			);
		const run = await runTimed({ resource: 'rate', operation: 'getSellRates' });
		expect(run.error?.message).toBe(
			'Rate limit reached on GET /trades/pbc/sell/rates (20 requests per minute); try again in 30 s',
		);
		// Six attempts, five waits of 30 s: bounded by the 180 s total wait.
		expect(run.elapsedMs).toBeGreaterThanOrEqual(150_000);
		expect(run.elapsedMs).toBeLessThan(180_000);
		expect(scope.pendingMocks()).toHaveLength(1);
	});

	test('500 then 200 on a read is retried', async () => {
		api()
			.get('/trades/wallets/w1')
			.reply(500, { success: false, message: 'something went wrong!', meta: {}, errors: [] });
		api()
			.get('/trades/wallets/w1')
			.reply(200, ok({ id: 'w1' }));
		const run = await runTimed(getWallet);
		expect(run.items[0].json).toEqual({ id: 'w1' });
	});

	test('a connection reset then 200 on a read is retried', async () => {
		api()
			.get('/trades/wallets/w1')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		api()
			.get('/trades/wallets/w1')
			.reply(200, ok({ id: 'w1' }));
		const run = await runTimed(getWallet);
		expect(run.items[0].json).toEqual({ id: 'w1' });
	});

	test('retries are bounded: four 500s end in an error', async () => {
		const scope = api()
			.get('/trades/wallets/w1')
			.times(4)
			.reply(500, { success: false, message: 'something went wrong!', meta: {}, errors: [] });
		const run = await runTimed(getWallet);
		expect(run.error?.message).toMatch(
			/did not answer GET \/trades\/wallets\/w1 after 4 attempts \(HTTP 500: something went wrong!\)/,
		);
		expect(scope.isDone()).toBe(true);
		expectNoSecrets(run.text);
	});

	test('a swap that fails without a clear answer is never repeated, and says so', async () => {
		const scope = api().post('/payments/swap-currency').once().reply(502, 'Bad Gateway');
		const run = await runTimed({
			resource: 'currency',
			operation: 'swap',
			amount: 10,
			from: 'ngn',
			to: 'ghs',
		});
		expect(run.error?.message).toMatch(
			/^POST \/payments\/swap-currency may or may not have taken effect/,
		);
		expect(run.error?.description).toMatch(/was not repeated, to avoid doing it twice/);
		expect(scope.isDone()).toBe(true);
		expectNoSecrets(run.text);
	});
});

/** A withdrawal service that records by externalId and refuses repeats, with scripted faults. */
/**
 * `inboundMs(n)`: how long the n-th withdrawal takes to reach the service after it was sent; it
 * counts on arrival, and its answer comes back that much later too.
 */
function withdrawalServer(
	faults: Array<'500-after-commit' | 'drop-after-commit' | 'ok'>,
	inboundMs: (n: number) => number = () => 0,
) {
	const byExternalId = new Map<string, IDataObject>();
	const arrivals: number[] = [];
	let next = 0;
	let posted = 0;
	api()
		.persist()
		.post('/payments/withdraw/address')
		.reply((_uri, body, callback) => {
			const delayMs = inboundMs(posted++);
			if (delayMs > 0) {
				setTimeout(() => handle(body, callback), delayMs);
				return;
			}
			handle(body, callback);
		});
	function handle(
		body: unknown,
		callback: (error: NodeJS.ErrnoException | null, reply: nock.ReplyFnResult) => void,
	) {
		arrivals.push(Date.now());
		const request = body as IDataObject;
		const externalId = String(request.externalId);
		if (byExternalId.has(externalId))
			return callback(null, [400, fail(400, 'duplicate withdrawal')]);
		const record = {
			id: `wd-${byExternalId.size + 1}`,
			externalId,
			status: 'pending',
			type: 'crypto',
			token: request.token,
			network: request.network,
			walletAddress: request.walletAddress,
			amount: request.amount,
		};
		byExternalId.set(externalId, record);
		const fault = faults[next++ % faults.length];
		if (fault === '500-after-commit')
			return callback(null, [
				500,
				{ success: false, message: 'something went wrong!', meta: {}, errors: [] },
			]);
		if (fault === 'drop-after-commit') return callback(new Error('socket hang up'), [0, '']);
		return callback(null, [200, ok({ id: record.id }, 'withdrawal initiated successfully')]);
	}
	api()
		.persist()
		.get(/\/payments\/withdrawal\/.+/)
		.reply((uri) => {
			const record = byExternalId.get(decodeURIComponent(uri.split('/').pop() ?? ''));
			return record ? [200, ok(record)] : [404, fail(404, 'withdrawal not found')];
		});
	return { byExternalId, arrivals };
}

const withdrawal = (extra: IDataObject = {}) => ({
	resource: 'withdrawal',
	operation: 'createCrypto',
	token: 'USDC',
	network: 'BASE',
	walletAddress: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
	amount: '={{ $json.amount }}',
	...extra,
});

describe('withdrawals are never sent twice', () => {
	test.each([['500-after-commit' as const], ['drop-after-commit' as const]])(
		'%s: every item of a batch ends with exactly one withdrawal and an output item',
		async (fault) => {
			const server = withdrawalServer([fault, 'ok']);
			const items = Array.from({ length: 6 }, (_, i) => ({ amount: 10 + i }));
			const run = await runTimed(withdrawal(), { items });
			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(6);
			expect(server.byExternalId.size).toBe(6);
			const externalIds = run.items.map((item) => item.json.externalId);
			expect(new Set(externalIds).size).toBe(6);
			for (const item of run.items) {
				const record = server.byExternalId.get(String(item.json.externalId));
				expect(item.json.id).toBe(record?.id);
			}
			expect(
				run.items.filter((item) => item.json.alreadySubmitted === true).length,
			).toBeGreaterThan(0);
			expectNoSecrets(run.text);
		},
	);

	test('the derived External ID is deterministic: a rerun of the same execution reuses it', async () => {
		const server = withdrawalServer(['ok']);
		const first = await runTimed(withdrawal(), { items: [{ amount: 5 }], executionId: 'exec-42' });
		const again = await runTimed(withdrawal(), { items: [{ amount: 5 }], executionId: 'exec-42' });
		expect(first.items[0].json.externalId).toMatch(/^n8n-[0-9a-f]{16}-0$/);
		expect(again.items[0].json.externalId).toBe(first.items[0].json.externalId);
		expect(again.items[0].json).toMatchObject({
			id: first.items[0].json.id,
			alreadySubmitted: true,
		});
		expect(server.byExternalId.size).toBe(1);
		const other = await runTimed(withdrawal(), { items: [{ amount: 5 }], executionId: 'exec-43' });
		expect(other.items[0].json.externalId).not.toBe(first.items[0].json.externalId);
	});

	// The route's own budget, as the record declares it; the runs below go a quarter over it.
	const perMinute = SPECS.withdrawal.createCrypto.rateLimit as number;
	const overBudget = Math.ceil(perMinute * 1.25);
	test(`pacing keeps ${overBudget} withdrawals at or under ${perMinute} per rolling minute, without a 429`, async () => {
		const server = withdrawalServer(['ok']);
		const items = Array.from({ length: overBudget }, (_, i) => ({ amount: (100 + i) / 100 }));
		const run = await runTimed(withdrawal(), { items });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(overBudget);
		expect(server.byExternalId.size).toBe(overBudget);
		const arrivals = server.arrivals.sort((a, b) => a - b);
		for (let i = 0; i < arrivals.length; i++) {
			const inWindow = arrivals.filter((t) => t >= arrivals[i] && t < arrivals[i] + 60_000).length;
			expect(inWindow).toBeLessThanOrEqual(perMinute);
		}
		expect(arrivals[arrivals.length - 1] - arrivals[0]).toBeGreaterThanOrEqual(60_000);
	});

	test("pacing counts each withdrawal from its answer: slow arrivals early on cannot crowd the service's next minute", async () => {
		// The first few reach the service 3 s after they leave, the rest at once: counted from when
		// they left, the one after the budget would arrive less than a minute after the first.
		const server = withdrawalServer(['ok'], (n) => (n < 4 ? 3000 : 0));
		const count = perMinute + 30;
		const items = Array.from({ length: count }, (_, i) => ({ amount: (100 + i) / 100 }));
		const run = await runTimed(withdrawal(), { items });
		expect(run.error).toBeUndefined();
		expect(server.byExternalId.size).toBe(count);
		const arrivals = server.arrivals.sort((a, b) => a - b);
		for (let i = 0; i < arrivals.length; i++) {
			expect(
				arrivals.filter((t) => t >= arrivals[i] && t < arrivals[i] + 60_000).length,
			).toBeLessThanOrEqual(perMinute);
		}
	});
});
