import type { IDataObject } from 'n8n-workflow';
import { credentialsOf } from '../../service/credentials';
import { typeName, type Params } from './params';
import {
	checkNarration,
	checkOneOf,
	checkTokenNetworkFee,
	checkWithdrawalAmount,
	isStablecoin,
	plainDecimal,
	toNumber,
	violation,
} from '../fields/rules';
import type { AddressCheck, IdempotencyKey } from './record';
import { addressForm, checkAddressForm } from '../fields/addresses';

/** token plus network (stablecoins) or feeLevel (UTXO coins), never both, validated together. */
export function tokenNetworkFee(params: Params, options: { feeLevel: boolean }): IDataObject {
	const token = params.text('token');
	const network = params.text('network');
	const feeLevel = options.feeLevel && !isStablecoin(token) ? params.text('feeLevel') : undefined;
	params.assert(
		checkTokenNetworkFee({ token, network, feeLevel }, { feeLevelRequired: options.feeLevel }),
	);
	if (isStablecoin(token)) return { token, network };
	return feeLevel === undefined ? { token } : { token, feeLevel };
}

/**
 * The destination address of a payout, checked against its network's form (fields/addresses.ts),
 * and with a Production credential refused in a test network's form; `check` is set when the form
 * cannot decide, for the service's own check before the batch is sent.
 */
export async function payoutAddressOf(
	params: Params,
	field: string,
	token: IDataObject,
): Promise<{ address: string; check?: AddressCheck }> {
	const address = params.requiredText(field);
	const tokenName = String(token.token);
	const network = token.network === undefined ? undefined : String(token.network);
	const production = (await credentialsOf(params.ctx)).environment === 'production';
	params.assert(checkAddressForm(field, address, tokenName, network, production));
	const form = addressForm(address, tokenName, network);
	return form.verdict === 'unsure'
		? { address, check: { field, address, token: tokenName, network, why: form.why } }
		: { address };
}

const AMOUNT_TYPES = ['usd', 'crypto'] as const;

/** amount (USD) or cryptoAmount, exactly one, per the 'Amount Type' chosen (exactly `usd` or `crypto`). */
export function withdrawalAmount(params: Params): IDataObject {
	const amountType = params.raw('amountType', 'usd');
	params.assert(checkOneOf('amountType', amountType, AMOUNT_TYPES));
	const field = amountType === 'crypto' ? 'cryptoAmount' : 'amount';
	const value = params.raw(field, '');
	params.assert(checkWithdrawalAmount({ [field]: value }));
	return { [field]: toNumber(value) };
}

/** The node's PIN, else the credential's; required. Never echoed in errors or output. */
export async function transactionPin(params: Params): Promise<string> {
	const pin =
		params.additionalText('pin') || String((await credentialsOf(params.ctx)).pin ?? '').trim();
	if (!pin) {
		params.fail(
			"No transaction PIN: set 'Transaction PIN' in the credential (or 'PIN' under 'Additional Fields')",
			'Withdrawals and swaps need the PIN set on the dashboard. Keep it in the credential, where it is stored encrypted: a PIN typed into the node is stored in the workflow. Nothing was sent to the service for this item.',
		);
	}
	return pin;
}

/** A short, stable hash in plain TypeScript (cyrb53 on two 32-bit lanes): no Node module is needed. */
function hash(text: string): string {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		h1 = Math.imul(h1 ^ code, 2654435761);
		h2 = Math.imul(h2 ^ code, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

/**
 * An External ID derived from the instance, workflow, execution, node, run and item: n8n's Retry
 * On Fail reproduces it, so a retried item is recognised; a new execution gets new ones.
 */
function deriveExternalId(params: Params): string {
	const { ctx } = params;
	const runIndex = ctx.getWorkflowDataProxy(params.itemIndex).$runIndex;
	const origin = [
		ctx.getInstanceId(),
		ctx.getWorkflow().id,
		ctx.getExecutionId(),
		ctx.getNode().id,
		runIndex,
	];
	return `n8n-${hash(origin.join('|'))}-${params.itemIndex}`;
}

/**
 * The user's External ID, or a derived one only when the field is left empty. A mapped value that
 * resolves empty, or to anything but text or a number, fails the item: the user believes their
 * own ID protects the payment, so it is never silently replaced.
 */
export function externalIdOf(params: Params): IdempotencyKey {
	const configured: unknown = params.ctx.getNode().parameters.externalId;
	if ((typeof configured === 'string' ? configured.trim() : (configured ?? '')) === '')
		return { externalId: deriveExternalId(params), derived: true };
	const value = params.raw('externalId', '');
	let text: string | undefined;
	if (typeof value === 'string') text = value;
	else if (value === undefined || value === null) text = '';
	else if (
		typeof value === 'number' &&
		Number.isFinite(value) &&
		Math.abs(value) <= Number.MAX_SAFE_INTEGER
	) {
		text = plainDecimal(value);
	}
	if (text === undefined)
		params.assert(
			violation('externalId', `externalId must be text or a number, not ${typeName(value)}`, value),
		);
	const externalId = (text as string).trim();
	// The External ID is also the lookup's path segment: "." or ".." would read another endpoint,
	// never find the payment, and let a re-run pay it again.
	if (externalId === '.' || externalId === '..')
		params.assert(violation('externalId', 'externalId cannot be "." or ".."', externalId));
	if (!externalId) {
		params.fail(
			'External ID is empty for this item',
			"'External ID' is mapped but resolved to nothing for this item, so the payment would not be protected against repeats. Map a value that exists for every item (an order or payout ID). Nothing was sent for this item.",
		);
	}
	return { externalId, derived: false };
}

/** Optional narration from 'Additional Fields', at most 32 characters. */
export function narrationOf(params: Params): IDataObject {
	const narration = params.additional().narration;
	params.assert(checkNarration(narration));
	return narration === undefined || narration === '' ? {} : { narration: String(narration) };
}

/** A bank id and account number pair, as the API's body fields `id` and `accountNumber`. */
export function bankAccountFields(params: Params): IDataObject {
	return { id: params.requiredText('bankId'), accountNumber: params.requiredText('accountNumber') };
}

/**
 * 'Dry Run': the operation's own, or the one under 'Additional Fields' (saved workflows); either one
 * on. Each is a boolean, or from an expression (a form field, a query value) the text true or false
 * in any case. Any other value, including one an expression leaves empty, fails the item: read as
 * false it would send a real payment the user meant to try.
 */
export function dryRunOf(params: Params): boolean {
	const node = params.ctx.getNode().parameters;
	const own = dryRunValue(params, params.raw('dryRun'), node.dryRun);
	const additional = dryRunValue(
		params,
		params.additional().dryRun,
		(node.additionalFields as IDataObject | undefined)?.dryRun,
	);
	return own || additional;
}

function dryRunValue(params: Params, value: unknown, configured: unknown): boolean {
	if (typeof value === 'boolean') return value;
	if (value === undefined && configured === undefined) return false;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	params.assert(
		violation(
			'dryRun',
			'dryRun must be true or false (a boolean, or the text true or false)',
			value,
		),
	);
	return true;
}
