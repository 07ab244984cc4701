/** Swapping one fiat balance into another (the node's `currency` resource). */
import { round, swapRate } from '../catalog';
import { assertValid } from '../http';
import { checkPin, type Route } from './context';
import { numberOf, requiredText, swap } from './validation';

export const currencyRoutes: Route[] = [
	{
		method: 'POST',
		template: '/payments/swap-currency',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid([...swap(body), ...requiredText('pin', body.pin)]);
			checkPin(ctx);
			const from = body.from as 'ngn' | 'ghs';
			const to = body.to as 'ngn' | 'ghs';
			const amount = numberOf(body.amount) as number;
			ctx.core.ensureBalance(from, amount);
			ctx.core.adjustBalance(from, -amount);
			const received = round(amount * swapRate(from, to), 2);
			ctx.core.adjustBalance(to, received);
			(ctx.core.state.swaps ??= []).push({ at: ctx.core.iso(), from, to, amount, received });
			ctx.core.save();
			return {
				status: 200,
				body: { message: 'currency swap successful', success: true, data: {} },
			};
		},
	},
];
