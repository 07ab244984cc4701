import type { IDataObject } from 'n8n-workflow';
import { withoutSecretKeys } from '../../service/redact';
import { checkMarkupPercent, checkOneOf, toNumber } from '../fields/rules';
import { MARKUP_MAX, MARKUP_MIN, WITHDRAWAL_FEE_BEARERS } from '../../service/catalog';
import type { ResourceSpecs } from '../record/record';
import { ROUTES } from '../../service/routes';

export const account: ResourceSpecs = {
	get: {
		option: {
			name: 'Get',
			action: 'Get account balance and settings',
			description: 'Get the account: its balance (NGN and GHS fiat wallets), fees and settings',
		},
		method: 'GET',
		path: ROUTES.account.path,
		source: 'public notes (third-party)',
		kind: 'read',
		money: 'none',
		fields: [],
		// The account record may carry the webhook verification secret at any depth: never output it.
		records: (data) => [withoutSecretKeys((data ?? {}) as IDataObject)],
	},
	setMarkupPercent: {
		option: {
			name: 'Set Markup Percent',
			action: 'Set the account markup percent',
			description: 'Set the percentage added to the sell rate of auto-settled payouts',
		},
		method: 'PUT',
		path: '/users/markup-percent',
		source: 'spec',
		kind: 'update',
		money: 'settings',
		fields: [
			{
				displayName: 'Markup Percent',
				name: 'markupPercent',
				type: 'number',
				// No numberPrecision: the editor would round 10.123 on blur; the node refuses it instead.
				typeOptions: { minValue: MARKUP_MIN, maxValue: MARKUP_MAX },
				required: true,
				default: 0,
				description: `Percentage added to the base sell rate of auto-settled payouts, from ${MARKUP_MIN} to ${MARKUP_MAX} (both included), at most 2 decimals (never rounded)`,
			},
		],
		echoes: { markupPercent: 'value' },
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
		source: 'spec',
		kind: 'update',
		money: 'settings',
		fields: [
			{
				displayName: 'Withdrawal Fee Bearer',
				name: 'withdrawalFeeBearer',
				type: 'options',
				options: [
					{
						name: 'Business',
						value: 'business',
						description:
							'The business bears the fee: it is added to the amount debited, and the recipient gets the full amount',
					},
					{
						// The service calls the recipient "user".
						name: 'Recipient (User)',
						value: 'user',
						description:
							'The recipient bears the fee: it is deducted from the payout, and the recipient gets the amount minus the fee',
					},
				],
				required: true,
				default: 'user',
				description: 'Who pays withdrawal and auto-settlement fees',
			},
		],
		echoes: { withdrawalFeeBearer: 'value' },
		build: (params) => {
			const withdrawalFeeBearer = params.text('withdrawalFeeBearer');
			params.assert(checkOneOf('withdrawalFeeBearer', withdrawalFeeBearer, WITHDRAWAL_FEE_BEARERS));
			return { body: { withdrawalFeeBearer } };
		},
	},
};
