import { recordFilter } from '../record/filters';
import { LIST_FIELDS, listFilters, requiredText } from '../fields/fields';
import { statusesOf } from '../../service/catalog';
import type { ResourceSpecs } from '../record/record';
import { ROUTES } from '../../service/routes';

export const transaction: ResourceSpecs = {
	get: {
		option: {
			name: 'Get',
			action: 'Get a transaction',
			description: 'Get a deposit (trade) transaction by ID',
		},
		method: 'GET',
		path: ROUTES.trade.path,
		source: 'public notes',
		kind: 'read',
		money: 'none',
		fields: [
			requiredText('transactionId', 'Transaction ID', {
				description: 'Trade (deposit) ID, as carried by trade.* webhooks',
			}),
		],
		byId: { param: 'transactionId' },
		build: (params) => ({ pathParams: { transactionId: params.pathId('transactionId') } }),
	},
	getAll: {
		option: {
			name: 'Get Many',
			action: 'Get many transactions',
			description: 'List deposit and trade transactions',
		},
		method: 'GET',
		path: ROUTES.trades.path,
		source: 'spec',
		kind: 'pagedList',
		money: 'none',
		pageSize: 100,
		fields: [...LIST_FIELDS, listFilters('transactions', statusesOf('trade'), [])],
		build: (params) => ({
			keep: recordFilter(params, ['status', 'createdAfter', 'createdBefore']),
		}),
	},
};
