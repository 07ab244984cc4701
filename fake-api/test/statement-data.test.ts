/**
 * What a statement needs from the fake API (docs/fake-api.md, "A seeded day"; "Lifecycle"): a day of
 * N records of every kind, the balances moved as the lifecycle moves them, stuck payouts, slow pages.
 */
import { SEEDED_PATTERN } from '../src/server';
import { ADDRESSES, cryptoWithdrawal, start, type Client } from './helpers';

const DAY = '2026-03-10';

/** Every page of a list, newest first as the fake API answers. */
async function readAll(client: Client, path: string): Promise<Array<Record<string, unknown>>> {
	const records: Array<Record<string, unknown>> = [];
	for (let page = 1; page <= 1000; page++) {
		const response = await client.call('GET', `${path}?page=${page}&size=100`);
		expect(response.status).toBe(200);
		records.push(...(response.body.data as Array<Record<string, unknown>>));
		if (!response.body.meta.hasNextPage) return records;
	}
	throw new Error('more than 1000 pages');
}

describe('fake API: a seeded day', () => {
	let client: Client;
	afterEach(() => client.sandbox.close());

	it('writes N records over the UTC day, every kind, the first at 00:00:00.000 and the last at 23:59:59.999', async () => {
		client = await start();
		const seeded = client.sandbox.seedDay({ day: DAY, records: 3 * SEEDED_PATTERN.length });
		expect(seeded.trades + seeded.withdrawals).toBe(3 * SEEDED_PATTERN.length);
		for (const kind of new Set(SEEDED_PATTERN)) expect(seeded.kinds[kind]).toBeGreaterThan(0);
		const trades = await readAll(client, '/trades/transactions');
		const withdrawals = await readAll(client, '/payments/withdrawals');
		const times = [...trades, ...withdrawals].map((record) => String(record.createdAt)).sort();
		expect(times[0]).toBe(`${DAY}T00:00:00.000Z`);
		expect(times[times.length - 1]).toBe(`${DAY}T23:59:59.999Z`);
		// Newest first, as every list of the fake API.
		const created = withdrawals.map((record) => Date.parse(String(record.createdAt)));
		expect(created).toEqual([...created].sort((a, b) => b - a));
		// Statuses of every kind a statement shows.
		expect(new Set(trades.map((trade) => trade.status))).toEqual(
			new Set(['completed', 'pending', 'flagged']),
		);
		expect(new Set(withdrawals.map((withdrawal) => withdrawal.status))).toEqual(
			new Set(['completed', 'pending', 'rejected', 'reversed']),
		);
		// Auto-settlement payouts name their trade; a withdrawal without External ID; a wallet without a label.
		const tradeIds = new Set(trades.map((trade) => trade.id));
		const payouts = withdrawals.filter((withdrawal) => withdrawal.trade);
		expect(payouts.length).toBe(seeded.kinds.autoSettledDeposit);
		for (const payout of payouts) expect(tradeIds.has(payout.trade)).toBe(true);
		expect(
			withdrawals.some((withdrawal) => !withdrawal.trade && withdrawal.externalId === null),
		).toBe(true);
		const wallets = await readAll(client, '/trades/wallets');
		const unlabelled = wallets.filter((wallet) => wallet.label === '').map((wallet) => wallet.id);
		expect(unlabelled).toHaveLength(1);
		expect(trades.some((trade) => trade.wallet === unlabelled[0])).toBe(true);
	});

	it('moves the balances as the lifecycle does: completed deposits credit, payouts debit payout + fee, refunds give back', async () => {
		client = await start();
		const seeded = client.sandbox.seedDay({ day: DAY, records: 200 });
		const trades = await readAll(client, '/trades/transactions');
		const withdrawals = await readAll(client, '/payments/withdrawals');
		// The test's own sums, from the records as the API shows them.
		const moved: Record<string, number> = { usd: 0, ngn: 0, ghs: 0 };
		for (const trade of trades)
			if (trade.status === 'completed') moved[String(trade.currency)] += Number(trade.amount);
		for (const withdrawal of withdrawals) {
			if (withdrawal.status === 'rejected' || withdrawal.status === 'reversed') continue;
			moved[String(withdrawal.currency)] -=
				Number(withdrawal.payoutAmount) + Number(withdrawal.fee);
		}
		for (const currency of ['usd', 'ngn', 'ghs'] as const) {
			expect(seeded.closingBalances[currency]).toBeCloseTo(
				seeded.openingBalances[currency] + moved[currency],
				2,
			);
			expect(client.sandbox.state.account.fiatWallets[currency]).toBe(
				seeded.closingBalances[currency],
			);
		}
	});

	it("charges the fee by the account's fee bearer: user (payout = amount - fee) or business (payout = amount)", async () => {
		client = await start();
		await client.call('PUT', '/users/withdrawal-fee-bearer', { withdrawalFeeBearer: 'business' });
		client.sandbox.seedDay({ day: DAY, records: SEEDED_PATTERN.length });
		const business = (await readAll(client, '/payments/withdrawals')).find(
			(w) => w.type === 'crypto' && w.status === 'completed',
		);
		expect(business?.payoutAmount).toBe(business?.amount);
		await client.call('PUT', '/users/withdrawal-fee-bearer', { withdrawalFeeBearer: 'user' });
		client.sandbox.seedDay({ day: '2026-03-11', records: SEEDED_PATTERN.length });
		const user = (await readAll(client, '/payments/withdrawals')).find(
			(w) =>
				w.type === 'crypto' &&
				w.status === 'completed' &&
				String(w.createdAt).startsWith('2026-03-11'),
		);
		expect(user?.payoutAmount).toBeCloseTo(Number(user?.amount) - Number(user?.fee), 2);
	});

	it('keeps the lists in time order when an earlier day is seeded after a later one', async () => {
		client = await start();
		client.sandbox.seedDay({ day: '2026-03-12', records: 30 });
		client.sandbox.seedDay({ day: '2026-03-11', records: 30 });
		const created = (await readAll(client, '/trades/transactions')).map((record) =>
			Date.parse(String(record.createdAt)),
		);
		expect(created).toEqual([...created].sort((a, b) => b - a));
	});

	it('seeds through the admin route, and refuses a day that is not YYYY-MM-DD', async () => {
		client = await start();
		const base = client.sandbox.url.replace(/\/v1$/, '');
		const post = (body: unknown) =>
			fetch(`${base}/_sandbox/seed-day`, { method: 'POST', body: JSON.stringify(body) }).then(
				async (r) => ({
					status: r.status,
					body: (await r.json()) as { data: { trades: number; withdrawals: number } },
				}),
			);
		const ok = await post({ day: DAY, records: 25 });
		expect(ok.status).toBe(200);
		expect(ok.body.data.trades + ok.body.data.withdrawals).toBe(25);
		expect((await post({ day: '10/03/2026', records: 5 })).status).toBe(400);
		expect((await post({ day: DAY, records: 0 })).status).toBe(400);
	});
});

describe('fake API: stuck payouts and slow pages', () => {
	let client: Client;
	afterEach(() => client.sandbox.close());

	it('leaves a withdrawal to a stuck address pending after its lifecycle ran', async () => {
		client = await start({ stuckAddresses: [ADDRESSES.TRC20] });
		const created = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ externalId: 'stuck-1' }),
		);
		expect(created.status).toBe(200);
		await client.sandbox.settle();
		const record = await client.call(
			'GET',
			`/payments/withdrawal/${created.body.data.id as string}`,
		);
		expect(record.body.data.status).toBe('pending');
	});

	it('answers a list page no sooner than pageDelayMs', async () => {
		client = await start({ pageDelayMs: 200 });
		const started = Date.now();
		const response = await client.call('GET', '/payments/withdrawals?page=1&size=10');
		expect(response.status).toBe(200);
		// A lower bound only: a slow machine answers later, never sooner.
		expect(Date.now() - started).toBeGreaterThanOrEqual(190);
	});
});
