import type { IDataObject } from 'n8n-workflow';
import { base64url, sha256 } from './hash';
import { scalarText } from '../CryptoSettlement/helpers/values';

/** How many emitted deliveries are remembered (oldest forgotten first). */
export const DEDUPE_CAPACITY = 2000;

/** Key of the remembered deliveries in the node's static data. */
export const DEDUPE_STATIC_KEY = 'emittedDeliveries';

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
	return base64url(sha256(JSON.stringify(parts))).slice(0, 22);
}

function keysOf(staticData: IDataObject): string[] {
	const stored = staticData[DEDUPE_STATIC_KEY];
	return Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : [];
}

export function wasEmitted(staticData: IDataObject, key: string): boolean {
	return keysOf(staticData).includes(key);
}

/**
 * Records a key. The array is replaced rather than mutated, so n8n's observable static data marks
 * itself changed and n8n saves it (after each production webhook call).
 */
export function remember(staticData: IDataObject, key: string, capacity = DEDUPE_CAPACITY): void {
	const keys = keysOf(staticData).filter((existing) => existing !== key);
	keys.push(key);
	staticData[DEDUPE_STATIC_KEY] = keys.length > capacity ? keys.slice(keys.length - capacity) : keys;
}

// ------------------------------------------------------------- memory of this n8n process

/**
 * n8n builds the workflow (and its static data) afresh from the database for every webhook call
 * and saves the static data only after the node returns. Two copies of a delivery processed at the
 * same time, or one arriving just after the first was handed to n8n but before n8n saved, would
 * both see "not emitted yet". This process-wide memory closes those windows within one n8n
 * process: keys being processed, and keys handed to n8n whose save has not been observed yet.
 */
const inFlight = new Set<string>();
const awaitingSave = new Map<string, { key: string; scope: string; at: number }>();

/** How long a handed-over key is remembered here when its save is never observed (manual runs). */
const AWAITING_SAVE_MS = 10 * 60 * 1000;
/** Bound on the process memory whatever happens. */
const AWAITING_SAVE_CAPACITY = 10000;

function scoped(scope: string, key: string): string {
	return `${scope}\u0000${key}`;
}

/**
 * Forgets handed-over keys that the freshly loaded static data shows as saved, and stale ones. A
 * key of this workflow that is still missing is written back into the static data: n8n saves the
 * whole static data of each call, so two calls running at once can overwrite each other's keys, and
 * the next call's save then restores the lost one.
 */
function prune(scope: string, staticData: IDataObject, now: number): void {
	const saved = new Set(keysOf(staticData));
	for (const [name, entry] of awaitingSave) {
		if (now - entry.at > AWAITING_SAVE_MS || (entry.scope === scope && saved.has(entry.key))) awaitingSave.delete(name);
		else if (entry.scope === scope) remember(staticData, entry.key);
	}
}

export type DuplicateState = 'new' | 'emitted' | 'inFlight';

/**
 * Whether a delivery was already emitted (in the static data, or handed to n8n by this process and
 * not yet saved) or is being processed right now by this process.
 */
export function duplicateState(scope: string, staticData: IDataObject, key: string, now: number): DuplicateState {
	prune(scope, staticData, now);
	if (wasEmitted(staticData, key) || awaitingSave.has(scoped(scope, key))) return 'emitted';
	if (inFlight.has(scoped(scope, key))) return 'inFlight';
	return 'new';
}

/** Marks a delivery as being processed; call `release` when done, whatever the outcome. */
export function claim(scope: string, key: string): void {
	inFlight.add(scoped(scope, key));
}

export function release(scope: string, key: string): void {
	inFlight.delete(scoped(scope, key));
}

/** Records a delivery as emitted: in the static data (saved by n8n) and in this process until the save is seen. */
export function markEmitted(scope: string, staticData: IDataObject, key: string, now: number, trackSave: boolean): void {
	remember(staticData, key);
	if (!trackSave) return;
	awaitingSave.set(scoped(scope, key), { key, scope, at: now });
	while (awaitingSave.size > AWAITING_SAVE_CAPACITY) {
		const oldest = awaitingSave.keys().next().value;
		if (oldest === undefined) break;
		awaitingSave.delete(oldest);
	}
}
