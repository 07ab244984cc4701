import { NodeOperationError, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';
import { SPECS } from '../resources';
import { reviewedByPerson, REVIEW_REFUSAL } from './agentReview';
import { credentialsOf } from './credentials';
import { isAgentRun, runOf } from './engine';
import { maxPagesFor } from './lists';
import { oneAtATime } from './pacing';
import { callApi, credentialKey, header, isSuccess, serviceError, type ApiRequest, type HttpCall } from './transport';
import type { IdempotencyKey, OperationSpec, RequestParts } from './types';
import { statusOf } from './rules';
import { isObject, scalarText } from './values';

/**
 * The credential owner's guardrails (README, "Guardrails"), checked for every money-moving item
 * with the batch's other checks, before anything is sent. They live on the credential, so a person
 * who may only use a shared credential can neither see nor change them.
 */

/** What a money-moving item would do, as its operation record states it (`payment`). */
export interface Payment {
	/** The amount as the request states it: in USD, in a token, or in a local currency. */
	amount: { usd: number } | { token: string; crypto: number } | { fiat: string; value: number };
	/** A crypto destination, checked against the allowed destinations. */
	destination?: { token: string; network?: string; address: string };
	/** The withdrawal's External ID (swaps have none). */
	key?: IdempotencyKey;
}

export type Destinations = 'any' | 'savedOnly' | 'allowList';

export interface Guardrails {
	maxPerWithdrawalUsd: number;
	maxPerDayUsd: number;
	destinations: Destinations;
	allowed: Array<{ token?: string; network?: string; address: string }>;
	requireExternalId: boolean;
	allowAgentPayments: boolean;
	agentPaymentsNeedHumanReview: boolean;
	production: boolean;
}

const TOKEN_LINE = /^(USDT|USDC|BTC|LTC|DOGE|BCH):([A-Za-z0-9]*):(.+)$/i;

/** One address a line, optionally `TOKEN:NETWORK:address` (network empty for UTXO coins). */
export function allowedAddressesOf(text: unknown): Guardrails['allowed'] {
	return String(text ?? '')
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line !== '' && !line.startsWith('#'))
		.map((line) => {
			const match = TOKEN_LINE.exec(line);
			if (!match) return { address: line };
			return { token: match[1].toUpperCase(), ...(match[2] ? { network: match[2].toUpperCase() } : {}), address: match[3].trim() };
		});
}

const limit = (value: unknown) => (Number.isFinite(Number(value)) && Number(value) > 0 ? Number(value) : 0);

export function guardrailsOf(credentials: IDataObject): Guardrails {
	const destinations = ['savedOnly', 'allowList'].includes(String(credentials.destinations)) ? (credentials.destinations as Destinations) : 'any';
	return {
		maxPerWithdrawalUsd: limit(credentials.maxPerWithdrawalUsd),
		maxPerDayUsd: limit(credentials.maxPerDayUsd),
		destinations,
		allowed: allowedAddressesOf(credentials.allowedAddresses),
		// Both default as the credential does when the field was never saved (older credentials).
		requireExternalId: credentials.requireExternalId !== false,
		allowAgentPayments: credentials.allowAgentPayments === true,
		// Only an explicit "off" lifts the review (a credential saved before it existed needs one).
		agentPaymentsNeedHumanReview: credentials.agentPaymentsNeedHumanReview !== false,
		production: credentials.environment === 'production',
	};
}

const usd = (value: number) => `${value.toFixed(2)} USD`;
const WHERE = "Set by the credential's owner in the Crypto Settlement API credential, under Guardrails. Nothing was sent for this item.";

function refusal(ctx: IExecuteSingleFunctions, index: number, message: string, detail = WHERE): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex: index, description: detail });
}

// ------------------------------------------------------------------------------ the service's reads

/** Prices and local-currency rates from the sell rates (read once per run, paced as that route requires). */
interface Rates {
	usdPerToken: Map<string, number>;
	localPerUsd: Map<string, number>;
}

async function readRates(ctx: IExecuteSingleFunctions, http: HttpCall): Promise<Rates> {
	const spec = SPECS.rate.getSellRates;
	const request: ApiRequest = { method: 'GET', route: spec.path, url: spec.path, rateLimit: spec.rateLimit };
	const response = await callApi(ctx, http, request, 'safe');
	if (!isSuccess(response)) throw serviceError(ctx, request, response);
	const rates: Rates = { usdPerToken: new Map(), localPerUsd: new Map() };
	for (const entry of Array.isArray(response.body.data) ? response.body.data : []) {
		if (!isObject(entry)) continue;
		const symbol = scalarText(entry.symbol).toUpperCase();
		const price = Number(entry.priceUSD);
		if (symbol && Number.isFinite(price) && price > 0) rates.usdPerToken.set(symbol, price);
		// A stablecoin's sell rate is the local currency per USD.
		if ((symbol === 'USDT' || symbol === 'USDC') && isObject(entry.rate)) {
			for (const [currency, rate] of Object.entries(entry.rate)) {
				if (Number(rate) > 0 && !rates.localPerUsd.has(currency.toUpperCase())) rates.localPerUsd.set(currency.toUpperCase(), Number(rate));
			}
		}
	}
	return rates;
}

function valueUsd(payment: Payment, rates: Rates | undefined): number | string {
	const { amount } = payment;
	if ('usd' in amount) return amount.usd;
	if (!rates) return 'the service\'s rates could not be read';
	if ('crypto' in amount) {
		const price = rates.usdPerToken.get(amount.token.toUpperCase());
		return price ? amount.crypto * price : `the service's rates give no USD price for ${amount.token}`;
	}
	const rate = rates.localPerUsd.get(amount.fiat.toUpperCase());
	return rate ? amount.value / rate : `the service's rates give no ${amount.fiat.toUpperCase()} rate`;
}

async function readSavedAddresses(ctx: IExecuteSingleFunctions, http: HttpCall): Promise<Guardrails['allowed']> {
	const { path } = SPECS.payoutAddress.getAll;
	const request: ApiRequest = { method: 'GET', route: path, url: path };
	const response = await callApi(ctx, http, request, 'safe');
	if (!isSuccess(response)) throw serviceError(ctx, request, response);
	const records = Array.isArray(response.body.data) ? response.body.data.filter(isObject) : [];
	return records.map((record) => ({
		token: scalarText(record.token).toUpperCase(),
		network: scalarText(record.network).toUpperCase() || undefined,
		address: scalarText(record.address).trim(),
	}));
}


/**
 * Today's (UTC, on the service's clock when it sends a Date header) withdrawals of this credential,
 * in USD, from the service's own list: pending and completed count, refunded ones do not, nor the
 * payouts the service makes by itself from deposits (auto-settlement: records with a `trade`).
 */
async function readTodaysTotal(ctx: IExecuteSingleFunctions, http: HttpCall, rates: () => Promise<Rates | undefined>): Promise<number> {
	const spec = SPECS.withdrawal.getAll;
	const size = 'pageSize' in spec ? spec.pageSize : 100;
	let total = 0;
	let dayStart: number | undefined;
	for (let page = 1; page <= maxPagesFor(size); page++) {
		const request: ApiRequest = { method: 'GET', route: spec.path, url: spec.path, qs: { page, size } };
		const response = await callApi(ctx, http, request, 'safe');
		if (!isSuccess(response)) throw serviceError(ctx, request, response);
		if (dayStart === undefined) {
			const now = Date.parse(header(response.headers, 'date') ?? '');
			const today = new Date(Number.isFinite(now) ? now : Date.now());
			dayStart = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
		}
		const records = Array.isArray(response.body.data) ? response.body.data.filter(isObject) : [];
		let older = 0;
		for (const record of records) {
			const created = Date.parse(scalarText(record.createdAt));
			if (!Number.isFinite(created)) throw new Error(`withdrawal ${scalarText(record.id)} has no creation date`);
			if (created < dayStart) {
				older++;
				continue;
			}
			if (statusOf('withdrawal', scalarText(record.status).toLowerCase())?.refunded || (record.trade !== null && record.trade !== undefined && record.trade !== '')) continue;
			total += recordUsd(record, await rates());
		}
		// Newest first: a page wholly before today ends the walk.
		if (records.length === 0 || older === records.length || response.body.meta?.hasNextPage !== true) return total;
	}
	throw new Error(`the withdrawal list is longer than ${maxPagesFor(size)} pages`);
}

function recordUsd(record: IDataObject, rates: Rates | undefined): number {
	const amount = Number(record.amount);
	if (record.amount !== null && record.amount !== undefined && Number.isFinite(amount)) return amount;
	const value = valueUsd({ amount: { token: scalarText(record.token), crypto: Number(record.cryptoAmount) } }, rates);
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	throw new Error(`withdrawal ${scalarText(record.id)} cannot be valued in USD`);
}

// ------------------------------------------------------------------------------------- the check

/** What this process's runs are about to send today, per credential, until their batch settles. */
const reserved = new Map<string, Map<object, number>>();

/**
 * Checks the guardrails of every money-moving item of a run. Returns the refusal of each refused
 * item (by index), sets each accepted item's `valueUsd`, and a `release` to call once the run's
 * sends have settled (its reservation against the day's limit ends then).
 */
export async function checkGuardrails(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	spec: OperationSpec,
	items: Array<{ index: number; parts: RequestParts }>,
): Promise<{ refused: Map<number, Error>; release: () => void }> {
	const refused = new Map<number, Error>();
	const release = () => undefined;
	if (!spec.payment || !items.length) return { refused, release };
	const rails = guardrailsOf(await credentialsOf(ctx));
	const payments = items.map((item) => ({ ...item, payment: (spec.payment as NonNullable<OperationSpec['payment']>)(item.parts) }));
	const refuse = (index: number, message: string, detail?: string) => {
		if (!refused.has(index)) refused.set(index, refusal(ctx, index, message, detail));
	};

	if (isAgentRun(ctx) && !rails.allowAgentPayments) {
		for (const { index } of payments) {
			refuse(
				index,
				'This tool may not move money: the owner of the credential has not allowed AI agents to make payments. Ask a person to make this payment.',
				"Allow Agent Payments is off in the Crypto Settlement API credential (Guardrails). Reads stay allowed. Nothing was sent.",
			);
		}
		return { refused, release };
	}
	if (isAgentRun(ctx) && rails.agentPaymentsNeedHumanReview && !reviewedByPerson(ctx)) {
		for (const { index } of payments) refuse(index, REVIEW_REFUSAL.message, REVIEW_REFUSAL.description);
		return { refused, release };
	}

	if (rails.requireExternalId && rails.production) {
		for (const { index, payment } of payments) {
			if (payment.key?.derived) {
				refuse(index, "'External ID' is required: this Production credential moves money only with a mapped External ID", `Map 'External ID' to your own payment ID (an order or payout ID), so that a re-run, a retry or "Execute step" can never pay it again. ${WHERE}`);
			}
		}
	}

	const destinationsOk = await allowedDestinations(ctx, http, rails).catch((error: Error) => error);
	for (const { index, payment } of payments) {
		if (!payment.destination || rails.destinations === 'any') continue;
		if (destinationsOk instanceof Error) {
			refuse(index, `The allowed destinations could not be read, so nothing is sent: ${destinationsOk.message}`);
			continue;
		}
		if (!destinationsOk.some((allowed) => matches(allowed, payment.destination as NonNullable<Payment['destination']>))) {
			const { token, network, address } = payment.destination;
			refuse(
				index,
				rails.destinations === 'savedOnly'
					? `Destination ${address} (${token}${network ? ` on ${network}` : ''}) is not a saved payout address, and this credential pays only to saved ones`
					: `Destination ${address} (${token}${network ? ` on ${network}` : ''}) is not in the credential's allowed addresses`,
			);
		}
	}

	const valuing = rails.maxPerWithdrawalUsd > 0 || rails.maxPerDayUsd > 0;
	let ratesRead: Promise<Rates | undefined> | undefined;
	const rates = async () => await (ratesRead ??= readRates(ctx, http).catch(() => undefined));
	const values = new Map<number, number>();
	if (valuing) {
		for (const { index, payment, parts } of payments) {
			const value = valueUsd(payment, 'usd' in payment.amount ? undefined : await rates());
			if (typeof value === 'string') {
				refuse(index, `This item cannot be valued in USD, so its limits cannot be checked: ${value}`);
				continue;
			}
			parts.valueUsd = Math.round(value * 100) / 100;
			values.set(index, value);
			if (rails.maxPerWithdrawalUsd > 0 && value > rails.maxPerWithdrawalUsd) {
				refuse(index, `Max per withdrawal is ${usd(rails.maxPerWithdrawalUsd)}; this item is ${usd(value)}`);
			}
		}
	}
	if (rails.maxPerDayUsd <= 0) return { refused, release };

	// One run at a time per credential reads the day and reserves its share.
	const key = credentialKey(ctx);
	const run = runOf(ctx);
	return await oneAtATime(`guardrails ${key}`, async () => {
		let today: number;
		try {
			today = await readTodaysTotal(ctx, http, rates);
		} catch (error) {
			for (const { index } of payments) refuse(index, `Max per day could not be checked, so nothing is sent: ${(error as Error).message}`);
			return { refused, release };
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
				);
				continue;
			}
			planned += value;
		}
		const runs = reserved.get(key) ?? new Map<object, number>();
		runs.set(run, (runs.get(run) ?? 0) + planned);
		reserved.set(key, runs);
		return {
			refused,
			release: () => {
				runs.delete(run);
				if (!runs.size) reserved.delete(key);
			},
		};
	});
}

async function allowedDestinations(ctx: IExecuteSingleFunctions, http: HttpCall, rails: Guardrails): Promise<Guardrails['allowed']> {
	if (rails.destinations === 'allowList') return rails.allowed;
	if (rails.destinations === 'savedOnly') return await readSavedAddresses(ctx, http);
	return [];
}

/** An allowed entry covers a destination: the same address, and token and network where the entry names them. */
function matches(allowed: Guardrails['allowed'][number], destination: NonNullable<Payment['destination']>): boolean {
	if (allowed.address !== destination.address) return false;
	if (allowed.token && allowed.token !== destination.token.toUpperCase()) return false;
	return !allowed.network || allowed.network === (destination.network ?? '').toUpperCase();
}
