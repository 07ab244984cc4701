/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * The contract table of the action node, one case per resource → operation: the one place an
 * operation's test parameters are written. Three test files (operations-*.test.ts) each run the
 * cases of one resource group, and the Retry On Fail tests of never-repeated operations
 * (single-writes.ts) take theirs from here too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import {
	api,
	cryptoWithdrawal,
	expectNoSecrets,
	noWithdrawalsYet,
	ok,
	PIN,
	rl,
	runNode,
	WEBHOOK_SECRET,
} from './node';
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';
import { eventKey } from '../../nodes/events/identity';
import { recordReads, shownFields } from './shown-and-read';

export interface Case {
	params: IDataObject;
	/** The node's input items, when the operation reads them (one empty item otherwise). */
	items?: IDataObject[];
	method: 'get' | 'post' | 'put' | 'delete';
	path: string;
	query?: IDataObject;
	body?: IDataObject;
	reply: unknown;
	output: IDataObject[];
}

/** The resources each test file's table covers; how many operations each has comes from the records. */
export const CONTRACT_GROUPS = {
	'operations/deposits': ['account', 'asset', 'wallet', 'sandbox'],
	'operations/payouts': ['withdrawal', 'payoutAddress', 'bank', 'bankAccount'],
	'operations/rates-records': ['transaction', 'currency', 'rate', 'webhookEvent'],
	// Reads several lists per item: its own workflow tests (statement/statement.test.ts), no single-request case.
	'statement/statement': ['statement'],
};

/** The action node's tests (test/CryptoSettlement/), where each group's file is: `<group>.test.ts`. */
const NODE_TESTS = join(__dirname, '..', 'CryptoSettlement');

/** Operations per resource, as the operation records list them. */
const operationsOf = (resources: string[]): Record<string, number> =>
	Object.fromEntries(
		resources.map((resource) => [resource, Object.keys(RESOURCES[resource]?.specs ?? {}).length]),
	);

/** A paginated reply of one page. */
const page = (data: unknown[], hasNextPage = false) =>
	ok(data, 'ok', {
		page: 1,
		pages: 1,
		totalDocs: data.length,
		hasNextPage,
		hasPrevPage: false,
		nextPage: null,
		prevPage: null,
	});

const wallet = {
	id: 'w1',
	label: 'customer-1',
	address: 'TFzHmmP4ZmPeNJcmqsPGRyP7KvqL8LejnA',
	name: 'Tron',
	currency: 'ngn',
	isActive: true,
};

/**
 * Every case, named `resource → operation` (a variant adds " (…)"), grouped as CONTRACT_GROUPS runs
 * them. A never-repeated operation's case is also its Retry On Fail case; one with `moneyWith` adds
 * some of those Additional Fields here, and runs there both with them and without them.
 */
export const CASES: Record<string, Case> = {
	// operations/deposits: account, assets, deposit wallets and mock deposits.
	'account → get': {
		params: { resource: 'account', operation: 'get' },
		method: 'get',
		path: '/users/fetch-integration',
		reply: ok({ fiatWallets: { ngn: 10 }, markupPercent: 2, webhookSecret: 'do-not-output' }),
		output: [{ fiatWallets: { ngn: 10 }, markupPercent: 2 }],
	},
	'account → setWithdrawalFeeBearer': {
		params: {
			resource: 'account',
			operation: 'setWithdrawalFeeBearer',
			withdrawalFeeBearer: 'business',
		},
		method: 'put',
		path: '/users/withdrawal-fee-bearer',
		body: { withdrawalFeeBearer: 'business' },
		reply: ok({ withdrawalFeeBearer: 'business' }, 'withdrawal fee bearer set successfully'),
		output: [{ withdrawalFeeBearer: 'business' }],
	},
	'account → setMarkupPercent': {
		params: { resource: 'account', operation: 'setMarkupPercent', markupPercent: 2.5 },
		method: 'put',
		path: '/users/markup-percent',
		body: { markupPercent: 2.5 },
		reply: ok({ markupPercent: 2.5 }, 'markup percentage set successfully'),
		output: [{ markupPercent: 2.5 }],
	},
	'asset → getDepositAssets': {
		params: { resource: 'asset', operation: 'getDepositAssets' },
		method: 'get',
		path: '/trades/assets',
		reply: ok([
			{ id: 'a1', symbol: 'USDT' },
			{ id: 'a2', symbol: 'BTC' },
		]),
		output: [
			{ id: 'a1', symbol: 'USDT' },
			{ id: 'a2', symbol: 'BTC' },
		],
	},
	'asset → getWithdrawalAssets': {
		params: { resource: 'asset', operation: 'getWithdrawalAssets' },
		method: 'get',
		path: '/payments/supported-assets-info',
		reply: ok(
			{
				tokens: [
					{
						symbol: 'USDT',
						enabled: true,
						networks: [{ network: 'TRC20', enabled: true, fee: 1 }],
					},
					{ symbol: 'BTC', enabled: true, networks: [], fee: null },
				],
				limits: { minimum: 1, maximum: 10 },
				rate: 1,
			},
			'data fetched',
		),
		// One item per token, each with the account-wide limits and rate.
		output: [
			{
				symbol: 'USDT',
				enabled: true,
				networks: [{ network: 'TRC20', enabled: true, fee: 1 }],
				limits: { minimum: 1, maximum: 10 },
				rate: 1,
			},
			{
				symbol: 'BTC',
				enabled: true,
				networks: [],
				fee: null,
				limits: { minimum: 1, maximum: 10 },
				rate: 1,
			},
		],
	},
	'wallet → create': {
		params: {
			resource: 'wallet',
			operation: 'create',
			assetId: '65f0a1',
			label: ' customer-1 ',
			additionalFields: {
				bankId: '39',
				accountNumber: '0123456789',
				narration: 'settle',
				autoSettlement: true,
			},
		},
		method: 'post',
		path: '/trades/sell/assets/65f0a1/generate-address',
		body: {
			label: 'customer-1',
			bankId: '39',
			accountNumber: '0123456789',
			narration: 'settle',
			autoSettlement: true,
		},
		reply: ok(
			{ id: 'w1', address: 'TFzHmmP4ZmPeNJcmqsPGRyP7KvqL8LejnA' },
			'wallet address generated successfully',
		),
		output: [{ id: 'w1', address: 'TFzHmmP4ZmPeNJcmqsPGRyP7KvqL8LejnA' }],
	},
	'wallet → get': {
		params: { resource: 'wallet', operation: 'get', walletId: rl('w1') },
		method: 'get',
		path: '/trades/wallets/w1',
		reply: ok(wallet, 'wallets retrieved successfully'),
		output: [wallet],
	},
	'wallet → getAll': {
		params: { resource: 'wallet', operation: 'getAll', returnAll: true },
		method: 'get',
		path: '/trades/wallets',
		query: { page: '1', size: '100' },
		reply: page([wallet, { ...wallet, id: 'w2' }]),
		output: [wallet, { ...wallet, id: 'w2' }],
	},
	'wallet → updateBank': {
		params: {
			resource: 'wallet',
			operation: 'updateBank',
			walletId: rl('w1'),
			bankId: '39',
			accountNumber: '0123456789',
			additionalFields: { narration: 'payout', autoSettlement: true },
		},
		method: 'put',
		path: '/trades/wallets/w1/bank',
		body: { id: '39', accountNumber: '0123456789', narration: 'payout', autoSettlement: true },
		reply: ok({}, 'bank added to wallet successfully'),
		output: [{ success: true, message: 'bank added to wallet successfully', walletId: 'w1' }],
	},
	'wallet → setAutoSettlement': {
		params: {
			resource: 'wallet',
			operation: 'setAutoSettlement',
			walletId: rl('w1'),
			autoSettlement: false,
		},
		method: 'put',
		path: '/trades/wallets/w1/auto-settlement',
		body: { autoSettlement: false },
		reply: ok({ walletId: 'w1', autoSettlement: false }, 'auto settlement enabled successfully'),
		output: [{ walletId: 'w1', autoSettlement: false }],
	},
	'sandbox → mockDeposit': {
		params: {
			resource: 'sandbox',
			operation: 'mockDeposit',
			walletAddress: 'TFzHmmP4ZmPeNJcmqsPGRyP7KvqL8LejnA',
			asset: 'TRX_TEST',
			amountInUSD: 50,
			cryptoReceived: 312.5,
			reference: 'mock-1',
			txHash: '0xabc',
			additionalFields: { confirmations: 12, sourceAddress: 'TSrc' },
		},
		method: 'post',
		path: '/trades/sell/mock-trade',
		body: {
			walletAddress: 'TFzHmmP4ZmPeNJcmqsPGRyP7KvqL8LejnA',
			asset: 'TRX_TEST',
			amountInUSD: 50,
			cryptoReceived: 312.5,
			reference: 'mock-1',
			txHash: '0xabc',
			sourceAddress: 'TSrc',
			confirmations: 12,
		},
		reply: ok({}, 'trade queued'),
		output: [{ success: true, message: 'trade queued' }],
	},
	// operations/payouts: withdrawals, payout addresses, banks and bank accounts.
	'withdrawal → createCrypto (stablecoin)': {
		// The read-back of the created record has its own tests (editor.test.ts).
		params: cryptoWithdrawal({ amount: 12.5, externalId: 'order-1', returnFullRecord: false }),
		method: 'post',
		path: '/payments/withdraw/address',
		body: {
			token: 'USDT',
			network: 'TRC20',
			walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
			amount: 12.5,
			externalId: 'order-1',
			pin: PIN,
		},
		reply: ok({ id: 'wd1' }, 'withdrawal initiated successfully'),
		output: [
			{
				id: 'wd1',
				externalId: 'order-1',
				alreadySubmitted: false,
				message: 'withdrawal initiated successfully',
			},
		],
	},
	'withdrawal → createCrypto (UTXO)': {
		params: {
			resource: 'withdrawal',
			operation: 'createCrypto',
			token: 'BTC',
			feeLevel: 'high',
			walletAddress: 'bc1ql45g9t5mq9up4xfkgqj70s60v7qdhdk29rj9je',
			amountType: 'crypto',
			cryptoAmount: 0.00012345,
			externalId: 'order-2',
			additionalFields: { pin: '0000' },
			returnFullRecord: false,
		},
		method: 'post',
		path: '/payments/withdraw/address',
		body: {
			token: 'BTC',
			feeLevel: 'high',
			walletAddress: 'bc1ql45g9t5mq9up4xfkgqj70s60v7qdhdk29rj9je',
			cryptoAmount: 0.00012345,
			externalId: 'order-2',
			pin: '0000',
		},
		reply: ok({ id: 'wd2' }, 'withdrawal initiated successfully'),
		output: [
			{
				id: 'wd2',
				externalId: 'order-2',
				alreadySubmitted: false,
				message: 'withdrawal initiated successfully',
			},
		],
	},
	'withdrawal → createBank': {
		params: {
			resource: 'withdrawal',
			operation: 'createBank',
			bankAccountId: rl('ba1'),
			amount: 100,
			externalId: 'payout-9',
			additionalFields: { narration: 'salary' },
			returnFullRecord: false,
		},
		method: 'post',
		path: '/payments/withdraw/bank/ba1',
		body: { amount: 100, narration: 'salary', pin: PIN, externalId: 'payout-9' },
		reply: ok({ id: 'wd3' }, 'withdrawal request received'),
		output: [
			{
				id: 'wd3',
				externalId: 'payout-9',
				alreadySubmitted: false,
				message: 'withdrawal request received',
			},
		],
	},
	'withdrawal → estimateNetworkFee': {
		params: {
			resource: 'withdrawal',
			operation: 'estimateNetworkFee',
			token: 'LTC',
			feeLevel: 'low',
			walletAddress: 'ltc1q2kq76nz5nsvryrearq9xrwehwr0vels3y8jtmf',
			amountType: 'usd',
			amount: 20,
		},
		method: 'post',
		path: '/payments/estimate-network-fee',
		body: {
			token: 'LTC',
			feeLevel: 'low',
			walletAddress: 'ltc1q2kq76nz5nsvryrearq9xrwehwr0vels3y8jtmf',
			amount: 20,
		},
		reply: ok({ low: 0.1, medium: 0.2, high: 0.3 }),
		output: [{ low: 0.1, medium: 0.2, high: 0.3 }],
	},
	'withdrawal → get': {
		params: { resource: 'withdrawal', operation: 'get', withdrawalId: 'order-1' },
		method: 'get',
		path: '/payments/withdrawal/order-1',
		reply: ok({ id: 'wd1', externalId: 'order-1', status: 'completed' }),
		output: [{ id: 'wd1', externalId: 'order-1', status: 'completed' }],
	},
	'withdrawal → getAll': {
		params: { resource: 'withdrawal', operation: 'getAll', returnAll: false, limit: 2 },
		method: 'get',
		path: '/payments/withdrawals',
		query: { page: '1', size: '2' },
		reply: page([{ id: 'wd1' }, { id: 'wd2' }], true),
		output: [{ id: 'wd1' }, { id: 'wd2' }],
	},
	'payoutAddress → validate': {
		params: {
			resource: 'payoutAddress',
			operation: 'validate',
			address: 'bc1ql45g9t5mq9up4xfkgqj70s60v7qdhdk29rj9je',
			token: 'BTC',
		},
		method: 'post',
		path: '/payments/wallet-addresses/validate',
		body: { address: 'bc1ql45g9t5mq9up4xfkgqj70s60v7qdhdk29rj9je', token: 'BTC' },
		reply: ok(
			{ address: 'bc1ql45g9t5mq9up4xfkgqj70s60v7qdhdk29rj9je', token: 'BTC', valid: true },
			'wallet address is valid',
		),
		output: [{ address: 'bc1ql45g9t5mq9up4xfkgqj70s60v7qdhdk29rj9je', token: 'BTC', valid: true }],
	},
	'payoutAddress → create': {
		params: {
			resource: 'payoutAddress',
			operation: 'create',
			address: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
			token: 'USDC',
			network: 'BASE',
			label: 'treasury',
		},
		method: 'post',
		path: '/payments/wallet-addresses',
		body: {
			address: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
			token: 'USDC',
			network: 'BASE',
			label: 'treasury',
		},
		reply: ok({
			_id: 'pa1',
			id: 'pa1',
			address: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
			token: 'USDC',
			network: 'BASE',
			label: 'treasury',
		}),
		output: [
			{
				_id: 'pa1',
				id: 'pa1',
				address: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
				token: 'USDC',
				network: 'BASE',
				label: 'treasury',
			},
		],
	},
	'payoutAddress → getAll': {
		params: { resource: 'payoutAddress', operation: 'getAll', returnAll: false, limit: 1 },
		method: 'get',
		path: '/payments/wallet-addresses',
		reply: ok([{ id: 'pa1' }, { id: 'pa2' }], 'data fetched'),
		output: [{ id: 'pa1' }],
	},
	'payoutAddress → delete': {
		params: { resource: 'payoutAddress', operation: 'delete', payoutAddressId: rl('pa1') },
		method: 'delete',
		path: '/payments/wallet-addresses/pa1',
		reply: ok({}),
		output: [{ deleted: true, id: 'pa1' }],
	},
	'bank → getAll': {
		params: { resource: 'bank', operation: 'getAll', currency: 'ghs', returnAll: true },
		method: 'get',
		path: '/payments/banks',
		query: { currency: 'ghs' },
		reply: ok([{ id: '1', name: 'GCB' }]),
		output: [{ id: '1', name: 'GCB' }],
	},
	'bank → verifyAccount': {
		params: {
			resource: 'bank',
			operation: 'verifyAccount',
			bankId: '39',
			accountNumber: '0123456789',
			currency: 'ngn',
		},
		method: 'post',
		path: '/payments/banks/validate',
		body: { id: '39', accountNumber: '0123456789', currency: 'ngn' },
		reply: ok(
			{ accountNumber: '012345XXXX', type: 'nuban', bankName: 'Bank', accountName: 'ADA' },
			'data fetched',
		),
		output: [{ accountNumber: '012345XXXX', type: 'nuban', bankName: 'Bank', accountName: 'ADA' }],
	},
	'bankAccount → create': {
		params: {
			resource: 'bankAccount',
			operation: 'create',
			bankId: '39',
			accountNumber: '0123456789',
			additionalFields: { narration: 'ops' },
		},
		method: 'post',
		path: '/payments/banks/add',
		body: { id: '39', accountNumber: '0123456789', narration: 'ops' },
		reply: ok({ id: 'ba1', bankName: 'Bank', currency: 'ngn' }, 'bank added'),
		output: [{ id: 'ba1', bankName: 'Bank', currency: 'ngn' }],
	},
	'bankAccount → getAll': {
		params: { resource: 'bankAccount', operation: 'getAll', returnAll: true },
		method: 'get',
		path: '/payments/integration-banks',
		query: { page: '1', size: '100' },
		reply: page([{ id: 'ba1' }]),
		output: [{ id: 'ba1' }],
	},
	'bankAccount → delete': {
		params: { resource: 'bankAccount', operation: 'delete', bankAccountId: rl('ba1') },
		method: 'delete',
		path: '/payments/integration-banks/ba1',
		reply: ok({}),
		output: [{ deleted: true, id: 'ba1' }],
	},
	// operations/rates-records: transactions, currency swap, rates and webhook events.
	'transaction → get': {
		params: { resource: 'transaction', operation: 'get', transactionId: 't1' },
		method: 'get',
		path: '/trades/transactions/t1',
		reply: ok({ id: 't1', status: 'completed' }, 'transaction retrieved successfully'),
		output: [{ id: 't1', status: 'completed' }],
	},
	'transaction → getAll': {
		params: { resource: 'transaction', operation: 'getAll', returnAll: false, limit: 50 },
		method: 'get',
		path: '/trades/transactions',
		query: { page: '1', size: '50' },
		reply: page([]),
		output: [],
	},
	'currency → swap': {
		params: { resource: 'currency', operation: 'swap', amount: 1000, from: 'ngn', to: 'ghs' },
		method: 'post',
		path: '/payments/swap-currency',
		body: { amount: 1000, from: 'ngn', to: 'ghs', pin: PIN },
		reply: { message: 'currency swap successful', success: true, data: {} },
		output: [{ success: true, message: 'currency swap successful' }],
	},
	'rate → getSellRates': {
		params: { resource: 'rate', operation: 'getSellRates' },
		method: 'get',
		path: '/trades/pbc/sell/rates',
		reply: ok({ NGN: 1500, GHS: 15 }),
		output: [{ NGN: 1500, GHS: 15 }],
	},
	'rate → calculate': {
		params: {
			resource: 'rate',
			operation: 'calculate',
			assetId: 'a1',
			amountInUSD: 25,
			currency: 'ghs',
		},
		method: 'post',
		path: '/trades/pbc/sell/rate-calculator/a1',
		body: { amountInUSD: 25, currency: 'ghs' },
		reply: ok({ NGNAmount: 1, GHSAmount: 2, rate: 3, cryptoAmount: 4 }, 'data fetched'),
		output: [{ NGNAmount: 1, GHSAmount: 2, rate: 3, cryptoAmount: 4 }],
	},
	'rate → getMarketPrice': {
		params: { resource: 'rate', operation: 'getMarketPrice', from: 'btc', to: 'usd' },
		method: 'get',
		path: '/trades/pbc/sell/assets/market/converter',
		query: { from: 'btc', to: 'usd' },
		reply: ok({ quote: { USD: { price: 60000 } } }),
		output: [{ quote: { USD: { price: 60000 } } }],
	},
	'webhookEvent → getAll': {
		params: {
			resource: 'webhookEvent',
			operation: 'getAll',
			returnAll: true,
			filters: { startDate: '2026-01-01T00:00:00', endDate: '2026-02-01T00:00:00' },
		},
		method: 'get',
		path: '/transactions/webhooks',
		query: {
			page: '1',
			size: '200',
			startDate: '2026-01-01T00:00:00',
			endDate: '2026-02-01T00:00:00',
		},
		reply: page([{ id: 'e1', eventType: 'trade.completed' }]),
		output: [{ id: 'e1', eventType: 'trade.completed' }],
	},
	'webhookEvent → get': {
		params: { resource: 'webhookEvent', operation: 'get', webhookEventId: 'e1' },
		method: 'get',
		path: '/transactions/webhooks/e1',
		reply: { success: true, data: { id: 'e1', attemptsCount: 2 }, meta: {} },
		output: [{ id: 'e1', attemptsCount: 2 }],
	},
	'webhookEvent → resend': {
		params: { resource: 'webhookEvent', operation: 'resend', reference: 'wd1' },
		method: 'post',
		path: '/transactions/webhooks/resend/wd1',
		reply: ok(
			[
				{ id: 'e1', status: 'delivered' },
				{ id: 'e2', status: 'failed', error: 'webhook delivery failed' },
			],
			'webhook resend attempted',
		),
		output: [
			{ id: 'e1', status: 'delivered' },
			{ id: 'e2', status: 'failed', error: 'webhook delivery failed' },
		],
	},
	// The item n8n's Webhook node outputs; the record confirms it (its own tests: verify-delivery.test.ts).
	'webhookEvent → verifyDelivery': {
		params: { resource: 'webhookEvent', operation: 'verifyDelivery' },
		items: [
			{
				headers: { 'x-webhook-secret': WEBHOOK_SECRET },
				params: {},
				query: {},
				body: { event: 'withdrawal.completed', id: 'wd-contract-1', status: 'completed' },
			},
		],
		method: 'get',
		path: '/payments/withdrawal/wd-contract-1',
		reply: ok({ id: 'wd-contract-1', status: 'completed', amount: 10, currency: 'USD' }),
		output: [
			{
				event: 'withdrawal.completed',
				eventKey: eventKey('withdrawal.completed', { id: 'wd-contract-1' }),
				id: 'wd-contract-1',
				status: 'completed',
				amount: 10,
				amountCurrency: 'USD',
				currency: 'USD',
				settlementCurrency: 'USD',
				verification: {
					secret: 'verified',
					ip: 'not configured',
					confirmedWithApi: true,
					sourceIp: null,
				},
				record: { id: 'wd-contract-1', status: 'completed', amount: 10, currency: 'USD' },
				unconfirmedBody: {
					event: 'withdrawal.completed',
					id: 'wd-contract-1',
					status: 'completed',
				},
			},
		],
	},
};

/** The resource → operation pairs of a table, counted per resource ("(stablecoin)"-style variants count once). */
function pairsPerResource(cases: Record<string, Case>): Record<string, number> {
	const pairs = new Set(Object.keys(cases).map((name) => name.replace(/ \(.*\)$/, '')));
	const counts: Record<string, number> = {};
	for (const pair of pairs) {
		const resource = pair.split(' → ')[0];
		counts[resource] = (counts[resource] ?? 0) + 1;
	}
	return counts;
}

/** Runs every case of a group: the contract request is sent and the unwrapped data is output. */
export function describeOperations(group: keyof typeof CONTRACT_GROUPS): void {
	const resources: string[] = CONTRACT_GROUPS[group];
	const cases = Object.fromEntries(
		Object.entries(CASES).filter(([, c]) => resources.includes(String(c.params.resource))),
	);
	describe('every operation sends the contract request and outputs the unwrapped data', () => {
		test.each(Object.entries(cases))('%s', async (_name, c) => {
			// Operations of kind `withdrawal` look their External ID up before they are sent (the record says which).
			const spec = RESOURCES[String(c.params.resource)]?.specs[String(c.params.operation)];
			const lookup = spec?.kind === 'withdrawal' ? noWithdrawalsYet(1) : undefined;
			let interceptor = api().intercept(
				c.path,
				c.method.toUpperCase(),
				c.body as nock.RequestBodyMatcher | undefined,
			);
			if (c.query) interceptor = interceptor.query(c.query as nock.DataMatcherMap);
			else interceptor = interceptor.query((actual) => Object.keys(actual).length === 0);
			const scope = interceptor.reply(200, c.reply as nock.Body);

			const reads = recordReads();
			const run = await runNode(c.params, { items: c.items });
			reads.stop();
			// What the editor shows for this operation is exactly what its builder reads; the one field read
			// while hidden is a network on a UTXO token, read only to refuse it (it may come from an expression).
			const shown = await shownFields(c.params);
			const utxo = typeof c.params.token === 'string' && !['USDT', 'USDC'].includes(c.params.token);
			expect(
				reads.names().filter((name) => !(utxo && name === 'network' && !shown.includes(name))),
			).toEqual(shown);

			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => item.json)).toEqual(c.output);
			expect(scope.isDone()).toBe(true);
			expect(lookup?.isDone() ?? true).toBe(true);
			expectNoSecrets(JSON.stringify(run.items));
		});

		const expected = operationsOf(CONTRACT_GROUPS[group]);
		const total = Object.values(expected).reduce((sum, count) => sum + count, 0);
		test(`the table covers the ${total} contract pairs of ${Object.keys(expected).join(', ')}`, () => {
			expect(pairsPerResource(cases)).toEqual(expected);
		});
	});
}

/**
 * The whole contract: every resource of the records in exactly one group, each group run by the
 * test file of its name under test/CryptoSettlement/ (run once, by operations/deposits.test.ts).
 */
export function describeContractTotal(): void {
	test('the tables together cover every resource of the operation records, once', () => {
		const grouped = Object.values(CONTRACT_GROUPS).flat();
		expect([...grouped].sort()).toEqual(Object.keys(RESOURCES).sort());
		for (const group of Object.keys(CONTRACT_GROUPS))
			expect(existsSync(join(NODE_TESTS, `${group}.test.ts`))).toBe(true);
	});

	// A case runs the operation its parameters select, so one named for another (or a renamed one) would
	// test the wrong operation, or none, under that name.
	test('every case is named for the operation of the records its parameters run', () => {
		const misnamed = Object.entries(CASES)
			.filter(
				([name, { params }]) =>
					name.replace(/ \(.*\)$/, '') !== `${params.resource} → ${params.operation}` ||
					!RESOURCES[String(params.resource)]?.specs[String(params.operation)],
			)
			.map(([name]) => name);
		expect(misnamed).toEqual([]);
	});
}
