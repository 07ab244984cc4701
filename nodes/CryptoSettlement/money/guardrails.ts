import type { IDataObject, IExecuteSingleFunctions, NodeOperationError } from 'n8n-workflow';
import { CryptoSettlementApi } from '../../../credentials/CryptoSettlementApi.credentials';
import { ROUTES } from '../../service/routes';
import { reviewedByPerson, reviewRefusal } from './agentReview';
import { credentialsOf } from '../../service/credentials';
import { isAgentRun, runOf, startedByAnotherWorkflow } from '../engine/engine';
import { callApi } from '../../service/transport';
import type { ApiRequest, HttpCall } from '../../service/api';
import { isSuccess, serviceError } from '../../service/apiErrors';
import { credentialKey, oneAtATime } from '../../service/pacing';
import { fieldOf } from '../record/nodeDescription';
import { itemError } from '../record/params';
import { type OperationSpec, type Payment, type RequestParts } from '../record/record';
import {
	MONEY_CLASSES,
	NEVER_FOR_AGENTS,
	refusedToAgents,
	type MoneyClass,
} from '../record/moneyClasses';
import { isStablecoin } from '../fields/rules';
import { NETWORKS_BY_TOKEN, TOKENS } from '../../service/catalog';
import { isObject, scalarText } from '../../service/values';
import { moneyFigures, roundMoney } from '../../service/money';
import { readTodaysTotal } from './dailyTotal';
import { readRates, valueUsd, type Rates } from './rates';

/**
 * The credential owner's guardrails (README, "Guardrails"), checked for every money-moving item
 * with the batch's other checks, before anything is sent. They live on the credential, so a person
 * who may only use a shared credential can neither see nor change them.
 */

export type Destinations = 'any' | 'savedOnly' | 'allowList';

/** A guardrail value the node cannot understand: it refuses what the guardrail guards, never switches it off. */
interface Misread {
	/** The credential property (`maxPerDayUsd`). */
	name: string;
	/** What the owner typed, or the part of it that cannot be read. */
	value: unknown;
	/** What the value must be. */
	rule: string;
}

export interface Guardrails {
	maxPerWithdrawalUsd: number;
	maxPerDayUsd: number;
	destinations: Destinations;
	allowed: Array<{ token?: string; network?: string; address: string }>;
	requireExternalId: boolean;
	allowAgentPayments: boolean;
	agentPaymentsNeedHumanReview: boolean;
	/** Payments in a workflow started by another workflow (engine.ts, startedByAnotherWorkflow). */
	allowSubWorkflowPayments: boolean;
	production: boolean;
	/** Values that cannot be read; any one refuses every item the guardrails check. */
	misread: Misread[];
}

/** The credential's fields as its editor shows them, so that refusals use the owner's words. */
const CREDENTIAL_FIELDS = new Map(
	new CryptoSettlementApi().properties.map((property) => [property.name, property]),
);

/** The label the credential's editor shows for a guardrail ('Max per Day (USD)'). */
function guardrailLabel(name: string): string {
	return CREDENTIAL_FIELDS.get(name)?.displayName ?? name;
}

/** The label of one option of a guardrail ('Saved Payout Addresses Only'). */
function optionLabel(name: string, value: unknown): string {
	const option = (CREDENTIAL_FIELDS.get(name)?.options ?? []).find(
		(entry) => 'value' in entry && entry.value === value,
	);
	return option && 'value' in option ? option.name : String(value);
}

const DESTINATIONS: readonly Destinations[] = ['any', 'savedOnly', 'allowList'];

/** n8n may store a number field the owner never set as nothing at all: unset is the default. */
const unset = (value: unknown) => value === undefined || value === null || value === '';

/** A USD limit: unset or 0 is no limit; anything but a number of 0 or more cannot be read. */
function limitOf(credentials: IDataObject, name: string, misread: Misread[]): number {
	const value = credentials[name];
	if (unset(value)) return 0;
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)
				? Number(value)
				: NaN;
	if (Number.isFinite(number) && number >= 0) return number;
	misread.push({ name, value, rule: 'a number of USD, 0 for no limit' });
	return 0;
}

/**
 * One address a line, optionally `TOKEN:NETWORK:address` (network empty for UTXO coins), `#`
 * starting a comment. A line that starts with a token but does not name a network of it (or names
 * one for a UTXO coin), or an address with spaces, cannot be read: it is reported, never guessed.
 */
function allowedAddressesOf(text: unknown, misread: Misread[] = []): Guardrails['allowed'] {
	const allowed: Guardrails['allowed'] = [];
	const refuse = (line: string, rule: string) =>
		misread.push({ name: 'allowedAddresses', value: line, rule });
	const lines = String(text ?? '')
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line !== '' && !line.startsWith('#'));
	for (const line of lines) {
		const [first, ...rest] = line.split(':');
		const token = first.toUpperCase();
		if (!(TOKENS as readonly string[]).includes(token) || !rest.length) {
			if (/\s/.test(line)) refuse(line, 'one address a line, without spaces');
			else allowed.push({ address: line });
			continue;
		}
		const network = (rest.length > 1 ? rest[0] : '').toUpperCase();
		const address = rest.slice(1).join(':');
		const networks: readonly string[] = isStablecoin(token)
			? NETWORKS_BY_TOKEN[token as keyof typeof NETWORKS_BY_TOKEN]
			: [''];
		if (!networks.includes(network) || !address || /\s/.test(address)) {
			const expected = isStablecoin(token)
				? `${token}:${networks.join('|')}:address`
				: `${token}::address`;
			refuse(line, `a line starting with ${token} reads ${expected}`);
			continue;
		}
		allowed.push({ token, ...(network ? { network } : {}), address });
	}
	return allowed;
}

export function guardrailsOf(credentials: IDataObject): Guardrails {
	const misread: Misread[] = [];
	const maxPerWithdrawalUsd = limitOf(credentials, 'maxPerWithdrawalUsd', misread);
	const maxPerDayUsd = limitOf(credentials, 'maxPerDayUsd', misread);
	const stated = credentials.destinations;
	const destinations = DESTINATIONS.find((value) => value === stated) ?? 'any';
	if (destinations !== stated && !unset(stated)) {
		misread.push({
			name: 'destinations',
			value: stated,
			rule: `one of ${DESTINATIONS.map((value) => optionLabel('destinations', value)).join(', ')}`,
		});
	}
	const allowList = destinations === 'allowList';
	const allowed = allowList ? allowedAddressesOf(credentials.allowedAddresses, misread) : [];
	if (allowList && !allowed.length && !misread.some((entry) => entry.name === 'allowedAddresses')) {
		misread.push({
			name: 'allowedAddresses',
			value: credentials.allowedAddresses ?? '',
			rule: `at least one address, as ${optionLabel('destinations', 'allowList')} is chosen`,
		});
	}
	return {
		maxPerWithdrawalUsd,
		maxPerDayUsd,
		destinations,
		allowed,
		// Both default as the credential does when the field was never saved (older credentials).
		requireExternalId: credentials.requireExternalId !== false,
		allowAgentPayments: credentials.allowAgentPayments === true,
		// Only an explicit "off" lifts the review (a credential saved before it existed needs one).
		agentPaymentsNeedHumanReview: credentials.agentPaymentsNeedHumanReview !== false,
		// Only an explicit "on" (a boolean, never the text "true") allows them.
		allowSubWorkflowPayments: credentials.allowSubWorkflowPayments === true,
		production: credentials.environment === 'production',
		misread,
	};
}

export const usd = (value: number) => `${moneyFigures(value, 'USD')} USD`;

/** Where a guardrail is changed, in the credential editor's words. */
const whereIs = (name?: string) =>
	`Set by the credential's owner in the Crypto Settlement API credential, under Guardrails${name ? ` → ${guardrailLabel(name)}` : ''}. Nothing was sent for this item.`;

/** The refusal of a guardrail value that cannot be read: the guardrail, the value, the rule, where to change it. */
export function misreadText({ name, value, rule }: Misread): string {
	const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
	return `The credential's guardrail '${guardrailLabel(name)}' is ${shown}, which the node cannot read (it must be ${rule}), so nothing is sent`;
}

function refusal(
	ctx: IExecuteSingleFunctions,
	index: number,
	message: string,
	detail = whereIs(),
): NodeOperationError {
	return itemError(ctx, message, detail, index);
}

// ------------------------------------------------------------------------------------- the check

/** What this process's runs are about to send today, per credential, until their batch settles. */
const reserved = new Map<string, Map<object, number>>();

type Refusals = Map<number, Error>;
type Checked = { refused: Refusals; release: () => void };

/** One check of a run's money-moving items: what its steps read, and where they record refusals. */
interface Check {
	ctx: IExecuteSingleFunctions;
	http: HttpCall;
	rails: Guardrails;
	payments: Array<{ index: number; parts: RequestParts; payment: Payment }>;
	refused: Refusals;
	/** Refuses one item (its first refusal stands). */
	refuse: (index: number, message: string, detail?: string) => void;
	/** The service's rates, read once, when first needed; undefined when they cannot be read. */
	rates: () => Promise<Rates | undefined>;
}

/**
 * Checks the guardrails of every money-moving item of a run, step by step. Returns the refusal of
 * each refused item (by index), sets each accepted item's `valueUsd`, and a `release` to call once
 * the run's sends have settled (its reservation against the day's limit ends then).
 */
export async function checkGuardrails(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	spec: OperationSpec,
	items: Array<{ index: number; parts: RequestParts }>,
): Promise<Checked> {
	const refused: Refusals = new Map();
	const nothingReserved: Checked = { refused, release: () => undefined };
	if (!spec.payment || !items.length) return nothingReserved;
	const check = await startCheck(ctx, http, spec.payment, items, refused);
	if (refuseWhoMayNotPay(check) || refuseUnreadableGuardrails(check)) return nothingReserved;
	refuseDerivedExternalIds(check);
	await refuseDestinations(check);
	const values = await valueEachItem(check);
	if (check.rails.maxPerDayUsd <= 0) return nothingReserved;
	return await reserveWithinTheDay(check, values);
}

async function startCheck(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	paymentOf: NonNullable<OperationSpec['payment']>,
	items: Array<{ index: number; parts: RequestParts }>,
	refused: Refusals,
): Promise<Check> {
	let ratesRead: Promise<Rates | undefined> | undefined;
	return {
		ctx,
		http,
		rails: guardrailsOf(await credentialsOf(ctx)),
		payments: items.map((item) => ({ ...item, payment: paymentOf(item.parts) })),
		refused,
		refuse: (index, message, detail) => {
			if (!refused.has(index)) refused.set(index, refusal(ctx, index, message, detail));
		},
		rates: async () => await (ratesRead ??= readRates(ctx, http).catch(() => undefined)),
	};
}

const refuseEvery = (check: Check, message: string, detail?: string) => {
	for (const { index } of check.payments) check.refuse(index, message, detail);
};

/**
 * Who started the payment: an AI agent's tool run (Allow Agent Payments, and a person's review
 * unless the owner lifted it), and a workflow started by another workflow (Allow Sub-Workflow
 * Payments). Tells whether every item was refused.
 */
function refuseWhoMayNotPay(check: Check): boolean {
	const { ctx, rails } = check;
	if (isAgentRun(ctx) && !rails.allowAgentPayments) {
		refuseEvery(
			check,
			'This tool may not move money: the owner of the credential has not allowed AI agents to make payments. Ask a person to make this payment.',
			'Allow Agent Payments is off in the Crypto Settlement API credential (Guardrails). Reads stay allowed. Nothing was sent.',
		);
		return true;
	}
	if (isAgentRun(ctx) && rails.agentPaymentsNeedHumanReview && !reviewedByPerson(ctx)) {
		const review = reviewRefusal(ctx);
		refuseEvery(check, review.message, review.description);
		return true;
	}
	const mode = startedByAnotherWorkflow(ctx);
	if (mode !== undefined && !rails.allowSubWorkflowPayments) {
		refuseEvery(check, subWorkflowRefusal(mode), SUB_WORKFLOW_REFUSAL_DETAIL);
		return true;
	}
	return false;
}

/** Why a payment in a workflow another workflow started is refused, by the mode n8n ran it in. */
function subWorkflowRefusal(mode: string): string {
	const started =
		mode === 'integrated'
			? "this workflow was started by another workflow (n8n's Execute Workflow node, or an AI agent's Call n8n Workflow Tool: n8n does not tell which)"
			: mode === 'error'
				? "this is an error workflow, started by another workflow's failure"
				: `this workflow runs in n8n's execution mode '${mode}', which the node does not know as a workflow started by a person, a trigger or a webhook`;
	return `This payment is refused: ${started}, and the owner of the credential has not allowed payments in workflows started by another workflow. Nothing was sent.`;
}

const SUB_WORKFLOW_REFUSAL_DETAIL = `${guardrailLabel('allowSubWorkflowPayments')} is off in the Crypto Settlement API credential (Guardrails), so that an AI agent cannot pay through a sub-workflow. The credential's owner may turn it on only if every workflow that may start this one is trusted to pay: then every other guardrail still applies, but an AI agent's Call n8n Workflow Tool pays too, whatever Allow Agent Payments says, and without a person's review. Or run the payment in the starting workflow itself. Nothing was sent.`;

/** A guardrail value the node cannot read refuses every item. Tells whether it did. */
function refuseUnreadableGuardrails(check: Check): boolean {
	const [first] = check.rails.misread;
	if (first) refuseEvery(check, misreadText(first), whereIs(first.name));
	return first !== undefined;
}

/** Require External ID in Production: a derived External ID is new in every execution. */
function refuseDerivedExternalIds({ rails, payments, refuse }: Check): void {
	if (!rails.requireExternalId || !rails.production) return;
	for (const { index, payment } of payments) {
		if (payment.key?.derived) {
			refuse(
				index,
				"'External ID' is required: this Production credential moves money only with a mapped External ID",
				`Map 'External ID' to your own payment ID (an order or payout ID), so that a re-run, a retry or "Execute step" can never pay it again. ${whereIs('requireExternalId')}`,
			);
		}
	}
}

/** Allowed Destinations: the saved payout addresses, or the credential's list. */
async function refuseDestinations({ ctx, http, rails, payments, refuse }: Check): Promise<void> {
	if (rails.destinations === 'any' || !payments.some(({ payment }) => payment.destination)) return;
	const saved = rails.destinations === 'savedOnly';
	const allowed = await (
		saved ? readSavedAddresses(ctx, http) : Promise.resolve(rails.allowed)
	).catch((error: Error) => error);
	for (const { index, payment } of payments) {
		const destination = payment.destination;
		if (!destination) continue;
		if (allowed instanceof Error) {
			refuse(
				index,
				`The allowed destinations could not be read, so nothing is sent: ${allowed.message}`,
				whereIs('destinations'),
			);
		} else if (!allowed.some((entry) => matches(entry, destination))) {
			const { token, network, address } = destination;
			const named = `Destination ${address} (${token}${network ? ` on ${network}` : ''})`;
			refuse(
				index,
				saved
					? `${named} is not a saved payout address, and this credential pays only to saved ones`
					: `${named} is not in the credential's allowed addresses`,
				whereIs(saved ? 'destinations' : 'allowedAddresses'),
			);
		}
	}
}

/** Each item's USD value (set on the item as `valueUsd`), and Max per Withdrawal. Only when a limit is set. */
async function valueEachItem({
	rails,
	payments,
	refuse,
	rates,
}: Check): Promise<Map<number, number>> {
	const values = new Map<number, number>();
	if (rails.maxPerWithdrawalUsd <= 0 && rails.maxPerDayUsd <= 0) return values;
	for (const { index, payment, parts } of payments) {
		const value = valueUsd(payment.amount, 'usd' in payment.amount ? undefined : await rates());
		if (typeof value === 'string') {
			refuse(index, `This item cannot be valued in USD, so its limits cannot be checked: ${value}`);
			continue;
		}
		parts.valueUsd = roundMoney(value, 'USD');
		values.set(index, value);
		if (rails.maxPerWithdrawalUsd > 0 && value > rails.maxPerWithdrawalUsd) {
			refuse(
				index,
				`Max per withdrawal is ${usd(rails.maxPerWithdrawalUsd)}; this item is ${usd(value)}`,
				whereIs('maxPerWithdrawalUsd'),
			);
		}
	}
	return values;
}

/**
 * Max per Day: today's withdrawals from the service's list (dailyTotal.ts), what this process's
 * other runs are about to send, and this run's items in order. One run at a time per credential
 * reads the day and reserves its share, until `release`.
 */
async function reserveWithinTheDay(check: Check, values: Map<number, number>): Promise<Checked> {
	const { ctx, http, rails, payments, refused, refuse } = check;
	const key = credentialKey(ctx);
	const run = runOf(ctx);
	return await oneAtATime(`guardrails ${key}`, async () => {
		let today: number;
		try {
			today = await readTodaysTotal(ctx, http, check.rates);
		} catch (error) {
			refuseEvery(
				check,
				`Max per day could not be checked, so nothing is sent: ${(error as Error).message}`,
				whereIs('maxPerDayUsd'),
			);
			return { refused, release: () => undefined };
		}
		const others = [...(reserved.get(key)?.values() ?? [])].reduce((sum, value) => sum + value, 0);
		let planned = 0;
		for (const { index } of payments) {
			const value = values.get(index);
			if (value === undefined || refused.has(index)) continue;
			if (today + others + planned + value > rails.maxPerDayUsd) {
				refuse(
					index,
					`Max per day is ${usd(rails.maxPerDayUsd)}; today's withdrawals total ${usd(today + others + planned)} and this item is ${usd(value)}`,
					whereIs('maxPerDayUsd'),
				);
				continue;
			}
			planned += value;
		}
		const runs = reserved.get(key) ?? new Map<object, number>();
		runs.set(run, (runs.get(run) ?? 0) + planned);
		reserved.set(key, runs);
		const release = () => {
			runs.delete(run);
			if (!runs.size) reserved.delete(key);
		};
		return { refused, release };
	});
}

// ------------------------------------------------------------------------------ the service's reads

async function readSavedAddresses(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
): Promise<Guardrails['allowed']> {
	const { path } = ROUTES.payoutAddresses;
	const request: ApiRequest = { method: 'GET', route: path, url: path };
	const response = await callApi(ctx, http, request, 'safe');
	if (!isSuccess(response)) throw serviceError(ctx, request, response);
	const records = Array.isArray(response.body.data) ? response.body.data.filter(isObject) : [];
	// A saved address vouches only for what it names: one without a token, or a stablecoin one
	// without a network, names no destination a withdrawal could be checked against.
	return records.flatMap((record) => {
		const token = scalarText(record.token).toUpperCase();
		const network = scalarText(record.network).toUpperCase() || undefined;
		const address = scalarText(record.address).trim();
		if (!token || !address || (isStablecoin(token) && !network)) return [];
		return [{ token, network, address }];
	});
}

/**
 * What this item can do to money, and the operation's name for it: the record's `moneyWith` class
 * when the item adds any of its fields to 'Additional Fields' (named by their labels), else its
 * `money`. Additional Fields the node cannot read count as adding them (a guardrail fails closed).
 */
function moneyOfItem(
	ctx: IExecuteSingleFunctions,
	spec: OperationSpec,
	name: string,
): { money: MoneyClass; name: string } {
	if (!spec.moneyWith) return { money: spec.money, name };
	const added: unknown = ctx.getNodeParameter('additionalFields', {});
	const set = spec.moneyWith.fields.filter(
		(field) => !isObject(added) || added[field] !== undefined,
	);
	if (!set.length) return { money: spec.money, name };
	const labels = set.map((field) => `'${fieldOf(spec, field)?.displayName ?? field}'`);
	return {
		money: spec.moneyWith.money,
		name: `${name} ${spec.moneyWith.name} (${labels.join(', ')})`,
	};
}

/**
 * Refuses, before any request, an operation this run may not run at all by what it can do to money (its
 * `money`, or `moneyWith` by the item's Additional Fields), as its row of MONEY_CLASSES says (under
 * restricted destinations, none that could add a destination and then pay it); payments are checked
 * item by item with the batch (checkGuardrails); reads are always allowed.
 */
export function checkMoneyClass(
	ctx: IExecuteSingleFunctions,
	spec: OperationSpec,
	title: string,
	credentials: IDataObject,
): void {
	const { money, name } = moneyOfItem(ctx, spec, title);
	const fail = (message: string, description: string) => {
		throw itemError(ctx, message, description);
	};
	if (refusedToAgents(money) && isAgentRun(ctx)) {
		fail(
			`This tool may not ${MONEY_CLASSES[money].refusedToAgents} (${name}): AI agents never may, whatever the credential allows. Ask a person to do it.`,
			`Through this node an AI agent may read, quote and check, and pay only where the credential allows agent payments; anything that ${NEVER_FOR_AGENTS}, is left to people, in a workflow without an agent. Nothing was sent.`,
		);
	}
	if (!MONEY_CLASSES[money].refusedUnderRestrictedDestinations) return;
	const rails = guardrailsOf(credentials);
	const misread = rails.misread.find((entry) => entry.name === 'destinations');
	if (misread) fail(misreadText(misread), whereIs('destinations'));
	if (rails.destinations !== 'any') {
		fail(
			`${name} is refused: this credential's '${guardrailLabel('destinations')}' is '${optionLabel('destinations', rails.destinations)}', so it may not change where money goes`,
			`With '${guardrailLabel('destinations')}' restricted, this credential can neither add nor remove payout addresses or bank accounts, nor set a wallet's settlement bank, so it cannot add a destination and then pay it. Manage them in the service's dashboard, or with a credential whose '${guardrailLabel('destinations')}' is '${optionLabel('destinations', 'any')}'. ${whereIs('destinations')}`,
		);
	}
}

/** An allowed entry covers a destination: the same address, and token and network where the entry names them. */
function matches(
	allowed: Guardrails['allowed'][number],
	destination: NonNullable<Payment['destination']>,
): boolean {
	if (allowed.address !== destination.address) return false;
	if (allowed.token && allowed.token !== destination.token.toUpperCase()) return false;
	return !allowed.network || allowed.network === (destination.network ?? '').toUpperCase();
}
