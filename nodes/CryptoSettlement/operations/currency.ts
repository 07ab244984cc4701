import type { INodeProperties } from 'n8n-workflow';
import { dryRunOf, transactionPin } from '../record/commonParams';
import {
	additionalFields,
	amountField,
	CURRENCY,
	DRY_RUN,
	DRY_RUN_SAVED,
	PIN,
} from '../fields/fields';
import { checkSwap, toNumber } from '../fields/rules';
import { USD_DECIMALS } from '../../service/catalog';
import type { ResourceSpecs } from '../record/record';

/** From and To: the fiat currencies of Currency (NGN, GHS). */
const fiat = (
	name: string,
	displayName: string,
	initial: string,
	description: string,
): INodeProperties => ({
	...CURRENCY,
	displayName,
	name,
	default: initial,
	description,
});

export const currency: ResourceSpecs = {
	swap: {
		option: {
			name: 'Swap',
			action: 'Swap a fiat currency',
			description: 'Convert fiat balance between NGN and GHS',
		},
		method: 'POST',
		path: '/payments/swap-currency',
		source: 'spec',
		// No idempotency key exists for swaps: a repeat could convert twice.
		kind: 'singleWrite',
		money: 'pays',
		fields: [
			DRY_RUN,
			amountField('amount', 'Amount', USD_DECIMALS, "Amount in the 'From' currency"),
			fiat('from', 'From', 'ngn', 'Currency to debit'),
			fiat('to', 'To', 'ghs', "Currency to credit; must differ from 'From'"),
			additionalFields([DRY_RUN_SAVED, PIN]),
		],
		build: async (params) => {
			const input = {
				amount: params.raw('amount', ''),
				from: params.text('from'),
				to: params.text('to'),
			};
			params.assert(checkSwap(input));
			const pin = await transactionPin(params);
			return {
				body: { amount: toNumber(input.amount), from: input.from, to: input.to, pin },
				dryRun: dryRunOf(params),
			};
		},
		payment: ({ body = {} }) => ({
			amount: { fiat: String(body.from), value: Number(body.amount) },
		}),
	},
};
