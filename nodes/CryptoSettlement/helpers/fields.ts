import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import {
	CRYPTO_DECIMALS,
	FEE_LEVELS,
	MARKUP_MAX,
	MARKUP_MIN,
	NARRATION_MAX_LENGTH,
	NETWORKS_BY_TOKEN,
	TOKENS,
	USD_DECIMALS,
	UTXO_TOKENS,
} from './rules';

/**
 * Every parameter of the action node, declared once and shared across the operations that use
 * it through displayOptions: n8n's routing engine walks all of these for every item, so fewer
 * entries mean a faster node. Options come from the rules module.
 */

type Usage = Record<string, string[]>;

/** Shown for exactly these resource → operations (each field's usage is checked by a test). */
export function shownFor(usage: Usage, extra: IDisplayOptions['show'] = {}): IDisplayOptions {
	return {
		show: {
			resource: Object.keys(usage),
			operation: [...new Set(Object.values(usage).flat())],
			...extra,
		},
	};
}

const upperOptions = (values: readonly string[]) => values.map((value) => ({ name: value, value }));

const NARRATION: INodeProperties = {
	displayName: 'Narration',
	name: 'narration',
	type: 'string',
	default: '',
	typeOptions: { maxLength: NARRATION_MAX_LENGTH },
	description: `Note shown on the bank statement, at most ${NARRATION_MAX_LENGTH} characters`,
};

const PIN: INodeProperties = {
	displayName: 'PIN',
	name: 'pin',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	description: "Transaction PIN. Leave empty to use the credential's PIN.",
};

const bankId = (usage: Usage): INodeProperties => ({
	displayName: 'Bank Name or ID',
	name: 'bankId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getBanks', loadOptionsDependsOn: ['currency'] },
	required: true,
	default: '',
	description:
		'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	displayOptions: shownFor(usage),
});

const accountNumber = (usage: Usage): INodeProperties => ({
	displayName: 'Account Number',
	name: 'accountNumber',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 0123456789',
	displayOptions: shownFor(usage),
});

const locator = (name: string, displayName: string, searchListMethod: string, usage: Usage): INodeProperties => ({
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
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 65f1c2d3e4a5b6c7d8e9f012' },
	],
	displayOptions: shownFor(usage),
});

const requiredText = (
	name: string,
	displayName: string,
	usage: Usage,
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	required: true,
	default: '',
	displayOptions: shownFor(usage),
	...extra,
});

/**
 * An amount as exact decimal text: n8n's number fields round to their precision when the field
 * loses focus (10.123 silently became 10.12), while a text field keeps what was typed, and the
 * node refuses extra decimals with an error instead of rounding (helpers/rules.ts).
 */
function amountField(
	name: string,
	displayName: string,
	decimals: number,
	what: string,
	usage: Usage,
	extra: IDisplayOptions['show'] = {},
): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		required: true,
		default: '',
		placeholder: decimals === USD_DECIMALS ? 'e.g. 10.50' : 'e.g. 0.00125',
		description: `${what}: a decimal number greater than 0 with at most ${decimals} decimals. Extra decimals are refused, never rounded.`,
		displayOptions: shownFor(usage, extra),
	};
}

/**
 * Filters of a list whose API documents none: the node applies them to the records it fetches
 * (helpers/filters.ts), and says so.
 */
function listFilters(usage: Usage, records: string, extra: INodeProperties[]): INodeProperties {
	const options: INodeProperties[] = [
		{
			displayName: 'Created After',
			name: 'createdAfter',
			type: 'dateTime',
			default: '',
			description: `Only ${records} created at or after this time`,
		},
		{
			displayName: 'Created Before',
			name: 'createdBefore',
			type: 'dateTime',
			default: '',
			description: `Only ${records} created before this time`,
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'string',
			default: '',
			placeholder: 'e.g. completed',
			description: `Only ${records} with this status (any case)`,
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
		displayOptions: shownFor(usage),
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

const CRYPTO_OPERATIONS: Usage = { withdrawal: ['createCrypto', 'estimateNetworkFee'] };
const TOKEN_OPERATIONS: Usage = { ...CRYPTO_OPERATIONS, payoutAddress: ['validate', 'create'] };
const LISTS: Usage = {
	bank: ['getAll'],
	bankAccount: ['getAll'],
	payoutAddress: ['getAll'],
	transaction: ['getAll'],
	wallet: ['getAll'],
	webhookEvent: ['getAll'],
	withdrawal: ['getAll'],
};

export const fields: INodeProperties[] = [
	// account
	{
		displayName: 'Withdrawal Fee Bearer',
		name: 'withdrawalFeeBearer',
		type: 'options',
		options: [
			{
				name: 'Business',
				value: 'business',
				description: 'The fee is added to the amount debited; the recipient gets the full amount',
			},
			{
				name: 'User',
				value: 'user',
				description: 'The fee is deducted from the payout; the recipient gets the amount minus the fee',
			},
		],
		required: true,
		default: 'user',
		description: 'Who pays withdrawal and auto-settlement fees',
		displayOptions: shownFor({ account: ['setWithdrawalFeeBearer'] }),
	},
	{
		displayName: 'Markup Percent',
		name: 'markupPercent',
		type: 'number',
		// No numberPrecision: the editor would round 10.123 on blur; the node refuses it instead.
		typeOptions: { minValue: MARKUP_MIN, maxValue: MARKUP_MAX },
		required: true,
		default: 0,
		description: `Percentage added to the base sell rate of auto-settled payouts, from ${MARKUP_MIN} to ${MARKUP_MAX} (both included), at most 2 decimals (never rounded)`,
		displayOptions: shownFor({ account: ['setMarkupPercent'] }),
	},

	// deposit assets, wallets and rates
	{
		displayName: 'Asset Name or ID',
		name: 'assetId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getDepositAssets' },
		required: true,
		default: '',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		displayOptions: shownFor({ wallet: ['create'], rate: ['calculate'] }),
	},
	requiredText(
		'label',
		'Label',
		{ wallet: ['create'], payoutAddress: ['create'] },
		{
			description: 'Name for the address, unique per asset for wallets (for example your customer or order ID)',
			placeholder: 'e.g. customer-1042',
		},
	),
	locator('walletId', 'Wallet', 'searchWallets', { wallet: ['get', 'updateBank', 'setAutoSettlement'] }),
	{
		displayName: 'Auto Settlement',
		name: 'autoSettlement',
		type: 'boolean',
		default: true,
		description:
			"Whether deposits to this wallet are paid out to its linked bank account (false keeps them in the wallet's balance)",
		displayOptions: shownFor({ wallet: ['setAutoSettlement'] }),
	},

	// banks
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'options',
		options: [
			{ name: 'GHS', value: 'ghs' },
			{ name: 'NGN', value: 'ngn' },
		],
		default: 'ngn',
		displayOptions: shownFor({ bank: ['getAll', 'verifyAccount'], rate: ['calculate'] }),
	},
	bankId({ bank: ['verifyAccount'], bankAccount: ['create'] }),
	bankId({ wallet: ['updateBank'] }),
	accountNumber({ bank: ['verifyAccount'], bankAccount: ['create'] }),
	accountNumber({ wallet: ['updateBank'] }),
	locator('bankAccountId', 'Bank Account', 'searchBankAccounts', {
		withdrawal: ['createBank'],
		bankAccount: ['delete'],
	}),

	// tokens, networks and fees (docs/api.md, "Field rules")
	{
		displayName: 'Token',
		name: 'token',
		type: 'options',
		options: upperOptions(TOKENS),
		required: true,
		default: 'USDT',
		description: 'USDT and USDC need a network; BTC, LTC, DOGE and BCH need a fee level instead',
		displayOptions: shownFor(TOKEN_OPERATIONS),
	},
	...(['USDT', 'USDC'] as const).map(
		(token): INodeProperties => ({
			displayName: 'Network',
			name: 'network',
			type: 'options',
			options: upperOptions(NETWORKS_BY_TOKEN[token]),
			required: true,
			// No default: the network decides where the money goes, so it is always chosen.
			default: '',
			description: `Blockchain network for ${token}. Choose it: there is no default, and the destination address must be on this network.`,
			displayOptions: shownFor(TOKEN_OPERATIONS, { token: [token] }),
		}),
	),
	{
		displayName: 'Fee Level',
		name: 'feeLevel',
		type: 'options',
		options: [...FEE_LEVELS].sort().map((value) => ({ name: value[0].toUpperCase() + value.slice(1), value })),
		required: true,
		// No default: the fee level decides what the payout costs, so it is always chosen.
		default: '',
		description: 'Network fee level; there is no default. Quote it with Withdrawal → Estimate Network Fee.',
		displayOptions: shownFor(CRYPTO_OPERATIONS, { token: [...UTXO_TOKENS] }),
	},
	{
		displayName: 'Address',
		name: 'address',
		type: 'string',
		required: true,
		default: '',
		description: 'Payout address to check or save',
		displayOptions: shownFor({ payoutAddress: ['validate', 'create'] }),
	},
	locator('payoutAddressId', 'Payout Address', 'searchPayoutAddresses', { payoutAddress: ['delete'] }),
	requiredText(
		'walletAddress',
		'Wallet Address',
		{ ...CRYPTO_OPERATIONS, sandbox: ['mockDeposit'] },
		{
			description: 'Destination address of the withdrawal, or for a mock deposit the generated deposit address',
		},
	),

	// amounts
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
		displayOptions: shownFor(CRYPTO_OPERATIONS),
	},
	amountField('amount', 'Amount (USD)', USD_DECIMALS, 'USD value', CRYPTO_OPERATIONS, { amountType: ['usd'] }),
	amountField('cryptoAmount', 'Crypto Amount', CRYPTO_DECIMALS, 'Amount in crypto units', CRYPTO_OPERATIONS, {
		amountType: ['crypto'],
	}),
	amountField(
		'amount',
		'Amount (USD)',
		USD_DECIMALS,
		"USD value to pay out; the service converts it to the bank account's currency (NGN or GHS) at its rate and debits that balance (docs/api.md)",
		{ withdrawal: ['createBank'] },
	),
	amountField('amount', 'Amount', USD_DECIMALS, "Amount in the 'From' currency", { currency: ['swap'] }),
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		default: '',
		placeholder: 'e.g. payout-order-1042',
		description:
			'Your unique reference for this payment, such as an order or payout ID. Reuse the same value when retrying the same payment and never make it unique per attempt: a repeat with the same External ID cannot pay twice. Leave empty to derive one from this execution, node and item.',
		displayOptions: shownFor({ withdrawal: ['createCrypto', 'createBank'] }),
	},
	{
		displayName: 'Return Full Record',
		name: 'returnFullRecord',
		type: 'boolean',
		default: true,
		description:
			'Whether to read the withdrawal back after creating it and output the full record (status, amounts, fee, destination) instead of only its ID. The read uses the lookup route, which is not rate-limited; if it fails, the ID is output with the reason in fullRecordUnavailable.',
		displayOptions: shownFor({ withdrawal: ['createCrypto', 'createBank'] }),
	},
	requiredText(
		'withdrawalId',
		'Withdrawal ID',
		{ withdrawal: ['get'] },
		{
			description: 'The withdrawal ID returned at creation, or the External ID you sent',
		},
	),

	// swap and market price
	...(['from', 'to'] as const).map((name): INodeProperties => {
		const initial = name === 'from' ? 'ngn' : 'ghs';
		return {
			displayName: name === 'from' ? 'From' : 'To',
			name,
			type: 'options',
			options: [
				{ name: 'GHS', value: 'ghs' },
				{ name: 'NGN', value: 'ngn' },
			],
			default: initial,
			description: name === 'from' ? 'Currency to debit' : "Currency to credit; must differ from 'From'",
			displayOptions: shownFor({ currency: ['swap'] }),
		};
	}),
	requiredText(
		'from',
		'From',
		{ rate: ['getMarketPrice'] },
		{ placeholder: 'e.g. btc', description: 'Crypto symbol to price' },
	),
	requiredText(
		'to',
		'To',
		{ rate: ['getMarketPrice'] },
		{ placeholder: 'e.g. usd', description: 'Currency to price it in' },
	),
	amountField('amountInUSD', 'Amount in USD', USD_DECIMALS, 'USD value', { rate: ['calculate'], sandbox: ['mockDeposit'] }),

	// transactions and webhook events
	requiredText(
		'transactionId',
		'Transaction ID',
		{ transaction: ['get'] },
		{
			description: 'Trade (deposit) ID, as carried by trade.* webhooks',
		},
	),
	requiredText('webhookEventId', 'Webhook Event ID', { webhookEvent: ['get'] }),
	requiredText(
		'reference',
		'Reference',
		{ webhookEvent: ['resend'], sandbox: ['mockDeposit'] },
		{
			description:
				'For a resend, the trade or withdrawal ID whose webhooks to send again; for a mock deposit, a unique reference',
		},
	),

	// sandbox
	requiredText(
		'asset',
		'Asset',
		{ sandbox: ['mockDeposit'] },
		{
			placeholder: 'e.g. TRX_TEST',
			description: 'Asset identifier of the deposit wallet, as listed by Asset → Get Deposit Assets',
		},
	),
	// A mock deposit's crypto amount takes up to 18 decimals (resources/sandbox.ts).
	amountField('cryptoReceived', 'Crypto Received', 18, 'Crypto units received', { sandbox: ['mockDeposit'] }),
	requiredText('txHash', 'Transaction Hash', { sandbox: ['mockDeposit'] }, { description: 'Unique per mock deposit' }),

	// lists
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: shownFor(LISTS),
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: shownFor(LISTS, { returnAll: [false] }),
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: shownFor({ webhookEvent: ['getAll'] }),
		options: [
			{
				displayName: 'End Date',
				name: 'endDate',
				type: 'dateTime',
				default: '',
				description: 'Only events created before this time',
			},
			{
				displayName: 'Filter',
				name: 'filter',
				type: 'string',
				default: '',
				description: "Filter expression in the service's own syntax",
			},
			{
				displayName: 'Sort',
				name: 'sort',
				type: 'string',
				default: '',
				placeholder: 'e.g. -createdAt',
				description: "Sort expression in the service's own syntax",
			},
			{
				displayName: 'Start Date',
				name: 'startDate',
				type: 'dateTime',
				default: '',
				description: 'Only events created after this time',
			},
		],
	},

	listFilters({ withdrawal: ['getAll'] }, 'withdrawals', [
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			description: 'Only the withdrawal with exactly this External ID',
		},
		{
			displayName: 'Token',
			name: 'token',
			type: 'options',
			options: upperOptions(TOKENS),
			default: 'USDT',
			description: 'Only withdrawals of this token (bank withdrawals have none)',
		},
	]),
	listFilters({ transaction: ['getAll'] }, 'transactions', []),

	// optional fields per operation
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: shownFor({ wallet: ['create'] }),
		options: [
			{
				displayName: 'Account Number',
				name: 'accountNumber',
				type: 'string',
				default: '',
				description: "Bank account for auto-settlement; needs 'Bank ID' too",
			},
			{
				displayName: 'Auto Settlement',
				name: 'autoSettlement',
				type: 'boolean',
				default: false,
				description: 'Whether deposits to this address are paid out to the linked bank account',
			},
			{
				displayName: 'Bank ID',
				name: 'bankId',
				type: 'string',
				default: '',
				description: "Bank for auto-settlement (from Bank → Get Many); needs 'Account Number' too",
			},
			NARRATION,
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: shownFor({ wallet: ['updateBank'] }),
		options: [
			{
				displayName: 'Auto Settlement',
				name: 'autoSettlement',
				type: 'boolean',
				default: false,
				description: 'Whether deposits to this address are paid out to the linked bank account',
			},
			NARRATION,
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: shownFor({ bankAccount: ['create'] }),
		options: [NARRATION],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: shownFor({ withdrawal: ['createBank'] }),
		options: [NARRATION, PIN],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: shownFor({ withdrawal: ['createCrypto'], currency: ['swap'] }),
		options: [PIN],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: shownFor({ sandbox: ['mockDeposit'] }),
		options: [
			{
				displayName: 'Confirmations',
				name: 'confirmations',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 12,
			},
			{
				displayName: 'Source Address',
				name: 'sourceAddress',
				type: 'string',
				default: '',
				description: 'Address the mock deposit comes from',
			},
		],
	},
];

/**
 * The label the editor shows for a parameter of this resource → operation (a field of its own or
 * an option of a collection), so an error names the field the user sees: the same name can carry
 * different labels on different operations ('amount' is 'Amount (USD)' on a withdrawal and
 * 'Amount' on a swap). Undefined when the operation has no such field.
 */
export function fieldLabel(resource: string, operation: string, name: string): string | undefined {
	for (const field of fields) {
		const show = field.displayOptions?.show ?? {};
		if (!(show.resource ?? []).includes(resource) || !(show.operation ?? []).includes(operation)) continue;
		if (field.name === name) return field.displayName;
		if (field.type === 'collection') {
			const option = (field.options as INodeProperties[] | undefined)?.find((candidate) => candidate.name === name);
			if (option) return option.displayName;
		}
	}
	return undefined;
}
