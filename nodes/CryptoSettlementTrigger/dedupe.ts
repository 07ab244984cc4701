import type { IDataObject } from 'n8n-workflow';
import { base64url, sha256 } from './hash';
import { scalarText } from '../CryptoSettlement/helpers/values';

/** How many emitted deliveries are remembered (oldest forgotten first). */
export const DEDUPE_CAPACITY = 2000;

/** Key of the remembered deliveries in the node's static data. */
export const DEDUPE_STATIC_KEY = 'emittedDeliveries';

/**
 * Characters of a key: 72 bits of a SHA-256, so two of 2,000 remembered deliveries share a key with
 * odds of about 1 in 10^15. Earlier versions stored 22 characters; their keys are read by this prefix.
 */
const KEY_LENGTH = 12;

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

/**
 * The keys are stored as one string, oldest first, separated by spaces (never part of a key). n8n
 * walks every array and object of the static data on each webhook call (its ObservableObject, several
 * times per call) and stores it as JSON: a full memory as 2000 array entries cost milliseconds per
 * delivery on n8n's main process, one string does not. Arrays written by earlier versions are read.
 */
const SEPARATOR = ' ';

/** The keys of the stored string last read or written, per static data object (a call reads it several times). */
const parsed = new WeakMap<IDataObject, { text: string; keys: string[] }>();

/** The remembered keys, oldest first (do not modify the array). */
export function keysOf(staticData: IDataObject): string[] {
	const stored = staticData[DEDUPE_STATIC_KEY];
	if (typeof stored === 'string') {
		const known = parsed.get(staticData);
		if (known?.text === stored) return known.keys;
		const keys = stored === '' ? [] : stored.split(SEPARATOR);
		parsed.set(staticData, { text: stored, keys });
		return keys;
	}
	if (!Array.isArray(stored)) return [];
	return stored.filter((key): key is string => typeof key === 'string').map((key) => key.slice(0, KEY_LENGTH));
}

/**
 * Stores the keys (the newest `capacity`). A new value is assigned, so n8n's observable static data
 * marks itself changed and n8n saves it after the call.
 */
function store(staticData: IDataObject, keys: string[], capacity = DEDUPE_CAPACITY): string[] {
	const kept = keys.length > capacity ? keys.slice(keys.length - capacity) : keys;
	const text = kept.join(SEPARATOR);
	staticData[DEDUPE_STATIC_KEY] = text;
	parsed.set(staticData, { text, keys: kept });
	return kept;
}

export function wasEmitted(staticData: IDataObject, key: string): boolean {
	return keysOf(staticData).includes(key);
}

/** Records a key as the newest. */
export function remember(staticData: IDataObject, key: string, capacity = DEDUPE_CAPACITY): void {
	const keys = keysOf(staticData).filter((existing) => existing !== key);
	keys.push(key);
	store(staticData, keys, capacity);
}

/** Marks the remembered deliveries changed (n8n saves static data only when marked), unchanged in content. */
export function touch(staticData: IDataObject): void {
	const stored = staticData[DEDUPE_STATIC_KEY];
	if (typeof stored === 'string') staticData[DEDUPE_STATIC_KEY] = stored;
	else store(staticData, keysOf(staticData));
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
interface ScopeMemory {
	inFlight: Set<string>;
	/** Oldest first (a key handed over again moves to the end). */
	handedOver: Map<string, { at: number; accepted: boolean }>;
	revoked: Map<string, number>;
}

/** One memory per workflow, node and mode (the `scope`), the least recently used dropped first. */
const memories = new Map<string, ScopeMemory>();
const SCOPES_CAPACITY = 1000;

/** How long a handed-over or revoked key is kept here (longer than any webhook call lasts). */
const PROCESS_MEMORY_MS = 10 * 60 * 1000;
/**
 * Only this process's newest keys are kept and written back: older ones may have left the static
 * data because it is full (oldest forgotten first), and writing them back would evict others in turn.
 */
const WRITE_BACK_WINDOW = DEDUPE_CAPACITY / 2;

function memoryOf(scope: string): ScopeMemory {
	let memory = memories.get(scope);
	if (memory) memories.delete(scope);
	else memory = { inFlight: new Set(), handedOver: new Map(), revoked: new Map() };
	memories.set(scope, memory);
	if (memories.size > SCOPES_CAPACITY) memories.delete(memories.keys().next().value as string);
	return memory;
}

/** Drops the oldest entries of a map kept in time order: expired ones, and any beyond `capacity`. */
function expire<V>(map: Map<string, V>, at: (value: V) => number, now: number, capacity: number): void {
	for (const [key, value] of map) {
		if (now - at(value) <= PROCESS_MEMORY_MS && map.size <= capacity) break;
		map.delete(key);
	}
}

/**
 * Brings a freshly loaded static data up to what this process knows (see above), in one pass over
 * the stored keys, and returns the keys it then holds.
 */
function reconcile(memory: ScopeMemory, staticData: IDataObject, now: number): Set<string> {
	expire(memory.handedOver, (entry) => entry.at, now, WRITE_BACK_WINDOW);
	expire(memory.revoked, (at) => at, now, WRITE_BACK_WINDOW);
	const stored = keysOf(staticData);
	const present = new Set(stored);
	const missing = [...memory.handedOver.keys()].filter((key) => !present.has(key));
	const revokedPresent = [...memory.revoked.keys()].filter((key) => present.has(key));
	if (missing.length === 0 && revokedPresent.length === 0) return present;
	return new Set(store(staticData, stored.filter((key) => !memory.revoked.has(key)).concat(missing)));
}

/**
 * Brings the call's static data up to this process's memory again just before n8n saves it: a call
 * that waited (for the confirmation, or for its execution to be handed over) would otherwise save
 * the keys it loaded, without those handed over meanwhile.
 */
export function bringUpToDate(scope: string, staticData: IDataObject, now: number): void {
	reconcile(memoryOf(scope), staticData, now);
}

export type DuplicateState = 'new' | 'emitted' | 'inFlight';

/**
 * Whether a delivery was already emitted (in the static data, brought up to this process's memory),
 * or is being processed or handed over without n8n's answer yet, by this process.
 */
export function duplicateState(scope: string, staticData: IDataObject, key: string, now: number): DuplicateState {
	const memory = memoryOf(scope);
	const emitted = reconcile(memory, staticData, now);
	if (memory.inFlight.has(key) || memory.handedOver.get(key)?.accepted === false) return 'inFlight';
	return emitted.has(key) ? 'emitted' : 'new';
}

/** Marks a delivery as being processed; call `release` when done, whatever the outcome. */
export function claim(scope: string, key: string): void {
	memoryOf(scope).inFlight.add(key);
}

export function release(scope: string, key: string): void {
	memoryOf(scope).inFlight.delete(key);
}

/**
 * Records a delivery as handed to n8n: in the static data (saved by n8n with the hand-over) and, when
 * `trackSave`, in this process. Until `settleHandOver` reports n8n's answer, copies are answered 503.
 */
export function markEmitted(scope: string, staticData: IDataObject, key: string, now: number, trackSave: boolean): void {
	remember(staticData, key);
	if (!trackSave) return;
	const memory = memoryOf(scope);
	memory.revoked.delete(key);
	memory.handedOver.delete(key);
	memory.handedOver.set(key, { at: now, accepted: false });
	expire(memory.handedOver, (entry) => entry.at, now, WRITE_BACK_WINDOW);
}

/**
 * n8n's answer to a handed-over delivery: a 2xx means the execution was handed over and the static
 * data saved (n8n 2.x answers after both); anything else means n8n started and saved nothing, so the
 * key is revoked and the service's retry is processed afresh.
 */
export function settleHandOver(scope: string, key: string, accepted: boolean, now: number): void {
	const memory = memoryOf(scope);
	const entry = memory.handedOver.get(key);
	if (!entry) return;
	if (accepted) {
		entry.accepted = true;
		return;
	}
	memory.handedOver.delete(key);
	memory.revoked.set(key, now);
	expire(memory.revoked, (at) => at, now, WRITE_BACK_WINDOW);
}
