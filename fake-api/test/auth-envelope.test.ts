import { start, type Client } from './helpers';

describe('sandbox: authentication and envelopes', () => {
	let client: Client;
	beforeAll(async () => {
		client = await start();
	});
	afterAll(() => client.sandbox.close());

	it('answers the success envelope (spec 2.1)', async () => {
		const response = await client.call('GET', '/trades/assets');
		expect(response.status).toBe(200);
		expect(Object.keys(response.body).sort()).toEqual([
			'data',
			'message',
			'meta',
			'stats',
			'success',
			'summary',
		]);
		expect(response.body).toMatchObject({
			message: 'assets retrieved successfully',
			success: true,
			meta: {},
			summary: {},
			stats: {},
		});
		expect(response.headers.get('content-type')).toMatch(/application\/json/);
	});

	it("401 you're not authenticated when credentials are missing", async () => {
		const variants: Array<Record<string, string>> = [
			{},
			{ 'x-app-id': 'demo-app-id', 'X-Service-Env': 'sandbox' },
			{ 'x-app-secret': 'demo-app-secret' },
		];
		for (const headers of variants) {
			const response = await client.raw('GET', '/trades/assets', undefined, headers);
			expect(response.status).toBe(401);
			expect(response.body).toEqual({
				success: false,
				message: "you're not authenticated",
				meta: {},
				errors: [],
				data: {},
			});
		}
	});

	it('401 wrong app id and secret combination', async () => {
		const wrongSecret = await client.call('GET', '/trades/assets', undefined, {
			'x-app-secret': 'nope',
		});
		expect(wrongSecret.status).toBe(401);
		expect(wrongSecret.body.message).toBe('wrong app id and secret combination');
		const wrongId = await client.call('GET', '/trades/assets', undefined, { 'x-app-id': 'other' });
		expect(wrongId.status).toBe(401);
		expect(wrongId.body.message).toBe('wrong app id and secret combination');
	});

	it('refuses a missing or unknown environment', async () => {
		const withoutEnv: Record<string, string> = { ...client.auth };
		delete withoutEnv['X-Service-Env'];
		const missing = await client.raw('GET', '/trades/assets', undefined, withoutEnv);
		expect(missing.status).toBe(401);
		const unknown = await client.call('GET', '/trades/assets', undefined, {
			'X-Service-Env': 'development',
		});
		expect(unknown.status).toBe(401);
		expect(unknown.body.success).toBe(false);
		const production = await client.call('GET', '/trades/assets', undefined, {
			'X-Service-Env': 'production',
		});
		expect(production.status).toBe(200);
	});

	it('403 you do not have api access for an inactive integration', async () => {
		client.sandbox.state.account.isActive = false;
		try {
			const response = await client.call('GET', '/users/fetch-integration');
			expect(response.status).toBe(403);
			expect(response.body).toEqual({
				success: false,
				message: 'you do not have api access',
				meta: {},
				errors: [],
				data: {},
			});
		} finally {
			client.sandbox.state.account.isActive = true;
		}
	});

	it('rate and price endpoints are public (spec 5 rule 4)', async () => {
		const rates = await client.raw('GET', '/trades/pbc/sell/rates', undefined, {});
		expect(rates.status).toBe(200);
		expect(Array.isArray(rates.body.data)).toBe(true);
		const price = await client.raw(
			'GET',
			'/trades/pbc/sell/assets/market/converter?from=btc&to=usd',
			undefined,
			{},
		);
		expect(price.status).toBe(200);
		expect(price.body.data.quote.USD.price).toBe(60000);
		const calc = await client.raw(
			'POST',
			'/trades/pbc/sell/rate-calculator/64f1a2b3c4d5e6f7a8b9c0d1',
			JSON.stringify({ amountInUSD: 100, currency: 'ngn' }),
			{ 'content-type': 'application/json' },
		);
		expect(calc.status).toBe(200);
		expect(calc.body.data).toEqual({
			NGNAmount: 150000,
			GHSAmount: 1500,
			rate: 1500,
			cryptoAmount: 0.66666667,
		});
	});

	it('unknown routes answer a 404 error envelope', async () => {
		for (const path of ['/nothing/here', '/trades/assets/extra/segments']) {
			const response = await client.call('GET', path);
			expect(response.status).toBe(404);
			expect(response.body).toMatchObject({ success: false, meta: {}, errors: [], data: {} });
		}
		const outsideV1 = await fetch(client.sandbox.url.replace('/v1', '/v2/trades/assets'));
		expect(outsideV1.status).toBe(404);
	});

	it('malformed JSON is a 400 error envelope', async () => {
		const response = await client.raw('PUT', '/users/markup-percent', '{"markupPercent": ', {
			...client.auth,
			'content-type': 'application/json',
		});
		expect(response.status).toBe(400);
		expect(response.body).toMatchObject({ success: false, errors: [], data: {}, meta: {} });
	});

	it('500 omits data (spec 7.4)', async () => {
		client.sandbox.setFaults({ 'GET /trades/assets': { nextN: { '5xx': 1 } } });
		const response = await client.call('GET', '/trades/assets');
		expect(response.status).toBe(500);
		expect(response.body).toEqual({
			success: false,
			message: 'something went wrong!',
			meta: {},
			errors: [],
		});
		client.sandbox.setFaults({});
	});

	it('validation entries carry message, field and location', async () => {
		const response = await client.call('PUT', '/users/markup-percent', { markupPercent: 11 });
		expect(response.status).toBe(422);
		expect(response.body).toMatchObject({
			success: false,
			message: 'validation errors',
			meta: {},
			data: {},
		});
		expect(response.body.errors).toEqual([
			{
				message: expect.stringContaining('between 0 and 10'),
				field: 'markupPercent',
				location: 'body',
			},
		]);
	});

	it('logs requests without the app secret', async () => {
		client.sandbox.clearRequests();
		await client.call('PUT', '/users/withdrawal-fee-bearer', { withdrawalFeeBearer: 'user' });
		expect(client.sandbox.requests).toHaveLength(1);
		const [entry] = client.sandbox.requests;
		expect(entry).toMatchObject({
			method: 'PUT',
			path: '/v1/users/withdrawal-fee-bearer',
			status: 200,
		});
		expect(entry.body).toEqual({ withdrawalFeeBearer: 'user' });
		expect(entry.headers['x-app-id']).toBe('demo-app-id');
		expect(entry.headers['x-app-secret']).toBeUndefined();
		expect(JSON.stringify(entry)).not.toContain('demo-app-secret');
	});
});
