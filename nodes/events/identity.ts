import type { IDataObject } from 'n8n-workflow';
import { LIFECYCLES, statusOf, type RecordKind } from '../service/catalog';
import { scalarText } from '../service/values';
import { base64url, sha256 } from './hash';

/**
 * What makes an event the same event, for both triggers (docs/trigger.md): its name as compared,
 * the status it speaks about, its key, and where it stands in its record's life.
 */

/**
 * Characters of a key: 60 bits of a SHA-256, so a new delivery matches one of a full memory's 26,000
 * by chance (and is dropped as a duplicate) with odds of about 1 in 4 × 10^13. Earlier versions
 * stored 12 and 22 characters; their keys are read by this prefix.
 */
export const KEY_LENGTH = 10;

/** An event name as compared and emitted: trimmed, lowercase (`Trade.Completed` is `trade.completed`). */
export function normalizeEvent(event: string): string {
	return event.trim().toLowerCase();
}

/**
 * The status a delivery speaks about: its `status` field (trimmed, lowercase) or, when absent, the
 * part of the event name after the family (`trade.completed` → `completed`).
 */
export function deliveryStatus(event: string, body: IDataObject): string {
	const stated = scalarText(body.status).trim().toLowerCase();
	if (stated !== '') return stated;
	const normalized = normalizeEvent(event);
	const dot = normalized.indexOf('.');
	return dot === -1 ? '' : normalized.slice(dot + 1);
}

/**
 * What makes a delivery distinct: the normalised event kind + `id` + status (case-insensitive,
 * taken from the event name when the body has none), plus `confirmations` for `trade.pending`
 * (which legitimately repeats with rising confirmations). A delivery without an `id` is keyed on its
 * whole body. The key is a short hash, so memory stays bounded whatever the payload holds.
 */
export function deliveryKey(event: string, body: IDataObject, text?: string): string {
	const kind = normalizeEvent(event);
	const id = scalarText(body.id).trim();
	const parts =
		id === '' ? ['body', kind, text ?? JSON.stringify(body)] : ['delivery', kind, id, deliveryStatus(kind, body)];
	if (id !== '' && kind === 'trade.pending') parts.push(scalarText(body.confirmations).trim());
	return base64url(sha256(JSON.stringify(parts))).slice(0, KEY_LENGTH);
}


/** Ranks beyond any status the table knows: an unknown status sorts after every known one of its record. */
const AFTER_KNOWN: Record<RecordKind, number> = {
	trade: Math.max(...Object.values(LIFECYCLES.trade).map(({ rank }) => rank)) + 1,
	withdrawal: Math.max(...Object.values(LIFECYCLES.withdrawal).map(({ rank }) => rank)) + 1,
};

/**
 * Where an event stands in its record's life, from the statuses table (service/catalog.ts):
 * orders events that carry the same time. A wallet's `address.created` comes first; a status the
 * table does not know comes after every known one of its record.
 */
export function lifecycleRank(event: string): number {
	const [kind, status] = normalizeEvent(event).split('.');
	if (status === 'address') return -1;
	if (kind !== 'trade' && kind !== 'withdrawal') return Math.max(...Object.values(AFTER_KNOWN));
	return statusOf(kind, status)?.rank ?? AFTER_KNOWN[kind];
}
