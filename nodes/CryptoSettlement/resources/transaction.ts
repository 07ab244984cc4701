import { recordFilter } from '../helpers/filters';
import type { ResourceSpecs } from '../helpers/types';

export const transaction: ResourceSpecs = {
	get: {
		option: { name: 'Get', action: 'Get a transaction', description: 'Get a deposit (trade) transaction by ID' },
		method: 'GET',
		path: '/trades/transactions/{transactionId}',
		retry: 'safe',
		build: (params) => ({ pathParams: { transactionId: params.pathId('transactionId') } }),
	},
	getAll: {
		option: { name: 'Get Many', action: 'Get many transactions', description: 'List deposit and trade transactions' },
		method: 'GET',
		path: '/trades/transactions',
		retry: 'safe',
		pageSize: 100,
		build: (params) => ({ keep: recordFilter(params, ['status', 'createdAfter', 'createdBefore']) }),
	},
};
