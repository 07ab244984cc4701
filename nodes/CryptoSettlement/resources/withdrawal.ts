import { externalIdOf, narrationOf, tokenNetworkFee, transactionPin, withdrawalAmount } from '../helpers/builders';
import { checkPositiveAmount, toNumber, USD_DECIMALS } from '../helpers/rules';
import { recordFilter } from '../helpers/filters';
import type { Params } from '../helpers/params';
import type { ResourceSpecs } from '../helpers/types';

const CAPACITY_HINT =
	'If the service cannot price a payout of this size in this coin right now (temporary payout capacity), retry later or with a smaller amount. Other causes of a 400 are the balance and duplicate withdrawals.';

/** 'Return Full Record': on unless turned off. */
const fullRecordOf = (params: Params): boolean => params.raw('returnFullRecord', true) !== false;

export const withdrawal: ResourceSpecs = {
	createBank: {
		option: {
			name: 'Create Bank',
			action: 'Create a bank withdrawal',
			description: 'Pay out NGN or GHS to a saved bank account',
		},
		method: 'POST',
		path: '/payments/withdraw/bank/{bankAccountId}',
		retry: 'withdrawal',
		build: async (params) => {
			const bankAccountId = params.pathId('bankAccountId');
			const amount = params.raw('amount', '');
			params.assert(checkPositiveAmount('amount', amount, USD_DECIMALS));
			const narration = narrationOf(params);
			const key = externalIdOf(params);
			const pin = await transactionPin(params);
			return {
				pathParams: { bankAccountId },
				body: { amount: toNumber(amount), ...narration, pin, externalId: key.externalId },
				idempotency: { ...key, expected: { bankAccount: bankAccountId, amount: toNumber(amount) }, fullRecord: fullRecordOf(params) },
			};
		},
	},
	createCrypto: {
		option: {
			name: 'Create Crypto',
			action: 'Create a crypto withdrawal',
			description: 'Send USDT, USDC, BTC, LTC, DOGE or BCH to an external address',
		},
		method: 'POST',
		path: '/payments/withdraw/address',
		retry: 'withdrawal',
		build: async (params) => {
			const token = tokenNetworkFee(params, { feeLevel: true });
			const walletAddress = params.requiredText('walletAddress');
			const amount = withdrawalAmount(params);
			const key = externalIdOf(params);
			const pin = await transactionPin(params);
			return {
				body: { ...token, walletAddress, ...amount, externalId: key.externalId, pin },
				idempotency: { ...key, expected: { ...token, walletAddress, ...amount }, fullRecord: fullRecordOf(params) },
			};
		},
	},
	estimateNetworkFee: {
		option: {
			name: 'Estimate Network Fee',
			action: 'Estimate a withdrawal network fee',
			description: 'Quote the network fee of a crypto withdrawal before sending it',
		},
		method: 'POST',
		path: '/payments/estimate-network-fee',
		// A quote changes nothing, so it may be repeated.
		retry: 'safe',
		errorHint: { 400: CAPACITY_HINT },
		build: (params) => {
			const token = tokenNetworkFee(params, { feeLevel: true });
			const walletAddress = params.requiredText('walletAddress');
			return { body: { ...token, walletAddress, ...withdrawalAmount(params) } };
		},
	},
	get: {
		option: {
			name: 'Get',
			action: 'Get a withdrawal',
			description: 'Get a withdrawal by its ID or by the External ID you sent',
		},
		method: 'GET',
		path: '/payments/withdrawal/{withdrawalId}',
		retry: 'safe',
		build: (params) => ({ pathParams: { withdrawalId: params.pathId('withdrawalId') } }),
	},
	getAll: {
		option: { name: 'Get Many', action: 'Get many withdrawals', description: 'List crypto and bank withdrawals' },
		method: 'GET',
		path: '/payments/withdrawals',
		retry: 'safe',
		pageSize: 100,
		build: (params) => ({ keep: recordFilter(params, ['status', 'token', 'externalId', 'createdAfter', 'createdBefore']) }),
	},
};
