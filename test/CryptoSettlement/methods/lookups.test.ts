import nock from 'nock';
import {
	NodeApiError,
	sleep,
	type IDataObject,
	type INodeListSearchResult,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { loadEditorList, type EditorListRequest } from '../../helpers';
import { NO_CREDENTIAL, NONE_YET } from '../../../nodes/CryptoSettlement/methods/lookups';
import {
	api,
	CREDENTIALS,
	expectNoSecrets,
	fail,
	ok,
	recordRequests,
	runNode,
	setupNock,
	shortBackoff,
} from '../../helpers/node';

setupNock();

/** The editor's call behind a dropdown or a resource locator, with the test credential. */
const ask = async (
	method: string,
	parameters: IDataObject,
	extra: Partial<EditorListRequest> = {},
) =>
	await loadEditorList({
		method,
		parameters: parameters as EditorListRequest['parameters'],
		credentials: CREDENTIALS,
		...extra,
	});
const options = async (method: string, parameters: IDataObject) =>
	(await ask(method, parameters)) as INodePropertyOptions[];
const search = async (
	method: string,
	parameters: IDataObject,
	filter?: string,
	paginationToken?: string,
) => (await ask(method, parameters, { filter, paginationToken })) as INodeListSearchResult;

/** The error an editor call ended with, and everything it carries as text. */
async function failure(call: Promise<unknown>): Promise<{ error: NodeApiError; text: string }> {
	const error = await call.then(
		() => {
			throw new Error('the list call did not fail');
		},
		(reason: unknown) => reason,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	const text = JSON.stringify(error, Object.getOwnPropertyNames(error));
	return { error: error as NodeApiError, text };
}

const wallet = (n: number, label = `wallet-${n}`) => ({
	id: `w${n}`,
	label,
	name: 'Tether USD',
	address: `T-address-${n}`,
});
const pageMeta = (page: number, pages: number) => ({
	page,
	pages,
	size: 100,
	total: pages * 100,
	hasNextPage: page < pages,
});

describe('a new node without its credential (issue 45): every list says to select one, and asks the service nothing', () => {
	const lists: Array<[string, IDataObject]> = [
		['getDepositAssets', { resource: 'wallet', operation: 'create' }],
		['getDepositAssetIdentifiers', { resource: 'sandbox', operation: 'mockDeposit' }],
		['getBanks', { resource: 'bank', operation: 'getAll', currency: 'ngn' }],
		['searchWallets', { resource: 'wallet', operation: 'get' }],
		['searchBankAccounts', { resource: 'withdrawal', operation: 'createBank' }],
		['searchPayoutAddresses', { resource: 'payoutAddress', operation: 'delete' }],
	];
	test.each(lists)('%s', async (method, parameters) => {
		const requests = recordRequests();
		const answer = await ask(method, parameters, { credentials: null });
		const entries = Array.isArray(answer) ? answer : answer.results;
		// Its value is empty: picked, the field stays empty, and the node refuses the item naming it.
		expect(entries).toEqual([{ name: NO_CREDENTIAL, value: '' }]);
		expect(requests.count()).toBe(0);
	});
});

describe("Mock Deposit's Asset: the list Wallet → Create offers, valued by the identifier the mock deposit takes", () => {
	test('names as Wallet → Create shows them, values the identifiers', async () => {
		api()
			.get('/trades/assets')
			.reply(
				200,
				ok([
					{
						id: 'a2',
						name: 'Tether',
						symbol: 'USDT',
						network: 'TRC20',
						identifier: 'USDT_TRX_TEST',
					},
					{ id: 'a1', name: 'Bitcoin', symbol: 'BTC', identifier: 'BTC_TEST' },
				]),
			);
		expect(
			await options('getDepositAssetIdentifiers', {
				resource: 'sandbox',
				operation: 'mockDeposit',
			}),
		).toEqual([
			{ name: 'Bitcoin (BTC)', value: 'BTC_TEST', description: 'Identifier BTC_TEST' },
			{
				name: 'Tether (USDT on TRC20)',
				value: 'USDT_TRX_TEST',
				description: 'Identifier USDT_TRX_TEST',
			},
		]);
	});
});

describe('Asset dropdown (wallet → create, rate → calculate)', () => {
	// Failures are retried before the list says so; the pauses (test/service/pacing.test.ts) are not what this tests.
	shortBackoff();
	test('lists the deposit assets by name, symbol and network, sorted, valued by ID', async () => {
		const scope = api()
			.get('/trades/assets')
			.reply(
				200,
				ok([
					{ id: 'a2', name: 'Tether', symbol: 'USDT', network: 'TRC20', identifier: 'USDT_TRX' },
					{ id: 'a1', name: 'Bitcoin', symbol: 'BTC', identifier: 'BTC' },
				]),
			);
		const choices = await options('getDepositAssets', { resource: 'wallet', operation: 'create' });
		expect(choices).toEqual([
			{ name: 'Bitcoin (BTC)', value: 'a1', description: 'Identifier BTC' },
			{ name: 'Tether (USDT on TRC20)', value: 'a2', description: 'Identifier USDT_TRX' },
		]);
		expect(scope.isDone()).toBe(true);
	});

	test("a refused call shows the service's message and HTTP code, and never the secret", async () => {
		const scope = api()
			.get('/trades/assets')
			.reply(401, fail(401, 'wrong app id and secret combination'));
		const { error, text } = await failure(
			ask('getDepositAssets', { resource: 'wallet', operation: 'create' }),
		);
		expect(error.message).toBe(
			'Could not load the list: wrong app id and secret combination (HTTP 401)',
		);
		expect(error.httpCode).toBe('401');
		expect(scope.isDone()).toBe(true);
		expectNoSecrets(text);
	});

	test('an unreachable service says so instead of crashing the editor', async () => {
		// Port 9 (discard) on the loopback has no listener: a real refused connection.
		nock.enableNetConnect('127.0.0.1');
		const closed = { ...CREDENTIALS, baseUrl: 'http://127.0.0.1:9/v1' };
		const { error, text } = await failure(
			ask('getDepositAssets', { resource: 'wallet', operation: 'create' }, { credentials: closed }),
		).finally(() => nock.disableNetConnect());
		// Lists take the node's request pipeline: a refused connection is retried with backoff, then named.
		expect(error.message).toMatch(
			/^Could not load the list: Could not reach the service for GET \/trades\/assets \(ECONNREFUSED\b.*\); nothing was sent$/,
		);
		expectNoSecrets(text);
	});
});

describe('Bank dropdown', () => {
	// Failures are retried before the list says so; the pauses (test/service/pacing.test.ts) are not what this tests.
	shortBackoff();
	test('lists the banks of the currency chosen on the node (bank → verify account)', async () => {
		const scope = api()
			.get('/payments/banks')
			.query({ currency: 'ghs' })
			.reply(
				200,
				ok([
					{ id: 'b2', name: 'Zenith Ghana' },
					{ id: 'b1', name: 'Access Ghana' },
				]),
			);
		const choices = await options('getBanks', {
			resource: 'bank',
			operation: 'verifyAccount',
			currency: 'ghs',
		});
		expect(choices).toEqual([
			{ name: 'Access Ghana', value: 'b1' },
			{ name: 'Zenith Ghana', value: 'b2' },
		]);
		expect(scope.isDone()).toBe(true);
	});

	test('lists NGN and GHS banks together, labelled, where the operation has no currency (bank account → create)', async () => {
		const scope = api()
			.get('/payments/banks')
			.query({ currency: 'ngn' })
			.reply(200, ok([{ id: 'n1', name: 'Access Bank' }]))
			.get('/payments/banks')
			.query({ currency: 'ghs' })
			.reply(200, ok([{ id: 'g1', name: 'Absa Ghana' }]));
		const choices = await options('getBanks', { resource: 'bankAccount', operation: 'create' });
		expect(choices).toEqual([
			{ name: 'Absa Ghana (GHS)', value: 'g1' },
			{ name: 'Access Bank (NGN)', value: 'n1' },
		]);
		expect(scope.isDone()).toBe(true);
	});

	test("one currency's list refused: the error waits for the other list's request, so none outlives the call", async () => {
		let ghsAnswered = false;
		const scope = api()
			.get('/payments/banks')
			.query({ currency: 'ngn' })
			.reply(401, fail(401, 'wrong app id and secret combination'))
			.get('/payments/banks')
			.query({ currency: 'ghs' })
			// Answered a moment after the NGN list was refused: the call must not have ended by then.
			.reply(async () => {
				await sleep(300);
				ghsAnswered = true;
				return [200, ok([{ id: 'g1', name: 'Absa Ghana' }])];
			});
		const { error } = await failure(
			ask('getBanks', { resource: 'bankAccount', operation: 'create' }),
		);
		expect(error.message).toBe(
			'Could not load the list: wrong app id and secret combination (HTTP 401)',
		);
		expect(ghsAnswered).toBe(true);
		expect(scope.isDone()).toBe(true);
	});

	test('a 500 without data is retried with backoff, then shows the service message', async () => {
		const scope = api()
			.get('/payments/banks')
			.query({ currency: 'ngn' })
			.times(4)
			.reply(500, { success: false, message: 'something went wrong!', meta: {}, errors: [] });
		const { error } = await failure(
			ask('getBanks', { resource: 'bank', operation: 'verifyAccount', currency: 'ngn' }),
		);
		expect(error.message).toBe(
			'Could not load the list: The service did not answer GET /payments/banks after 4 attempts (HTTP 500: something went wrong!)',
		);
		expect(scope.isDone()).toBe(true);
	});
});

describe('Wallet and bank account locators (paginated lists)', () => {
	const getWallet = { resource: 'wallet', operation: 'get' };

	test('the first page, 100 records, and a token for the next page', async () => {
		const scope = api()
			.get('/trades/wallets')
			.query({ page: '1', size: '100' })
			.reply(200, ok([wallet(1, 'payroll'), wallet(2, '')], 'ok', pageMeta(1, 3)));
		const result = await search('searchWallets', getWallet);
		expect(result).toEqual({
			results: [
				{ name: 'payroll — Tether USD T-address-1', value: 'w1' },
				{ name: 'w2 — Tether USD T-address-2', value: 'w2' },
			],
			paginationToken: '2',
		});
		expect(scope.isDone()).toBe(true);
	});

	test('the token asks for that page; the last page gives no token', async () => {
		const scope = api()
			.get('/trades/wallets')
			.query({ page: '3', size: '100' })
			.reply(200, ok([wallet(201)], 'ok', pageMeta(3, 3)));
		const result = await search('searchWallets', getWallet, undefined, '3');
		expect(result.results.map((r) => r.value)).toEqual(['w201']);
		expect(result.paginationToken).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	test('a search matches label, address or ID (any case) and looks past the first page', async () => {
		const scope = api()
			.get('/trades/wallets')
			.query({ page: '1', size: '100' })
			.reply(200, ok([wallet(1), wallet(2)], 'ok', pageMeta(1, 3)))
			.get('/trades/wallets')
			.query({ page: '2', size: '100' })
			.reply(200, ok([wallet(3, 'Payroll NGN'), wallet(4)], 'ok', pageMeta(2, 3)))
			.get('/trades/wallets')
			.query({ page: '3', size: '100' })
			.reply(
				200,
				ok([wallet(5, 'payroll ghs'), { ...wallet(6), id: 'PAYROLL-id' }], 'ok', pageMeta(3, 3)),
			);
		const result = await search('searchWallets', getWallet, '  PAYROLL ');
		expect(result.results.map((r) => r.value)).toEqual(['w3', 'w5', 'PAYROLL-id']);
		expect(result.paginationToken).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	test('a search scans at most 10 pages per call and says where to go on', async () => {
		for (let page = 1; page <= 10; page++) {
			api()
				.get('/trades/wallets')
				.query({ page: String(page), size: '100' })
				.reply(200, ok([wallet(page)], 'ok', pageMeta(page, 50)));
		}
		const result = await search('searchWallets', getWallet, 'no such wallet');
		expect(result).toEqual({ results: [], paginationToken: '11' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	test('bank accounts: bank, number and name, from /payments/integration-banks', async () => {
		const scope = api()
			.get('/payments/integration-banks')
			.query({ page: '1', size: '100' })
			.reply(
				200,
				ok(
					[
						{
							id: 'ba1',
							bankName: 'Access Bank',
							accountNumber: '0123456789',
							accountName: 'ADA OBI',
						},
					],
					'ok',
					pageMeta(1, 1),
				),
			);
		const result = await search('searchBankAccounts', {
			resource: 'bankAccount',
			operation: 'delete',
		});
		expect(result).toEqual({
			results: [{ name: 'Access Bank 0123456789 — ADA OBI', value: 'ba1' }],
		});
		expect(scope.isDone()).toBe(true);
	});

	describe('a list with nothing to choose from says there is none yet and how to add one (issues 27, 36)', () => {
		// One entry, not an error: n8n's editor titles a list's error "Could not load list".
		test.each([
			[
				'searchBankAccounts',
				'/payments/integration-banks',
				{ resource: 'withdrawal', operation: 'createBank' },
				NONE_YET.bankAccounts,
			],
			['searchWallets', '/trades/wallets', getWallet, NONE_YET.wallets],
		])('%s', async (method, path, parameters, none) => {
			const empty = () =>
				api()
					.get(path)
					.query({ page: '1', size: '100' })
					.reply(200, ok([], 'ok', pageMeta(1, 1)));
			empty();
			expect(await search(method, parameters)).toEqual({ results: [{ name: none, value: '' }] });
			// A search that matches nothing is an ordinary empty result.
			empty();
			expect(await search(method, parameters, 'zenith')).toEqual({ results: [] });
		});

		test('searchPayoutAddresses', async () => {
			api().get('/payments/wallet-addresses').times(2).reply(200, ok([], 'data fetched'));
			const parameters = { resource: 'payoutAddress', operation: 'delete' };
			expect(await search('searchPayoutAddresses', parameters)).toEqual({
				results: [{ name: NONE_YET.payoutAddresses, value: '' }],
			});
			expect(await search('searchPayoutAddresses', parameters, 'trc20')).toEqual({ results: [] });
		});

		test('each names the operation that adds one, by its labels in the editor', () => {
			expect(NONE_YET).toEqual({
				bankAccounts: 'None saved yet: add one with Bank Account → Create',
				payoutAddresses: 'None saved yet: add one with Payout Address → Create',
				wallets: 'No wallets yet: create one with Wallet → Create',
			});
		});

		test.each([
			[
				'Bank Account',
				{ resource: 'withdrawal', operation: 'createBank', amount: '20', externalId: 'b-1' },
				'bankAccountId',
				NONE_YET.bankAccounts,
			],
			['Wallet', { resource: 'wallet', operation: 'get' }, 'walletId', NONE_YET.wallets],
			[
				'Payout Address',
				{ resource: 'payoutAddress', operation: 'delete' },
				'payoutAddressId',
				NONE_YET.payoutAddresses,
			],
		])(
			'picked, the entry leaves %s empty: the node refuses naming the field, and sends nothing',
			async (label, parameters, field, none) => {
				const requests = recordRequests();
				// What the editor stores when the entry is picked: its value, and its name as the shown text.
				const picked = { __rl: true, mode: 'list', value: '', cachedResultName: none };
				// n8n refuses to start the workflow: the required field is empty.
				await expect(runNode({ ...parameters, [field]: picked })).rejects.toThrow(
					`Parameter "${label}" is required.`,
				);
				// Through an expression n8n cannot judge beforehand, the node's own check refuses it.
				const run = await runNode({ ...parameters, [field]: { ...picked, value: "={{ '' }}" } });
				expect(run.error?.message).toBe(`'${label}' is required`);
				expect(requests.count()).toBe(0);
			},
		);
	});

	test("a failing page shows the service's message", async () => {
		api().get('/trades/wallets').query(true).reply(403, fail(403, 'you do not have api access'));
		const { error, text } = await failure(ask('searchWallets', getWallet));
		expect(error.message).toBe('Could not load the list: you do not have api access (HTTP 403)');
		expect(error.httpCode).toBe('403');
		expectNoSecrets(text);
	});
});

describe('Payout address locator (one whole list)', () => {
	test('label (or address), token and network, valued by ID; a search filters them', async () => {
		const addresses = [
			{ _id: 'p1', id: 'p1', label: 'Cold BTC', address: 'bc1q-cold', token: 'BTC', network: null },
			{
				_id: 'p2',
				id: 'p2',
				label: '',
				address: 'TGtmawsH3hEtzEjaxMZnqG997eqiWAbAnA',
				token: 'USDT',
				network: 'TRC20',
			},
		];
		api().get('/payments/wallet-addresses').times(2).reply(200, ok(addresses, 'data fetched'));
		const all = await search('searchPayoutAddresses', {
			resource: 'payoutAddress',
			operation: 'delete',
		});
		expect(all).toEqual({
			results: [
				{ name: 'Cold BTC — BTC', value: 'p1' },
				{ name: 'TGtmawsH3hEtzEjaxMZnqG997eqiWAbAnA — USDT TRC20', value: 'p2' },
			],
		});
		const filtered = await search(
			'searchPayoutAddresses',
			{ resource: 'payoutAddress', operation: 'delete' },
			'trc20',
		);
		expect(filtered.results.map((r) => r.value)).toEqual(['p2']);
		expect(nock.pendingMocks()).toEqual([]);
	});
});
