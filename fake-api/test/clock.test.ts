/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * The service's clock (docs/fake-api.md, "The service's clock"): dates, ids and the Date header
 * follow it; transitions and webhook retries fall due in service time and run when the clock is
 * moved past them; it never goes back; a state file keeps it. And a refund on demand
 * (POST /_sandbox/withdrawals/{id}/reverse) and the destination lists set while it runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startFakeApi } from '../src/server';
import {
	ADDRESSES,
	ASSET_IDS,
	cryptoWithdrawal,
	start,
	startReceiver,
	type Client,
} from './helpers';

const MINUTE = 60_000;

async function admin(client: Client, method: string, route: string, body?: unknown) {
	const response = await fetch(`${client.sandbox.url.replace(/\/v1$/, '')}${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return {
		status: response.status,
		headers: response.headers,
		// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, asserted loosely
		body: (await response.json()) as any,
	};
}

/** The instant an ObjectId-like id was made (its first 8 hex digits are seconds). */
const idSeconds = (id: string) => parseInt(id.slice(0, 8), 16);

async function withdraw(client: Client, overrides: Record<string, unknown> = {}): Promise<string> {
	const response = await client.call(
		'POST',
		'/payments/withdraw/address',
		cryptoWithdrawal(overrides),
	);
	expect(response.status).toBe(200);
	return response.body.data.id as string;
}

const withdrawal = (client: Client, id: string) =>
	client.sandbox.state.withdrawals.find((candidate) => candidate.id === id)!;

describe('fake API: the service clock', () => {
	let client: Client;
	afterEach(() => client?.sandbox.close());

	it('without a clock set, keeps real time: dates, ids, the Date header, and a transition after lifecycleDelayMs of real time', async () => {
		client = await start({ lifecycleDelayMs: 50 });
		const before = Date.now();
		const clock = await admin(client, 'GET', '/_sandbox/clock');
		expect(clock.body.data.offsetMs).toBe(0);
		expect(Math.abs(Date.parse(clock.body.data.now) - before)).toBeLessThan(5_000);
		const answer = await client.call('GET', '/trades/assets');
		expect(Math.abs(Date.parse(answer.headers.get('date')!) - before)).toBeLessThan(5_000);
		const id = await withdraw(client);
		const created = withdrawal(client, id);
		expect(Math.abs(Date.parse(created.createdAt) - before)).toBeLessThan(5_000);
		expect(Math.abs(idSeconds(id) * 1000 - before)).toBeLessThan(5_000);
		for (
			let waited = 0;
			withdrawal(client, id).status === 'pending' && waited < 5_000;
			waited += 20
		) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		expect(withdrawal(client, id).status).toBe('completed');
	});

	it('starts at the `clock` option and runs on from there: createdAt, ids, webhook events and the Date header', async () => {
		client = await start({ clock: '2026-03-10T23:50:00Z' });
		const id = await withdraw(client);
		const record = withdrawal(client, id);
		expect(record.createdAt).toMatch(/^2026-03-10T23:50:0/);
		expect(idSeconds(id)).toBeGreaterThanOrEqual(Date.parse('2026-03-10T23:50:00Z') / 1000);
		expect(idSeconds(id)).toBeLessThan(Date.parse('2026-03-10T23:51:00Z') / 1000);
		const event = client.sandbox.state.webhookEvents.find(
			(candidate) => candidate.reference === id,
		)!;
		expect(event.createdAt).toMatch(/^2026-03-10T23:50:0/);
		const answer = await client.call('GET', `/payments/withdrawal/${id}`);
		expect(answer.body.data.createdAt).toBe(record.createdAt);
		expect(answer.headers.get('date')).toMatch(/^Tue, 10 Mar 2026 23:50:0\d GMT$/);
	});

	it('POST /_sandbox/clock stands at an instant or moves forward; later records and the Date header follow', async () => {
		client = await start({ clock: '2026-03-10T12:00:00Z' });
		const stood = await admin(client, 'POST', '/_sandbox/clock', { at: '2026-03-11T00:05:00Z' });
		expect(stood.status).toBe(200);
		expect(stood.body.data.now).toMatch(/^2026-03-11T00:05:00/);
		expect(stood.headers.get('date')).toMatch(/^Wed, 11 Mar 2026 00:05:0\d GMT$/);
		const first = await withdraw(client);
		expect(withdrawal(client, first).createdAt).toMatch(/^2026-03-11T00:05:0/);

		const moved = await admin(client, 'POST', '/_sandbox/clock', { advance: 'PT10M' });
		expect(moved.body.data.now).toMatch(/^2026-03-11T00:15:0/);
		const second = await withdraw(client, { externalId: 'after-ten-minutes' });
		expect(withdrawal(client, second).createdAt).toMatch(/^2026-03-11T00:15:0/);
		expect((await client.call('GET', '/trades/assets')).headers.get('date')).toMatch(
			/^Wed, 11 Mar 2026 00:15:0\d GMT$/,
		);

		await admin(client, 'POST', '/_sandbox/clock', { advanceMs: 31 * 24 * 60 * MINUTE });
		expect((await admin(client, 'GET', '/_sandbox/clock')).body.data.now).toMatch(
			/^2026-04-11T00:15:0/,
		);
		await client.sandbox.advanceClock('1d');
		await client.sandbox.setClock('2026-04-12T06:00:00');
		expect(new Date(client.sandbox.now()).toISOString()).toMatch(/^2026-04-12T06:00:00/);
	});

	it('refuses to move back, and bodies that say no move; nothing changes', async () => {
		client = await start({ clock: '2026-03-11T00:05:00Z' });
		for (const body of [
			{ at: '2026-03-10T23:59:00Z' },
			{ advanceMs: -1 },
			{ advance: 'P1M' },
			{ advance: 'soon' },
			{ at: 'yesterday' },
			{},
			{ at: '2026-03-12T00:00:00Z', advance: '1d' },
		]) {
			const answer = await admin(client, 'POST', '/_sandbox/clock', body);
			expect([answer.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)]);
			expect(answer.body.ok).toBe(false);
		}
		expect(
			(await admin(client, 'POST', '/_sandbox/clock', { at: '2026-03-10T23:59:00Z' })).body.message,
		).toMatch(/only moves forward/);
		expect(new Date(client.sandbox.now()).toISOString()).toMatch(/^2026-03-11T00:05:0/);
		await expect(client.sandbox.setClock('2026-03-01T00:00:00Z')).rejects.toThrow(
			/only moves forward/,
		);
	});

	it('a withdrawal pending before midnight completes when the clock passes its due time, dated then: the new day', async () => {
		client = await start({ clock: '2026-03-10T23:50:00Z', lifecycleDelayMs: 30 * MINUTE });
		const id = await withdraw(client);
		await admin(client, 'POST', '/_sandbox/clock', { at: '2026-03-11T00:05:00Z' });
		expect(withdrawal(client, id).status).toBe('pending'); // due at 00:20
		await admin(client, 'POST', '/_sandbox/clock', { advance: 'PT20M' });
		const done = withdrawal(client, id);
		expect(done.status).toBe('completed');
		expect(done.createdAt).toMatch(/^2026-03-10T23:50/);
		expect(done.updatedAt).toMatch(/^2026-03-11T00:20/);
		const event = client.sandbox.state.webhookEvents.find(
			(candidate) => candidate.reference === id && candidate.eventType === 'withdrawal.completed',
		)!;
		expect(event.createdAt).toMatch(/^2026-03-11T00:20/);
		expect((await client.call('GET', `/payments/withdrawal/${id}`)).body.data).toMatchObject({
			status: 'completed',
			updatedAt: done.updatedAt,
		});
	});

	it('a withdrawal to a reverse-list destination is reversed after midnight and refunded that day', async () => {
		client = await start({
			clock: '2026-03-10T23:50:00Z',
			lifecycleDelayMs: 12 * MINUTE,
			reverseAddresses: [ADDRESSES.ERC20],
			balances: { usd: 1000 },
		});
		const id = await withdraw(client, {
			network: 'ERC20',
			walletAddress: ADDRESSES.ERC20,
			amount: 20,
		});
		expect(client.sandbox.state.account.fiatWallets.usd).toBe(980);
		await client.sandbox.setClock('2026-03-11T00:05:00Z');
		const refunded = withdrawal(client, id);
		expect(refunded).toMatchObject({ status: 'reversed' });
		expect(refunded.updatedAt).toMatch(/^2026-03-11T00:02/);
		expect(client.sandbox.state.account.fiatWallets.usd).toBe(1000);
		expect(client.sandbox.state.account.updatedAt).toMatch(/^2026-03-11/);
	});

	it('a deposit seen at 23:58 is credited after midnight when the clock moves', async () => {
		client = await start({ clock: '2026-03-10T23:58:00Z', lifecycleDelayMs: 4 * MINUTE });
		const wallet = await client.call(
			'POST',
			`/trades/sell/assets/${ASSET_IDS.TRX_TEST}/generate-address`,
			{ label: 'late-customer' },
		);
		expect(wallet.status).toBe(200);
		const trade = await client.call('POST', '/trades/sell/mock-trade', {
			walletAddress: wallet.body.data.address,
			asset: 'TRX_TEST',
			amountInUSD: 25,
			cryptoReceived: '208.3',
			reference: 'late-1',
			txHash: 'latehash1',
		});
		expect(trade.status).toBe(200);
		const id = client.sandbox.state.trades[0].id;
		await client.sandbox.setClock('2026-03-11T00:03:00Z');
		const credited = client.sandbox.state.trades.find((candidate) => candidate.id === id)!;
		expect(credited.status).toBe('completed');
		expect(credited.createdAt).toMatch(/^2026-03-10T23:58/);
		expect(credited.updatedAt).toMatch(/^2026-03-11T00:02/); // when it fell due, the clock passing it
	});

	it('webhook retries fall due in service time: moving the clock past one runs it', async () => {
		const receiver = await startReceiver();
		receiver.statuses = [500];
		try {
			client = await start({
				clock: '2026-03-10T12:00:00Z',
				webhookUrl: receiver.url,
				webhookRetryDelaysMs: [10 * MINUTE],
				lifecycleDelayMs: 24 * 60 * MINUTE,
			});
			await withdraw(client);
			await client.sandbox.advanceClock(0); // the first attempt, due now
			const event = client.sandbox.state.webhookEvents.find(
				(candidate) => candidate.eventType === 'withdrawal.pending',
			)!;
			expect(event).toMatchObject({ status: 'failed', attemptsCount: 1 });
			expect(event.nextAttemptAt).toMatch(/^2026-03-10T12:10/);
			await client.sandbox.advanceClock('PT5M');
			expect(event.attemptsCount).toBe(1);
			await client.sandbox.advanceClock('PT5M');
			expect(event).toMatchObject({ status: 'delivered', attemptsCount: 2 });
			expect(event.deliveredAt).toMatch(/^2026-03-10T12:10/);
			expect(receiver.received).toHaveLength(2);
		} finally {
			await receiver.close();
		}
	});

	it('a state file keeps where the clock stood; a `clock` option at the restart wins', async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-api-clock-'));
		try {
			const stateFile = path.join(dir, 'state.json');
			const first = await startFakeApi({ stateFile, lifecycleDelayMs: 60_000 });
			await first.setClock('2030-01-02T03:04:05Z');
			await first.close();
			const second = await startFakeApi({ stateFile, lifecycleDelayMs: 60_000 });
			expect(new Date(second.now()).toISOString()).toMatch(/^2030-01-02T03:04/);
			await second.close();
			const third = await startFakeApi({
				stateFile,
				lifecycleDelayMs: 60_000,
				clock: '2031-05-06T07:08:09Z',
			});
			expect(new Date(third.now()).toISOString()).toMatch(/^2031-05-06T07:08/);
			await third.close();
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('fake API: a refund on demand and destinations set while it runs', () => {
	let client: Client;
	afterEach(() => client?.sandbox.close());

	it("pays today to a stuck destination, moves past midnight, reverses it: refunded with the new day's date", async () => {
		const receiver = await startReceiver();
		try {
			client = await start({
				clock: '2026-03-10T15:00:00Z',
				lifecycleDelayMs: 1000,
				balances: { usd: 1000 },
				webhookUrl: receiver.url,
			});
			const set = await admin(client, 'PUT', '/_sandbox/destinations', {
				stuck: [ADDRESSES.TRC20],
			});
			expect(set.body.data).toEqual({ reject: [], reverse: [], stuck: [ADDRESSES.TRC20] });
			const id = await withdraw(client, { externalId: 'pay-today', amount: 30 });
			expect(client.sandbox.state.account.fiatWallets.usd).toBe(970);
			await admin(client, 'POST', '/_sandbox/clock', { at: '2026-03-11T00:03:00Z' });
			expect(withdrawal(client, id).status).toBe('pending'); // stuck

			const reversed = await admin(client, 'POST', '/_sandbox/withdrawals/pay-today/reverse', {
				reason: 'the bank returned it',
			});
			expect(reversed.status).toBe(200);
			expect(reversed.body.data).toMatchObject({
				id,
				status: 'reversed',
				reason: 'the bank returned it',
			});
			expect(reversed.body.data.createdAt).toMatch(/^2026-03-10T15:00/);
			expect(reversed.body.data.updatedAt).toMatch(/^2026-03-11T00:03/);
			expect(client.sandbox.state.account.fiatWallets.usd).toBe(1000);
			await client.sandbox.settle();
			const sent = receiver.received.map((delivery) => delivery.body.event);
			expect(sent).toEqual(['withdrawal.pending', 'withdrawal.reversed']);
			// Withdrawal → Get Many of the next day sees it reversed on that day.
			const list = await client.call('GET', '/payments/withdrawals?status=reversed');
			expect(list.body.data.map((record: { id: string }) => record.id)).toEqual([id]);

			const again = await admin(client, 'POST', `/_sandbox/withdrawals/${id}/reverse`);
			expect(again.status).toBe(409);
			expect(again.body.message).toMatch(/reversed, a final status/);
			expect((await admin(client, 'POST', '/_sandbox/withdrawals/nope/reverse')).status).toBe(404);
		} finally {
			await receiver.close();
		}
	});

	it('refuses to reverse a completed withdrawal (a final status) and leaves it as it was', async () => {
		client = await start({
			clock: '2026-03-10T15:00:00Z',
			lifecycleDelayMs: 1000,
			balances: { usd: 1000 },
		});
		const id = await withdraw(client);
		await client.sandbox.advanceClock('2s');
		expect(withdrawal(client, id).status).toBe('completed');
		const answer = await admin(client, 'POST', `/_sandbox/withdrawals/${id}/reverse`);
		expect(answer.status).toBe(409);
		expect(withdrawal(client, id).status).toBe('completed');
		expect(client.sandbox.state.account.fiatWallets.usd).toBe(990);
	});

	it('GET|PUT /_sandbox/destinations: lists replaced one by one, checked', async () => {
		client = await start({ rejectAddresses: ['a'], reverseAddresses: ['b'] });
		expect((await admin(client, 'GET', '/_sandbox/destinations')).body.data).toEqual({
			reject: ['a'],
			reverse: ['b'],
			stuck: [],
		});
		expect(
			(await admin(client, 'PUT', '/_sandbox/destinations', { reverse: [' c ', ''] })).body.data,
		).toEqual({ reject: ['a'], reverse: ['c'], stuck: [] });
		expect((await admin(client, 'PUT', '/_sandbox/destinations', { stuck: 'c' })).status).toBe(400);
	});
});
