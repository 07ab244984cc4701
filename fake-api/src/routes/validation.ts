/**
 * How the service judges request bodies, written here from the specification (docs/api.md, "Field
 * rules" and "Envelope"), with its messages: never with the node's checks (fields/rules.ts), so a
 * rule the node gets wrong is refused here instead of copied (fake-api/test/judges-for-itself.test.ts).
 * Only the facts (tokens, networks per token, limits) come from the shared catalog.
 */
import {
	FEE_LEVELS,
	FIAT_CURRENCIES,
	MARKUP_MAX,
	MARKUP_MIN,
	NARRATION_MAX_LENGTH,
	NETWORKS_BY_TOKEN,
	TOKENS,
	USD_DECIMALS,
	CRYPTO_DECIMALS,
} from '../../../nodes/service/catalog';
import type { Violation } from '../http';

export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function requiredString(field: string, value: unknown): Violation[] {
	if (isBlank(value)) return required(field, value);
	return typeof value === 'string' ? [] : [{ field, message: `${field} must be a string`, value }];
}

/** A required string where a number is taken as its digits (the PIN, a bank id). */
export function requiredText(field: string, value: unknown): Violation[] {
	return requiredString(field, typeof value === 'number' ? String(value) : value);
}

export function optionalString(field: string, value: unknown): Violation[] {
	return value === undefined || value === null || typeof value === 'string'
		? []
		: [{ field, message: `${field} must be a string`, value }];
}

export function optionalBoolean(field: string, value: unknown): Violation[] {
	return value === undefined || value === null || typeof value === 'boolean'
		? []
		: [{ field, message: `${field} must be a boolean`, value }];
}

/** A required positive amount with at most `decimals` decimals. */
export function requiredAmount(field: string, value: unknown, decimals: number): Violation[] {
	return isBlank(value) ? required(field, value) : positiveAmount(field, value, decimals);
}

/** The trimmed string, or undefined when blank or not a string. */
export function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function required(field: string, value: unknown): Violation[] {
	return isBlank(value) ? [{ field, message: `${field} is required`, value }] : [];
}

export function oneOf(field: string, value: unknown, allowed: readonly string[]): Violation[] {
	if (isBlank(value)) return required(field, value);
	return allowed.includes(value as string) ? [] : [{ field, message: `${field} must be one of ${allowed.join(', ')}`, value }];
}

/** A JSON number, or the digits of one (the service reads numeric text too); undefined otherwise. */
export function numberOf(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	return typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : undefined;
}

/** Decimal places as written (numeric text) or as JavaScript writes the number (1.5e-7 has 8). */
function decimalsOf(value: unknown): number {
	const written = typeof value === 'number' ? String(value) : String(value).trim();
	const [mantissa, exponent = '0'] = written.toLowerCase().split('e');
	const fraction = (mantissa.split('.')[1] ?? '').replace(/0+$/, '');
	return Math.max(0, fraction.length - Number(exponent));
}

/** The spec's number rules, each reported on its own as the service does (docs/api.md, "Envelope"). */
export function positiveAmount(field: string, value: unknown, decimals: number): Violation[] {
	const number = numberOf(value);
	if (number === undefined) return [{ field, message: `${field} must be a number`, value }];
	const violations: Violation[] = [];
	if (number <= 0) violations.push({ field, message: `${field} must be greater than 0`, value });
	if (decimalsOf(value) > decimals) violations.push({ field, message: `${field} must have at most ${decimals} decimal places`, value });
	return violations;
}

/**
 * Token, network and fee level (docs/api.md, "Field rules"): a stablecoin needs one of its own
 * networks, a UTXO coin takes no network and a fee level instead (optional where only quoted).
 */
export function tokenNetworkFee(body: Record<string, unknown>, feeLevel: 'required' | 'optional'): Violation[] {
	const tokenViolations = oneOf('token', body.token, TOKENS);
	if (tokenViolations.length) return tokenViolations;
	const token = body.token as string;
	const networks = (NETWORKS_BY_TOKEN as Record<string, readonly string[] | undefined>)[token];
	if (networks) {
		if (isBlank(body.network)) return [{ field: 'network', message: 'network is required', value: body.network }];
		return networks.includes(body.network as string) ? [] : [{ field: 'network', message: `${token} is not supported on ${String(body.network)}`, value: body.network }];
	}
	const violations: Violation[] = isBlank(body.network) ? [] : [{ field: 'network', message: `${token} does not support a network`, value: body.network }];
	if (feeLevel === 'required' || !isBlank(body.feeLevel)) violations.push(...oneOf('feeLevel', body.feeLevel, FEE_LEVELS));
	return violations;
}

/** `amount` (USD) or `cryptoAmount`, never both; neither yields the spec's eight entries. */
export function withdrawalAmount(body: Record<string, unknown>): Violation[] {
	const hasAmount = !isBlank(body.amount);
	const hasCrypto = !isBlank(body.cryptoAmount);
	if (hasAmount && hasCrypto) return [{ field: 'amount', message: 'send either amount or cryptoAmount, not both', value: body.amount }];
	if (hasAmount) return positiveAmount('amount', body.amount, USD_DECIMALS);
	if (hasCrypto) return positiveAmount('cryptoAmount', body.cryptoAmount, CRYPTO_DECIMALS);
	return (
		[
			['amount', USD_DECIMALS],
			['cryptoAmount', CRYPTO_DECIMALS],
		] as const
	).flatMap(([field, decimals]) => [
		{ field, message: 'either amount or cryptoAmount is required' },
		{ field, message: `${field} must be a number` },
		{ field, message: `${field} must be greater than 0` },
		{ field, message: `${field} must have at most ${decimals} decimal places` },
	]);
}

export function narration(value: unknown): Violation[] {
	if (value === undefined || value === null || value === '') return [];
	if (typeof value !== 'string') return [{ field: 'narration', message: 'narration must be a string', value }];
	return value.length > NARRATION_MAX_LENGTH ? [{ field: 'narration', message: `narration must be at most ${NARRATION_MAX_LENGTH} characters`, value }] : [];
}

export function markupPercent(value: unknown): Violation[] {
	if (isBlank(value)) return required('markupPercent', value);
	const number = numberOf(value);
	if (number === undefined) return [{ field: 'markupPercent', message: 'markupPercent must be a number', value }];
	return number < MARKUP_MIN || number > MARKUP_MAX ? [{ field: 'markupPercent', message: `markupPercent must be between ${MARKUP_MIN} and ${MARKUP_MAX}`, value }] : [];
}

/** A swap: an amount in `from`, and `from` and `to` two different fiat currencies. */
export function swap(body: Record<string, unknown>): Violation[] {
	const violations = [...requiredAmount('amount', body.amount, USD_DECIMALS), ...oneOf('from', body.from, FIAT_CURRENCIES), ...oneOf('to', body.to, FIAT_CURRENCIES)];
	if (!violations.length && body.from === body.to) violations.push({ field: 'to', message: 'from and to must be different currencies', value: body.to });
	return violations;
}
