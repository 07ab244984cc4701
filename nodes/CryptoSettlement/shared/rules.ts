/**
 * The API's field rules (spec 2.7, 2.8, 4.1, 4.5, 4.6, 4.9 and 8), in one place.
 *
 * Used by the node's descriptions (which options exist and when a field shows), by its
 * pre-flight validation (nothing is sent when a rule fails) and by the local sandbox (which
 * answers 422 with the same rules), so the three cannot drift apart.
 *
 * Pure TypeScript with no imports: the sandbox loads it outside n8n.
 */

export const TOKENS = ['USDT', 'USDC', 'BTC', 'LTC', 'DOGE', 'BCH'] as const;
export type Token = (typeof TOKENS)[number];

export const STABLECOINS = ['USDT', 'USDC'] as const;
export const UTXO_TOKENS = ['BTC', 'LTC', 'DOGE', 'BCH'] as const;

/** Networks per stablecoin: TON is USDT-only, BASE is USDC-only (spec 2.8). */
export const NETWORKS_BY_TOKEN: Readonly<Record<'USDT' | 'USDC', readonly string[]>> = {
	USDT: ['ERC20', 'TRC20', 'BSC', 'SOL', 'TON'],
	USDC: ['ERC20', 'TRC20', 'BSC', 'SOL', 'BASE'],
};
export const NETWORKS = ['ERC20', 'TRC20', 'BSC', 'SOL', 'TON', 'BASE'] as const;

export const FEE_LEVELS = ['low', 'medium', 'high'] as const;
export const FIAT_CURRENCIES = ['ngn', 'ghs'] as const;
export const WITHDRAWAL_FEE_BEARERS = ['user', 'business'] as const;
export const ENVIRONMENTS = ['sandbox', 'production'] as const;

export const NARRATION_MAX_LENGTH = 32;
export const USD_DECIMALS = 2;
export const CRYPTO_DECIMALS = 8;
/** Both ends are accepted: the spec says "between 0 and 10" and "0 to 10". */
export const MARKUP_MIN = 0;
export const MARKUP_MAX = 10;

/** One broken rule: the API field, what the rule says, and the value received. */
export interface Violation {
	field: string;
	message: string;
	value?: unknown;
}

export function isStablecoin(token: unknown): token is 'USDT' | 'USDC' {
	return token === 'USDT' || token === 'USDC';
}

export function isUtxoToken(token: unknown): boolean {
	return (UTXO_TOKENS as readonly unknown[]).includes(token);
}

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Number of decimal places of a finite number, exponent notation included (1e-7 has 7). */
export function decimalPlaces(value: number): number {
	const [mantissa, exponent] = String(value).toLowerCase().split('e');
	const fraction = (mantissa.split('.')[1] ?? '').length;
	return Math.max(0, fraction - Number(exponent ?? 0));
}

/**
 * A number from a number or a numeric string (expressions often yield strings), with binary
 * floating-point noise removed: 1 + 0.14 is 1.1400000000000001 in JavaScript and means 1.14.
 */
export function toNumber(value: unknown): number | undefined {
	let parsed: number | undefined;
	if (typeof value === 'number') parsed = value;
	else if (typeof value === 'string' && value.trim() !== '') parsed = Number(value.trim());
	return parsed !== undefined && Number.isFinite(parsed) ? Number(parsed.toPrecision(15)) : undefined;
}

export function checkRequired(field: string, value: unknown): Violation[] {
	return isBlank(value) ? [{ field, message: `${field} is required`, value }] : [];
}

export function checkOneOf(field: string, value: unknown, allowed: readonly string[]): Violation[] {
	if (isBlank(value)) return [{ field, message: `${field} is required`, value }];
	return allowed.includes(value as string)
		? []
		: [{ field, message: `${field} must be one of ${allowed.join(', ')}`, value }];
}

/** token, network and fee level together (spec 2.8, 4.1, 4.6). */
export function checkTokenNetworkFee(
	input: { token?: unknown; network?: unknown; feeLevel?: unknown },
	options: { feeLevelRequired: boolean } = { feeLevelRequired: true },
): Violation[] {
	const tokenViolations = checkOneOf('token', input.token, TOKENS);
	if (tokenViolations.length) return tokenViolations;
	const token = input.token as Token;
	const violations: Violation[] = [];
	if (isStablecoin(token)) {
		const allowed = NETWORKS_BY_TOKEN[token];
		if (isBlank(input.network)) {
			violations.push({ field: 'network', message: 'network is required', value: input.network });
		} else if (!allowed.includes(input.network as string)) {
			violations.push({
				field: 'network',
				message: `network must be one of ${allowed.join(', ')} for ${token}`,
				value: input.network,
			});
		}
	} else {
		if (!isBlank(input.network)) {
			violations.push({
				field: 'network',
				message: `${token} does not support a network`,
				value: input.network,
			});
		}
		if (options.feeLevelRequired || !isBlank(input.feeLevel)) {
			violations.push(...checkOneOf('feeLevel', input.feeLevel, FEE_LEVELS));
		}
	}
	return violations;
}

/** A positive amount with at most `decimals` decimal places. */
export function checkPositiveAmount(field: string, value: unknown, decimals: number): Violation[] {
	const amount = toNumber(value);
	if (amount === undefined) return [{ field, message: `${field} must be a number`, value }];
	if (amount <= 0) return [{ field, message: `${field} must be greater than 0`, value }];
	if (decimalPlaces(amount) > decimals) {
		return [{ field, message: `${field} must have at most ${decimals} decimal places`, value }];
	}
	return [];
}

/**
 * amount (USD, 2 decimals) or cryptoAmount (8 decimals): exactly one (spec 4.6 rule 1).
 * Neither yields the spec's eight entries, the actionable one first.
 */
export function checkWithdrawalAmount(input: { amount?: unknown; cryptoAmount?: unknown }): Violation[] {
	const hasAmount = !isBlank(input.amount);
	const hasCrypto = !isBlank(input.cryptoAmount);
	if (hasAmount && hasCrypto) {
		return [
			{
				field: 'amount',
				message: 'send either amount or cryptoAmount, not both',
				value: { amount: input.amount, cryptoAmount: input.cryptoAmount },
			},
		];
	}
	if (hasAmount) return checkPositiveAmount('amount', input.amount, USD_DECIMALS);
	if (hasCrypto) return checkPositiveAmount('cryptoAmount', input.cryptoAmount, CRYPTO_DECIMALS);
	const missing = (field: string, decimals: number): Violation[] => [
		{ field, message: 'either amount or cryptoAmount is required', value: undefined },
		{ field, message: `${field} must be a number`, value: undefined },
		{ field, message: `${field} must be greater than 0`, value: undefined },
		{ field, message: `${field} must have at most ${decimals} decimal places`, value: undefined },
	];
	return [...missing('amount', USD_DECIMALS), ...missing('cryptoAmount', CRYPTO_DECIMALS)];
}

export function checkNarration(value: unknown): Violation[] {
	if (value === undefined || value === null || value === '') return [];
	if (typeof value !== 'string') return [{ field: 'narration', message: 'narration must be text', value }];
	return value.length > NARRATION_MAX_LENGTH
		? [
				{
					field: 'narration',
					message: `narration must be at most ${NARRATION_MAX_LENGTH} characters (got ${value.length})`,
					value,
				},
			]
		: [];
}

export function checkMarkupPercent(value: unknown): Violation[] {
	const markup = toNumber(value);
	if (markup === undefined) return [{ field: 'markupPercent', message: 'markupPercent must be a number', value }];
	return markup < MARKUP_MIN || markup > MARKUP_MAX
		? [
				{
					field: 'markupPercent',
					message: `markupPercent must be between ${MARKUP_MIN} and ${MARKUP_MAX} (both included)`,
					value,
				},
			]
		: [];
}

export function checkSwap(input: { amount?: unknown; from?: unknown; to?: unknown }): Violation[] {
	const violations = [
		...checkPositiveAmount('amount', input.amount, USD_DECIMALS),
		...checkOneOf('from', input.from, FIAT_CURRENCIES),
		...checkOneOf('to', input.to, FIAT_CURRENCIES),
	];
	if (!violations.length && input.from === input.to) {
		violations.push({ field: 'to', message: 'to must differ from from', value: input.to });
	}
	return violations;
}
