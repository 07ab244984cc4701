/** Each option on and off; the 401/403 paths answer without starting anything. */
import nock from 'nock';
import {
	addressPayload,
	BASE_URL,
	triggerTestSetup,
	CREDENTIALS,
	SERVICE_IPS,
	TriggerHarness,
	tradePayload,
	WEBHOOK_SECRET,
	withdrawalPayload,
	WITHOUT_CONFIRMATION,
} from '../helpers/webhook';

const logs = triggerTestSetup();

describe('verifySecret', () => {
	const setup = {
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		options: { verifySecret: true },
	};

	test('the right secret is accepted and reported in the item', async () => {
		const h = await TriggerHarness.create(setup);
		const r = await h.deliver({ body: tradePayload('trade.completed'), secret: WEBHOOK_SECRET });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].verification).toMatchObject({ secret: 'verified' });
	});

	test.each([
		['missing', { secret: null }],
		['empty', { secret: '' }],
		['wrong', { secret: 'whsec-wrong' }],
		['a prefix of the secret', { secret: WEBHOOK_SECRET.slice(0, -1) }],
		['the secret plus a character', { secret: `${WEBHOOK_SECRET}x` }],
		['different case', { secret: WEBHOOK_SECRET.toUpperCase() }],
		['in another header', { secret: null, headers: { authorization: `Bearer ${WEBHOOK_SECRET}` } }],
		[
			'repeated (array)',
			{ secret: null, headers: { 'x-webhook-secret': [WEBHOOK_SECRET, WEBHOOK_SECRET] } },
		],
		['the app secret', { secret: CREDENTIALS.appSecret as string }],
	])('%s secret → 401, nothing started', async (_name, delivery) => {
		const h = await TriggerHarness.create(setup);
		const r = await h.deliver({ body: tradePayload('trade.completed'), ...delivery });
		expect(r.status).toBe(401);
		expect(r.started).toBe(false);
		expect(r.result).toEqual({ noWebhookResponse: true });
		expect(JSON.stringify(r.response)).not.toContain(WEBHOOK_SECRET);
		expect(logs.some((l) => l.level === 'warn' && /x-webhook-secret/.test(l.message))).toBe(true);
	});

	test('401 comes before body checks (an unauthenticated caller learns nothing about the body)', async () => {
		const h = await TriggerHarness.create(setup);
		expect((await h.deliver({ raw: 'not json', secret: 'nope' })).status).toBe(401);
	});

	test('legacy off cannot open the node: a credential with a secret still gets it checked (401)', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { verifySecret: false },
		});
		await expect(h.activate()).rejects.toThrow(/Verify Secret \(Legacy\) is off/);
		for (const secret of [null, 'wrong']) {
			expect(await h.deliver({ body: tradePayload('trade.completed'), secret })).toMatchObject({
				status: 401,
				started: false,
			});
		}
		const r = await h.deliver({ body: tradePayload('trade.completed'), secret: WEBHOOK_SECRET });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].verification).toMatchObject({ secret: 'verified' });
	});

	test('a secret removed from the credential after activation fails closed (500), not open', async () => {
		const h = await TriggerHarness.create({
			...setup,
			credentials: { ...CREDENTIALS, webhookSecret: '' },
		});
		for (const secret of [null, '']) {
			const r = await h.deliver({ body: tradePayload('trade.completed'), secret });
			expect(r).toMatchObject({ status: 500, started: false });
		}
		expect(logs.some((l) => l.level === 'error')).toBe(true);
	});

	test('no credential at all fails closed too', async () => {
		const h = await TriggerHarness.create({ ...setup, credentials: null });
		expect(
			await h.deliver({ body: tradePayload('trade.completed'), secret: WEBHOOK_SECRET }),
		).toMatchObject({
			status: 500,
			started: false,
		});
	});
});

describe('allowedIps', () => {
	const setup = {
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		options: { allowedIps: SERVICE_IPS.join(', ') },
	};

	test.each(SERVICE_IPS)('%s is allowed', async (ip) => {
		const h = await TriggerHarness.create(setup);
		const r = await h.deliver({ body: tradePayload('trade.completed'), ip });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].verification).toMatchObject({ ip: 'in allowed list', sourceIp: ip });
	});

	test('IPv4-mapped IPv6 (dual-stack socket) is normalised', async () => {
		const h = await TriggerHarness.create(setup);
		const r = await h.deliver({ body: tradePayload('trade.completed'), ip: '::ffff:159.89.20.62' });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].verification).toMatchObject({ sourceIp: '159.89.20.62' });
	});

	test.each([
		'46.101.201.156',
		'146.101.201.155',
		'127.0.0.1',
		'::1',
		'2001:db8::1',
		'',
		'garbage',
	])('%p → 403, nothing started', async (ip) => {
		const h = await TriggerHarness.create(setup);
		const r = await h.deliver({
			body: tradePayload('trade.completed'),
			ip,
			secret: WEBHOOK_SECRET,
		});
		expect(r).toMatchObject({ status: 403, started: false, result: { noWebhookResponse: true } });
	});

	test('X-Forwarded-For is not trusted by the node (n8n decides req.ip from N8N_PROXY_HOPS)', async () => {
		const h = await TriggerHarness.create(setup);
		const r = await h.deliver({
			body: tradePayload('trade.completed'),
			ip: '10.0.0.2',
			headers: { 'x-forwarded-for': SERVICE_IPS[0] },
		});
		expect(r.status).toBe(403);
	});

	test('CIDR ranges', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { allowedIps: '46.101.225.0/24' },
		});
		expect(
			(await h.deliver({ body: tradePayload('trade.completed'), ip: '46.101.225.251' })).status,
		).toBe(200);
		expect(
			(await h.deliver({ body: tradePayload('trade.completed'), ip: '46.101.226.1' })).status,
		).toBe(403);
	});

	test('403 comes before the secret and body checks', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { ...setup.options, verifySecret: true },
		});
		expect((await h.deliver({ raw: '{', ip: '8.8.8.8', secret: 'wrong' })).status).toBe(403);
	});

	test('an invalid list reaching a delivery refuses everything (fails closed)', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { allowedIps: `${SERVICE_IPS[0]}, bogus` },
		});
		expect(await h.deliver({ body: tradePayload('trade.completed') })).toMatchObject({
			status: 403,
			started: false,
		});
	});

	test('off (empty or blank): any source is accepted, not reported as verified', async () => {
		for (const allowedIps of [undefined, '', '  , ']) {
			const h = await TriggerHarness.create({
				events: ['*'],
				parameters: WITHOUT_CONFIRMATION,
				options: allowedIps === undefined ? {} : { allowedIps },
			});
			const r = await h.deliver({ body: tradePayload('trade.completed'), ip: '8.8.8.8' });
			expect(r).toMatchObject({ status: 200, started: true });
			expect(r.items[0].verification).toMatchObject({ ip: 'not configured', sourceIp: '8.8.8.8' });
		}
	});
});

describe('confirmWithApi', () => {
	const setup = { events: ['*'], options: { confirmWithApi: true } };
	const api = () =>
		nock(BASE_URL, {
			reqheaders: {
				'x-app-id': CREDENTIALS.appId as string,
				'x-app-secret': CREDENTIALS.appSecret as string,
				'x-service-env': 'sandbox',
			},
		});

	test.each(['trade.pending', 'trade.completed', 'trade.flagged'])(
		'%s: a matching trade is emitted with the record',
		async (event) => {
			const h = await TriggerHarness.create(setup);
			const body = tradePayload(event);
			const record = {
				id: body.id,
				status: event.split('.')[1],
				amount: 20310.46,
				walletCredited: event === 'trade.completed',
			};
			api()
				.get(`/trades/transactions/${body.id}`)
				.reply(200, { success: true, message: 'transaction retrieved successfully', data: record });
			const r = await h.deliver({ body });
			expect(r).toMatchObject({ status: 200, started: true });
			expect(r.items[0]).toMatchObject({
				...record,
				event,
				record,
				unconfirmedBody: body,
				verification: { confirmedWithApi: true },
			});
		},
	);

	test.each([
		'withdrawal.pending',
		'withdrawal.completed',
		'withdrawal.reversed',
		'withdrawal.rejected',
	])('%s: a matching withdrawal is emitted with the record', async (event) => {
		const h = await TriggerHarness.create(setup);
		const body = withdrawalPayload(event);
		const record = { id: body.id, status: event.split('.')[1], amount: 25 };
		api().get(`/payments/withdrawal/${body.id}`).reply(200, { success: true, data: record });
		const r = await h.deliver({ body });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].record).toEqual(record);
	});

	test('trade.address.created is confirmed by its wallet', async () => {
		const h = await TriggerHarness.create(setup);
		const body = addressPayload();
		api()
			.get(`/trades/wallets/${body.id}`)
			.reply(200, { success: true, data: { id: body.id, address: body.address } });
		expect(await h.deliver({ body })).toMatchObject({ status: 200, started: true });
		const forged = addressPayload();
		api()
			.get(`/trades/wallets/${forged.id}`)
			.reply(200, { success: true, data: { id: forged.id, address: 'another' } });
		expect(await h.deliver({ body: forged })).toMatchObject({ status: 200, started: false });
	});

	test('a stale event (the record is already further) is dropped', async () => {
		const h = await TriggerHarness.create(setup);
		const body = tradePayload('trade.pending');
		api()
			.get(`/trades/transactions/${body.id}`)
			.reply(200, { success: true, data: { id: body.id, status: 'completed' } });
		const r = await h.deliver({ body });
		expect(r).toMatchObject({
			status: 200,
			started: false,
			response: { received: true, ignored: 'not confirmed by the API' },
		});
		expect(logs.some((l) => /status "completed", not "pending"/.test(l.message))).toBe(true);
	});

	test('a withdrawal reported completed that the API says was reversed is dropped', async () => {
		const h = await TriggerHarness.create(setup);
		const body = withdrawalPayload('withdrawal.completed');
		api()
			.get(`/payments/withdrawal/${body.id}`)
			.reply(200, { success: true, data: { id: body.id, status: 'reversed' } });
		expect(await h.deliver({ body })).toMatchObject({ status: 200, started: false });
	});

	// A genuine delivery (its secret matched) whose id the API refuses cannot be confirmed, but dropping
	// it (200) would lose the event for good: the service tries again, and it is emitted once confirmed.
	test.each([[400], [422]])(
		'an id the API refuses (%i) → 503, nothing started; the delivery sent again once the API confirms it is emitted once',
		async (code) => {
			const h = await TriggerHarness.create(setup);
			const body = tradePayload('trade.completed');
			api()
				.get(`/trades/transactions/${body.id}`)
				.reply(code, { success: false, message: 'validation errors', data: {} });
			expect(await h.deliver({ body })).toMatchObject({ status: 503, started: false });
			expect(
				logs.some((l) =>
					l.message.includes(
						`the API refused the trade id (HTTP ${code}), so the delivery cannot be confirmed; it is not dropped`,
					),
				),
			).toBe(true);
			api()
				.get(`/trades/transactions/${body.id}`)
				.reply(200, { success: true, data: { id: body.id, status: 'completed' } });
			expect(await h.deliver({ body })).toMatchObject({ status: 200, started: true });
			expect(await h.deliver({ body })).toMatchObject({ status: 200, started: false });
		},
	);

	test('an empty record → 503 (not visible yet), nothing started', async () => {
		const h = await TriggerHarness.create(setup);
		const body = tradePayload('trade.completed');
		api().get(`/trades/transactions/${body.id}`).reply(200, { success: true, data: null });
		expect(await h.deliver({ body })).toMatchObject({ status: 503, started: false });
	});

	test.each([[500], [502], [429], [401]])(
		'API answering %i → 503 so the service retries; nothing started',
		async (code) => {
			const h = await TriggerHarness.create(setup);
			const body = tradePayload('trade.completed');
			api().get(`/trades/transactions/${body.id}`).reply(code, { success: false, message: 'x' });
			expect(await h.deliver({ body })).toMatchObject({
				status: 503,
				started: false,
				result: { noWebhookResponse: true },
			});
		},
	);

	test('a network failure → 503', async () => {
		const h = await TriggerHarness.create(setup);
		const body = tradePayload('trade.completed');
		api().get(`/trades/transactions/${body.id}`).replyWithError('socket hang up');
		expect(await h.deliver({ body })).toMatchObject({ status: 503, started: false });
	});

	test.each([
		['no id', { id: undefined }],
		['an id that is a path', { id: '../../users/fetch-integration' }],
		['an object id', { id: { $ne: null } }],
	])('%s → dropped without calling the API', async (_name, overrides) => {
		const h = await TriggerHarness.create(setup);
		const r = await h.deliver({ body: tradePayload('trade.completed', overrides) });
		expect(r).toMatchObject({ status: 200, started: false });
	});

	test('an event family the API cannot confirm is dropped', async () => {
		const h = await TriggerHarness.create(setup);
		expect(await h.deliver({ body: { event: 'payout.sent', id: 'p1' } })).toMatchObject({
			status: 200,
			started: false,
		});
	});

	test('unselected events are not looked up', async () => {
		const h = await TriggerHarness.create({ ...setup, events: ['trade.completed'] });
		expect(await h.deliver({ body: tradePayload('trade.pending') })).toMatchObject({
			status: 200,
			started: false,
		});
	});

	test('off: nothing is fetched and no record is added', async () => {
		const h = await TriggerHarness.create({ events: ['*'], options: { confirmWithApi: false } });
		const r = await h.deliver({ body: tradePayload('trade.completed') });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].record).toBeUndefined();
		expect(r.items[0].verification).toMatchObject({ confirmedWithApi: false });
	});

	test("the base URL's trailing slash does not double the path", async () => {
		const h = await TriggerHarness.create({
			...setup,
			credentials: { ...CREDENTIALS, baseUrl: `${BASE_URL}//` },
		});
		const body = tradePayload('trade.completed');
		api()
			.get(`/trades/transactions/${body.id}`)
			.reply(200, { success: true, data: { status: 'completed' } });
		expect(await h.deliver({ body })).toMatchObject({ started: true });
	});
});

describe('ignoreDuplicates', () => {
	test('on: a repeated delivery is answered 200 and not emitted again', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { ignoreDuplicates: true },
		});
		const body = tradePayload('trade.completed');
		expect((await h.deliver({ body })).started).toBe(true);
		const again = await h.deliver({ body: { ...body, note: 'retry' } });
		expect(again).toMatchObject({
			status: 200,
			started: false,
			response: { received: true, ignored: 'duplicate delivery' },
		});
	});

	test('off: every delivery is emitted', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { ignoreDuplicates: false },
		});
		const body = tradePayload('trade.completed');
		for (let i = 0; i < 3; i++) expect((await h.deliver({ body })).started).toBe(true);
		expect(h.nodeStaticData().emittedDeliveries).toBeUndefined();
	});

	test('trade.pending with rising confirmations is emitted each time, a repeat is not', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { ignoreDuplicates: true },
		});
		const body = tradePayload('trade.pending');
		const started = [];
		for (const confirmations of [0, 1, 1, 2, 0, 3]) {
			started.push((await h.deliver({ body: { ...body, confirmations } })).started);
		}
		expect(started).toEqual([true, true, false, true, false, true]);
	});

	test('the same id in another state is a new delivery', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { ignoreDuplicates: true },
		});
		const body = tradePayload('trade.flagged');
		expect((await h.deliver({ body })).started).toBe(true);
		expect(
			(await h.deliver({ body: { ...body, event: 'trade.completed', status: 'completed' } }))
				.started,
		).toBe(true);
	});

	test('a delivery refused by the API confirmation is not remembered (its retry may pass)', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			options: { ignoreDuplicates: true, confirmWithApi: true },
		});
		const body = tradePayload('trade.completed');
		nock(BASE_URL).get(`/trades/transactions/${body.id}`).reply(503);
		expect((await h.deliver({ body })).status).toBe(503);
		nock(BASE_URL)
			.get(`/trades/transactions/${body.id}`)
			.reply(200, { success: true, data: { status: 'completed' } });
		expect((await h.deliver({ body })).started).toBe(true);
		// The third copy is a duplicate: answered without calling the API.
		expect(await h.deliver({ body })).toMatchObject({ status: 200, started: false });
	});

	test('concurrent copies of one delivery start one execution; the copies get a retryable 503', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			options: { ignoreDuplicates: true, confirmWithApi: true },
		});
		const body = tradePayload('trade.completed');
		nock(BASE_URL)
			.get(`/trades/transactions/${body.id}`)
			.delay(30)
			.reply(200, { success: true, data: { status: 'completed' } });
		const results = await Promise.all([
			h.deliver({ body }),
			h.deliver({ body }),
			h.deliver({ body }),
		]);
		expect(results.filter((r) => r.started)).toHaveLength(1);
		expect(results.map((r) => r.status).sort()).toEqual([200, 503, 503]);
		// Once the first was handed to n8n, a copy is a duplicate (200, nothing started, no API call).
		expect(await h.deliver({ body })).toMatchObject({
			status: 200,
			started: false,
			response: { ignored: 'duplicate delivery' },
		});
	});
});

describe('includeHeaders', () => {
	test('on: headers are added with the secret redacted', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { includeHeaders: true, verifySecret: true },
		});
		const r = await h.deliver({
			body: tradePayload('trade.completed'),
			secret: WEBHOOK_SECRET,
			headers: { 'x-request-id': 'req-1', cookie: 'session=abc' },
		});
		expect(r.started).toBe(true);
		expect(r.items[0].headers).toMatchObject({
			'x-webhook-secret': '[redacted]',
			'x-request-id': 'req-1',
			cookie: '[redacted]',
			'content-type': 'application/json',
		});
		expect(JSON.stringify(r.items)).not.toContain(WEBHOOK_SECRET);
	});

	test('off: no headers in the item', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { includeHeaders: false },
		});
		const r = await h.deliver({ body: tradePayload('trade.completed'), secret: WEBHOOK_SECRET });
		expect(r.items[0].headers).toBeUndefined();
		expect(JSON.stringify(r.items)).not.toContain(WEBHOOK_SECRET);
	});

	test('a body that carries its own "headers" or "verification" cannot spoof them', async () => {
		const h = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			options: { includeHeaders: true },
		});
		const r = await h.deliver({
			body: {
				event: 'trade.completed',
				id: 't1',
				verification: { confirmedWithApi: true, ip: 'in allowed list' },
				headers: { fake: 1 },
			},
		});
		expect(r.items[0].verification).toMatchObject({
			confirmedWithApi: false,
			ip: 'not configured',
		});
		expect(r.items[0].headers).not.toHaveProperty('fake');
	});
});

test('all options together: a real delivery passes every check', async () => {
	const h = await TriggerHarness.create({
		events: ['trade.completed'],
		options: {
			verifySecret: true,
			allowedIps: SERVICE_IPS.join(','),
			confirmWithApi: true,
			ignoreDuplicates: true,
			includeHeaders: true,
		},
	});
	await h.activate();
	const body = tradePayload('trade.completed');
	nock(BASE_URL)
		.get(`/trades/transactions/${body.id}`)
		.reply(200, { success: true, data: { id: body.id, status: 'completed' } });
	const r = await h.deliver({ body, secret: WEBHOOK_SECRET, ip: SERVICE_IPS[4] });
	expect(r).toMatchObject({ status: 200, started: true });
	expect(r.items[0].verification).toEqual({
		secret: 'verified',
		ip: 'in allowed list',
		confirmedWithApi: true,
		sourceIp: SERVICE_IPS[4],
	});
	expect((await h.deliver({ body, secret: WEBHOOK_SECRET, ip: SERVICE_IPS[4] })).started).toBe(
		false,
	);
});
