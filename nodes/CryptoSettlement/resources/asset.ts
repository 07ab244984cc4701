import type { ResourceSpecs } from '../helpers/types';

export const asset: ResourceSpecs = {
	getDepositAssets: {
		option: {
			name: 'Get Deposit Assets',
			action: 'Get deposit assets',
			description: 'List the crypto assets you can receive, with minimums, confirmations and rates',
		},
		method: 'GET',
		path: '/trades/assets',
		retry: 'safe',
	},
	getWithdrawalAssets: {
		option: {
			name: 'Get Withdrawal Assets',
			action: 'Get withdrawal assets',
			description: 'Get the tokens and networks you can withdraw, with fees and limits',
		},
		method: 'GET',
		path: '/payments/supported-assets-info',
		retry: 'safe',
	},
};
