import { tokenNetworkFee } from '../helpers/builders';
import type { ResourceSpecs } from '../helpers/types';

export const payoutAddress: ResourceSpecs = {
	create: {
		option: {
			name: 'Create',
			action: 'Create a payout address',
			description: 'Save a withdrawal address; saving the same address, token and network again updates its label',
		},
		method: 'POST',
		path: '/payments/wallet-addresses',
		// Saving is an upsert on address + network + token, so a repeat changes nothing more.
		retry: 'safe',
		build: (params) => ({
			body: {
				address: params.requiredText('address'),
				...tokenNetworkFee(params, { feeLevel: false }),
				label: params.requiredText('label'),
			},
		}),
	},
	delete: {
		option: { name: 'Delete', action: 'Delete a payout address', description: 'Remove a saved withdrawal address' },
		method: 'DELETE',
		path: '/payments/wallet-addresses/{payoutAddressId}',
		retry: 'safe',
		build: (params) => ({ pathParams: { payoutAddressId: params.pathId('payoutAddressId') } }),
		output: (_data, parts) => [{ deleted: true, id: parts.pathParams?.payoutAddressId ?? '' }],
	},
	getAll: {
		option: { name: 'Get Many', action: 'Get many payout addresses', description: 'List saved withdrawal addresses' },
		method: 'GET',
		path: '/payments/wallet-addresses',
		retry: 'safe',
		localLimit: true,
	},
	validate: {
		option: {
			name: 'Validate',
			action: 'Validate a payout address',
			description: 'Check the format of an address for a token and network (it does not prove the address exists)',
		},
		method: 'POST',
		path: '/payments/wallet-addresses/validate',
		retry: 'safe',
		build: (params) => ({
			body: { address: params.requiredText('address'), ...tokenNetworkFee(params, { feeLevel: false }) },
		}),
	},
};
