import { tokenNetworkFee } from '../record/commonParams';
import { LABEL, LIST_FIELDS, locator, requiredText, tokenFields } from '../fields/fields';
import type { ResourceSpecs } from '../record/record';
import { ROUTES } from '../../service/routes';

const ADDRESS = requiredText('address', 'Address', {
	description: 'Payout address to check or save',
});

export const payoutAddress: ResourceSpecs = {
	create: {
		option: {
			name: 'Create',
			action: 'Create a payout address',
			description:
				'Save a withdrawal address; saving the same address, token and network again updates its label',
		},
		method: 'POST',
		path: ROUTES.payoutAddresses.path,
		source: 'public notes (third-party)',
		// Saving is documented as an upsert on address + network + token, but a saved address is a
		// payout destination (the credential's "saved only" guardrail trusts it): after an unclear
		// answer it is reported in doubt rather than sent again.
		kind: 'singleWrite',
		money: 'destination',
		fields: [ADDRESS, ...tokenFields({ feeLevel: false }), LABEL],
		build: (params) => ({
			body: {
				address: params.requiredText('address'),
				...tokenNetworkFee(params, { feeLevel: false }),
				label: params.requiredText('label'),
			},
		}),
	},
	delete: {
		option: {
			name: 'Delete',
			action: 'Delete a payout address',
			description: 'Remove a saved withdrawal address',
		},
		method: 'DELETE',
		path: '/payments/wallet-addresses/{payoutAddressId}',
		source: 'public notes (third-party)',
		kind: 'delete',
		money: 'destination',
		fields: [locator('payoutAddressId', 'Payout Address', 'searchPayoutAddresses')],
		build: (params) => ({ pathParams: { payoutAddressId: params.pathId('payoutAddressId') } }),
	},
	getAll: {
		option: {
			name: 'Get Many',
			action: 'Get many payout addresses',
			description: 'List saved withdrawal addresses',
		},
		method: 'GET',
		path: ROUTES.payoutAddresses.path,
		source: 'spec',
		kind: 'wholeList',
		money: 'none',
		fields: LIST_FIELDS,
	},
	validate: {
		option: {
			name: 'Validate',
			action: 'Validate a payout address',
			description:
				'Check the format of an address for a token and network (it does not prove the address exists)',
		},
		method: 'POST',
		path: ROUTES.validateAddress.path,
		source: 'spec',
		kind: 'read',
		money: 'none',
		fields: [ADDRESS, ...tokenFields({ feeLevel: false })],
		// A verdict about another address, token or network says nothing of this one.
		echoes: { address: 'address', token: 'value', network: 'value' },
		build: (params) => ({
			body: {
				address: params.requiredText('address'),
				...tokenNetworkFee(params, { feeLevel: false }),
			},
		}),
	},
};
