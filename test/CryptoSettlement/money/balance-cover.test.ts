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
