/* eslint-disable @n8n/community-nodes/no-restricted-globals */
import {
	ASSET_IDS,
	cryptoWithdrawal,
	start,
	startReceiver,
	type Client,
	type Receiver,
} from './helpers';

describe('sandbox: outgoing webhooks', () => {
	let client: Client;
	let receiver: Receiver;
	beforeEach(async () => {
		receiver = await startReceiver();
		client = await start({
			webhookUrl: receiver.url,
			webhookSecret: 'shh',
			webhookRetryDelaysMs: [60_000, 60_000],
		});
	});
	afterEach(async () => {
		await client.sandbox.close();
		await receiver.close();
	});

	it('delivers trade.address.created, trade.pending and trade.completed with x-webhook-secret', async () => {
		const wallet = (
			await client.call('POST', `/trades/sell/assets/${ASSET_IDS.TRX_TEST}/generate-address`, {
				label: 'hooked',
			})
		).body.data;
		const trade = (
			await client.call('POST', '/trades/sell/mock-trade', {
				walletAddress: wallet.address,
				asset: 'TRX_TEST',
				amountInUSD: 50,
				cryptoReceived: '416.6',
				reference: 'r1',
				txHash: 'h1',
			})
		).body.data;
		await client.sandbox.settle();
		expect(receiver.received.map((delivery) => delivery.body.event)).toEqual([
			'trade.address.created',
			'trade.pending',
			'trade.completed',
		]);
		for (const delivery of receiver.received) {
			expect(delivery.headers['x-webhook-secret']).toBe('shh');
			expect(delivery.headers['content-type']).toMatch(/application\/json/);
		}
		const [created, pending, completed] = receiver.received.map((delivery) => delivery.body);
		expect(created).toMatchObject({
			event: 'trade.address.created',
			id: wallet.id,
			address: wallet.address,
			asset: 'TRX_TEST',
			label: 'hooked',
			status: expect.any(String),
		});
		expect(pending).toMatchObject({
			event: 'trade.pending',
			id: trade.id,
			status: 'pending',
			confirmations: 0,
		});
		expect(completed).toMatchObject({
			event: 'trade.completed',
			id: trade.id,
			status: 'completed',
			asset: 'TRX_TEST',
			amountInUSD: 50,
			cryptoAmount: '416.6',
			destinationAddress: wallet.address,
			txHash: 'h1',
			feePercentage: 0.5,
			feeAmountInUsd: 0.25,
			createdAt: expect.any(Number),
			updatedAt: expect.any(Number),
		});
		const events = client.sandbox.state.webhookEvents;
		expect(events).toHaveLength(3);
		expect(events.every((event) => event.status === 'delivered' && event.attemptsCount === 1)).toBe(
			true,
		);
	});

	it('delivers withdrawal.pending and withdrawal.completed with the record fields', async () => {
		const id = (
			await client.call(
				'POST',
				'/payments/withdraw/address',
				cryptoWithdrawal({ externalId: 'ext-9' }),
			)
		).body.data.id;
		await client.sandbox.settle();
		const bodies = receiver.received.map((delivery) => delivery.body);
		expect(bodies.map((body) => body.event)).toEqual([
			'withdrawal.pending',
			'withdrawal.completed',
		]);
		expect(bodies[1]).toMatchObject({
			event: 'withdrawal.completed',
			id,
			status: 'completed',
			externalId: 'ext-9',
			amount: 10,
			fee: 1.5,
			token: 'USDT',
			network: 'TRC20',
			txHash: expect.any(String),
		});
		expect(Object.keys(bodies[1]).slice(0, 3)).toEqual(['event', 'id', 'status']);
	});

	it('emits withdrawal.rejected / withdrawal.reversed for configured addresses', async () => {
		await client.sandbox.close();
		client = await start({
			webhookUrl: receiver.url,
			rejectAddresses: ['TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9'],
		});
		await client.call('POST', '/payments/withdraw/address', cryptoWithdrawal());
		await client.sandbox.settle();
		expect(receiver.received.map((delivery) => delivery.body.event)).toEqual([
			'withdrawal.pending',
			'withdrawal.rejected',
		]);
		expect(receiver.received[1].body.reason).toEqual(expect.any(String));
	});

	it('retries a failed delivery with backoff and records every attempt', async () => {
		receiver.statuses = [500, 503];
		await client.call('POST', `/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`, {
			label: 'retry',
		});
		await client.sandbox.settle();
		const [event] = client.sandbox.state.webhookEvents;
		expect(event).toMatchObject({
			status: 'failed',
			attemptsCount: 1,
			nextAttemptAt: expect.any(String),
		});
		expect(event.attempts[0]).toMatchObject({ responseStatus: 500 });
		await client.sandbox.settle();
		expect(event).toMatchObject({ attemptsCount: 1 });
		await client.sandbox.settle({ retries: true });
		expect(event).toMatchObject({ status: 'failed', attemptsCount: 2 });
		await client.sandbox.settle({ retries: true });
		expect(event).toMatchObject({
			status: 'delivered',
			attemptsCount: 3,
			deliveredAt: expect.any(String),
			nextAttemptAt: null,
		});
		expect(event.attempts.map((attempt) => attempt.responseStatus)).toEqual([500, 503, 200]);
	});

	it('retries on its own timer when nobody calls settle()', async () => {
		await client.sandbox.close();
		client = await start({
			webhookUrl: receiver.url,
			webhookRetryDelaysMs: [20],
			lifecycleDelayMs: 10,
		});
		receiver.statuses = [500];
		await client.call('POST', `/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`, {
			label: 'timer',
		});
		const deadline = Date.now() + 5000;
		while (client.sandbox.state.webhookEvents[0]?.status !== 'delivered' && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		expect(client.sandbox.state.webhookEvents[0]).toMatchObject({
			status: 'delivered',
			attemptsCount: 2,
		});
		// lifecycle transitions also run on their own
		const id = (await client.call('POST', '/payments/withdraw/address', cryptoWithdrawal())).body
			.data.id;
		while (client.sandbox.state.withdrawals[0]?.status === 'pending' && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		expect((await client.call('GET', `/payments/withdrawal/${id}`)).body.data.status).toBe(
			'completed',
		);
	});

	it('gives up after the last retry', async () => {
		receiver.statuses = [500, 500, 500, 500];
		await client.call('POST', `/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`, {
			label: 'give-up',
		});
		for (let index = 0; index < 4; index++) await client.sandbox.settle({ retries: true });
		const [event] = client.sandbox.state.webhookEvents;
		expect(event).toMatchObject({ status: 'failed', attemptsCount: 3, nextAttemptAt: null });
	});

	it('lists, gets and resends webhook events', async () => {
		receiver.statuses = [500, 500, 500];
		const wallet = (
			await client.call('POST', `/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`, {
				label: 'resend',
			})
		).body.data;
		await client.sandbox.settle();
		await client.sandbox.settle({ retries: true });
		await client.sandbox.settle({ retries: true });
		const list = await client.call('GET', '/transactions/webhooks');
		expect(list.status).toBe(200);
		expect(list.body.meta).toMatchObject({ totalDocs: 1, page: 1, hasNextPage: false });
		const record = list.body.data[0];
		expect(record).toMatchObject({
			reference: wallet.id,
			eventType: 'trade.address.created',
			url: receiver.url,
			status: 'failed',
			attemptsCount: 3,
		});
		for (const key of [
			'id',
			'integration',
			'payload',
			'attempts',
			'deliveredAt',
			'lastAttemptAt',
			'expireAt',
			'createdAt',
			'updatedAt',
		]) {
			expect(record).toHaveProperty(key);
		}
		expect(Date.parse(record.expireAt) - Date.parse(record.createdAt)).toBe(7 * 24 * 3600 * 1000);

		const single = await client.call('GET', `/transactions/webhooks/${record.id}`);
		expect(single.status).toBe(200);
		expect(single.body).toMatchObject({ success: true, data: { id: record.id } });
		expect(
			(await client.call('GET', '/transactions/webhooks/000000000000000000000000')).status,
		).toBe(404);

		const resent = await client.call('POST', `/transactions/webhooks/resend/${wallet.id}`);
		expect(resent.status).toBe(200);
		expect(resent.body).toMatchObject({
			message: 'webhook resend attempted',
			data: [{ id: record.id, status: 'delivered' }],
		});
		expect(client.sandbox.state.webhookEvents[0]).toMatchObject({
			status: 'delivered',
			attemptsCount: 4,
		});
		expect(receiver.received).toHaveLength(4);

		receiver.statuses = [500];
		const failed = await client.call('POST', `/transactions/webhooks/resend/${wallet.id}`);
		expect(failed.body.data).toEqual([
			{ id: record.id, status: 'failed', error: 'webhook delivery failed' },
		]);
		expect((await client.call('POST', '/transactions/webhooks/resend/unknownref')).status).toBe(
			404,
		);
	});

	it('filters webhook events by date range', async () => {
		await client.call('POST', `/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`, {
			label: 'dated',
		});
		const future = new Date(Date.now() + 3600_000).toISOString();
		const past = new Date(Date.now() - 3600_000).toISOString();
		expect(
			(await client.call('GET', `/transactions/webhooks?startDate=${future}`)).body.data,
		).toHaveLength(0);
		expect(
			(await client.call('GET', `/transactions/webhooks?startDate=${past}&endDate=${future}`)).body
				.data,
		).toHaveLength(1);
		expect((await client.call('GET', '/transactions/webhooks?startDate=yesterday')).status).toBe(
			422,
		);
	});

	it('webhook inspection needs VIP access (403)', async () => {
		client.sandbox.state.account.webhookAccess = false;
		expect((await client.call('GET', '/transactions/webhooks')).status).toBe(403);
		expect((await client.call('POST', '/transactions/webhooks/resend/abc')).status).toBe(403);
	});

	it('records events as failed when no webhook URL is configured, and delivers after setWebhook', async () => {
		client.sandbox.setWebhook(null);
		await client.call('POST', `/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`, {
			label: 'nourl',
		});
		await client.sandbox.settle();
		expect(client.sandbox.state.webhookEvents[0]).toMatchObject({
			status: 'failed',
			attemptsCount: 0,
			url: null,
		});
		client.sandbox.setWebhook(receiver.url, 'new-secret');
		const reference = client.sandbox.state.webhookEvents[0].reference;
		expect(
			(await client.call('POST', `/transactions/webhooks/resend/${reference}`)).body.data[0].status,
		).toBe('delivered');
		expect(receiver.received[0].headers['x-webhook-secret']).toBe('new-secret');
	});
});
