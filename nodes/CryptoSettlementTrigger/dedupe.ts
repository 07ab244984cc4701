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

/** Marks the remembered deliveries changed (n8n saves static data only when marked), unchanged in content. */
export function touch(staticData: IDataObject): void {
	staticData[DEDUPE_STATIC_KEY] = keysOf(staticData);
}

// ------------------------------------------------------------- memory of this n8n process

/**
 * n8n builds the workflow (and its static data) afresh from the database for every webhook call,
 * and saves the whole static data after the node returns (n8n 2.x: once the execution is handed
 * over, before answering the caller). So within one n8n process:
 * - two copies of a delivery processed at once would both see "not emitted yet": `inFlight` keys
 *   answer a copy 503 (the service retries);
 * - calls running at once save whole static data over each other, so a key saved by one call can be
 *   overwritten by a call that loaded the data earlier and saved later: every call writes the keys
 *   this process handed over recently back into its static data (`handedOver`), so the next save
 *   repairs a lost one, and answers a copy from this memory meanwhile;
 * - a key handed over whose execution n8n then failed to start (an error answer) must not stay
 *   remembered: it is `revoked`, removed from the static data by the next calls (the service's
 *   retry is one), and the retry runs. Keys are written back before n8n's answer because lost saves
 *   are common under bursts and failed hand-overs rare; only a restart between a failed hand-over and
 *   the next call would keep such a key.
 */
const inFlight = new Set<string>();
const handedOver = new Map<string, { key: string; scope: string; at: number; accepted: boolean }>();
const revoked = new Map<string, { key: string; scope: string; at: number }>();

/** How long a handed-over or revoked key is kept here (longer than any webhook call lasts). */
const PROCESS_MEMORY_MS = 10 * 60 * 1000;
/** Bound on the process memory whatever happens. */
const PROCESS_MEMORY_CAPACITY = 10000;
/**
 * Only this process's newest keys are written back: older ones may have left the static data
 * because it is full (oldest forgotten first), and writing them back would evict others in turn.
 */
const WRITE_BACK_WINDOW = DEDUPE_CAPACITY / 2;

function scoped(scope: string, key: string): string {
	return `${scope}\u0000${key}`;
}

function bounded<V>(map: Map<string, V>): void {
	while (map.size > PROCESS_MEMORY_CAPACITY) {
		const oldest = map.keys().next().value;
		if (oldest === undefined) break;
		map.delete(oldest);
	}
}

/**
 * Brings a freshly loaded static data up to what this process knows (see above), in one pass over
 * the stored keys, and returns the keys it then holds.
 */
function reconcile(scope: string, staticData: IDataObject, now: number): Set<string> {
	const dropped = new Set<string>();
	for (const [name, entry] of revoked) {
		if (now - entry.at > PROCESS_MEMORY_MS) revoked.delete(name);
		else if (entry.scope === scope) dropped.add(entry.key);
	}
	const recent: string[] = [];
	for (const [name, entry] of handedOver) {
		if (now - entry.at > PROCESS_MEMORY_MS) handedOver.delete(name);
		else if (entry.scope === scope) recent.push(entry.key);
	}
	const stored = keysOf(staticData);
	const present = new Set(stored);
	const missing = recent.slice(-WRITE_BACK_WINDOW).filter((key) => !present.has(key));
	const revokedPresent = [...dropped].filter((key) => present.has(key));
	if (missing.length === 0 && revokedPresent.length === 0) return present;
	const keys = stored.filter((key) => !dropped.has(key)).concat(missing);
	const kept = keys.length > DEDUPE_CAPACITY ? keys.slice(keys.length - DEDUPE_CAPACITY) : keys;
	staticData[DEDUPE_STATIC_KEY] = kept;
	return new Set(kept);
}

export type DuplicateState = 'new' | 'emitted' | 'inFlight';

/**
 * Whether a delivery was already emitted (in the static data, brought up to this process's memory),
 * or is being processed or handed over without n8n's answer yet, by this process.
 */
export function duplicateState(scope: string, staticData: IDataObject, key: string, now: number): DuplicateState {
	const emitted = reconcile(scope, staticData, now);
	if (inFlight.has(scoped(scope, key)) || handedOver.get(scoped(scope, key))?.accepted === false) return 'inFlight';
	return emitted.has(key) ? 'emitted' : 'new';
}

/** Marks a delivery as being processed; call `release` when done, whatever the outcome. */
export function claim(scope: string, key: string): void {
	inFlight.add(scoped(scope, key));
}

export function release(scope: string, key: string): void {
	inFlight.delete(scoped(scope, key));
}

/**
 * Records a delivery as handed to n8n: in the static data (saved by n8n with the hand-over) and, when
 * `trackSave`, in this process. Until `settleHandOver` reports n8n's answer, copies are answered 503.
 */
export function markEmitted(scope: string, staticData: IDataObject, key: string, now: number, trackSave: boolean): void {
	remember(staticData, key);
	if (!trackSave) return;
	revoked.delete(scoped(scope, key));
	handedOver.delete(scoped(scope, key));
	handedOver.set(scoped(scope, key), { key, scope, at: now, accepted: false });
	bounded(handedOver);
}

/**
 * n8n's answer to a handed-over delivery: a 2xx means the execution was handed over and the static
 * data saved (n8n 2.x answers after both); anything else means n8n started and saved nothing, so the
 * key is revoked and the service's retry is processed afresh.
 */
export function settleHandOver(scope: string, key: string, accepted: boolean, now: number): void {
	const entry = handedOver.get(scoped(scope, key));
	if (!entry) return;
	if (accepted) {
		entry.accepted = true;
		return;
	}
	handedOver.delete(scoped(scope, key));
	revoked.set(scoped(scope, key), { key, scope, at: now });
	bounded(revoked);
}
