/** Field checks of request bodies that the node's rules module does not cover (it checks what the node sends). */
import { checkPositiveAmount, checkRequired, type Violation } from '../../../nodes/CryptoSettlement/helpers/rules';

export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function requiredString(field: string, value: unknown): Violation[] {
	if (isBlank(value)) return checkRequired(field, value);
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
	return isBlank(value) ? checkRequired(field, value) : checkPositiveAmount(field, value, decimals);
}

/** The trimmed string, or undefined when blank or not a string. */
export function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
