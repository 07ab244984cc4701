/** The integration (the node's `account` resource): profile, fee bearer, markup. */
import { WITHDRAWAL_FEE_BEARERS } from '../../../nodes/service/catalog';
import { assertValid, ok } from '../http';
import type { Context, Route } from './context';
import { markupPercent, numberOf, oneOf } from './validation';

function accountView(ctx: Context): Record<string, unknown> {
	const { account } = ctx.core.state;
	// The webhook secret is never part of the answer.
	return {
		id: account.id,
		user: account.user,
		name: account.name,
		email: account.email,
		isActive: account.isActive,
		environment: ctx.env,
		fiatWallets: { ...account.fiatWallets },
		platformFeePercent: account.platformFeePercent,
		markupPercent: account.markupPercent,
		withdrawalFeeBearer: account.withdrawalFeeBearer,
		webhookUrl: ctx.core.webhook.url,
		ipWhitelist: account.ipWhitelist,
		createdAt: account.createdAt,
		updatedAt: account.updatedAt,
	};
}

export const accountRoutes: Route[] = [
	{
		method: 'GET',
		template: '/users/fetch-integration',
		access: 'credentials',
		handle: (ctx) => ok('integration fetched successfully', accountView(ctx)),
	},
	{
		method: 'PUT',
		template: '/users/withdrawal-fee-bearer',
		access: 'credentials',
		handle: (ctx) => {
			assertValid(
				oneOf('withdrawalFeeBearer', ctx.body.withdrawalFeeBearer, WITHDRAWAL_FEE_BEARERS),
			);
			const { account } = ctx.core.state;
			account.withdrawalFeeBearer = ctx.body.withdrawalFeeBearer as 'user' | 'business';
			account.updatedAt = ctx.core.iso();
			return ok('withdrawal fee bearer set successfully', {
				withdrawalFeeBearer: account.withdrawalFeeBearer,
			});
		},
	},
	{
		method: 'PUT',
		template: '/users/markup-percent',
		access: 'credentials',
		handle: (ctx) => {
			const value = ctx.body.markupPercent;
			assertValid(markupPercent(value));
			const { account } = ctx.core.state;
			account.markupPercent = numberOf(value) as number;
			account.updatedAt = ctx.core.iso();
			return ok('markup percentage set successfully', { markupPercent: account.markupPercent });
		},
	},
];
