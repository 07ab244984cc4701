import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { CHAIN_OF_NETWORK } from './rules';
import {
	CRYPTO_DECIMALS,
	FEE_LEVELS,
	listed,
	NARRATION_MAX_LENGTH,
	NETWORKS_BY_TOKEN,
	STABLECOINS,
	TOKENS,
	USD_DECIMALS,
	UTXO_TOKENS,
} from '../../service/catalog';

/**
 * Field definitions used by more than one operation, declared once. Operations list the fields
 * they show (operations/*.ts); record/nodeDescription.ts merges identical definitions into as few
 * description entries as it can, because n8n's routing engine walks every entry for every item.
 * A field's displayOptions here may only refer to fields of the same operation.
 */

export const upperOptions = (values: readonly string[]) =>
	values.map((value) => ({ name: value, value }));

/** Options named by their value with a capital first letter ('completed' is 'Completed'). */
const capitalOptions = (values: readonly string[]) =>
	values.map((value) => ({ name: value[0].toUpperCase() + value.slice(1), value }));

export const NARRATION: INodeProperties = {
	displayName: 'Narration',
	name: 'narration',
	type: 'string',
	default: '',
	typeOptions: { maxLength: NARRATION_MAX_LENGTH },
	description: `Note shown on the bank statement, at most ${NARRATION_MAX_LENGTH} characters`,
};

export const PIN: INodeProperties = {
	displayName: 'PIN',
	name: 'pin',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	description: "Transaction PIN. Leave empty to use the credential's PIN.",
};

/**
 * The money-moving panel's Credential Guardrails (docs/architecture.md, "Operation records and the generated
 * description"): n8n's hints cannot read a credential, a dropdown's options can, so this read-only field loads
 * ONE option, always of this value (its default, so it is never stored nor flagged as invalid).
 */
export const GUARDRAILS_SHOWN = 'credential';

/**
 * Where the field's one option comes from. n8n's rules for a dropdown whose options are loaded (a
 * label ending "Name or ID", a tooltip about choosing an ID by expression) are for a field a person
 * fills; this one is read-only, takes no expression and holds no ID, so its label says what it shows.
 */
const GUARDRAILS_FROM_CREDENTIAL = { loadOptionsMethod: 'getCredentialGuardrails' };

export const CREDENTIAL_GUARDRAILS: INodeProperties = {
	displayName: 'Credential Guardrails',
	name: 'credentialGuardrails',
	type: 'options',
	typeOptions: GUARDRAILS_FROM_CREDENTIAL,
	noDataExpression: true,
	default: GUARDRAILS_SHOWN,
	description:
		"What the selected credential allows: limits, destinations, AI agents. Only its owner changes them (the credential's Guardrails).",
	hint: 'Read from the selected credential; open the list for details.',
};

/**
 * Money-moving operations: check everything, send nothing (README, "Guardrails"). Shown at the top
 * of the operation, where a person looks before paying, and one entry for the three operations,
 * so it stays on when the operation changes between them. The one Dry Run a new node offers.
 */
export const DRY_RUN: INodeProperties = {
	displayName: 'Dry Run',
	name: 'dryRun',
	type: 'boolean',
	default: false,
	description:
		"Whether to run every check (fields, the credential's guardrails, the External ID lookup) and output what would be sent, with dryRun: true, sending nothing: what leaves the balance, the fee and what the recipient receives",
};

/**
 * Dry Run where saved workflows set it (`additionalFields.dryRun`): still read, so still declared, or n8n
 * would drop it and a saved dry run would pay; shown only while set (docs/usage.md, "Dry Run, one field").
 */
export const DRY_RUN_SAVED: INodeProperties = {
	displayName: 'Dry Run',
	name: 'dryRun',
	type: 'boolean',
	default: false,
	description:
		'Whether to dry-run, as saved workflows set it here (shown only while set); either Dry Run on means a dry run',
	displayOptions: { show: { dryRun: [{ _cnd: { exists: true } }] } },
};

/** Optional fields of an operation, in one 'Additional Fields' collection (options sorted by name). */
export function additionalFields(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

export function requiredText(
	name: string,
	displayName: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return { displayName, name, type: 'string', required: true, default: '', ...extra };
}

export function locator(
	name: string,
	displayName: string,
	searchListMethod: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 65f1c2d3e4a5b6c7d8e9f012',
			},
		],
	};
}

/**
 * An amount as exact decimal text: n8n's number fields round to their precision when the field
 * loses focus (10.123 silently became 10.12), while a text field keeps what was typed, and the
 * node refuses extra decimals with an error instead of rounding (fields/rules.ts). `what` names the
 * amount in a phrase, without a closing full stop, since the rule follows it after a colon ("USD
 * value: a decimal number …"); more sentences go in `more`, after the rule
 * (test/package/description-text.test.ts reads every description for such slips).
 */
export function amountField(
	name: string,
	displayName: string,
	decimals: number,
	what: string,
	options: { show?: IDisplayOptions['show']; more?: string } = {},
): INodeProperties {
	const { show, more } = options;
	return {
		displayName,
		name,
		type: 'string',
		required: true,
		default: '',
		placeholder: decimals === USD_DECIMALS ? 'e.g. 10.50' : 'e.g. 0.00125',
		description: [
			`${what}: a decimal number greater than 0 with at most ${decimals} decimals. Extra decimals are refused, never rounded.`,
			...(more ? [more] : []),
		].join(' '),
		...(show ? { displayOptions: { show } } : {}),
	};
}

// ---- lists -------------------------------------------------------------------------------------

/** Return All and Limit, shown by every list operation. */
export const LIST_FIELDS: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/**
 * Filters of a list whose API documents none: the node applies them to the records it fetches
 * (record/filters.ts), and says so. Status offers the list's known statuses: a typo there would
 * silently match nothing, so another value can only come from an expression.
 */
export function listFilters(
	records: string,
	statuses: readonly string[],
	extra: INodeProperties[],
): INodeProperties {
	const created = (when: 'After' | 'Before', what: string): INodeProperties => ({
		displayName: `Created ${when}`,
		name: `created${when}`,
		type: 'dateTime',
		default: '',
		description: `Only ${records} created ${what} this time (UTC unless it names its zone)`,
	});
	const options: INodeProperties[] = [
		created('After', 'at or after'),
		created('Before', 'before'),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: capitalOptions(statuses),
			// Both lists have it, and it is what reconciling asks for most.
			default: 'completed',
			description: `Only ${records} with this status. Another status can be given with an expression (compared in any case).`,
		},
		...extra,
	];
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: `Applied by this node after fetching, not by the service (its API documents no filters for ${records}): every page is read, then Limit counts the matching ${records}`,
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

// ---- assets, banks and currencies ----------------------------------------------------------------

export const ASSET_ID: INodeProperties = {
	displayName: 'Asset Name or ID',
	name: 'assetId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getDepositAssets' },
	required: true,
	default: '',
	description:
		'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
};

export const LABEL = requiredText('label', 'Label', {
	description:
		'Name for the address, unique per asset for wallets (for example your customer or order ID)',
	placeholder: 'e.g. customer-1042',
});

export const CURRENCY: INodeProperties = {
	displayName: 'Currency',
	name: 'currency',
	type: 'options',
	options: [
		{ name: 'GHS', value: 'ghs' },
		{ name: 'NGN', value: 'ngn' },
	],
	default: 'ngn',
};

/** A bank account by bank and number, as Bank → Verify Account, Bank Account → Create and Wallet → Update Bank take it. */
export const BANK_ACCOUNT_FIELDS: INodeProperties[] = [
	{
		displayName: 'Bank Name or ID',
		name: 'bankId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getBanks', loadOptionsDependsOn: ['currency'] },
		required: true,
		default: '',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	},
	requiredText('accountNumber', 'Account Number', { placeholder: 'e.g. 0123456789' }),
];

export const BANK_ACCOUNT_ID = locator('bankAccountId', 'Bank Account', 'searchBankAccounts');

// ---- tokens, networks, fees and amounts (docs/api.md, "Field rules") ------------------------------

/** Token, then its network (a stablecoin's) or, for withdrawals, its fee level (a UTXO coin's). */
export function tokenFields(options: { feeLevel: boolean }): INodeProperties[] {
	const networks = STABLECOINS.map(
		(token): INodeProperties => ({
			displayName: 'Network',
			name: 'network',
			type: 'options',
			// The code is the value sent; the name says the chain ("TRC20 (Tron)").
			options: NETWORKS_BY_TOKEN[token].map((value) => {
				const chain = CHAIN_OF_NETWORK[value as keyof typeof CHAIN_OF_NETWORK];
				return { name: chain === value ? value : `${value} (${chain})`, value };
			}),
			required: true,
			// No default: the network decides where the money goes, so it is always chosen.
			default: '',
			description: `Network for ${token}; no default: the address must be on it`,
			displayOptions: { show: { token: [token] } },
		}),
	);
	const feeLevel: INodeProperties = {
		displayName: 'Fee Level',
		name: 'feeLevel',
		type: 'options',
		// Low, Medium, High: in the order of what they cost, not alphabetically.
		options: capitalOptions(FEE_LEVELS),
		required: true,
		// No default: the fee level decides what the payout costs, so it is always chosen.
		default: '',
		description:
			'Network fee level; there is no default. Quote it with Withdrawal → Estimate Network Fee.',
		displayOptions: { show: { token: [...UTXO_TOKENS] } },
	};
	return [TOKEN, ...networks, ...(options.feeLevel ? [feeLevel] : [])];
}

const TOKEN: INodeProperties = {
	displayName: 'Token',
	name: 'token',
	type: 'options',
	options: upperOptions(TOKENS),
	required: true,
	default: 'USDT',
	description: `${listed(STABLECOINS, 'and')} need a network; ${listed(UTXO_TOKENS, 'and')} need a fee level instead`,
};

export const WALLET_ADDRESS = requiredText('walletAddress', 'Wallet Address', {
	description:
		'Destination address of the withdrawal, or for a mock deposit the generated deposit address',
});

/** Amount Type, then the USD amount or the crypto amount it selects: exactly one is sent. */
export const WITHDRAWAL_AMOUNT_FIELDS: INodeProperties[] = [
	{
		displayName: 'Amount Type',
		name: 'amountType',
		type: 'options',
		options: [
			{ name: 'USD Value', value: 'usd', description: 'Send the USD value (at most 2 decimals)' },
			{
				name: 'Crypto Amount',
				value: 'crypto',
				description: `Send the amount in crypto units (at most ${CRYPTO_DECIMALS} decimals)`,
			},
		],
		default: 'usd',
		description: 'Whether the amount is given in USD or in crypto units; exactly one is sent',
	},
	amountField('amount', 'Amount (USD)', USD_DECIMALS, 'USD value', {
		show: { amountType: ['usd'] },
	}),
	amountField('cryptoAmount', 'Crypto Amount', CRYPTO_DECIMALS, 'Amount in crypto units', {
		show: { amountType: ['crypto'] },
	}),
];

export const AMOUNT_IN_USD = amountField('amountInUSD', 'Amount in USD', USD_DECIMALS, 'USD value');

/** Used by Webhook Event → Resend and Sandbox → Mock Deposit. */
export const REFERENCE = requiredText('reference', 'Reference', {
	description:
		'For a resend, the trade or withdrawal ID whose webhooks to send again; for a mock deposit, a unique reference',
});
