import type { IDataObject } from 'n8n-workflow';

/** A plain JSON object (not null, not a list). */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A scalar field as text (`''` when absent or not a string, number or boolean). */
export function scalarText(value: unknown): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
	return '';
}
