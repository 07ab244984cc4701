/** Transactions (the node's `transaction` resource): deposits and their trades. */
import { publicTrade } from '../records';
import { getRecordRoute, pageOf, type Route } from './context';

const oneTrade = (template: string) =>
	getRecordRoute({
		template,
		records: (ctx) => ctx.core.state.trades,
		missing: 'transaction not found',
		message: 'transaction retrieved successfully',
		view: publicTrade,
	});

export const transactionRoutes: Route[] = [
	{
		method: 'GET',
		template: '/trades/transactions',
		access: 'credentials',
		handle: (ctx) => {
			const status = ctx.query.get('status');
			const items = status
				? ctx.core.state.trades.filter((trade) => trade.status === status)
				: ctx.core.state.trades;
			return pageOf(ctx, items, 'transactions retrieved successfully', publicTrade);
		},
	},
	oneTrade('/trades/transactions/{transactionId}'),
	oneTrade('/trades/sell/{tradeId}'),
];
