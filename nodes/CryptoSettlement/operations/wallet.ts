import type { INodeProperties } from 'n8n-workflow';
import { bankAccountFields, narrationOf } from '../record/commonParams';
import {
	additionalFields,
	ASSET_ID,
	BANK_ACCOUNT_FIELDS,
	LABEL,
	LIST_FIELDS,
	locator,
	NARRATION,
} from '../fields/fields';
import { checkRequired } from '../fields/rules';
import type { ResourceSpecs } from '../record/record';
import { ROUTES } from '../../service/routes';

const WALLET_ID = locator('walletId', 'Wallet', 'searchWallets');

const AUTO_SETTLEMENT_OPTION: INodeProperties = {
	displayName: 'Auto Settlement',
	name: 'autoSettlement',
	type: 'boolean',
	default: false,
	description: 'Whether deposits to this address are paid out to the linked bank account',
};

export const wallet: ResourceSpecs = {
	create: {
		option: {
			name: 'Create',
			action: 'Create a wallet',
			description:
				'Generate a permanent deposit address for an asset, optionally settled to a bank',
		},
		method: 'POST',
		path: '/trades/sell/assets/{assetId}/generate-address',
		source: 'spec + public notes',
		// The label is unique per asset, but a blind repeat would answer "already exists": not repeated.
		kind: 'singleWrite',
		money: 'none',
		// A settlement bank makes the new wallet's deposits go to a bank account the caller chose.
		moneyWith: {
			money: 'destination',
			name: 'with a settlement bank',
			fields: ['accountNumber', 'autoSettlement', 'bankId', 'narration'],
		},
		fields: [
			ASSET_ID,
			LABEL,
			additionalFields([
				{
					displayName: 'Account Number',
					name: 'accountNumber',
					type: 'string',
					default: '',
					description: "Bank account for auto-settlement; needs 'Bank ID' too",
				},
				AUTO_SETTLEMENT_OPTION,
				{
					displayName: 'Bank ID',
					name: 'bankId',
					type: 'string',
					default: '',
					description:
						"Bank for auto-settlement (from Bank → Get Many); needs 'Account Number' too",
				},
				NARRATION,
			]),
		],
		build: (params) => {
			const assetId = params.pathId('assetId');
			const label = params.requiredText('label');
			const extra = params.additional();
			const bankId = String(extra.bankId ?? '').trim();
			const accountNumber = String(extra.accountNumber ?? '').trim();
			if (bankId || accountNumber) {
				params.assert(
					checkRequired(bankId ? 'accountNumber' : 'bankId', bankId ? accountNumber : bankId),
				);
			}
			return {
				pathParams: { assetId },
				body: {
					label,
					...(bankId ? { bankId, accountNumber } : {}),
					...narrationOf(params),
					...(extra.autoSettlement === undefined
						? {}
						: { autoSettlement: extra.autoSettlement === true }),
				},
			};
		},
	},
	get: {
		option: { name: 'Get', action: 'Get a wallet', description: 'Get a deposit wallet by ID' },
		method: 'GET',
		path: ROUTES.wallet.path,
		source: 'spec',
		kind: 'read',
		money: 'none',
		fields: [WALLET_ID],
		// The service also finds a wallet by its address (docs/trigger.md, Confirm With API).
		byId: { param: 'walletId', alsoShownAs: { address: 'address' } },
		build: (params) => ({ pathParams: { walletId: params.pathId('walletId') } }),
	},
	getAll: {
		option: { name: 'Get Many', action: 'Get many wallets', description: 'List deposit wallets' },
		method: 'GET',
		path: ROUTES.wallets.path,
		source: 'spec',
		kind: 'pagedList',
		money: 'none',
		pageSize: 100,
		fields: LIST_FIELDS,
	},
	setAutoSettlement: {
		option: {
			name: 'Set Auto Settlement',
			action: 'Set auto settlement of a wallet',
			description: "Turn paying a wallet's deposits out to its linked bank on or off",
		},
		method: 'PUT',
		path: '/trades/wallets/{walletId}/auto-settlement',
		source: 'public notes',
		kind: 'update',
		money: 'destination',
		fields: [
			WALLET_ID,
			{
				displayName: 'Auto Settlement',
				name: 'autoSettlement',
				type: 'boolean',
				default: true,
				description:
					"Whether deposits to this wallet are paid out to its linked bank account (false keeps them in the wallet's balance)",
			},
		],
		errorHint: {
			422: 'Auto-settlement needs a bank account linked to the wallet first (Wallet → Update Bank).',
		},
		// The service's notes show the answer as { walletId, autoSettlement }.
		byId: { param: 'walletId', alsoShownAs: { walletId: 'recordId' } },
		echoes: { autoSettlement: 'value' },
		build: (params) => {
			const walletId = params.pathId('walletId');
			return {
				pathParams: { walletId },
				body: { autoSettlement: params.raw('autoSettlement', false) === true },
				identity: { walletId },
			};
		},
	},
	updateBank: {
		option: {
			name: 'Update Bank',
			action: 'Update the bank of a wallet',
			description: 'Link a bank account to a wallet for settlement payouts',
		},
		method: 'PUT',
		path: '/trades/wallets/{walletId}/bank',
		source: 'spec',
		kind: 'update',
		money: 'destination',
		fields: [
			WALLET_ID,
			...BANK_ACCOUNT_FIELDS,
			additionalFields([AUTO_SETTLEMENT_OPTION, NARRATION]),
		],
		errorHint: { 422: 'Auto-settlement needs a bank account linked to the wallet.' },
		build: (params) => {
			const walletId = params.pathId('walletId');
			const extra = params.additional();
			return {
				pathParams: { walletId },
				body: {
					...bankAccountFields(params),
					...narrationOf(params),
					...(extra.autoSettlement === undefined
						? {}
						: { autoSettlement: extra.autoSettlement === true }),
				},
				identity: { walletId },
			};
		},
	},
};
