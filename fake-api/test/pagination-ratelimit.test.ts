import { ASSET_IDS, cryptoWithdrawal, start, type Client } from './helpers';

describe('sandbox: pagination (spec 4.12)', () => {
	let client: Client;
	beforeAll(async () => {
		client = await start({ maxPageSize: 20 });
		for (let index = 1; index <= 25; index++) {
			await client.call('POST', `/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`, {
				label: `w${index}`,
			});
		}
	});
	afterAll(() => client.sandbox.close());

	it('defaults to page 1, size 10, with meta exactly as specified', async () => {
		const response = await client.call('GET', '/trades/wallets');
		expect(response.body.data).toHaveLength(10);
		expect(response.body.meta).toEqual({
			pages: 3,
			prevPage: null,
			nextPage: 2,
			page: 1,
			totalDocs: 25,
			hasPrevPage: false,
			hasNextPage: true,
		});
		expect(Object.keys(response.body.meta)).toEqual([
			'pages',
			'prevPage',
			'nextPage',
			'page',
			'totalDocs',
			'hasPrevPage',
			'hasNextPage',
		]);
	});

	it('walks every page until hasNextPage is false, without repeats', async () => {
		const labels: string[] = [];
		let page = 1;
		for (;;) {
			const response = await client.call('GET', `/trades/wallets?page=${page}&size=7`);
			labels.push(...response.body.data.map((wallet: { label: string }) => wallet.label));
			if (!response.body.meta.hasNextPage) {
				expect(response.body.meta).toMatchObject({
					page: 4,
					pages: 4,
					nextPage: null,
					prevPage: 3,
					hasPrevPage: true,
				});
				break;
			}
			page = response.body.meta.nextPage;
		}
		expect(labels).toHaveLength(25);
		expect(new Set(labels).size).toBe(25);
		expect(labels[0]).toBe('w25');
	});

	it('caps larger sizes at the maximum page size', async () => {
		const response = await client.call('GET', '/trades/wallets?size=1000');
		expect(response.body.data).toHaveLength(20);
		expect(response.body.meta).toMatchObject({ pages: 2, hasNextPage: true });
	});

	it('a page past the end is empty', async () => {
		const response = await client.call('GET', '/trades/wallets?page=9');
		expect(response.body.data).toEqual([]);
		expect(response.body.meta).toMatchObject({
			page: 9,
			pages: 3,
			hasNextPage: false,
			nextPage: null,
		});
	});

	it('empty lists have one page', async () => {
		for (const path of [
			'/trades/transactions',
			'/payments/withdrawals',
			'/payments/integration-banks',
		]) {
			const response = await client.call('GET', path);
			expect(response.status).toBe(200);
			expect(response.body.data).toEqual([]);
			expect(response.body.meta).toEqual({
				pages: 1,
				prevPage: null,
				nextPage: null,
				page: 1,
				totalDocs: 0,
				hasPrevPage: false,
				hasNextPage: false,
			});
		}
	});

	it('invalid page or size is a 422 on the query', async () => {
		for (const query of ['page=0', 'size=abc', 'page=-1', 'size=1.5']) {
			const response = await client.call('GET', `/trades/wallets?${query}`);
			expect(response.status).toBe(422);
			expect(response.body.errors[0].location).toBe('query');
		}
	});

	it('webhook events page up to 200 (public notes 2.9)', async () => {
		const response = await client.call('GET', '/transactions/webhooks?size=500');
		expect(response.status).toBe(200);
		expect(response.body.message).toBe('');
		expect(response.body.data).toHaveLength(25);
		expect(response.body.meta).toMatchObject({ totalDocs: 25, pages: 1 });
	});
});

describe('sandbox: rate limits (spec 8)', () => {
	let client: Client;
	let clock: number;
	beforeEach(async () => {
		clock = Date.UTC(2026, 0, 1, 12, 0, 0);
		client = await start({ rateLimits: { withdraw: 3, sellRates: 2 }, now: () => clock });
	});
	afterEach(() => client.sandbox.close());

	it('sends the headers on every answer of a limited route and 429 with Retry-After when exceeded', async () => {
		const reset = String(Math.ceil((clock + 60_000) / 1000));
		const first = await client.call('POST', '/payments/withdraw/address', cryptoWithdrawal());
		expect(first.status).toBe(200);
		expect(first.headers.get('x-ratelimit-limit')).toBe('3');
		expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
		expect(first.headers.get('x-ratelimit-reset')).toBe(reset);
		const invalid = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ amount: undefined }),
		);
		expect(invalid.status).toBe(422);
		expect(invalid.headers.get('x-ratelimit-remaining')).toBe('1');
		const unauthenticated = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal(),
			{ 'x-app-secret': 'wrong' },
		);
		expect(unauthenticated.status).toBe(401);
		expect(unauthenticated.headers.get('x-ratelimit-remaining')).toBe('0');
		clock += 30_000;
		const limited = await client.call('POST', '/payments/withdraw/address', cryptoWithdrawal());
		expect(limited.status).toBe(429);
		expect(limited.body).toEqual({ message: expect.any(String) });
		expect(limited.headers.get('retry-after')).toBe('30');
		expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
		expect(limited.headers.get('x-ratelimit-reset')).toBe(reset);
		expect(client.sandbox.state.withdrawals).toHaveLength(1);
		clock += 30_000;
		const after = await client.call('POST', '/payments/withdraw/address', cryptoWithdrawal());
		expect(after.status).toBe(200);
		expect(after.headers.get('x-ratelimit-remaining')).toBe('2');
	});

	it('unlimited routes carry no rate-limit headers', async () => {
		const response = await client.call('GET', '/trades/assets');
		expect(response.headers.get('x-ratelimit-limit')).toBeNull();
	});

	it('budgets are per x-app-id and per route', async () => {
		expect((await client.call('GET', '/trades/pbc/sell/rates')).status).toBe(200);
		expect((await client.call('GET', '/trades/pbc/sell/rates')).status).toBe(200);
		expect((await client.call('GET', '/trades/pbc/sell/rates')).status).toBe(429);
		// another app id has its own budget (public route: no credentials needed)
		const other = await client.raw('GET', '/trades/pbc/sell/rates', undefined, {
			'x-app-id': 'someone-else',
		});
		expect(other.status).toBe(200);
		expect(other.headers.get('x-ratelimit-remaining')).toBe('1');
		// the withdraw route does not share the budget
		const withdraw = await client.call('POST', '/payments/withdraw/address', cryptoWithdrawal());
		expect(withdraw.status).toBe(200);
		expect(withdraw.headers.get('x-ratelimit-remaining')).toBe('2');
	});
});
