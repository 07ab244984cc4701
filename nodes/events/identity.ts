import type { IDataObject } from 'n8n-workflow';
import { LIFECYCLES, statusOf, type RecordKind } from '../service/catalog';
import { scalarText } from '../service/values';
import { createHash } from 'node:crypto';

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
function deliveryStatus(event: string, body: IDataObject): string {
	const stated = scalarText(body.status).trim().toLowerCase();
	if (stated !== '') return stated;
	return normalizeEvent(event).split('.').slice(1).join('.');
}

/** Who an event is about, for both keys below: its normalised name, and the body's `id` or else the delivery's `reference`. */
interface EventIdentity {
	kind: string;
	id: string;
	body: IDataObject;
}

export function eventIdentity(
	event: string,
	body: IDataObject,
	reference?: unknown,
): EventIdentity {
	const id = scalarText(body.id).trim() || scalarText(reference).trim();
	return { kind: normalizeEvent(event), id, body };
}

/**
 * What makes a delivery distinct: the event's kind + record `id` + status (case-insensitive,
 * taken from the event name when the body has none), plus `confirmations` for `trade.pending`
 * (which legitimately repeats with rising confirmations). An event that names no record is keyed
 * on its whole body (`text`: the body as received). The key is a short hash, so memory stays
 * bounded whatever the payload holds.
 */
export function deliveryKey({ kind, id, body }: EventIdentity, text?: string): string {
	const parts =
		id === ''
			? ['body', kind, text ?? JSON.stringify(body)]
			: ['delivery', kind, id, deliveryStatus(kind, body)];
	if (id !== '' && kind === 'trade.pending') parts.push(scalarText(body.confirmations).trim());
	return hashOf(parts, KEY_LENGTH);
}

function hashOf(parts: string[], length: number): string {
	return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, length);
}

/** Characters of an `eventKey`: 132 bits of a SHA-256, unique across any ledger's lifetime. */
const EVENT_KEY_LENGTH = 22;

/** JSON text with every object's keys sorted: the same value gives the same text whatever its key order or spacing. */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value))
		return `[${value.map((entry) => canonicalJson(entry === undefined ? null : entry)).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, entry]) => entry !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * The status an event announces: the part of a `trade.*` / `withdrawal.*` name after the family
 * (`trade.completed` → `completed`, `trade.address.created` → `address.created`); for a name of
 * another family, the delivery's `status`.
 */
function announcedStatus(kind: string, body: IDataObject): string {
	const match = /^(trade|withdrawal)\.(.+)$/.exec(kind);
	return match ? match[2] : deliveryStatus(kind, body);
}

/** The event whose key names a deposit address, not a record (docs/trigger.md, "`eventKey`: what the same event is"). */
const ADDRESS_CREATED = 'trade.address.created';

/** Who an event is about, for its `eventKey`: the identity above, but a `trade.address.created`'s `address` when it has one. */
function keyIdentity(event: string, body: IDataObject, reference?: unknown): EventIdentity {
	const identity = eventIdentity(event, body, reference);
	if (identity.kind !== ADDRESS_CREATED) return identity;
	const address = scalarText(body.address).trim();
	return address === '' ? identity : { ...identity, id: address };
}

/**
 * `eventKey`, the one recipe every path calls with the delivery itself, never with a record a lookup
 * found (docs/trigger.md, "`eventKey`: what "the same event" is").
 */
export function eventKey(event: string, body: IDataObject, reference?: unknown): string {
	const { kind, id } = keyIdentity(event, body, reference);
	const parts =
		id === ''
			? ['body', kind, canonicalJson({ ...body, event: kind })]
			: ['event', kind, id, announcedStatus(kind, body)];
	return hashOf(parts, EVENT_KEY_LENGTH);
}

/** Ranks beyond any status the table knows: an unknown status sorts after every known one of its record. */
const afterKnown = (kind: RecordKind) =>
	Math.max(...Object.values(LIFECYCLES[kind]).map(({ rank }) => rank)) + 1;
const AFTER_KNOWN = { trade: afterKnown('trade'), withdrawal: afterKnown('withdrawal') };

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
