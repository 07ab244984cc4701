import { bankAccountFields } from '../record/commonParams';
import { BANK_ACCOUNT_FIELDS, CURRENCY, LIST_FIELDS } from '../fields/fields';
import { checkOneOf } from '../fields/rules';
import { FIAT_CURRENCIES } from '../../service/catalog';
import type { Params } from '../record/params';
import type { ResourceSpecs } from '../record/record';

function currencyOf(params: Params): string {
	const currency = params.text('currency', 'ngn');
	params.assert(checkOneOf('currency', currency, FIAT_CURRENCIES));
	return currency as string;
}

export const bank: ResourceSpecs = {
	getAll: {
		option: {
			name: 'Get Many',
			action: 'Get many banks',
			description: 'List the banks of a currency, the source of bank IDs',
		},
		method: 'GET',
		path: '/payments/banks',
		source: 'public notes',
		kind: 'wholeList',
		money: 'none',
		fields: [CURRENCY, ...LIST_FIELDS],
		build: (params) => ({ qs: { currency: currencyOf(params) } }),
	},
	verifyAccount: {
		option: {
			name: 'Verify Account',
			action: 'Verify a bank account',
			description: 'Resolve the holder name of a bank account number',
		},
		method: 'POST',
		path: '/payments/banks/validate',
		source: 'spec',
		// Resolving a holder name changes nothing.
		kind: 'read',
		money: 'none',
		fields: [CURRENCY, ...BANK_ACCOUNT_FIELDS],
		// The holder name of another account number (a cache answering another request) must not pass
		// for this one's: the answer shows the number, partly masked.
		echoes: { accountNumber: 'accountNumber' },
		build: (params) => ({ body: { ...bankAccountFields(params), currency: currencyOf(params) } }),
	},
};
