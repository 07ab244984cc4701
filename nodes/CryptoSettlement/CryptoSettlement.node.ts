import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { builderHint, hints, properties, RESOURCES, subtitle } from './operations';
import { CREDENTIAL_TYPE } from '../service/credentials';
import { APP_DESCRIPTION } from '../service/catalog';
import { getCredentialGuardrails } from './money/guardrailSummary';
import { createOperationRunner } from './pipeline/pipeline';
import {
	getBanks,
	getDepositAssetIdentifiers,
	getDepositAssets,
	searchBankAccounts,
	searchPayoutAddresses,
	searchWallets,
} from './methods/lookups';

export class CryptoSettlement implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Crypto Settlement',
		name: 'cryptoSettlement',
		icon: {
			light: 'file:../../icons/cryptoSettlement.svg',
			dark: 'file:../../icons/cryptoSettlement.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle,
		description: APP_DESCRIPTION,
		defaults: { name: 'Crypto Settlement' },
		usableAsTool: true,
		builderHint,
		hints,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		// The credential's authenticate supplies the base URL and the three auth headers in code,
		// so no per-item expression is evaluated for them.
		requestDefaults: {
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
		},
		// Every operation's option sets `send.paginate`, so this runs each item's request(s)
		// (docs/architecture.md, "Why declarative, and why every operation goes through one hook").
		requestOperations: { pagination: createOperationRunner(RESOURCES) },
		// A copy: n8n's loader adds its Request Options to this array in place, again on every reload,
		// so a shared one would list them twice to a model (docs/development.md, "n8n's Request Options
		// in what a model reads").
		properties: [...properties],
	};

	methods = {
		loadOptions: {
			getBanks,
			getCredentialGuardrails,
			getDepositAssetIdentifiers,
			getDepositAssets,
		},
		listSearch: { searchBankAccounts, searchPayoutAddresses, searchWallets },
	};
}
