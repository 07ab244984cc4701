/**
 * The API's field rules (docs/api.md, "Field rules"), in one place: the node's descriptions (which
 * options exist and when a field shows) and its pre-flight validation (nothing is sent when a rule
 * fails). The facts they apply (tokens, networks, limits, statuses) live in ./catalog, which the
 * local fake API also reads; the fake judges with its own code, never with these checks.
 */

import {
	CRYPTO_DECIMALS,
	FEE_LEVELS,
	FIAT_CURRENCIES,
	MARKUP_MAX,
	MARKUP_MIN,
	NARRATION_MAX_LENGTH,
	NETWORKS,
	NETWORKS_BY_TOKEN,
	STABLECOINS,
	TOKENS,
	USD_DECIMALS,
	type Stablecoin,
	type Token,
} from '../../service/catalog';

/** The chain each network code stands for, as the editor names it ("TRC20 (Tron)"). */
export const CHAIN_OF_NETWORK: Readonly<Record<(typeof NETWORKS)[number], string>> = {
	ERC20: 'Ethereum',
	TRC20: 'Tron',
	BSC: 'BNB Smart Chain',
	SOL: 'Solana',
	TON: 'TON',
	BASE: 'Base',
};

/** One broken rule: the API field, what the rule says, and the value received. */
export interface Violation {
	field: string;
	message: string;
	value?: unknown;
}

/** A rule broken by one field's value, as the one violation of a check. */
export const violation = (field: string, message: string, value?: unknown): Violation[] => [
	{ field, message, value },
];

/** Whether a token is a stablecoin (catalog STABLECOINS): it takes a network, and no fee level. */
export function isStablecoin(token: unknown): token is Stablecoin {
	return (STABLECOINS as readonly unknown[]).includes(token);
}

function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** Digits a JSON number carries exactly: any decimal of up to 15 significant digits survives a double. */
const MAX_SIGNIFICANT_DIGITS = 15;

/** Writes a finite number as plain decimal text (1e-7 → "0.0000001", 1e21 → "1000000000000000000000"). */
export function plainDecimal(value: number): string {
	const text = String(Math.abs(value));
	const sign = value < 0 ? '-' : '';
	const match = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
	if (!match) return sign + text;
	const [, whole, fraction = '', exponentText] = match;
	const digits = whole + fraction;
	const point = whole.length + Number(exponentText);
	if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
	if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
	return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A decimal read exactly from a number or from plain decimal text (expressions often yield text):
 * digits with at most one dot and an optional leading minus. Hex, binary, octal, exponents, spaces
 * inside and anything else are refused rather than guessed at.
 */
function readDecimal(
	value: unknown,
): { text: string; decimals: number; significant: number } | undefined {
	if (typeof value === 'number' ? !Number.isFinite(value) : typeof value !== 'string')
		return undefined;
	const text = typeof value === 'number' ? plainDecimal(value) : (value as string).trim();
	const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
	if (!match) return undefined;
	const [, sign, whole, rawFraction = ''] = match;
	const fraction = rawFraction.replace(/0+$/, '');
	const significant = (whole + fraction).replace(/^0+/, '').length;
	const normal = `${sign}${whole.replace(/^0+(?=\d)/, '')}${fraction ? `.${fraction}` : ''}`;
	return { text: normal === '-0' ? '0' : normal, decimals: fraction.length, significant };
}

/** The number a decimal number or decimal text stands for; undefined for anything else. */
export function toNumber(value: unknown): number | undefined {
	const decimal = readDecimal(value);
	return decimal === undefined ? undefined : Number(decimal.text);
}

/** A plain decimal with at most `decimals` places that a JSON number carries exactly. */
function checkDecimal(field: string, value: unknown, decimals: number): Violation[] {
	const decimal = readDecimal(value);
	if (decimal === undefined)
		return violation(
			field,
			`${field} must be a plain decimal number such as 10.5 (digits and one dot)`,
			value,
		);
	if (decimal.decimals > decimals) {
		// 1 + 0.14 is 1.1400000000000001 in JavaScript: say how to round it where it is computed.
		const noise =
			(readDecimal(Number(Number(decimal.text).toPrecision(MAX_SIGNIFICANT_DIGITS)))?.decimals ??
				99) <= decimals;
		const hint = noise
			? `; round it where it is computed, for example with .toFixed(${decimals})`
			: '';
		return violation(
			field,
			`${field} must have at most ${decimals} decimal places (it is never rounded${hint})`,
			value,
		);
	}
	if (decimal.significant > MAX_SIGNIFICANT_DIGITS)
		return violation(
			field,
			`${field} has more than ${MAX_SIGNIFICANT_DIGITS} significant digits and cannot be sent exactly`,
			value,
		);
	return [];
}

export function checkRequired(field: string, value: unknown): Violation[] {
	return isBlank(value) ? violation(field, `${field} is required`, value) : [];
}

export function checkOneOf(field: string, value: unknown, allowed: readonly string[]): Violation[] {
	if (isBlank(value)) return checkRequired(field, value);
	return allowed.includes(value as string)
		? []
		: violation(field, `${field} must be one of ${allowed.join(', ')}`, value);
}

/** token, network and fee level together. */
export function checkTokenNetworkFee(
	input: { token?: unknown; network?: unknown; feeLevel?: unknown },
	options: { feeLevelRequired: boolean } = { feeLevelRequired: true },
): Violation[] {
	const tokenViolations = checkOneOf('token', input.token, TOKENS);
	if (tokenViolations.length) return tokenViolations;
	const token = input.token as Token;
	if (isStablecoin(token)) {
		const allowed = NETWORKS_BY_TOKEN[token];
		return isBlank(input.network) || allowed.includes(input.network as string)
			? checkRequired('network', input.network)
			: violation(
					'network',
					`network must be one of ${allowed.join(', ')} for ${token}`,
					input.network,
				);
	}
	return [
		...(isBlank(input.network)
			? []
			: violation('network', `${token} does not support a network`, input.network)),
		...(options.feeLevelRequired || !isBlank(input.feeLevel)
			? checkOneOf('feeLevel', input.feeLevel, FEE_LEVELS)
			: []),
	];
}

/** A positive amount with at most `decimals` decimal places, never rounded. */
export function checkPositiveAmount(field: string, value: unknown, decimals: number): Violation[] {
	const violations = checkDecimal(field, value, decimals);
	if (violations.length) return violations;
	return (toNumber(value) as number) <= 0
		? violation(field, `${field} must be greater than 0`, value)
		: [];
}

/**
 * amount (USD, 2 decimals) or cryptoAmount (8 decimals): exactly one.
 * Neither yields the service's eight entries, the actionable one first.
 */
export function checkWithdrawalAmount(input: {
	amount?: unknown;
	cryptoAmount?: unknown;
}): Violation[] {
	const hasAmount = !isBlank(input.amount);
	const hasCrypto = !isBlank(input.cryptoAmount);
	if (hasAmount && hasCrypto)
		return violation('amount', 'send either amount or cryptoAmount, not both', {
			amount: input.amount,
			cryptoAmount: input.cryptoAmount,
		});
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
	if (typeof value !== 'string') return violation('narration', 'narration must be text', value);
	return value.length > NARRATION_MAX_LENGTH
		? violation(
				'narration',
				`narration must be at most ${NARRATION_MAX_LENGTH} characters (got ${value.length})`,
				value,
			)
		: [];
}

export function checkMarkupPercent(value: unknown): Violation[] {
	const violations = checkDecimal('markupPercent', value, USD_DECIMALS);
	if (violations.length) return violations;
	const markup = toNumber(value) as number;
	return markup < MARKUP_MIN || markup > MARKUP_MAX
		? violation(
				'markupPercent',
				`markupPercent must be between ${MARKUP_MIN} and ${MARKUP_MAX} (both included)`,
				value,
			)
		: [];
}

export function checkSwap(input: { amount?: unknown; from?: unknown; to?: unknown }): Violation[] {
	const violations = [
		...checkPositiveAmount('amount', input.amount, USD_DECIMALS),
		...checkOneOf('from', input.from, FIAT_CURRENCIES),
		...checkOneOf('to', input.to, FIAT_CURRENCIES),
	];
	if (violations.length || input.from !== input.to) return violations;
	return violation('to', 'to must differ from from', input.to);
}
