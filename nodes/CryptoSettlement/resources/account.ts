import type { IDataObject } from 'n8n-workflow';
import { withoutSecretKeys } from '../helpers/redact';
import { checkMarkupPercent, checkOneOf, toNumber, WITHDRAWAL_FEE_BEARERS } from '../helpers/rules';
import type { ResourceSpecs } from '../helpers/types';

export const account: ResourceSpecs = {
	get: {
		option: {
			name: 'Get',
			action: 'Get account details',
			description: 'Get the integration account: balances, fees and settings',
		},
		method: 'GET',
		path: '/users/fetch-integration',
		retry: 'safe',
		// The account record may carry the webhook verification secret at any depth: never output it.
		output: (data) => [withoutSecretKeys((data ?? {}) as IDataObject)],
	},
	setMarkupPercent: {
		option: {
			name: 'Set Markup Percent',
			action: 'Set the account markup percent',
			description: 'Set the percentage added to the sell rate of auto-settled payouts',
		},
		method: 'PUT',
		path: '/users/markup-percent',
		retry: 'safe',
		build: (params) => {
			const markupPercent = params.raw('markupPercent');
			params.assert(checkMarkupPercent(markupPercent));
			return { body: { markupPercent: toNumber(markupPercent) } };
		},
	},
	setWithdrawalFeeBearer: {
		option: {
			name: 'Set Withdrawal Fee Bearer',
			action: 'Set the account withdrawal fee bearer',
			description: 'Set who pays withdrawal fees: the recipient or the business',
		},
		method: 'PUT',
		path: '/users/withdrawal-fee-bearer',
		retry: 'safe',
		build: (params) => {
			const withdrawalFeeBearer = params.text('withdrawalFeeBearer');
			params.assert(checkOneOf('withdrawalFeeBearer', withdrawalFeeBearer, WITHDRAWAL_FEE_BEARERS));
			return { body: { withdrawalFeeBearer } };
		},
	},
};
