import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { sandboxCredentials } from '../helpers/credentials';
import { ASSET_IDS, cryptoWithdrawal, start, type Client } from '../../fake-api/test/helpers';
import { Poller, startLocalServer, type PollResult } from '../helpers/poll/poll-harness';

/**
 * Source "Account Balances" (docs/trigger.md, "Balance alerts") through n8n-core's PollContext
 * against the fake API, its clock driven over a simulated day (POST /_sandbox/clock): a balance
 * that goes below its threshold emits `balance.low` once, and `balance.restored` once when it is
 * back, however many polls pass; across restarts, overlapping polls and an abandoned poll; and a
 * balance that cannot be read emits nothing (fail closed).
 */
const DAY_START = '2026-03-11T00:00:00Z';
const USD = { currency: 'USD', amount: 9000 };
const NGN = { currency: 'NGN', amount: 4_950_000 };
const parameters = (...threshold: IDataObject[]) => ({
	source: 'balances',
	thresholds: { threshold },
});

let client: Client;
let credentials: ICredentialDataDecryptedObject;

beforeEach(async () => {
	// The fake API starts with USD 10,000, NGN 5,000,000 and GHS 50,000 (docs/fake-api.md).
	client = await start({ clock: DAY_START });
	credentials = sandboxCredentials(client.sandbox, { pin: client.sandbox.pin });
});
afterEach(async () => await client.sandbox.close());

/** Every poll's result, each kept as `event currency`; a failed poll fails the test. */
class Alerts {
	readonly seen: string[] = [];
	readonly items: IDataObject[] = [];

	add(result: PollResult): string[] {
		if (result.error) throw result.error;
		const items = result.abandoned ? [] : (result.items ?? []);
		this.items.push(...items);
		const events = items.map((item) => `${String(item.event)} ${String(item.currency)}`);
		this.seen.push(...events);
		return events;
	}
}

const balances = async () =>
	(await client.call('GET', '/users/fetch-integration')).body.data.fiatWallets as Record<
		string,
		number
	>;

test('a simulated day, a poll every 15 minutes (96 polls), two currencies: one low and one restored alert for each, at the polls after the changes', async () => {
	const poller = await Poller.create(parameters(USD, NGN), credentials);
	const alerts = new Alerts();
	const wallet = (
		await client.call('POST', `/trades/sell/assets/${ASSET_IDS.TRX_TEST}/generate-address`, {
			label: 'balance-day',
		})
	).body.data;
	/** What happens at each hour of the day (before that hour's first poll). */
	const day: Record<number, () => Promise<void>> = {
		// Two payouts of 600 USD: USD 10,000 → 8,800, below 9,000.
		3: async () => {
			for (const externalId of ['day-1', 'day-2'])
				expect(
					(
						await client.call(
							'POST',
							'/payments/withdraw/address',
							cryptoWithdrawal({ amount: 600, externalId }),
						)
					).status,
				).toBe(200);
		},
		// NGN set below its threshold.
		6: async () => client.sandbox.setBalances({ ngn: 4_900_000 }),
		// A top-up to exactly the USD threshold: equal is not below, so it is back.
		9: async () => client.sandbox.setBalances({ usd: 9000 }),
		// A deposit of 100 USD credits its NGN (at 1500 NGN per USD, less the 0.5% fee), once the fake API completes it.
		12: async () => {
			const deposit = {
				walletAddress: wallet.address,
				asset: 'TRX_TEST',
				amountInUSD: 100,
				cryptoReceived: 833.33,
				reference: 'day-ref',
				txHash: 'day-hash',
			};
			expect((await client.call('POST', '/trades/sell/mock-trade', deposit)).status).toBe(200);
		},
		// Back and forth within one poll interval: below and back before the next poll reads it.
		15: async () => {
			client.sandbox.setBalances({ usd: 100 });
			client.sandbox.setBalances({ usd: 9500 });
		},
	};
	const at: Record<string, string[]> = {};
	for (let poll = 0; poll < 96; poll++) {
		const minutes = poll * 15;
		if (minutes % 60 === 0) await day[minutes / 60]?.();
		const events = alerts.add(await poller.poll());
		if (events.length)
			at[
				`${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
			] = events;
		await client.sandbox.advanceClock('15m');
	}
	// The deposit completed within the poll interval after it (the fake API's lifecycle, 60 s).
	expect(await balances()).toMatchObject({ usd: 9500, ngn: 4_900_000 + 149_250 });
	expect(at).toEqual({
		'03:00': ['balance.low USD'],
		'06:00': ['balance.low NGN'],
		'09:00': ['balance.restored USD'],
		'12:15': ['balance.restored NGN'],
	});
	const low = alerts.items.find((item) => item.event === 'balance.low' && item.currency === 'USD');
	expect(low).toMatchObject({
		event: 'balance.low',
		// The service's time of the poll: its Date header (whole seconds, real time runs on meanwhile)
		// plus the milliseconds since that answer arrived, which depend on the machine's load.
		eventKey: expect.stringMatching(/^balance\.low:USD:2026-03-11T03:[0-5]\d:\d\d\.\d{3}Z$/),
		currency: 'USD',
		balance: 8800,
		threshold: 9000,
		summary: 'The USD balance is USD 8,800.00, below the threshold of USD 9,000.00',
		at: expect.stringMatching(/^2026-03-11T03:[0-5]\d:\d\d\.\d{3}Z$/),
		source: 'balances',
	});
	expect(
		alerts.items.find((item) => item.event === 'balance.restored' && item.currency === 'USD')
			?.summary,
	).toBe('The USD balance is back at USD 9,000.00, at or above the threshold of USD 9,000.00');
	// One request a poll: the account.
	expect(
		client.sandbox.requests.filter((r) => r.path === '/v1/users/fetch-integration').length,
	).toBe(96 + 1);
});

test('the threshold is the boundary: equal is not low, a cent below is, equal again is back', async () => {
	client.sandbox.setBalances({ usd: 9000 });
	const poller = await Poller.create(parameters(USD), credentials);
	const alerts = new Alerts();
	expect(alerts.add(await poller.poll())).toEqual([]);
	client.sandbox.setBalances({ usd: 8999.99 });
	expect(alerts.add(await poller.poll())).toEqual(['balance.low USD']);
	expect(alerts.add(await poller.poll())).toEqual([]);
	client.sandbox.setBalances({ usd: 9000 });
	expect(alerts.add(await poller.poll())).toEqual(['balance.restored USD']);
	expect(alerts.add(await poller.poll())).toEqual([]);
});

test('already below at the first poll after publishing: balance.low once, not again', async () => {
	client.sandbox.setBalances({ usd: 50 });
	const poller = await Poller.create(parameters(USD), credentials);
	const alerts = new Alerts();
	expect(alerts.add(await poller.poll())).toEqual(['balance.low USD']);
	for (let poll = 0; poll < 5; poll++) alerts.add(await poller.poll());
	expect(alerts.seen).toEqual(['balance.low USD']);
});

describe.each([
	{ name: 'one static data object (n8n 1.x, n8n 2.x without durable cursors)', stateCopies: false },
	{ name: "each poll's own copy of the state (n8n 2.x durable poll cursors)", stateCopies: true },
])('restarts and overlapping polls: $name', ({ stateCopies }) => {
	test('n8n restarts between polls (the static data as saved): low once, restored once', async () => {
		const poller = await Poller.create(parameters(USD, NGN), credentials, { stateCopies });
		const alerts = new Alerts();
		alerts.add(await poller.poll());
		client.sandbox.setBalances({ usd: 1000 });
		alerts.add(await poller.poll());
		for (let restart = 0; restart < 3; restart++) {
			poller.restart();
			alerts.add(await poller.poll());
		}
		client.sandbox.setBalances({ usd: 12_000 });
		poller.restart();
		alerts.add(await poller.poll());
		poller.restart();
		alerts.add(await poller.poll());
		expect(alerts.seen).toEqual(['balance.low USD', 'balance.restored USD']);
		expect(poller.staticData.balanceAlerts).toEqual({
			version: 1,
			standing: { USD: 'ok', NGN: 'ok' },
		});
	});

	test('two polls at once: one alert; the later poll reads nothing', async () => {
		const poller = await Poller.create(parameters(USD), credentials, { stateCopies });
		const alerts = new Alerts();
		alerts.add(await poller.poll());
		client.sandbox.setBalances({ usd: 1000 });
		const [a, b] = await Promise.all([poller.poll(), poller.poll()]);
		alerts.add(a);
		alerts.add(b);
		expect([a.items, b.items].filter((items) => items === null)).toHaveLength(1);
		expect(
			[...a.logs, ...b.logs].some(
				(log) => log.level === 'warn' && log.message.includes('still running'),
			),
		).toBe(true);
		alerts.add(await poller.poll());
		client.sandbox.setBalances({ usd: 9500 });
		const [c, d] = await Promise.all([poller.poll(), poller.poll()]);
		alerts.add(c);
		alerts.add(d);
		alerts.add(await poller.poll());
		expect(alerts.seen).toEqual(['balance.low USD', 'balance.restored USD']);
	});
});

test('a poll n8n abandons (past its budget: its items never run, its state is not committed): the next poll emits the alert, once', async () => {
	const poller = await Poller.create(parameters(USD), credentials, { stateCopies: true });
	const alerts = new Alerts();
	alerts.add(await poller.poll());
	client.sandbox.setBalances({ usd: 1000 });
	const abandoned = await poller.poll('trigger', { commit: false });
	expect(abandoned.abandoned).toBe(true);
	alerts.add(abandoned);
	expect(alerts.add(await poller.poll())).toEqual(['balance.low USD']);
	alerts.add(await poller.poll());
	expect(alerts.seen).toEqual(['balance.low USD']);
});

describe('a balance that cannot be read emits nothing (fail closed)', () => {
	test('a 429, then a failing service: no alert either way, the standing is kept, and the next poll that reads decides', async () => {
		const poller = await Poller.create(parameters(USD), credentials);
		const alerts = new Alerts();
		client.sandbox.setBalances({ usd: 1000 });
		alerts.add(await poller.poll());
		client.sandbox.setBalances({ usd: 9500 });
		client.sandbox.setFaults({ 'GET /users/fetch-integration': { nextN: { '429': 1 } } });
		const limited = await poller.poll();
		expect(alerts.add(limited)).toEqual([]);
		expect(
			limited.logs.some(
				(log) =>
					log.level === 'warn' &&
					log.message.includes('the balances could not be read (the service answered 429'),
			),
		).toBe(true);
		client.sandbox.setFaults({ 'GET /users/fetch-integration': { nextN: { '5xx': 10 } } });
		const failed = await poller.poll();
		expect(failed.error?.message).toBeDefined();
		expect(failed.items).toBeNull();
		client.sandbox.setFaults({});
		expect(alerts.add(await poller.poll())).toEqual(['balance.restored USD']);
		expect(alerts.seen).toEqual(['balance.low USD', 'balance.restored USD']);
	});

	test('an account record without a readable amount for a currency: that currency neither low nor restored until it reads again', async () => {
		let wallets: IDataObject | undefined = { usd: 500, ngn: 4_000_000 };
		const local = await startLocalServer(() => ({
			status: 200,
			body: {
				success: true,
				message: 'ok',
				data: wallets === undefined ? { id: 'acct' } : { fiatWallets: wallets },
			},
		}));
		try {
			const poller = await Poller.create(parameters(USD, NGN), {
				...credentials,
				baseUrl: local.url,
			});
			const alerts = new Alerts();
			expect(alerts.add(await poller.poll())).toEqual(['balance.low USD', 'balance.low NGN']);
			wallets = { usd: 'n/a', ngn: 6_000_000 };
			const unreadable = await poller.poll();
			expect(alerts.add(unreadable)).toEqual(['balance.restored NGN']);
			expect(
				unreadable.logs.some(
					(log) => log.level === 'warn' && log.message.includes('no readable USD balance'),
				),
			).toBe(true);
			wallets = undefined;
			expect(alerts.add(await poller.poll())).toEqual([]);
			wallets = { usd: 9000, ngn: 6_000_000 };
			expect(alerts.add(await poller.poll())).toEqual(['balance.restored USD']);
			// From no standing at all: an unreadable balance is not taken for a low one.
			const fresh = await Poller.create(parameters(USD), { ...credentials, baseUrl: local.url });
			wallets = { ngn: 1 };
			expect(new Alerts().add(await fresh.poll())).toEqual([]);
		} finally {
			await local.close();
		}
	});
});

test('Fetch Test Event (manual): each currency as the event it would be now, nothing kept', async () => {
	client.sandbox.setBalances({ usd: 1000 });
	const poller = await Poller.create(parameters(USD, NGN), credentials);
	const manual = await poller.poll('manual');
	expect(manual.error).toBeUndefined();
	expect(
		manual.items?.map(
			(item) => `${String(item.event)} ${String(item.currency)} ${String(item.balance)}`,
		),
	).toEqual(['balance.low USD 1000', 'balance.restored NGN 5000000']);
	expect(poller.staticData.balanceAlerts).toBeUndefined();
	// The first real poll still alerts.
	expect(new Alerts().add(await poller.poll())).toEqual(['balance.low USD']);
});

test('Thresholds are checked before any request: none, a currency twice, a negative amount', async () => {
	for (const [threshold, message] of [
		[[], 'Add a threshold in Thresholds'],
		[[USD, { currency: 'USD', amount: 5 }], 'USD is set twice'],
		[[{ currency: 'NGN', amount: -1 }], 'the amount for NGN must be a number of 0 or more'],
	] as Array<[IDataObject[], string]>) {
		client.sandbox.clearRequests();
		const result = await (await Poller.create(parameters(...threshold), credentials)).poll();
		expect(result.error?.message).toContain(message);
		expect(client.sandbox.requests).toHaveLength(0);
	}
});
