import type { IDataObject } from 'n8n-workflow';
import type { ResourceSpecs } from '../record/record';
import { isObject } from '../../service/values';
import { ROUTES } from '../../service/routes';

/**
 * One item per token (with its networks and fees), each carrying the account-wide `limits` and
 * `rate` beside it, so a workflow can filter, loop or look tokens up without unpacking a nested list.
 * An answer without a `tokens` list is output as it came.
 */
function perToken(data: unknown): IDataObject[] {
	if (!isObject(data) || !Array.isArray(data.tokens)) return isObject(data) ? [data] : [];
	const { tokens, ...shared } = data;
	return (tokens as unknown[]).filter(isObject).map((token) => ({ ...token, ...shared }));
}

export const asset: ResourceSpecs = {
	getDepositAssets: {
		option: {
			name: 'Get Deposit Assets',
			action: 'Get deposit assets',
			description: 'List the crypto assets you can receive, with minimums, confirmations and rates',
		},
		method: 'GET',
		path: ROUTES.depositAssets.path,
		source: 'spec',
		kind: 'read',
		money: 'none',
		fields: [],
	},
	getWithdrawalAssets: {
		option: {
			name: 'Get Withdrawal Assets',
			action: 'Get withdrawal assets',
			description:
				'Get the tokens you can withdraw, one item per token with its networks, fees and limits',
		},
		method: 'GET',
		path: '/payments/supported-assets-info',
		source: 'spec',
		kind: 'read',
		money: 'none',
		fields: [],
		records: perToken,
	},
};
