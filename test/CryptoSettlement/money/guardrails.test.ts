/**
 * The credential owner's guardrails and Dry Run, through n8n-core's engine against a real local
 * HTTP server: limits per withdrawal and per day, valuation at the service's rates, allowed
 * destinations, a mapped External ID in Production, AI agents, batch-wide refusals.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import {
	api,
	CREDENTIALS,
	ok,
	recordRequests,
	rl,
	runAsTool,
	runNode,
	serversClosedAfterEach,
	shortBackoff,
} from '../../helpers/node';
import {
	envelope,
	localService,
	refusal,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';
import { onlyDateAt } from '../../helpers/clock';

const TODAY = new Date();
const at = (daysAgo: number, hour = 0) =>
	new Date(
		Date.UTC(TODAY.getUTCFullYear(), TODAY.getUTCMonth(), TODAY.getUTCDate() - daysAgo, hour),
	).toISOString();

const RATES = [
	{ symbol: 'USDT', rate: { NGN: 1500, GHS: 15 }, priceUSD: 1 },
	{ symbol: 'BTC', rate: { NGN: 90_000_000, GHS: 900_000 }, priceUSD: 60_000 },
];

/** The service: withdrawals by External ID, rates, saved payout addresses, today's list, swaps and fee quotes. */
async function service(
	options: {
		listed?: IDataObject[];
		endless?: boolean;
		rates?: Reply;
		saved?: IDataObject[];
		serviceDate?: string;
	} = {},
) {
	const withdrawals = withdrawalService();
	const server = await localService((request: Seen): Reply => {
		const route = `${request.method} ${request.path.replace(/^\/v1/, '')}`;
		if (route === 'GET /trades/pbc/sell/rates')
			return options.rates ?? { status: 200, body: envelope(RATES) };
		if (route === 'GET /payments/wallet-addresses')
			return { status: 200, body: envelope(options.saved ?? []) };
		if (route === 'GET /payments/withdrawals') {
			// `listed` in pages of the size asked for; `endless`: yesterday's withdrawals, oldest first, page after page.
			const page = Number(request.query.get('page'));
			const size = Number(request.query.get('size'));
			const listed = options.endless
				? Array.from({ length: size }, (_, i) => ({
						id: `e-${page}-${i}`,
						status: 'completed',
						amount: 1,
						createdAt: new Date(Date.parse(at(1)) + page * size + i).toISOString(),
					}))
				: (options.listed ?? []).slice((page - 1) * size, page * size);
			return {
				status: 200,
				body: {
					...envelope(listed),
					meta: {
						page,
						hasNextPage: options.endless === true || page * size < (options.listed ?? []).length,
					},
				},
				...(options.serviceDate ? { headers: { date: options.serviceDate } } : {}),
			};
		}
		if (route === 'POST /payments/swap-currency')
			return {
				status: 200,
				body: { message: 'currency swap successful', success: true, data: {} },
			};
		if (route === 'POST /payments/estimate-network-fee')
			return {
				status: 200,
				body: envelope({ token: 'USDT', network: 'TRC20', fee: 1.5, feeCurrency: 'USD' }),
			};
		if (route === 'GET /users/fetch-integration')
			return {
				status: 200,
				body: envelope({
					withdrawalFeeBearer: 'user',
					fiatWallets: { usd: 10000, ngn: 5000000, ghs: 50000 },
				}),
			};
		return withdrawals.handler(request);
	});
	servers.push(server);
	const count = (method: string, path: string) =>
		server.requests.filter((r) => r.method === method && r.path === `/v1${path}`).length;
	const moneySent = () =>
		server.requests.filter(
			(r) =>
				r.method === 'POST' &&
				(r.path.startsWith('/v1/payments/withdraw/') || r.path === '/v1/payments/swap-currency'),
		).length;
	return { server, count, moneySent, baseUrl: server.baseUrl };
}

const servers = serversClosedAfterEach();
afterEach(() => nock.cleanAll());

const crypto = (extra: IDataObject = {}): IDataObject => ({
	resource: 'withdrawal',
	operation: 'createCrypto',
	token: 'USDT',
	network: 'TRC20',
	walletAddress: '={{ $json.address ?? "TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk" }}',
	amountType: 'usd',
	amount: '={{ $json.amount }}',
	externalId: '={{ $json.ref }}',
	...extra,
});
const btc = (extra: IDataObject = {}): IDataObject => ({
	resource: 'withdrawal',
	operation: 'createCrypto',
	token: 'BTC',
	feeLevel: 'low',
	walletAddress: 'bc1qgcujt69zrjhc4m5fmrc9puum7w8vvtwx3a22dw',
	amountType: 'crypto',
	cryptoAmount: '={{ $json.amount }}',
	externalId: '={{ $json.ref }}',
	...extra,
});
const swap = {
	resource: 'currency',
	operation: 'swap',
	amount: '={{ $json.amount }}',
	from: 'ngn',
	to: 'ghs',
};

describe('Max per withdrawal', () => {
	test('a batch with one item over the limit sends nothing, and the error names the guardrail, limit and value', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runNode(crypto(), {
			items: [
				{ amount: 100, ref: 'p-1' },
				{ amount: '812.40', ref: 'p-2' },
			],
			credentials: { baseUrl, maxPerWithdrawalUsd: 500 },
		});
		expect(run.error?.message).toBe(
			'1 of 2 rows are invalid, so nothing was sent: row 2 (p-2, n8n item 1): Max per withdrawal is 500.00 USD; this item is 812.40 USD',
		);
		expect(run.error?.description).toMatch(
			/^Row 2 \(p-2, n8n item 1\): set by the credential's owner in the Crypto Settlement API credential, under Guardrails → Max per Withdrawal \(USD\)\. Every row is checked/,
		);
		expect(moneySent()).toBe(0);
	});

	test('with Continue On Fail only the refused item fails', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runNode(crypto(), {
			continueOnFail: true,
			items: [
				{ amount: 100, ref: 'p-1' },
				{ amount: 812.4, ref: 'p-2' },
			],
			credentials: { baseUrl, maxPerWithdrawalUsd: 500 },
		});
		expect(run.items[0].json).toMatchObject({ externalId: 'p-1', alreadySubmitted: false });
		expect(run.items[1].json).toMatchObject({
			error: 'Max per withdrawal is 500.00 USD; this item is 812.40 USD',
			message: expect.stringMatching(/^Row 2 \(p-2, n8n item 1\): Set by the credential's owner/),
		});
		expect(moneySent()).toBe(1);
	});

	test('crypto amounts are valued at the service rate, read once per run', async () => {
		const { baseUrl, moneySent, count } = await service();
		const run = await runNode(btc(), {
			continueOnFail: true,
			items: [
				{ amount: '0.001', ref: 'b-1' },
				{ amount: '0.01', ref: 'b-2' },
				{ amount: '0.002', ref: 'b-3' },
			],
			credentials: { baseUrl, maxPerWithdrawalUsd: 500 },
		});
		expect(run.items.map((item) => item.json.error ?? 'sent')).toEqual([
			'sent',
			'Max per withdrawal is 500.00 USD; this item is 600.00 USD',
			'sent',
		]);
		expect(count('GET', '/trades/pbc/sell/rates')).toBe(1);
		expect(moneySent()).toBe(2);
	});

	test('an item that cannot be valued is refused (fail closed)', async () => {
		const { baseUrl, moneySent } = await service({
			rates: { status: 200, body: envelope([{ symbol: 'USDT', priceUSD: 1 }]) },
		});
		const run = await runNode(btc(), {
			items: [{ amount: '0.001', ref: 'b-1' }],
			credentials: { baseUrl, maxPerWithdrawalUsd: 500 },
		});
		expect(run.error?.message).toBe(
			"This item cannot be valued in USD, so its limits cannot be checked: the service's rates give no USD price for BTC",
		);
		expect(moneySent()).toBe(0);
	});

	test('a swap is valued from its local currency', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runNode(swap, {
			items: [{ amount: 1_000_000 }],
			credentials: { baseUrl, maxPerWithdrawalUsd: 500 },
		});
		expect(run.error?.message).toBe('Max per withdrawal is 500.00 USD; this item is 666.67 USD');
		expect(moneySent()).toBe(0);
	});
});

describe('Max per day', () => {
	const listed = [
		{ id: 'w1', status: 'pending', amount: 300, createdAt: at(0, 1) },
		{ id: 'w2', status: 'completed', amount: 200, createdAt: at(0, 0) },
		{ id: 'w3', status: 'rejected', amount: 5000, createdAt: at(0, 0) },
		{ id: 'w4', status: 'completed', amount: 7000, trade: 't-1', createdAt: at(0, 0) },
		{ id: 'w5', status: 'completed', amount: 9000, createdAt: at(1, 23) },
	];

	test("today's total comes from the service's list (pending and completed count), plus what the run sends", async () => {
		const { baseUrl, moneySent } = await service({ listed });
		const run = await runNode(crypto(), {
			continueOnFail: true,
			items: [
				{ amount: 300, ref: 'd-1' },
				{ amount: 300, ref: 'd-2' },
				{ amount: 200, ref: 'd-3' },
			],
			credentials: { baseUrl, maxPerDayUsd: 1000 },
		});
		expect(run.items.map((item) => item.json.error ?? 'sent')).toEqual([
			'sent',
			"Max per day is 1000.00 USD; today's withdrawals total 800.00 USD and this item is 300.00 USD",
			'sent',
		]);
		expect(moneySent()).toBe(2);
	});

	describe("today's withdrawals count whatever the list's order", () => {
		// 250 withdrawals from yesterday and 50 of 20 USD from today (1,000 USD): today's are on page 3
		// of an oldest-first list, and on page 1 of a newest-first one.
		const yesterday = Array.from({ length: 250 }, (_, i) => ({
			id: `y-${i}`,
			status: 'completed',
			amount: 4,
			createdAt: new Date(Date.parse(at(1)) + i * 60_000).toISOString(),
		}));
		const today = Array.from({ length: 50 }, (_, i) => ({
			id: `t-${i}`,
			status: 'completed',
			amount: 20,
			createdAt: new Date(Date.parse(at(0)) + i * 1000).toISOString(),
		}));

		test.each([
			['oldest first', [...yesterday, ...today]],
			['newest first', [...yesterday, ...today].reverse()],
		])('%s: the 1,000 USD of today are counted', async (_order, listed) => {
			const { baseUrl, moneySent, count } = await service({ listed });
			const run = await runNode(crypto(), {
				items: [{ amount: 60, ref: 'o-1' }],
				credentials: { baseUrl, maxPerDayUsd: 1000 },
			});
			expect(run.error?.message).toBe(
				"Max per day is 1000.00 USD; today's withdrawals total 1000.00 USD and this item is 60.00 USD",
			);
			expect(run.error?.description).toMatch(
				/under Guardrails → Max per Day \(USD\)\. Nothing was sent/,
			);
			expect(moneySent()).toBe(0);
			// One page that looks newest first proves nothing about the next: every page is read (daily-limit.test.ts);
			// and a list that states no count (no meta.totalDocs) is read twice: two walks that saw the same records.
			expect(count('GET', '/payments/withdrawals')).toBe(6);
		});

		test('a list longer than the page budget refuses, naming the budget (fail closed)', async () => {
			const { baseUrl, moneySent } = await service({ endless: true });
			const run = await runNode(crypto(), {
				items: [{ amount: 5, ref: 'o-2' }],
				credentials: { baseUrl, maxPerDayUsd: 1000 },
			});
			expect(run.error?.message).toBe(
				"Max per day could not be checked, so nothing is sent: the service's withdrawal list is longer than the node reads for one check (1010 pages of 100), so today's withdrawals could not be counted",
			);
			expect(moneySent()).toBe(0);
		}, 120_000);
	});

	describe("today is n8n's UTC day; the service's Date header moves it by minutes at most", () => {
		test.each([
			['days ahead', 3],
			['days behind', -3],
		])('a Date header %s refuses, nothing is sent', async (_title, days) => {
			// n8n's today holds 900 USD; a header days away would make it another day, with nothing in it.
			const listed = [{ id: 'w9', status: 'pending', amount: 900, createdAt: at(0, 0) }];
			const serviceDate = new Date(Date.now() + days * 86_400_000).toUTCString();
			const { baseUrl, moneySent } = await service({ listed, serviceDate });
			const run = await runNode(crypto(), {
				items: [{ amount: 200, ref: `c-${days}` }],
				credentials: { baseUrl, maxPerDayUsd: 1000 },
			});
			expect(run.error?.message).toBe(
				`Max per day could not be checked, so nothing is sent: the service's clock (Date: ${serviceDate}) is ${Math.abs(days) * 1440} minutes ${days > 0 ? 'ahead of' : 'behind'} n8n's clock, more than the 5 minutes allowed, so which day it is cannot be told; check the clock of the n8n server`,
			);
			expect(moneySent()).toBe(0);
		});

		describe("near midnight (n8n's clock faked at 23:58 UTC)", () => {
			const midnight = Date.UTC(2026, 5, 2);
			beforeEach(() => {
				onlyDateAt(midnight - 2 * 60_000);
			});
			afterEach(() => jest.useRealTimers());
			const listed = [
				{
					id: 'w8',
					status: 'pending',
					amount: 900,
					createdAt: new Date(midnight - 3_600_000).toISOString(),
				},
			];

			test("a header 3 minutes ahead moves today to the service's new day", async () => {
				const { baseUrl, moneySent } = await service({
					listed,
					serviceDate: new Date(midnight + 60_000).toUTCString(),
				});
				const run = await runNode(crypto(), {
					items: [{ amount: 200, ref: 'm-1' }],
					credentials: { baseUrl, maxPerDayUsd: 1000 },
				});
				expect(run.error).toBeUndefined();
				expect(moneySent()).toBe(1);
			});

			test("a header in step with n8n's clock keeps n8n's day", async () => {
				const { baseUrl, moneySent } = await service({
					listed,
					serviceDate: new Date(midnight - 60_000).toUTCString(),
				});
				const run = await runNode(crypto(), {
					items: [{ amount: 200, ref: 'm-2' }],
					credentials: { baseUrl, maxPerDayUsd: 1000 },
				});
				expect(run.error?.message).toBe(
					"Max per day is 1000.00 USD; today's withdrawals total 900.00 USD and this item is 200.00 USD",
				);
				expect(moneySent()).toBe(0);
			});
		});
	});

	test('two runs at once in one process: the second counts what the first is about to send', async () => {
		const { baseUrl, moneySent } = await service();
		const [a, b] = await Promise.all([
			runNode(crypto(), {
				items: [{ amount: 600, ref: 'r-a' }],
				credentials: { baseUrl, maxPerDayUsd: 1000 },
				executionId: 'run-a',
			}),
			runNode(crypto(), {
				items: [{ amount: 600, ref: 'r-b' }],
				credentials: { baseUrl, maxPerDayUsd: 1000 },
				executionId: 'run-b',
			}),
		]);
		expect([a.error?.message, b.error?.message].filter(Boolean)).toEqual([
			"Max per day is 1000.00 USD; today's withdrawals total 600.00 USD and this item is 600.00 USD",
		]);
		expect(moneySent()).toBe(1);
	});

	test('a list that cannot be read refuses every item', async () => {
		const { baseUrl, moneySent } = await service({
			listed: [{ id: 'x', status: 'pending', amount: 1 }],
		});
		const run = await runNode(crypto(), {
			items: [{ amount: 5, ref: 'd-9' }],
			credentials: { baseUrl, maxPerDayUsd: 1000 },
		});
		expect(run.error?.message).toBe(
			'Max per day could not be checked, so nothing is sent: withdrawal x has no creation date',
		);
		expect(moneySent()).toBe(0);
	});
});

describe('Allowed destinations', () => {
	// An Ethereum-style address is valid on ERC20 and BSC alike: saved for one, it is paid to on the other.
	const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
	const saved = [
		{
			_id: 's1',
			address: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
			token: 'USDT',
			network: 'TRC20',
			label: 'treasury',
		},
		{ _id: 's5', address: EVM, token: 'USDT', network: 'ERC20', label: 'treasury on Ethereum' },
	];

	test('saved only: the saved address passes; another address, or the saved one on another network, is refused', async () => {
		const { baseUrl, moneySent } = await service({ saved });
		const run = await runNode(crypto({ network: '={{ $json.network ?? "TRC20" }}' }), {
			continueOnFail: true,
			items: [
				{ amount: 5, ref: 'a-1' },
				{ amount: 5, ref: 'a-2', address: 'TJ1oLciuSkVMDorz4vFy7yckiRfjp5jEdC' },
				{ amount: 5, ref: 'a-3', address: EVM, network: 'BSC' },
			],
			credentials: { baseUrl, destinations: 'savedOnly' },
		});
		expect(run.items.map((item) => item.json.error ?? 'sent')).toEqual([
			'sent',
			'Destination TJ1oLciuSkVMDorz4vFy7yckiRfjp5jEdC (USDT on TRC20) is not a saved payout address, and this credential pays only to saved ones',
			`Destination ${EVM} (USDT on BSC) is not a saved payout address, and this credential pays only to saved ones`,
		]);
		expect(moneySent()).toBe(1);
	});

	test('saved only: a saved record vouches only for what it names (no token: nothing; a stablecoin without network: nothing)', async () => {
		const { baseUrl, moneySent } = await service({
			saved: [
				{ _id: 's2', address: 'TJv5ijCL5s6AKaHkF2gkJ9WsX3kX2A79S2', label: 'no token' },
				{
					_id: 's3',
					address: 'TANFgfPMTaoYcztYqR5FSYZBJsC8j9REaw',
					token: 'USDT',
					label: 'no network',
				},
				{
					_id: 's4',
					address: 'bc1qgcujt69zrjhc4m5fmrc9puum7w8vvtwx3a22dw',
					token: 'BTC',
					label: 'a UTXO coin has no network',
				},
			],
		});
		const run = await runNode(crypto(), {
			continueOnFail: true,
			items: [
				{ amount: 5, ref: 'n-1', address: 'TJv5ijCL5s6AKaHkF2gkJ9WsX3kX2A79S2' },
				{ amount: 5, ref: 'n-2', address: 'TANFgfPMTaoYcztYqR5FSYZBJsC8j9REaw' },
			],
			credentials: { baseUrl, destinations: 'savedOnly' },
		});
		expect(run.items.map((item) => item.json.error ?? 'sent')).toEqual([
			'Destination TJv5ijCL5s6AKaHkF2gkJ9WsX3kX2A79S2 (USDT on TRC20) is not a saved payout address, and this credential pays only to saved ones',
			'Destination TANFgfPMTaoYcztYqR5FSYZBJsC8j9REaw (USDT on TRC20) is not a saved payout address, and this credential pays only to saved ones',
		]);
		const utxo = await runNode(btc(), {
			items: [{ amount: '0.001', ref: 'n-3' }],
			credentials: { baseUrl, destinations: 'savedOnly' },
		});
		expect(utxo.error).toBeUndefined();
		expect(moneySent()).toBe(1);
	});

	test('allow list: TOKEN:NETWORK:address and bare addresses', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runNode(crypto({ network: '={{ $json.network ?? "TRC20" }}' }), {
			continueOnFail: true,
			items: [
				{ amount: 5, ref: 'l-1', address: 'TUBxXdmvckL2QinWZ8DbFU4hn2XggLbShV' },
				{ amount: 5, ref: 'l-2', address: EVM, network: 'BSC' },
				{
					amount: 5,
					ref: 'l-3',
					address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
					network: 'BSC',
				},
			],
			credentials: {
				baseUrl,
				destinations: 'allowList',
				allowedAddresses: `USDT:TRC20:TUBxXdmvckL2QinWZ8DbFU4hn2XggLbShV\nUSDT:ERC20:${EVM}\n\n0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB`,
			},
		});
		expect(run.items.map((item) => item.json.error ?? 'sent')).toEqual([
			'sent',
			`Destination ${EVM} (USDT on BSC) is not in the credential's allowed addresses`,
			'sent',
		]);
		expect(moneySent()).toBe(2);
	});
});

describe('Guardrail values the node cannot read refuse every payment, naming the guardrail, its value and where to change it', () => {
	const WHERE = (label: string) =>
		`Set by the credential's owner in the Crypto Settlement API credential, under Guardrails → ${label}. Nothing was sent for this item.`;
	const LIMIT = 'a number of USD, 0 for no limit';
	const DESTINATIONS =
		'one of Any Address, Saved Payout Addresses Only, Addresses Listed Below Only';
	test.each([
		['Max per Withdrawal (USD)', '-1', { maxPerWithdrawalUsd: -1 }, LIMIT],
		['Max per Withdrawal (USD)', '"abc"', { maxPerWithdrawalUsd: 'abc' }, LIMIT],
		['Max per Day (USD)', 'NaN', { maxPerDayUsd: Number.NaN }, LIMIT],
		['Max per Day (USD)', '"-5"', { maxPerDayUsd: '-5' }, LIMIT],
		['Allowed Destinations', '"allowlist"', { destinations: 'allowlist' }, DESTINATIONS],
		['Allowed Destinations', '"saved"', { destinations: 'saved' }, DESTINATIONS],
		[
			'Allowed Addresses',
			'""',
			{ destinations: 'allowList', allowedAddresses: '' },
			'at least one address, as Addresses Listed Below Only is chosen',
		],
		[
			'Allowed Addresses',
			'"# to do\\n"',
			{ destinations: 'allowList', allowedAddresses: '# to do\n' },
			'at least one address, as Addresses Listed Below Only is chosen',
		],
		[
			'Allowed Addresses',
			'"USDT:TRX:TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk"',
			{
				destinations: 'allowList',
				allowedAddresses:
					'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk\nUSDT:TRX:TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
			},
			'a line starting with USDT reads USDT:ERC20|TRC20|BSC|SOL|TON:address',
		],
		[
			'Allowed Addresses',
			'"USDT:TRC20"',
			{ destinations: 'allowList', allowedAddresses: 'USDT:TRC20' },
			'a line starting with USDT reads USDT:ERC20|TRC20|BSC|SOL|TON:address',
		],
		[
			'Allowed Addresses',
			'"BTC:MAIN:bc1qgcujt69zrjhc4m5fmrc9puum7w8vvtwx3a22dw"',
			{
				destinations: 'allowList',
				allowedAddresses: 'BTC:MAIN:bc1qgcujt69zrjhc4m5fmrc9puum7w8vvtwx3a22dw',
			},
			'a line starting with BTC reads BTC::address',
		],
		[
			'Allowed Addresses',
			'"TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk TJ1oLciuSkVMDorz4vFy7yckiRfjp5jEdC"',
			{
				destinations: 'allowList',
				allowedAddresses: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk TJ1oLciuSkVMDorz4vFy7yckiRfjp5jEdC',
			},
			'one address a line, without spaces',
		],
	])('%s = %s', async (label, shown, guardrail, rule) => {
		const { baseUrl, moneySent, server } = await service({
			saved: [{ address: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk', token: 'USDT', network: 'TRC20' }],
		});
		const expected = `The credential's guardrail '${label}' is ${shown}, which the node cannot read (it must be ${rule}), so nothing is sent`;
		const payout = await runNode(crypto(), {
			items: [{ amount: 5, ref: 'g-1' }],
			credentials: { baseUrl, ...guardrail },
		});
		expect(payout.error?.message).toBe(expected);
		expect(payout.error?.description).toBe(WHERE(label));
		const swapped = await runNode(swap, {
			items: [{ amount: 1500 }],
			credentials: { baseUrl, ...guardrail },
		});
		expect(swapped.error?.message).toBe(expected);
		expect(moneySent()).toBe(0);
		// The one request is a read: whether the External ID already holds this payment (a guardrail never hides one).
		expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /v1/payments/withdrawal/g-1',
		]);
	});

	test('a guardrail n8n stored as nothing (never set) is its default: no limit, any destination', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runNode(crypto(), {
			items: [{ amount: 5, ref: 'g-2' }],
			credentials: {
				baseUrl,
				maxPerWithdrawalUsd: '',
				maxPerDayUsd: undefined,
				destinations: '',
				allowedAddresses: undefined,
			},
		});
		expect(run.error).toBeUndefined();
		expect(moneySent()).toBe(1);
	});
});

describe('Require External ID in Production', () => {
	const production = { ...CREDENTIALS, environment: 'production' };
	beforeAll(() => nock.disableNetConnect());
	afterAll(() => nock.enableNetConnect());

	test('a derived External ID is refused before any request; a mapped one goes', async () => {
		const requests = recordRequests();
		const refused = await runNode(crypto({ externalId: '' }), {
			items: [{ amount: 5 }],
			credentials: production,
		});
		expect(refused.error?.message).toBe(
			"'External ID' is required: this Production credential moves money only with a mapped External ID",
		);
		expect(requests.count()).toBe(0);
		nock.cleanAll();

		api(production)
			.get('/payments/withdrawal/m-1')
			.reply(404, { success: false, message: 'withdrawal not found', data: {} });
		api(production)
			.post('/payments/withdraw/address')
			.reply(200, ok({ id: 'wd-1' }, 'withdrawal initiated successfully'));
		const mapped = await runNode(crypto({ returnFullRecord: false }), {
			items: [{ amount: 5, ref: 'm-1' }],
			credentials: production,
		});
		expect(mapped.error).toBeUndefined();
		expect(mapped.items[0].json).toMatchObject({ id: 'wd-1', externalId: 'm-1' });
	});
});

describe('AI agents', () => {
	test('a withdrawal by an agent is refused with words the model can read, and nothing is sent', async () => {
		const { baseUrl, moneySent, server } = await service();
		const run = await runAsTool(crypto(), { baseUrl }, [{ amount: 5, ref: 'ai-1' }]);
		expect(run.error?.message).toBe(
			'This tool may not move money: the owner of the credential has not allowed AI agents to make payments. Ask a person to make this payment.',
		);
		expect(moneySent()).toBe(0);
		// The one request is a read: whether the External ID already holds this payment (issue 33, point 10).
		expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /v1/payments/withdrawal/ai-1',
		]);
	});

	// (with a human review required, as by default, see agent-review.test.ts)
	test('allowed, every other guardrail still applies; reads are always allowed', async () => {
		const { baseUrl, moneySent } = await service();
		const allowed = {
			baseUrl,
			allowAgentPayments: true,
			agentPaymentsNeedHumanReview: false,
			maxPerWithdrawalUsd: 50,
		};
		const over = await runAsTool(crypto(), allowed, [{ amount: 80, ref: 'ai-2' }]);
		expect(over.error?.message).toBe('Max per withdrawal is 50.00 USD; this item is 80.00 USD');
		const within = await runAsTool(crypto(), allowed, [{ amount: 20, ref: 'ai-3' }]);
		expect(within.error).toBeUndefined();
		expect(moneySent()).toBe(1);

		const read = await service();
		nock.cleanAll();
		const account = await runAsTool(
			{ resource: 'payoutAddress', operation: 'getAll', returnAll: true },
			{ baseUrl: read.baseUrl },
		);
		expect(account.error).toBeUndefined();
	});
});

describe('Dry run', () => {
	test('a crypto withdrawal runs every check and outputs what would be sent, with the fee estimate; nothing is sent', async () => {
		const { baseUrl, moneySent, count } = await service();
		const run = await runNode(crypto({ additionalFields: { dryRun: true } }), {
			items: [{ amount: 25, ref: 'dry-1' }],
			credentials: { baseUrl, maxPerWithdrawalUsd: 500, maxPerDayUsd: 1000 },
		});
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toEqual({
			dryRun: true,
			message: 'Dry run: every check passed; nothing was sent',
			externalId: 'dry-1',
			valueUsd: 25,
			request: {
				method: 'POST',
				path: '/payments/withdraw/address',
				body: {
					token: 'USDT',
					network: 'TRC20',
					walletAddress: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
					amount: 25,
					externalId: 'dry-1',
				},
			},
			networkFee: { token: 'USDT', network: 'TRC20', fee: 1.5, feeCurrency: 'USD' },
			guardrails: {
				environment: 'sandbox',
				maxPerWithdrawal: '500.00 USD',
				maxPerDay: '1000.00 USD',
				destinations: 'any address',
				agentPayments: 'not allowed',
				subWorkflowPayments: 'not allowed',
				notLimited: ['where crypto goes'],
			},
			payout: {
				amount: 25,
				amountCurrency: 'USD',
				fee: 1.5,
				feeCurrency: 'USD',
				feeBearer: 'recipient',
				leavesBalance: '25.00 USD',
				recipientReceives: '23.50 USD in USDT on TRC20',
				summary:
					'25.00 USD leaves the balance; 1.50 USD is deducted from it; the recipient receives 23.50 USD in USDT on TRC20',
			},
			balanceCheck: {
				covers: true,
				status: 'covered',
				currency: 'USD',
				balance: 10000,
				itemNeeds: 25,
				runNeeds: 25,
				missing: 0,
				summary:
					'The balance of USD 10,000.00 covers this payout (USD 25.00), leaving USD 9,975.00.',
			},
		});
		expect(count('GET', '/payments/withdrawal/dry-1')).toBe(1);
		expect(moneySent()).toBe(0);
	});

	test('the guardrails still refuse in a dry run, and an existing payment is reported as such', async () => {
		const { baseUrl, moneySent } = await service();
		const refused = await runNode(crypto({ additionalFields: { dryRun: true } }), {
			items: [{ amount: 900, ref: 'dry-2' }],
			credentials: { baseUrl, maxPerWithdrawalUsd: 500 },
		});
		expect(refused.error?.message).toBe(
			'Max per withdrawal is 500.00 USD; this item is 900.00 USD',
		);
		await runNode(crypto(), { items: [{ amount: 5, ref: 'dry-3' }], credentials: { baseUrl } });
		const existing = await runNode(crypto({ additionalFields: { dryRun: true } }), {
			items: [{ amount: 5, ref: 'dry-3' }],
			credentials: { baseUrl },
		});
		expect(existing.items[0].json).toMatchObject({
			dryRun: true,
			alreadySubmitted: true,
			externalId: 'dry-3',
		});
		expect(moneySent()).toBe(1);
	});

	const bank = (extra: IDataObject = {}): IDataObject => ({
		resource: 'withdrawal',
		operation: 'createBank',
		bankAccountId: rl('bank-1'),
		amount: '={{ $json.amount }}',
		externalId: '={{ $json.ref }}',
		...extra,
	});
	const moneyMoving: Array<[string, (extra: IDataObject) => IDataObject]> = [
		['Withdrawal → Create Crypto', crypto],
		['Withdrawal → Create Bank', bank],
		['Currency → Swap', (extra) => ({ ...swap, ...extra })],
	];

	test.each(moneyMoving)(
		'%s: from an expression, the text true or false in any case works, and so does a boolean',
		async (_name, parameters) => {
			const { baseUrl, moneySent } = await service();
			const run = await runNode(parameters({ additionalFields: { dryRun: '={{ $json.dry }}' } }), {
				items: [
					{ amount: 20, ref: 'e-1', dry: 'TRUE' },
					{ amount: 20, ref: 'e-2', dry: ' false ' },
					{ amount: 20, ref: 'e-3', dry: true },
					{ amount: 20, ref: 'e-4', dry: 'False' },
				],
				credentials: { baseUrl },
			});
			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => item.json.dryRun === true)).toEqual([
				true,
				false,
				true,
				false,
			]);
			expect(moneySent()).toBe(2);
		},
	);

	test.each(moneyMoving)(
		'%s: any other value fails the item naming Dry Run, and nothing of the batch is sent',
		async (_name, parameters) => {
			const { baseUrl, moneySent, server } = await service();
			const run = await runNode(parameters({ additionalFields: { dryRun: '={{ $json.dry }}' } }), {
				items: [
					{ amount: 20, ref: 'e-5', dry: 'false' },
					{ amount: 20, ref: 'e-6', dry: 'yes' },
				],
				credentials: { baseUrl },
			});
			expect(run.error?.message).toMatch(
				/rows are invalid, so nothing was sent: row 2\b.*'Dry Run' must be true or false \(a boolean, or the text true or false\), received "yes"$/,
			);
			expect(run.error?.description).toMatch(
				/^Row 2 \((e-6, )?n8n item 1\): fix 'Dry Run' \(set by an expression\)\. Every row is checked/,
			);
			const number = await runNode(
				parameters({ additionalFields: { dryRun: '={{ $json.dry }}' } }),
				{ items: [{ amount: 20, ref: 'e-7', dry: 1 }], credentials: { baseUrl } },
			);
			expect(number.error?.message).toBe(
				"'Dry Run' must be true or false (a boolean, or the text true or false), received 1",
			);
			expect(moneySent()).toBe(0);
			expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
		},
	);

	test('a swap and a bank withdrawal: the request is output, never the PIN, nothing is sent', async () => {
		const { baseUrl, moneySent } = await service();
		const swapped = await runNode(
			{ ...swap, additionalFields: { dryRun: true, pin: '9876' } },
			{ items: [{ amount: 1500 }], credentials: { baseUrl } },
		);
		expect(swapped.items[0].json).toEqual({
			dryRun: true,
			message: 'Dry run: every check passed; nothing was sent',
			request: {
				method: 'POST',
				path: '/payments/swap-currency',
				body: { amount: 1500, from: 'ngn', to: 'ghs' },
			},
			guardrails: expect.objectContaining({ maxPerWithdrawal: 'no limit', maxPerDay: 'no limit' }),
		});
		const bank = await runNode(
			{
				resource: 'withdrawal',
				operation: 'createBank',
				bankAccountId: rl('bank-1'),
				amount: 20,
				externalId: 'dry-b',
				additionalFields: { dryRun: true },
			},
			{ credentials: { baseUrl } },
		);
		expect(bank.items[0].json).toMatchObject({
			dryRun: true,
			externalId: 'dry-b',
			request: {
				path: '/payments/withdraw/bank/bank-1',
				body: { amount: 20, externalId: 'dry-b' },
			},
		});
		expect(JSON.stringify([swapped.items, bank.items])).not.toMatch(/9876|4711-PIN/);
		expect(moneySent()).toBe(0);
	});
});

describe('guardrail reads fail closed', () => {
	// The failing read is retried before the item is refused; the pauses between retries are not what this tests.
	shortBackoff();

	test('saved addresses that cannot be read refuse the item', async () => {
		const server = await localService((request) =>
			request.path === '/v1/payments/wallet-addresses'
				? { status: 500, body: refusal('down') }
				: { status: 404, body: refusal('nf') },
		);
		servers.push(server);
		const run = await runNode(crypto(), {
			items: [{ amount: 5, ref: 'f-1' }],
			credentials: { baseUrl: server.baseUrl, destinations: 'savedOnly' },
		});
		expect(run.error?.message).toMatch(
			/^The allowed destinations could not be read, so nothing is sent: /,
		);
		expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
	});
});
