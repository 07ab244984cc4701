/**
 * Confirm With API (on by default): a record that is missing or behind the event asks the service to
 * retry (503); one that is ahead or contradicts drops the delivery (200); the emitted item carries the
 * record's values, never the body's; authenticated requests never follow a redirect.
 */
/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import {
	BASE_URL,
	triggerTestSetup,
	CREDENTIALS,
	TriggerHarness,
	tradePayload,
	WEBHOOK_SECRET,
	withdrawalPayload,
} from '../helpers/webhook';

const logs = triggerTestSetup(['127.0.0.1']);

const api = () => nock(BASE_URL);
const ok = (data: IDataObject) =>
	[200, { success: true, message: 'retrieved successfully', data }] as const;

describe('a record that is missing or behind the event: 503 so the service retries (case 3)', () => {
	test('404 before the trade is visible → 503, nothing started; the retry is emitted', async () => {
		const h = await TriggerHarness.create({ events: ['trade.completed'] });
		const body = tradePayload('trade.completed');
		api()
			.get(`/trades/transactions/${body.id}`)
			.reply(404, { success: false, message: 'transaction not found', data: {} });
		const first = await h.deliver({ body });
		expect(first).toMatchObject({
			status: 503,
			started: false,
			response: { message: expect.stringMatching(/retry later/) },
		});
		expect(logs.some((l) => l.level === 'warn' && /not found \(HTTP 404\)/.test(l.message))).toBe(
			true,
		);

		api()
			.get(`/trades/transactions/${body.id}`)
			.reply(...ok({ id: body.id, status: 'completed', amountReceived: 21.379 }));
		const retry = await h.deliver({ body });
		expect(retry).toMatchObject({ status: 200, started: true });
		expect(retry.items[0]).toMatchObject({ id: body.id, status: 'completed', amountInUSD: 21.379 });
	});

	test('withdrawal.completed while the record is still pending → 503; emitted once the record catches up', async () => {
		const h = await TriggerHarness.create({ events: ['*'] });
		const body = withdrawalPayload('withdrawal.completed');
		api()
			.get(`/payments/withdrawal/${body.id}`)
			.reply(...ok({ id: body.id, status: 'pending' }));
		expect(await h.deliver({ body })).toMatchObject({ status: 503, started: false });
		expect(logs.some((l) => /still has status "pending", behind "completed"/.test(l.message))).toBe(
			true,
		);

		api()
			.get(`/payments/withdrawal/${body.id}`)
			.reply(...ok({ id: body.id, status: 'completed', txHash: '0xabc' }));
		const retry = await h.deliver({ body });
		expect(retry).toMatchObject({ status: 200, started: true });
		expect(retry.items[0]).toMatchObject({ status: 'completed', txHash: '0xabc' });
	});

	test.each([
		['trade.completed', 'pending'],
		['trade.completed', 'flagged'],
		['trade.flagged', 'pending'],
		['trade.completed', ''],
	])('%s while the trade is %p → 503', async (event, status) => {
		const h = await TriggerHarness.create({ events: ['*'] });
		const body = tradePayload(event);
		api()
			.get(`/trades/transactions/${body.id}`)
			.reply(...ok({ id: body.id, status }));
		expect(await h.deliver({ body })).toMatchObject({ status: 503, started: false });
	});

	// A status the life cycle does not place may be behind the event (a step the docs do not name):
	// dropped, the event would be lost; answered 503, it is emitted once the record reaches it.
	test.each([
		['trade.completed', 'confirming', 'trades/transactions'],
		['withdrawal.completed', 'on_hold', 'payments/withdrawal'],
	])(
		'%s while the record is %p, a status outside its life cycle → 503, then emitted once it is there',
		async (event, status, path) => {
			const h = await TriggerHarness.create({ events: ['*'] });
			const body = event.startsWith('trade.') ? tradePayload(event) : withdrawalPayload(event);
			api()
				.get(`/${path}/${body.id}`)
				.reply(...ok({ id: body.id, status }));
			expect(await h.deliver({ body })).toMatchObject({ status: 503, started: false });
			expect(
				logs.some((l) =>
					l.message.includes(`has status "${status}", which is not in its life cycle`),
				),
			).toBe(true);
			api()
				.get(`/${path}/${body.id}`)
				.reply(...ok({ id: body.id, status: 'completed' }));
			expect(await h.deliver({ body })).toMatchObject({ status: 200, started: true });
		},
	);

	// An answer about another record (a cache or a proxy answering the wrong path) confirms nothing
	// of this one: emitted, the item would carry the other record's id, amount and eventKey.
	test.each([
		[
			'trade.completed',
			'trades/transactions',
			{ id: '66f1c0ffee0000000000beef', status: 'completed' },
		],
		[
			'withdrawal.completed',
			'payments/withdrawal',
			{ _id: '66f1c0ffee0000000000beef', status: 'completed' },
		],
		[
			'trade.address.created',
			'trades/wallets',
			{ id: '66f1c0ffee0000000000beef', address: 'TAddr999' },
		],
	])(
		'%s answered with a record of another id → 503, not emitted; emitted once the API answers for this id',
		async (event, path, other) => {
			const h = await TriggerHarness.create({ events: ['*'] });
			const body =
				event === 'trade.address.created'
					? { event, id: '88b3cafe0000000000000999', address: 'TAddr999' }
					: event.startsWith('trade.')
						? tradePayload(event)
						: withdrawalPayload(event);
			api()
				.get(`/${path}/${body.id}`)
				.reply(...ok(other));
			expect(await h.deliver({ body })).toMatchObject({ status: 503, started: false });
			expect(
				logs.some((l) =>
					l.message.includes(
						`the API answered for the record 66f1c0ffee0000000000beef, not ${String(body.id)}`,
					),
				),
			).toBe(true);
			api()
				.get(`/${path}/${body.id}`)
				.reply(...ok({ ...other, id: body.id, _id: undefined }));
			const retry = await h.deliver({ body });
			expect(retry).toMatchObject({ status: 200, started: true });
			expect(retry.items[0]).toMatchObject({ id: body.id });
		},
	);

	test('trade.address.created whose id is the address: the wallet read by it confirms it (its address is the id)', async () => {
		const h = await TriggerHarness.create({ events: ['*'] });
		const body = { event: 'trade.address.created', id: 'TAddr999', address: 'TAddr999' };
		api()
			.get(`/trades/wallets/${body.id}`)
			.reply(...ok({ id: '88b3cafe0000000000000999', address: 'TAddr999' }));
		expect(await h.deliver({ body })).toMatchObject({ status: 200, started: true });
	});

	test('a wallet not visible yet for trade.address.created → 503', async () => {
		const h = await TriggerHarness.create({ events: ['*'] });
		const body = {
			event: 'trade.address.created',
			id: '88b3cafe0000000000000999',
			address: 'TAddr999',
		};
		api()
			.get(`/trades/wallets/${body.id}`)
			.reply(404, { success: false, message: 'wallet not found', data: {} });
		expect(await h.deliver({ body })).toMatchObject({ status: 503, started: false });
	});
});

describe('a record that is ahead of or contradicts the event: 200, dropped (case 3)', () => {
	test.each([
		['trade.pending', 'completed', 'trades/transactions'],
		['trade.pending', 'flagged', 'trades/transactions'],
		['trade.flagged', 'completed', 'trades/transactions'],
		['withdrawal.pending', 'completed', 'payments/withdrawal'],
		['withdrawal.completed', 'reversed', 'payments/withdrawal'],
		['withdrawal.rejected', 'completed', 'payments/withdrawal'],
	])('%s while the record is %p → 200 ignored, nothing started', async (event, status, path) => {
		const h = await TriggerHarness.create({ events: ['*'] });
		const body = event.startsWith('trade.') ? tradePayload(event) : withdrawalPayload(event);
		api()
			.get(`/${path}/${body.id}`)
			.reply(...ok({ id: body.id, status }));
		const r = await h.deliver({ body });
		expect(r).toMatchObject({
			status: 200,
			started: false,
			response: { received: true, ignored: 'not confirmed by the API' },
		});
	});

	test('an event of an unknown kind about a record that is gone is dropped, not retried forever', async () => {
		const h = await TriggerHarness.create({ events: ['*'] });
		api()
			.get('/trades/transactions/t-gone')
			.reply(404, { success: false, message: 'transaction not found', data: {} });
		expect(await h.deliver({ body: { event: 'trade.deleted', id: 't-gone' } })).toMatchObject({
			status: 200,
			started: false,
		});
	});
});

describe('the emitted item carries the record, the body only under unconfirmedBody (case 4)', () => {
	test('forged trade values (amountInUSD 50000, a made-up destinationDescription) never reach the top level', async () => {
		const h = await TriggerHarness.create({ events: ['trade.completed'] });
		const body = tradePayload('trade.completed', {
			amountInUSD: 50000,
			cryptoAmount: 9999,
			destinationDescription: 'made-up-customer',
			destinationAddress: 'AttackerAddress',
			feeAmountInUsd: 0,
		});
		const record: IDataObject = {
			id: body.id,
			status: 'completed',
			amount: 20310.46,
			amountReceived: 21.38,
			cryptoReceived: '0.15',
			address: 'So1DepositAddress1111111111111111111111111',
			asset: '64f1a2b3c4d5e6f7a8b9c0d1',
			currency: 'ngn',
			updatedAt: '2024-11-22T04:34:20.000Z',
		};
		api()
			.get(`/trades/transactions/${body.id}`)
			.reply(...ok(record));
		const r = await h.deliver({ body });
		expect(r).toMatchObject({ status: 200, started: true });
		const item = r.items[0];
		// Every field the record has wins.
		for (const [field, value] of Object.entries(record)) expect(item[field]).toEqual(value);
		// The webhook names of trade fields carry the record's values.
		expect(item).toMatchObject({
			amountInUSD: 21.38,
			cryptoAmount: '0.15',
			destinationAddress: record.address,
		});
		// The body's own values exist only under unconfirmedBody.
		expect(item.unconfirmedBody).toEqual(body);
		for (const field of [
			'destinationDescription',
			'feeAmountInUsd',
			'confirmations',
			'blockInfo',
			'note',
		]) {
			expect(item).not.toHaveProperty(field);
		}
		expect(item.record).toEqual(record);
		expect(item.verification).toMatchObject({ confirmedWithApi: true, secret: 'verified' });
	});

	test("a withdrawal body claiming another amount and destination gets the record's", async () => {
		const h = await TriggerHarness.create({ events: ['*'] });
		const body = withdrawalPayload('withdrawal.completed', {
			amount: 99999,
			walletAddress: 'Forged',
			externalId: 'forged',
		});
		const record = {
			id: body.id,
			status: 'completed',
			amount: 25,
			walletAddress: 'Real',
			externalId: 'order-7',
			txHash: '0x1',
		};
		api()
			.get(`/payments/withdrawal/${body.id}`)
			.reply(...ok(record));
		const r = await h.deliver({ body });
		expect(r.items[0]).toMatchObject({
			...record,
			event: 'withdrawal.completed',
			unconfirmedBody: body,
		});
	});

	test('a body cannot plant "record" or "unconfirmedBody" of its own', async () => {
		const h = await TriggerHarness.create({ events: ['*'] });
		const body = withdrawalPayload('withdrawal.pending', {
			record: { amount: 1e9 },
			unconfirmedBody: { x: 1 },
		});
		api()
			.get(`/payments/withdrawal/${body.id}`)
			.reply(...ok({ id: body.id, status: 'pending', amount: 25 }));
		const r = await h.deliver({ body });
		expect(r.items[0].record).toEqual({ id: body.id, status: 'pending', amount: 25 });
		expect(r.items[0].unconfirmedBody).toEqual(body);
	});
});

/** A local HTTP server recording every request it receives. */
async function recordingServer(
	handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ origin: string; requests: http.IncomingHttpHeaders[]; close: () => Promise<void> }> {
	const requests: http.IncomingHttpHeaders[] = [];
	const server = http.createServer((req, res) => {
		requests.push(req.headers);
		handler(req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

describe('authenticated confirmation requests never follow redirects (issue 20.1)', () => {
	test.each([301, 302, 303, 307, 308])(
		'a %i to another server: 503, not emitted, x-app-secret never reaches it',
		async (code) => {
			const elsewhere = await recordingServer((_req, res) => {
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ success: true, data: { status: 'completed' } }));
			});
			const api302 = await recordingServer((req, res) => {
				res.statusCode = code;
				res.setHeader(
					'location',
					`${elsewhere.origin}/v1${req.url}?token=${CREDENTIALS.appSecret as string}`,
				);
				res.end();
			});
			try {
				const h = await TriggerHarness.create({
					events: ['*'],
					credentials: { ...CREDENTIALS, baseUrl: `${api302.origin}/v1` },
				});
				const body = tradePayload('trade.completed');
				const r = await h.deliver({ body });
				expect(r).toMatchObject({ status: 503, started: false });
				// The API was asked (with the credential) and the redirect was not followed.
				expect(api302.requests).toHaveLength(1);
				expect(api302.requests[0]['x-app-secret']).toBe(CREDENTIALS.appSecret);
				expect(elsewhere.requests).toHaveLength(0);
				// The reason names the Location's origin only: no path, no query, no secret.
				const warning = logs.find((l) => l.level === 'warn' && l.message.includes(`HTTP ${code}`));
				expect(warning?.message).toContain(`redirecting to ${elsewhere.origin} `);
				expect(warning?.message).not.toContain('/v1/trades');
				const everything = JSON.stringify([logs, r.response]);
				expect(everything).not.toContain(CREDENTIALS.appSecret as string);
				expect(everything).not.toContain(WEBHOOK_SECRET);
			} finally {
				await elsewhere.close();
				await api302.close();
			}
		},
	);
});
