import { transactionPin } from '../helpers/builders';
import { checkSwap, toNumber } from '../helpers/rules';
import type { ResourceSpecs } from '../helpers/types';

export const currency: ResourceSpecs = {
	swap: {
		option: { name: 'Swap', action: 'Swap a fiat currency', description: 'Convert fiat balance between NGN and GHS' },
		method: 'POST',
		path: '/payments/swap-currency',
		// No idempotency key exists for swaps: a repeat could convert twice.
		retry: 'never',
		build: async (params) => {
			const input = { amount: params.raw('amount', ''), from: params.text('from'), to: params.text('to') };
			params.assert(checkSwap(input));
			const pin = await transactionPin(params);
			return { body: { amount: toNumber(input.amount), from: input.from, to: input.to, pin } };
		},
	},
};
