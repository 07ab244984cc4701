import type { IBuilderHint, IBuilderHintVariation, INodeProperties } from 'n8n-workflow';
import { ACTION_TYPE, POLL_TRIGGER_TYPE, TRIGGER_TYPE } from '../../events/triggerHints';
import { listed, TOKENS } from '../../service/catalog';

/**
 * What the action node tells an AI assistant that builds workflows (docs/usage.md, "Building with an AI
 * assistant"): its `builderHint` and the `propertyHint` of the fields where money is decided, checked against
 * the records by test/CryptoSettlement/operations/builder-hints.test.ts. The guardrails, not these words, hold.
 */

const SEARCH_HINT =
	`Crypto-to-fiat payments for businesses in Nigeria and Ghana: pay vendors and suppliers in ${listed(TOKENS, 'or')} (Withdrawal → Create Crypto) or to an NGN or GHS bank account (Withdrawal → Create Bank), take deposits into wallets, and reconcile: Statement → Get gives a day's statement with a balance check and a Xero, QuickBooks or OFX bank-feed file; Statement → Match checks a payout sheet row by row. ` +
	'Before a payment, run the same parameters with `dryRun` true (a Dry Run step, then an approval, then the paying step). ' +
	"Map `externalId` from the source row's own payout or order ID, never from the execution or a time: a repeat is then found, not paid twice. " +
	"By default the credential's guardrails refuse payments asked by an AI agent (Allow Agent Payments is off); a prompt cannot change that.";

/** The nodes a workflow with this one uses, by type: how each relates. */
const RELATED_NODES: IBuilderHint['relatedNodes'] = Object.entries({
	[TRIGGER_TYPE]:
		'Starts a workflow on a deposit or withdrawal event; its items carry `eventKey`, the ledger key',
	[POLL_TRIGGER_TYPE]: 'The same events by polling, for an n8n the service cannot reach',
	'n8n-nodes-base.dataTable':
		'The ledger: one row per `eventKey` (or per `externalId` for payouts), so each deposit is credited once',
	'n8n-nodes-base.emailSend':
		"Approval before paying: Send and Wait for Response with the Dry Run's figures",
	'n8n-nodes-base.webhook':
		'Hand-off: an app posts a payout request; the paying workflow runs Dry Run, approval, then pays',
	'@n8n/n8n-nodes-langchain.toolWorkflow':
		"An agent's payout as a workflow tool that dry-runs and asks a person before paying",
}).map(([nodeType, relationHint]) => ({ nodeType, relationHint }));

/** An expression in an example: rendered `expr('{{ … }}')`, as n8n's workflow SDK writes it. */
interface Expr {
	expr: string;
}
export type ExampleValue = string | number | boolean | Expr | { [key: string]: ExampleValue };

interface BuilderExample {
	title: string;
	/** The node's name in the example. */
	name: string;
	parameters: { resource: string; operation: string } & Record<string, ExampleValue>;
}

const expr = (text: string): Expr => ({ expr: text });

/** Short, correct examples for the money operations and the statement, one narrowed type each. */
export const BUILDER_EXAMPLES: BuilderExample[] = [
	{
		title:
			'Dry Run a USDT payout from a sheet row (the paying step is the same node with dryRun false, after an approval)',
		name: 'Dry Run the Payout',
		parameters: {
			resource: 'withdrawal',
			operation: 'createCrypto',
			dryRun: true,
			token: 'USDT',
			network: 'TRC20',
			walletAddress: expr('{{ $json.walletAddress }}'),
			amountType: 'usd',
			amount: expr('{{ $json.amountUsd }}'),
			externalId: expr('{{ $json.payoutId }}'),
		},
	},
	{
		title: 'Pay a saved NGN or GHS bank account a USD amount, once per payout ID',
		name: 'Pay the Vendor',
		parameters: {
			resource: 'withdrawal',
			operation: 'createBank',
			dryRun: false,
			bankAccountId: { __rl: true, mode: 'id', value: expr('{{ $json.bankAccountId }}') },
			amount: expr('{{ $json.amountUsd }}'),
			externalId: expr('{{ $json.payoutId }}'),
		},
	},
	{
		title: "Yesterday's statement (UTC) as a QuickBooks bank-feed CSV, one file per currency",
		name: 'Daily Statement',
		parameters: {
			resource: 'statement',
			operation: 'get',
			output: 'file',
			options: { fileFormat: 'quickbooksCsv' },
		},
	},
	{
		title: 'Match each payout sheet row against the service by its External ID',
		name: 'Match Payouts',
		parameters: {
			resource: 'statement',
			operation: 'match',
			matchBy: 'externalId',
			value: expr('{{ $json.payoutId }}'),
			expectedAmount: expr('{{ $json.amountUsd }}'),
		},
	},
];

function render(value: ExampleValue, indent: string): string {
	if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
	if (typeof value !== 'object') return String(value);
	if ('expr' in value && typeof value.expr === 'string' && Object.keys(value).length === 1)
		return `expr(${render(value.expr, indent)})`;
	const inner = `${indent}  `;
	return `{\n${Object.entries(value)
		.map(([key, entry]) => `${inner}${key}: ${render(entry as ExampleValue, inner)}`)
		.join(',\n')}\n${indent}}`;
}

const camelCase = (name: string) =>
	name.toLowerCase().replace(/ (\w)/g, (_, letter: string) => letter.toUpperCase());

function variation({ title, name, parameters }: BuilderExample): IBuilderHintVariation {
	const config = { name, parameters } as unknown as ExampleValue;
	return {
		displayOptions: {
			show: { resource: [parameters.resource], operation: [parameters.operation] },
		},
		content: `<patterns>\n<pattern title="${title}">\nconst ${camelCase(name)} = node({\n  type: '${ACTION_TYPE}',\n  version: 1,\n  config: ${render(config, '  ')}\n});\n</pattern>\n</patterns>`,
	};
}

export const BUILDER_HINT: IBuilderHint = {
	searchHint: SEARCH_HINT,
	relatedNodes: RELATED_NODES,
	extraTypeDefContent: BUILDER_EXAMPLES.map(variation),
};

/**
 * The hint of each field where money is decided, by parameter name, on every operation that shows
 * it at the top level (the same text everywhere, so the description's merged entries stay merged):
 * only what the field's description does not already say, since a model reads both
 * (docs/speed.md, "What a model reads").
 */
export const PROPERTY_HINTS: Record<string, string> = {
	dryRun: 'true in a step before the paying one (then an approval); the paying step sets false.',
	externalId:
		"Map the source row's payout or order ID, e.g. {{ $json.payoutId }}; never $execution.id, a time or a random value.",
	amountType: "'usd' sends `amount`; 'crypto' sends `cryptoAmount`.",
	amount: 'From the source row, as text: USD for a withdrawal, the From currency for a swap.',
	token: 'The coin the payee asked for; it decides whether `network` or `feeLevel` is set.',
	network: 'TRC20 addresses start with T; ERC20, BSC and BASE ones with 0x.',
	walletAddress:
		"From the data, never invented: the payee's address, or for Sandbox → Mock Deposit the address Wallet → Create generated.",
};

/** A field with its property hint, if it has one. */
export function withPropertyHint(field: INodeProperties): INodeProperties {
	if (!Object.prototype.hasOwnProperty.call(PROPERTY_HINTS, field.name)) return field;
	// displayOptions last, where the generated description puts them (record/nodeDescription.ts).
	const { displayOptions, ...rest } = field;
	const builderHint = { propertyHint: PROPERTY_HINTS[field.name] };
	return { ...rest, builderHint, ...(displayOptions ? { displayOptions } : {}) };
}
