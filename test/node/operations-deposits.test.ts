/** The contract table (see operation-cases.ts): account, assets, deposit wallets and mock deposits. */
import { ok, rl, setupNock } from './helpers';
import { describeContractTotal, describeOperations, page, type Case } from './operation-cases';

setupNock();

const wallet = { id: 'w1', label: 'customer-1', address: 'TQ1', name: 'Tron', currency: 'ngn', isActive: true };

const cases: Record<string, Case> = {
	'account → get': {
		params: { resource: 'account', operation: 'get' },
		method: 'get',
		path: '/users/fetch-integration',
		reply: ok({ fiatWallets: { ngn: 10 }, markupPercent: 2, webhookSecret: 'do-not-output' }),
		output: [{ fiatWallets: { ngn: 10 }, markupPercent: 2 }],
	},
	'account → setWithdrawalFeeBearer': {
		params: { resource: 'account', operation: 'setWithdrawalFeeBearer', withdrawalFeeBearer: 'business' },
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
		reply: ok([{ id: 'a1', symbol: 'USDT' }, { id: 'a2', symbol: 'BTC' }]),
		output: [{ id: 'a1', symbol: 'USDT' }, { id: 'a2', symbol: 'BTC' }],
	},
	'asset → getWithdrawalAssets': {
		params: { resource: 'asset', operation: 'getWithdrawalAssets' },
		method: 'get',
		path: '/payments/supported-assets-info',
		reply: ok(
			{
				tokens: [
					{ symbol: 'USDT', enabled: true, networks: [{ network: 'TRC20', enabled: true, fee: 1 }] },
					{ symbol: 'BTC', enabled: true, networks: [], fee: null },
				],
				limits: { minimum: 1, maximum: 10 },
				rate: 1,
			},
			'data fetched',
		),
		// One item per token, each with the account-wide limits and rate.
		output: [
			{ symbol: 'USDT', enabled: true, networks: [{ network: 'TRC20', enabled: true, fee: 1 }], limits: { minimum: 1, maximum: 10 }, rate: 1 },
			{ symbol: 'BTC', enabled: true, networks: [], fee: null, limits: { minimum: 1, maximum: 10 }, rate: 1 },
		],
	},
	'wallet → create': {
		params: {
			resource: 'wallet',
			operation: 'create',
			assetId: '65f0a1',
			label: ' customer-1 ',
			additionalFields: { bankId: '39', accountNumber: '0123456789', narration: 'settle', autoSettlement: true },
		},
		method: 'post',
		path: '/trades/sell/assets/65f0a1/generate-address',
		body: { label: 'customer-1', bankId: '39', accountNumber: '0123456789', narration: 'settle', autoSettlement: true },
		reply: ok({ id: 'w1', address: 'TQ1' }, 'wallet address generated successfully'),
		output: [{ id: 'w1', address: 'TQ1' }],
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
		params: { resource: 'wallet', operation: 'setAutoSettlement', walletId: rl('w1'), autoSettlement: false },
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
			walletAddress: 'TQ1',
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
			walletAddress: 'TQ1',
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
};

describeOperations('operations-deposits', cases);
describeContractTotal();
