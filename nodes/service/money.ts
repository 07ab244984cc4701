/**
 * Money: the one reading of an amount the service states, and the one rounding to its currency's minor unit
 * (docs/statement.md, "Money: one reading, one rounding"; docs/architecture.md, "One owner per rule").
 * Pure TypeScript with no imports.
 */

/** Digits after the point of each currency's minor unit; a currency not listed has 2. */
const MINOR_UNIT_DIGITS: Readonly<Record<string, number>> = { NGN: 2, GHS: 2, USD: 2 };

/** The digits of `currency`'s minor unit (any case; 2 when the currency is not listed or not named). */
function minorDigits(currency?: string): number {
	return (currency ? MINOR_UNIT_DIGITS[currency.toUpperCase()] : undefined) ?? 2;
}

/** Decimal text as the service writes an amount: digits, optionally a point and more digits, optionally signed, spaces around. */
const DECIMAL_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * A number the service states: a finite number, or decimal text (`"1500.25"`, `"-3"`); undefined
 * otherwise (absent, empty, `"1e3"`, `"0x10"`, `"12 NGN"`, `Infinity`, a boolean).
 */
export function statedNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return Number(value);
	return undefined;
}

/**
 * An amount of money the service states, which the node trusts only as a number of 0 or more
 * (statedNumber): `missing` when absent or empty, `invalid` when it is anything else (negative, not
 * a number). The statement makes an invalid amount an exception; Max per Day refuses it.
 */
export function statedAmount(value: unknown): number | 'missing' | 'invalid' {
	if (value === undefined || value === null || value === '') return 'missing';
	const amount = statedNumber(value);
	return amount !== undefined && amount >= 0 ? amount : 'invalid';
}

/** statedAmount's number, or undefined when the amount is missing or invalid. */
export function amountIn(value: unknown): number | undefined {
	const amount = statedAmount(value);
	return typeof amount === 'number' ? amount : undefined;
}

/** Powers of ten by digits (0 to 20). */
const TEN = Array.from({ length: 21 }, (_, digits) => 10 ** digits);

/** `digits` (a string of decimal digits) plus one in its last place, carried. */
function plusOne(digits: string): string {
	let at = digits.length - 1;
	while (at >= 0 && digits.charCodeAt(at) === 57) at--;
	if (at < 0) return `1${'0'.repeat(digits.length)}`;
	return `${digits.slice(0, at)}${String.fromCharCode(digits.charCodeAt(at) + 1)}${'0'.repeat(digits.length - at - 1)}`;
}

/**
 * `value` rounded to `digits` digits after the point, half away from zero, on its decimal text:
 * String(value) is the shortest decimal that reads back as the same number, so 100.005 is "100.005"
 * and rounds to 100.01, where Math.round(100.005 * 100) / 100 gives 100 (100.005 * 100 is
 * 10000.499999…). The result is the number nearest the rounded decimal (what its text reads as).
 */
export function roundTo(value: number, digits: number): number {
	if (!Number.isFinite(value) || Number.isInteger(value)) return value;
	const scale = TEN[digits];
	// The common case, cheap and the same: a value clearly on one side of a half (its scaled fraction
	// under .49 or over .51, far beyond the error of the product below 2^40) rounds as its text would.
	// Only a value near a half is decided by its text, where binary floats mislead (100.005 * 100 is
	// 10000.4999…).
	const scaled = Math.abs(value * scale);
	if (scaled < 2 ** 40) {
		const whole = Math.floor(scaled);
		const fraction = scaled - whole;
		if (fraction < 0.49 || fraction > 0.51) {
			const units = fraction < 0.49 ? whole : whole + 1;
			return units === 0 ? 0 : (value < 0 ? -units : units) / scale;
		}
	}
	const text = plainText(value);
	const negative = text.charCodeAt(0) === 45;
	const unsigned = negative ? text.slice(1) : text;
	const point = unsigned.indexOf('.');
	if (point < 0 || unsigned.length - point - 1 <= digits) return value;
	const kept = `${unsigned.slice(0, point)}${unsigned.slice(point + 1, point + 1 + digits)}`;
	const units = unsigned.charCodeAt(point + 1 + digits) >= 53 ? plusOne(kept) : kept;
	const magnitude = Number(
		digits === 0
			? units
			: `${units.slice(0, units.length - digits)}.${units.slice(units.length - digits)}`,
	);
	return magnitude === 0 ? 0 : negative ? -magnitude : magnitude;
}

/**
 * String(value) without an exponent: the same shortest digits, written out (String writes a number
 * below 1e-6 as `5e-7`; one of 1e21 or more is an integer, which roundTo never reads as text).
 */
function plainText(value: number): string {
	const text = String(value);
	const e = text.indexOf('e');
	if (e < 0) return text;
	const negative = text.charCodeAt(0) === 45;
	const mantissa = text.slice(negative ? 1 : 0, e).replace('.', '');
	const exponent = Number(text.slice(e + 1));
	return `${negative ? '-' : ''}0.${'0'.repeat(-exponent - 1)}${mantissa}`;
}

/** `value` rounded to `currency`'s minor unit (NGN, GHS, USD: cents), once, half away from zero (roundTo). */
export function roundMoney(value: number, currency?: string): number {
	return roundTo(value, minorDigits(currency));
}

/**
 * The sum of amounts already in `currency`'s minor unit, exact to that unit: the binary sum of two
 * such amounts is within a rounding of their decimal sum, which roundMoney gives back.
 */
export function addMoney(a: number, b: number, currency?: string): number {
	return roundMoney(a + b, currency);
}

/** An amount as figures with its minor unit's digits: `-375.00` (rounded first, roundMoney). */
export function moneyFigures(value: number, currency?: string): string {
	const digits = minorDigits(currency);
	const text = roundTo(value, digits).toFixed(digits);
	// No "-0.00": a debit that rounds to nothing is nothing.
	return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/** An amount as a person reads it: `NGN 1,500,000.00`, `-GHS 150.00` (its figures: moneyFigures). */
export function money(currency: string, amount: number): string {
	const figures = moneyFigures(amount, currency);
	const negative = figures.startsWith('-');
	const [whole, fraction] = (negative ? figures.slice(1) : figures).split('.');
	return `${negative ? '-' : ''}${currency} ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
}
