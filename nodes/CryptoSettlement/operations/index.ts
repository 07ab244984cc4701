import type { INodeProperties, NodeHint } from 'n8n-workflow';
import { describeNode, describeSubtitle, type ResourceEntry } from '../record/nodeDescription';
import { CREDENTIAL_GUARDRAILS } from '../fields/fields';
import { MONEY_CLASSES } from '../record/moneyClasses';
import type { OperationSpec, ResourceSpecs } from '../record/record';
import { account } from './account';
import { asset } from './asset';
import { bank } from './bank';
import { bankAccount } from './bankAccount';
import { currency } from './currency';
import { payoutAddress } from './payoutAddress';
import { rate } from './rate';
import { sandbox } from './sandbox';
import { statement } from './statement';
import { transaction } from './transaction';
import { wallet } from './wallet';
import { webhookEvent } from './webhookEvent';
import { BUILDER_HINT, withPropertyHint } from './actionHints';
import { AGENT_TOOL_HINT, DRY_RUN_HINT, EMPTY_EXTERNAL_ID_HINT, withdrawal } from './withdrawal';

/** Every resource → operation of the node, with what it sends and how it may be retried. */
const entry = (
	name: string,
	description: string,
	specs: ResourceSpecs,
	defaultOperation: string,
): ResourceEntry => ({
	name,
	description,
	specs,
	default: defaultOperation,
});

export const RESOURCES: Record<string, ResourceEntry> = {
	account: entry('Account', 'Account details and settings', account, 'get'),
	asset: entry('Asset', 'Deposit and withdrawal assets', asset, 'getDepositAssets'),
	bank: entry('Bank', 'Banks and bank account verification', bank, 'getAll'),
	bankAccount: entry('Bank Account', 'Saved bank accounts for payouts', bankAccount, 'getAll'),
	currency: entry('Currency', 'Fiat currency swaps', currency, 'swap'),
	payoutAddress: entry(
		'Payout Address',
		'Saved crypto withdrawal addresses',
		payoutAddress,
		'getAll',
	),
	rate: entry('Rate', 'Rates and prices', rate, 'getSellRates'),
	sandbox: entry('Sandbox', 'Testing helpers of the sandbox environment', sandbox, 'mockDeposit'),
	statement: entry(
		'Statement',
		"Reconciliation: a day's statement, and rows matched against the service",
		statement,
		'get',
	),
	transaction: entry('Transaction', 'Deposit (trade) transactions', transaction, 'get'),
	wallet: entry('Wallet', 'Deposit wallets (addresses)', wallet, 'get'),
	webhookEvent: entry(
		'Webhook Event',
		"Stored webhook deliveries, and a delivery n8n's Webhook node received, verified",
		webhookEvent,
		'getAll',
	),
	withdrawal: entry('Withdrawal', 'Crypto and bank withdrawals', withdrawal, 'getAll'),
};

export const SPECS: Record<string, ResourceSpecs> = Object.fromEntries(
	Object.entries(RESOURCES).map(([resource, { specs }]) => [resource, specs]),
);

/**
 * The fields an operation's panel shows: its record's (with their hints for an AI assistant,
 * operations/actionHints.ts), after the credential's guardrails when its
 * class says so (MONEY_CLASSES `showsGuardrails`: it moves money or changes where it goes;
 * money/guardrailSummary.ts). The guardrails are no field of the operation, which neither reads nor
 * sends them.
 */
export const shownFields = (spec: OperationSpec): INodeProperties[] => {
	const fields = spec.fields.map(withPropertyHint);
	return MONEY_CLASSES[spec.money].showsGuardrails ? [CREDENTIAL_GUARDRAILS, ...fields] : fields;
};

/** What the node tells an AI assistant building a workflow (operations/actionHints.ts). */
export const builderHint = BUILDER_HINT;

/** The records as the panel shows them. */
const SHOWN: Record<string, ResourceEntry> = Object.fromEntries(
	Object.entries(RESOURCES).map(([resource, entry]) => [
		resource,
		{
			...entry,
			specs: Object.fromEntries(
				Object.entries(entry.specs).map(([operation, spec]) => [
					operation,
					{ ...spec, fields: shownFields(spec) },
				]),
			),
		},
	]),
);

/**
 * The node's properties, generated from the operation records (record/nodeDescription.ts). A node
 * just placed (and the node given to an AI Agent as a tool) opens on a read: Account → Get.
 * n8n stores only parameters that differ from their default, so these defaults stay fixed.
 */
export const properties: INodeProperties[] = describeNode(SHOWN, 'account');

/** The node's subtitle: the chosen operation's action. */
export const subtitle = describeSubtitle(RESOURCES);

/** `resource:operation` of the operations of a kind, or of those that move money. */
const operationsWhere = (keep: (spec: ResourceSpecs[string]) => boolean) =>
	JSON.stringify(
		Object.entries(SPECS).flatMap(([resource, specs]) =>
			Object.entries(specs)
				.filter(([, spec]) => keep(spec))
				.map(([operation]) => `${resource}:${operation}`),
		),
	);

/** The node as an AI agent's tool: n8n's tool variant adds its Tool Description parameters. */
const AS_TOOL =
	'($parameter["descriptionType"] !== undefined || $parameter["toolDescription"] !== undefined)';

/**
 * The node's hints. While a withdrawal's External ID is empty, the editor says that every manual
 * run pays again. A hint rather than a notice under the field: the editor resolves a mapped
 * External ID before it applies a field's displayOptions, and one it cannot resolve yet (no input
 * data) counts as empty there, while a hint whose condition cannot be resolved stays hidden. An
 * agent's tool has no manual runs to warn about: it says instead what an agent may do with the
 * credential. n8n's hints cannot read a credential: the Credential Guardrails field shows its
 * guardrails (SHOWN above), and an operation that pays points to Dry Run while it is off.
 */
export const hints: NodeHint[] = [
	{
		message: EMPTY_EXTERNAL_ID_HINT,
		type: 'warning',
		location: 'ndv',
		whenToDisplay: 'always',
		displayCondition: `={{ ${operationsWhere((spec) => spec.kind === 'withdrawal')}.includes($parameter["resource"] + ":" + $parameter["operation"]) && !${AS_TOOL} && !String($parameter["externalId"] || "").trim() }}`,
	},
	{
		message: DRY_RUN_HINT,
		type: 'info',
		location: 'ndv',
		whenToDisplay: 'always',
		displayCondition: `={{ ${operationsWhere((spec) => spec.payment !== undefined)}.includes($parameter["resource"] + ":" + $parameter["operation"]) && !${AS_TOOL} && $parameter["dryRun"] !== true }}`,
	},
	{
		message: AGENT_TOOL_HINT,
		type: 'info',
		location: 'ndv',
		whenToDisplay: 'always',
		displayCondition: `={{ ${operationsWhere((spec) => spec.payment !== undefined)}.includes($parameter["resource"] + ":" + $parameter["operation"]) && ${AS_TOOL} }}`,
	},
];
