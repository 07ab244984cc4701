import { recordFilter } from '../fields/filters';
import { LIST_FIELDS, listFilters, requiredText } from '../fields/fields';
import { TRADE_EVENT_STATUSES } from '../fields/rules';
import type { ResourceSpecs } from '../fields/types';

export const transaction: ResourceSpecs = {
	get: {
		option: { name: 'Get', action: 'Get a transaction', description: 'Get a deposit (trade) transaction by ID' },
		method: 'GET',
		path: '/trades/transactions/{transactionId}',
		source: 'public notes',
		kind: 'read',
		money: 'none',
		fields: [requiredText('transactionId', 'Transaction ID', { description: 'Trade (deposit) ID, as carried by trade.* webhooks' })],
		build: (params) => ({ pathParams: { transactionId: params.pathId('transactionId') } }),
	},
	getAll: {
		option: { name: 'Get Many', action: 'Get many transactions', description: 'List deposit and trade transactions' },
		method: 'GET',
		path: '/trades/transactions',
		source: 'spec',
		kind: 'pagedList',
		money: 'none',
		pageSize: 100,
		fields: [...LIST_FIELDS, listFilters('transactions', TRADE_EVENT_STATUSES, [])],
		build: (params) => ({ keep: recordFilter(params, ['status', 'createdAfter', 'createdBefore']) }),
	},
};
