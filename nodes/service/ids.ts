import type { IDataObject } from 'n8n-workflow';
import { scalarText } from './values';

/**
 * One reading of ids, for every comparison of them: record ids (hexadecimal) without case, any other id
 * exactly; External IDs exactly, trimmed (docs/usage.md, "The record asked for"; docs/architecture.md,
 * "One owner per rule").
 */

/** A service record id: hexadecimal, where case carries nothing. */
const HEX = /^[0-9a-f]+$/i;

/** A record id as text, trimmed (`''` when absent or not text or a number). */
function recordIdText(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? scalarText(value).trim() : '';
}

/**
 * A record id as the node compares it: trimmed, and a hexadecimal id in lower case. Two record ids
 * are the same when their keys are equal; `''` for no id.
 */
export function recordIdKey(value: unknown): string {
	const text = recordIdText(value);
	return HEX.test(text) ? text.toLowerCase() : text;
}

/** Whether two record ids name the same record (neither empty). */
export function sameRecordId(a: unknown, b: unknown): boolean {
	const key = recordIdKey(a);
	return key !== '' && key === recordIdKey(b);
}

/** An External ID as the node compares it: text or a number, trimmed, case kept (`''` for none). */
export function externalIdKey(value: unknown): string {
	return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
		? scalarText(value).trim()
		: '';
}

/** Whether two External IDs are the same reference (exactly, once trimmed; neither empty). */
export function sameExternalId(a: unknown, b: unknown): boolean {
	const key = externalIdKey(a);
	return key !== '' && key === externalIdKey(b);
}

/**
 * Where External IDs that differ only in letter case meet (`inv-1`, `INV-1`). They are two
 * references to the node, but the service's lookup may find one under the other, so a lookup of one
 * cannot prove the other unpaid: in one n8n process they take turns (withdrawals.ts), and one batch
 * may not hold both (pipeline/batch.ts; docs/usage.md, "Never paid twice"). Never used to decide that a
 * record is a payment's: that is `sameExternalId`.
 */
export function externalIdTurnKey(value: unknown): string {
	return externalIdKey(value).toLowerCase();
}

/**
 * The ids a record read by its id shows: its `id` and `_id`, and `others` that may also name it (a
 * wallet's address). A record that shows some, none of them the id asked for, is an answer about
 * another record (a cache or a proxy answering another path), which proves nothing of this one.
 */
export function idsShown(record: IDataObject, ...others: unknown[]): string[] {
	return [record.id, record._id, ...others]
		.map((value) => scalarText(value).trim())
		.filter((value) => value !== '');
}

/** Whether a record shows no id, or shows `id` among the ids it shows (`idsShown`), by the record id rule. */
export function showsRecordId(record: IDataObject, id: string, ...others: unknown[]): boolean {
	const shown = idsShown(record, ...others);
	return shown.length === 0 || shown.some((value) => sameRecordId(value, id));
}
