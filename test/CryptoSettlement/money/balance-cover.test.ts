/**
 * Dry Run says whether the account's balance covers the batch (docs/guardrails.md, "Does the
 * balance cover the batch?"): each item's debit (fee included, by the fee bearer) counted with the
 * run's items before it, against the USD balance Account → Get states; an unreadable balance is
 * never said to cover. Through n8n-core's WorkflowExecute against a local HTTP service.
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode, serversClosedAfterEach, shortBackoff } from '../../helpers/node';
import {
	envelope,
	localService,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';

const servers = serversClosedAfterEach();
// An Account → Get that fails is retried before the check says it cannot tell; the pauses are not what this tests.
shortBackoff();

/** The service: Account → Get as `account` answers, a TRC20 fee quote of 1.50 USD, rates, withdrawals. */
async function service(account: Reply) {
	const withdrawals = withdrawalService();
	const server = await localService((request: Seen): Reply => {
		const route = `${request.method} ${request.path.replace(/^\/v1/, '')}`;
		if (route === 'GET /users/fetch-integration') return account;
		if (route === 'POST /payments/estimate-network-fee')
			return {
				status: 200,
				body: envelope({ token: 'USDT', network: 'TRC20', fee: 1.5, feeCurrency: 'USD' }),
			};
		if (route === 'GET /trades/pbc/sell/rates')
			return {
				status: 200,
				body: envelope([{ symbol: 'BTC', rate: { NGN: 90_000_000 }, priceUSD: 60_000 }]),
			};
		return withdrawals.handler(request);
	});
	servers.push(server);
	const moneySent = () =>
		server.requests.filter(
			(r) => r.method === 'POST' && r.path.startsWith('/v1/payments/withdraw/'),
		).length;
	return { baseUrl: server.baseUrl, moneySent };
}

const accountWith = (fiatWallets: unknown, withdrawalFeeBearer = 'business'): Reply => ({
	status: 200,
	body: envelope({ withdrawalFeeBearer, fiatWallets }),
});

const dryRun: IDataObject = {
	resource: 'withdrawal',
	operation: 'createCrypto',
	dryRun: true,
	token: 'USDT',
	network: 'TRC20',
	walletAddress: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
	amountType: 'usd',
	amount: '={{ $json.amount }}',
	externalId: '={{ $json.ref }}',
};

/** Three vendors: 10, 20 and 15 USD; with the business bearing the 1.50 USD fee, 11.50, 21.50 and 16.50 leave. */
const ROWS = [
	{ amount: 10, ref: 'bc-1' },
	{ amount: 20, ref: 'bc-2' },
	{ amount: 15, ref: 'bc-3' },
];

const checks = (run: { items: Array<{ json: IDataObject }> }) =>
	run.items.map((item) => item.json.balanceCheck as IDataObject);

describe('Dry Run: does the balance cover the batch?', () => {
	test('covered: each row counts its fee and the rows before it; the last row states the whole batch', async () => {
		const { baseUrl, moneySent } = await service(
			accountWith({ usd: 100, ngn: 5_000_000, ghs: 50_000 }),
		);
		const run = await runNode(dryRun, { items: ROWS, credentials: { baseUrl } });
		expect(run.error).toBeUndefined();
		expect(
			checks(run).map(({ covers, status, itemNeeds, runNeeds, missing }) => ({
				covers,
				status,
				itemNeeds,
				runNeeds,
				missing,
			})),
		).toEqual([
			{ covers: true, status: 'covered', itemNeeds: 11.5, runNeeds: 11.5, missing: 0 },
			{ covers: true, status: 'covered', itemNeeds: 21.5, runNeeds: 33, missing: 0 },
			{ covers: true, status: 'covered', itemNeeds: 16.5, runNeeds: 49.5, missing: 0 },
		]);
		expect(checks(run)[2]).toMatchObject({
			currency: 'USD',
			balance: 100,
			summary:
				"The balance of USD 100.00 covers this payout and the run's 2 payouts before it (USD 49.50 in all), leaving USD 50.50.",
		});
		// The output keeps its shape: the balance check is added after what leaves the balance.
		expect(Object.keys(run.items[0].json).slice(0, 5)).toEqual([
			'dryRun',
			'message',
			'payout',
			'balanceCheck',
			'guardrails',
		]);
		expect(moneySent()).toBe(0);
	});

	test('not covered by the 3rd row of 3: the first two are covered, the third says how much is missing', async () => {
		const { baseUrl, moneySent } = await service(accountWith({ usd: '40.00', ngn: 0, ghs: 0 }));
		const run = await runNode(dryRun, { items: ROWS, credentials: { baseUrl } });
		expect(run.error).toBeUndefined();
		expect(checks(run).map(({ covers, status }) => `${String(covers)} ${String(status)}`)).toEqual([
			'true covered',
			'true covered',
			'false not covered',
		]);
		expect(checks(run)[2]).toEqual({
			covers: false,
			status: 'not covered',
			currency: 'USD',
			balance: 40,
			itemNeeds: 16.5,
			runNeeds: 49.5,
			missing: 9.5,
			summary:
				"The balance of USD 40.00 does not cover this payout and the run's 2 payouts before it (USD 49.50 in all): USD 9.50 is missing. Add at least USD 9.50 to the USD balance, or pay fewer rows.",
		});
		expect(moneySent()).toBe(0);
	});

	test('with the recipient bearing the fee, only the amounts leave the balance', async () => {
		const { baseUrl } = await service(accountWith({ usd: 45 }, 'user'));
		const run = await runNode(dryRun, { items: ROWS, credentials: { baseUrl } });
		expect(checks(run).map(({ covers, runNeeds }) => [covers, runNeeds])).toEqual([
			[true, 10],
			[true, 30],
			[true, 45],
		]);
	});

	test("a crypto amount is valued at the service's sell rate", async () => {
		const { baseUrl } = await service(accountWith({ usd: 100 }, 'user'));
		const btc = {
			...dryRun,
			token: 'BTC',
			network: undefined,
			feeLevel: 'low',
			walletAddress: 'bc1qgcujt69zrjhc4m5fmrc9puum7w8vvtwx3a22dw',
			amountType: 'crypto',
			cryptoAmount: '={{ $json.amount }}',
		};
		const run = await runNode(btc, {
			items: [
				{ amount: 0.001, ref: 'btc-1' },
				{ amount: 0.001, ref: 'btc-2' },
			],
			credentials: { baseUrl },
		});
		expect(run.error).toBeUndefined();
		expect(
			checks(run).map(({ covers, status, runNeeds, missing }) => ({
				covers,
				status,
				runNeeds,
				missing,
			})),
		).toEqual([
			{ covers: true, status: 'covered', runNeeds: 60, missing: 0 },
			{ covers: false, status: 'not covered', runNeeds: 120, missing: 20 },
		]);
	});

	test.each([
		[
			'Account → Get fails',
			{
				status: 500,
				body: { success: false, message: 'internal error', meta: {}, errors: [], data: {} },
			},
			/balances could not be read \(Account → Get failed: .*HTTP 500/,
		],
		[
			'the USD balance is not a number',
			accountWith({ usd: 'plenty', ngn: 10 }),
			/the account states no USD balance/,
		],
		[
			'no balances are stated',
			{ status: 200, body: envelope({ withdrawalFeeBearer: 'business' }) },
			/states no balances/,
		],
	] as Array<[string, Reply, RegExp]>)(
		'balance unreadable (%s): it cannot tell, and never says it covers',
		async (_case, account, why) => {
			const { baseUrl, moneySent } = await service(account);
			const run = await runNode(dryRun, { items: ROWS, credentials: { baseUrl } });
			expect(run.error).toBeUndefined();
			for (const check of checks(run)) {
				expect(check).toMatchObject({ covers: false, status: 'cannot tell' });
				expect(String(check.summary)).toMatch(
					/^Whether the balance covers this payout cannot be told: /,
				);
				expect(String(check.summary)).toMatch(why);
				expect(String(check.summary)).toMatch(/check the balance before approving/);
			}
			expect(moneySent()).toBe(0);
		},
	);

	test('a row already paid takes nothing: the rows after it are counted without it', async () => {
		const { baseUrl } = await service(accountWith({ usd: 30 }, 'user'));
		await runNode({ ...dryRun, dryRun: false }, { items: [ROWS[1]], credentials: { baseUrl } });
		const run = await runNode(dryRun, { items: ROWS, credentials: { baseUrl } });
		expect(run.error).toBeUndefined();
		expect(run.items[1].json).toMatchObject({ alreadySubmitted: true });
		expect(
			checks(run).map((check) => (check ? [check.covers, check.runNeeds] : 'already paid')),
		).toEqual([[true, 10], 'already paid', [true, 25]]);
	});
});

// The balance check is the node's own words (docs/guardrails.md, "Secrets: what is hidden where"): its
// figures and sentences are the same bytes whatever the PIN, even a PIN that is one of its figures (a
// 1000 USD row, a 9000 USD balance, 2026 USD needed); a refusal of Account → Get that echoes the PIN
// or the app secret is still hidden in its "cannot tell" sentence.

const APP = 'app-secret-echoed-balance-4b7e';
/** A PIN that is none of the output's figures: the run every other is compared with. */
const NOWHERE = 'pin-nowhere-6d21';

/** With the recipient bearing the fee: 1000, then 2026 in all, then 9000 in all (the balance), then 1000 missing. */
const PIN_ROWS = [
	{ amount: 1000, ref: '1000' },
	{ amount: 1026, ref: '2026' },
	{ amount: 6974, ref: '9000' },
	{ amount: 1000, ref: '0000' },
];

/** Each PIN (and app secret) that is also a figure of the output. */
const CASES: Array<{ pin: string; appSecret: string }> = [
	...['9000', '1000', '2026', '0000', '000000'].map((pin) => ({ pin, appSecret: APP })),
	{ pin: '1000', appSecret: '9000' },
];

const run = async (baseUrl: string, pin: string, appSecret = APP) => {
	const result = await runNode(dryRun, {
		items: PIN_ROWS,
		credentials: { baseUrl, pin, appSecret },
	});
	expect(result.error).toBeUndefined();
	return result.items.map((item) => item.json);
};

describe('Dry Run balance check: the same bytes whatever the PIN', () => {
	test.each(['user', 'business'])(
		'fee borne by the %s: every PIN that is a figure of the output changes nothing',
		async (bearer) => {
			const { baseUrl } = await service({
				status: 200,
				body: envelope({
					withdrawalFeeBearer: bearer,
					fiatWallets: { usd: '9000', ngn: 2026, ghs: '1000.00' },
				}),
			});
			const without = await run(baseUrl, NOWHERE);
			const checks = without.map((json) => json.balanceCheck as IDataObject);
			if (bearer === 'user') {
				expect(
					checks.map(({ balance, itemNeeds, runNeeds, missing }) => [
						balance,
						itemNeeds,
						runNeeds,
						missing,
					]),
				).toEqual([
					[9000, 1000, 1000, 0],
					[9000, 1026, 2026, 0],
					[9000, 6974, 9000, 0],
					[9000, 1000, 10000, 1000],
				]);
				expect(checks[3].summary).toBe(
					"The balance of USD 9,000.00 does not cover this payout and the run's 3 payouts before it (USD 10,000.00 in all): USD 1,000.00 is missing. Add at least USD 1,000.00 to the USD balance, or pay fewer rows.",
				);
			} else {
				expect(checks.map(({ covers }) => covers)).toEqual([true, true, false, false]);
			}
			const text = JSON.stringify(without);
			for (const figure of ['9000', '1000', '2026', '"0000"']) expect(text).toContain(figure);
			for (const { pin, appSecret } of CASES)
				expect(JSON.stringify(await run(baseUrl, pin, appSecret))).toBe(text);
		},
	);
});

describe('Dry Run balance check: a refusal of Account → Get that echoes the secrets is still hidden', () => {
	test.each(CASES)('PIN $pin, app secret $appSecret', async ({ pin, appSecret }) => {
		const { baseUrl } = await service({
			status: 422,
			body: {
				success: false,
				message: `invalid pin ${pin} for ${appSecret}`,
				errors: [{ field: 'pin', message: `pin ${pin} is wrong`, value: pin }],
				meta: {},
				data: {},
			},
		});
		const items = await run(baseUrl, pin, appSecret);
		for (const [index, json] of items.entries()) {
			const check = json.balanceCheck as IDataObject;
			expect(check).toMatchObject({ covers: false, status: 'cannot tell' });
			expect(check.summary).toBe(
				"Whether the balance covers this payout cannot be told: the account's balances could not be read (Account → Get answered HTTP 422: invalid pin [redacted] for [redacted]). Do not count on it: check the balance before approving.",
			);
			// The row's own figures (its amount, its External ID) are kept.
			expect(json.payout).toMatchObject({ amount: PIN_ROWS[index].amount });
			expect(JSON.stringify(json)).toContain(`"${PIN_ROWS[index].ref}"`);
			expect(JSON.stringify(check)).not.toMatch(new RegExp(`(?<![\\w.,])${pin}(?![\\w.,])`));
			expect(JSON.stringify(check)).not.toContain(`for ${appSecret}`);
		}
	});
});
