import { ROUTES } from '../../service/routes';
import { bankAccountFields, narrationOf } from '../record/commonParams';
import {
	additionalFields,
	BANK_ACCOUNT_FIELDS,
	BANK_ACCOUNT_ID,
	LIST_FIELDS,
	NARRATION,
} from '../fields/fields';
import type { ResourceSpecs } from '../record/record';

export const bankAccount: ResourceSpecs = {
	create: {
		option: {
			name: 'Create',
			action: 'Create a bank account',
			description: 'Save a bank account as a payout destination',
		},
		method: 'POST',
		path: '/payments/banks/add',
		source: 'public notes',
		// A repeat would be refused as "already exists" rather than saved twice, but is not sent blindly.
		kind: 'singleWrite',
		money: 'destination',
		fields: [...BANK_ACCOUNT_FIELDS, additionalFields([NARRATION])],
		build: (params) => ({ body: { ...bankAccountFields(params), ...narrationOf(params) } }),
	},
	delete: {
		option: {
			name: 'Delete',
			action: 'Delete a bank account',
			description: 'Remove a saved bank account (path not confirmed by the service documentation)',
		},
		method: 'DELETE',
		path: '/payments/integration-banks/{bankAccountId}',
		source: 'unconfirmed',
		kind: 'delete',
		money: 'destination',
		fields: [BANK_ACCOUNT_ID],
		build: (params) => ({ pathParams: { bankAccountId: params.pathId('bankAccountId') } }),
	},
	getAll: {
		option: {
			name: 'Get Many',
			action: 'Get many bank accounts',
			description: 'List saved bank accounts',
		},
		method: 'GET',
		path: ROUTES.bankAccounts.path,
		source: 'spec',
		kind: 'pagedList',
		money: 'none',
		pageSize: 100,
		fields: LIST_FIELDS,
	},
};
