import type { IDataObject } from 'n8n-workflow';
import { KEY_LENGTH } from '../events/identity';
import { setNewest, sharedOf } from '../service/boundedMemory';

/**
 * How long an emitted delivery is remembered at least, in hours: the service retries a delivery for
 * up to 24 hours from its first attempt (docs/trigger.md), which comes before the delivery is
 * emitted, plus an hour's margin. Kept by the hour n8n emitted it: at least 25 hours, less than 26.
 */
export const DEDUPE_WINDOW_HOURS = 25;

/**
 * At most this many deliveries are remembered, whatever the volume: every delivery of the window at
 * up to 1,000 an hour (24,000 a day), about 254 KiB of static data. Past it the oldest go first, and
 * the window covered shrinks below the service's (a warning says so).
 */
export const DEDUPE_CAPACITY = 26000;

/** Key of the remembered deliveries in the node's static data. */
export const DEDUPE_STATIC_KEY = 'emittedDeliveries';

const HOUR_MS = 3_600_000;

/**
 * Stored as a list of hour buckets, oldest first, each one string `<hour>:<keys>` (the UTC hour in base
 * 36, then KEY_LENGTH-character base64url keys end to end): n8n walks and saves the static data whole on
 * every call, so a few fixed-width strings cost least, and a change rewrites only the buckets it touches
 * (docs/speed.md, "A day's memory at 1,000 deliveries an hour"). Earlier versions' forms are read too.
 */
interface Bucket {
	hour: number;
	keys: string;
	/** The stored string this bucket was read from, while its keys are unchanged (written back as is). */
	text?: string;
}

/** The buckets of the stored value last read or written, per static data object (a call reads it several times). */
const parsed = new WeakMap<IDataObject, { text: unknown; buckets: Bucket[] }>();

export function hourOf(now: number): number {
	return Math.floor(now / HOUR_MS);
}

/** One stored bucket, `<hour>:<keys>` (its keys a slice of it, so the bucket costs no copy). */
function bucketOf(text: string): Bucket {
	const colon = text.indexOf(':');
	return { hour: parseInt(text.slice(0, colon), 36), keys: text.slice(colon + 1), text };
}

function parse(stored: unknown, now: number): Bucket[] {
	if (Array.isArray(stored)) {
		const strings = stored.filter((entry): entry is string => typeof entry === 'string');
		// A list of buckets; keys of an earlier version's list (which have no `:`) join the current hour.
		const buckets = strings.filter((entry) => entry.includes(':')).map(bucketOf);
		const legacy = legacyBucket(
			strings.filter((entry) => !entry.includes(':') && entry.length >= KEY_LENGTH),
			now,
		);
		return mergeHours([...buckets, ...legacy].filter(dated).sort((a, b) => a.hour - b.hour));
	}
	if (typeof stored !== 'string' || stored === '') return [];
	if (!stored.includes(':')) return legacyBucket(stored.split(' '), now);
	// One string of buckets separated by spaces (the form before the list; each part is a bucket's string).
	return stored.split(' ').map(bucketOf).filter(dated);
}

/** A bucket whose hour could be read. */
function dated(bucket: Bucket): boolean {
	return Number.isFinite(bucket.hour);
}

/** One bucket per hour (a list edited by hand, or holding an earlier version's keys, may repeat one). */
function mergeHours(sorted: Bucket[]): Bucket[] {
	const merged: Bucket[] = [];
	for (const bucket of sorted) {
		const last = merged[merged.length - 1];
		if (last?.hour === bucket.hour)
			merged[merged.length - 1] = { hour: last.hour, keys: last.keys + bucket.keys };
		else merged.push(bucket);
	}
	return merged;
}

function legacyBucket(keys: string[], now: number): Bucket[] {
	const unique = [...new Set(keys.map((key) => key.slice(0, KEY_LENGTH)))].filter(
		(key) => key.length === KEY_LENGTH,
	);
	return unique.length === 0 ? [] : [{ hour: hourOf(now), keys: unique.join('') }];
}

/** The remembered buckets, oldest first (do not modify them). */
function bucketsOf(staticData: IDataObject, now: number): Bucket[] {
	const stored = staticData[DEDUPE_STATIC_KEY];
	const known = parsed.get(staticData);
	if (known !== undefined && known.text === stored) return known.buckets;
	const buckets = parse(stored, now);
	parsed.set(staticData, { text: stored, buckets });
	return buckets;
}

/** The remembered keys, oldest first. */
export function keysOf(staticData: IDataObject, now = Date.now()): string[] {
	return bucketsOf(staticData, now).flatMap((bucket) => bucket.keys.match(KEY_PATTERN) ?? []);
}

const KEY_PATTERN = new RegExp(`.{${KEY_LENGTH}}`, 'g');

/** Where a key stands in a bucket's keys (on a key's boundary), or -1. */
function indexIn(keys: string, key: string): number {
	let at = keys.indexOf(key);
	while (at !== -1 && at % KEY_LENGTH !== 0) at = keys.indexOf(key, at + 1);
	return at;
}

/** The first hour still within the window at `now`: older buckets are forgotten, read or not. */
function oldestHour(now: number): number {
	return hourOf(now) - DEDUPE_WINDOW_HOURS;
}

function holds(buckets: Bucket[], key: string, now: number): boolean {
	const oldest = oldestHour(now);
	return buckets.some((bucket) => bucket.hour >= oldest && indexIn(bucket.keys, key) !== -1);
}

/**
 * Stores the buckets. A new list is assigned (never changed in place), so n8n's observable static
 * data marks itself changed and n8n saves it after the call. A bucket whose keys did not change is
 * stored as the same string; a changed one is written anew and read back from it: its keys become a
 * slice of one flat string (keys appended to a bucket make a chain of pieces that every later search
 * would copy whole again).
 */
function store(staticData: IDataObject, buckets: Bucket[]): Bucket[] {
	const list = buckets.map((bucket) => bucket.text ?? `${bucket.hour.toString(36)}:${bucket.keys}`);
	staticData[DEDUPE_STATIC_KEY] = list;
	const stored = list.map((text, at) => (text === buckets[at].text ? buckets[at] : bucketOf(text)));
	parsed.set(staticData, { text: list, buckets: stored });
	return stored;
}

export function wasEmitted(staticData: IDataObject, key: string, now = Date.now()): boolean {
	return holds(bucketsOf(staticData, now), key.slice(0, KEY_LENGTH), now);
}

/**
 * Adds keys emitted in `hour` (each one not already there, unless the caller `checked` that none is
 * in a bucket it could join) and removes `drop`, forgets the buckets older than the window, then the
 * oldest keys beyond `capacity`. Returns how many keys still within the window the capacity pushed out.
 */
function update(
	staticData: IDataObject,
	now: number,
	add: Array<{ key: string; hour: number }>,
	drop: string[] = [],
	capacity = DEDUPE_CAPACITY,
	checked = false,
): number {
	const oldest = oldestHour(now);
	// Added keys wait beside their bucket until the capacity is applied: cutting a bucket's start
	// after appending to it would copy the whole bucket (see `store`).
	let buckets: Array<Bucket & { added: string[]; read: string }> = bucketsOf(staticData, now)
		.filter((bucket) => bucket.hour >= oldest)
		.map((bucket) => ({ ...bucket, added: [], read: bucket.keys }));
	for (const key of drop) {
		for (const bucket of buckets) {
			const at = indexIn(bucket.keys, key);
			if (at !== -1) bucket.keys = bucket.keys.slice(0, at) + bucket.keys.slice(at + KEY_LENGTH);
		}
	}
	// Many keys at once (a memory filled in one go) are checked against a set, one against the text.
	const seen =
		add.length > 1 && !checked
			? new Set(buckets.flatMap((bucket) => bucket.keys.match(KEY_PATTERN) ?? []))
			: undefined;
	for (const { key, hour } of add) {
		if (!checked && (seen ? seen.has(key) : holds(buckets, key, now))) continue;
		seen?.add(key);
		// A clock set back never reorders the buckets: the key joins the newest.
		const newest = buckets[buckets.length - 1];
		const target = Math.max(hour, oldest);
		let bucket =
			buckets.find((candidate) => candidate.hour === target) ??
			(newest && newest.hour > target ? newest : undefined);
		if (!bucket) {
			bucket = { hour: target, keys: '', added: [], read: '' };
			buckets.push(bucket);
			buckets.sort((a, b) => a.hour - b.hour);
		}
		bucket.added.push(key);
	}
	const countOf = (bucket: (typeof buckets)[number]) =>
		bucket.keys.length / KEY_LENGTH + bucket.added.length;
	let excess = buckets.reduce((sum, bucket) => sum + countOf(bucket), 0) - capacity;
	const pushedOut = Math.max(excess, 0);
	while (excess > 0) {
		const first = buckets[0];
		const count = countOf(first);
		if (count <= excess) buckets = buckets.slice(1);
		else {
			const cut = Math.min(excess, first.keys.length / KEY_LENGTH);
			first.keys = first.keys.slice(cut * KEY_LENGTH);
			first.added = first.added.slice(excess - cut);
		}
		excess -= Math.min(count, excess);
	}
	store(
		staticData,
		buckets
			.map(({ hour, keys, added, read, text }) =>
				added.length === 0 && keys === read
					? { hour, keys, text }
					: { hour, keys: keys + added.join('') },
			)
			.filter((bucket) => bucket.keys !== ''),
	);
	return pushedOut;
}

/**
 * Records keys as emitted at `now` (one, or many at once); returns how many keys still within the
 * window the capacity pushed out.
 */
export function remember(
	staticData: IDataObject,
	keys: string | string[],
	now: number,
	capacity = DEDUPE_CAPACITY,
): number {
	const hour = hourOf(now);
	const list = typeof keys === 'string' ? [keys] : keys;
	const add = list.map((key) => ({ key: key.slice(0, KEY_LENGTH), hour }));
	return update(staticData, now, add, [], capacity);
}

/**
 * Marks the remembered deliveries changed (n8n saves static data only when marked), unchanged in
 * content; a form of an earlier version is written as the list.
 */
export function touch(staticData: IDataObject): void {
	const stored = staticData[DEDUPE_STATIC_KEY];
	if (Array.isArray(stored) && parsed.get(staticData)?.text === stored)
		staticData[DEDUPE_STATIC_KEY] = stored;
	else update(staticData, Date.now(), []);
}
// ------------------------------------------------------------- memory of this n8n process

/**
 * This n8n process's memory of a scope: calls running at once each load and save the whole static data,
 * so keys in flight answer a copy 503, keys handed over recently are written back into every call's
 * static data, and keys of a failed hand-over are revoked (docs/trigger.md, "Duplicates and ordering").
 */
interface ScopeMemory {
	inFlight: Set<string>;
	/** Oldest first (a key handed over again moves to the end). */
	handedOver: Map<string, { at: number; accepted: boolean }>;
	revoked: Map<string, number>;
	/** The hour this process last warned that the capacity pushed out keys still within the window. */
	warnedHour?: number;
	/** The keys of the buckets of the hours of the keys handed over, as last read here (see `keysOfHour`). */
	hourKeys: Map<number, { text: string; keys: Set<string> }>;
}

/** One memory per workflow, node and mode (the `scope`), the least recently used dropped first. */
const memories = new Map<string, ScopeMemory>();
const SCOPES_CAPACITY = 1000;

/** How long a handed-over or revoked key is kept here (longer than any webhook call lasts). */
const PROCESS_MEMORY_MS = 10 * 60 * 1000;
/** At most this process's newest keys are kept and written back (a burst's worth). */
const WRITE_BACK_WINDOW = 1000;

function memoryOf(scope: string): ScopeMemory {
	const memory = memories.get(scope) ?? {
		inFlight: new Set(),
		handedOver: new Map(),
		revoked: new Map(),
		hourKeys: new Map(),
	};
	setNewest(memories, scope, memory, SCOPES_CAPACITY);
	return memory;
}

/** Drops the oldest entries of a map kept in time order: expired ones, and any beyond `capacity`. */
function expire<V>(
	map: Map<string, V>,
	at: (value: V) => number,
	now: number,
	capacity: number,
): void {
	for (const [key, value] of map) {
		if (now - at(value) <= PROCESS_MEMORY_MS && map.size <= capacity) break;
		map.delete(key);
	}
}

/** Keys compared at once while two bucket texts agree (compared natively, a block at a time). */
const COMPARED_KEYS = 256;

/**
 * How many leading characters two bucket texts have in common, in whole keys. Buckets grow at their
 * end, so two saves of a burst share all but their newest keys: compared a block at a time, then key
 * by key in the first block that differs.
 */
function commonKeys(a: string, b: string): number {
	const shorter = Math.min(a.length, b.length);
	const limit = shorter - (shorter % KEY_LENGTH);
	if (a.slice(0, limit) === b.slice(0, limit)) return limit;
	let at = 0;
	for (const step of [KEY_LENGTH * COMPARED_KEYS, KEY_LENGTH]) {
		while (at + step <= limit && a.slice(at, at + step) === b.slice(at, at + step)) at += step;
	}
	return at;
}

/**
 * The keys of one hour's bucket as a set (a call checks many against it). Each call loads the static
 * data afresh, and saves of calls running at once differ only in their newest keys (and, in a full
 * memory, their oldest): the set of the text this process saw last is brought to the new text by the
 * difference of their ends. It never holds a key the text does not (a key of an old end is removed
 * even if the text also has it elsewhere: at worst it is written back once more).
 */
function keysOfHour(memory: ScopeMemory, buckets: Bucket[], hour: number): Set<string> {
	const text = buckets.find((candidate) => candidate.hour === hour)?.keys ?? '';
	const known = sharedOf(memory.hourKeys, hour, () => ({ text: '', keys: new Set<string>() }));
	const old = known.text;
	if (old === text) return known.keys;
	// A full memory forgets its oldest keys with each save, at a bucket's start: the two texts are
	// aligned on the first key of one found in the other (keys only the old text starts with are
	// removed, keys only the new one starts with added), then compared from there.
	let dropped = text === '' ? -1 : indexIn(old, text.slice(0, KEY_LENGTH));
	const gained =
		dropped === -1 && old !== '' ? Math.max(indexIn(text, old.slice(0, KEY_LENGTH)), 0) : 0;
	dropped = Math.max(dropped, 0);
	const common = commonKeys(old.slice(dropped), text.slice(gained));
	const remove = (from: number, to: number) => {
		for (let at = from; at < to; at += KEY_LENGTH)
			known.keys.delete(old.slice(at, at + KEY_LENGTH));
	};
	const add = (from: number, to: number) => {
		for (let at = from; at < to; at += KEY_LENGTH) known.keys.add(text.slice(at, at + KEY_LENGTH));
	};
	remove(0, dropped);
	remove(dropped + common, old.length);
	add(0, gained);
	add(gained + common, text.length);
	known.text = text;
	return known.keys;
}

/**
 * Brings a freshly loaded static data up to what this process knows (see above) and returns its
 * buckets. A key handed over here is in the bucket of the hour it was handed over or a later one (a
 * clock set back adds to the newest bucket), never an earlier one: it is looked for in the sets of
 * those buckets, so a call costs in proportion to the keys that changed, not to the whole memory.
 */
function reconcile(memory: ScopeMemory, staticData: IDataObject, now: number): Bucket[] {
	expire(memory.handedOver, (entry) => entry.at, now, WRITE_BACK_WINDOW);
	expire(memory.revoked, (at) => at, now, WRITE_BACK_WINDOW);
	const buckets = bucketsOf(staticData, now);
	const first = memory.handedOver.values().next().value?.at;
	for (const hour of memory.hourKeys.keys())
		if (first === undefined || hour < hourOf(first)) memory.hourKeys.delete(hour);
	const missing: Array<{ key: string; hour: number }> = [];
	let from: { hour: number; sets: Array<Set<string>> } | undefined;
	for (const [key, { at }] of memory.handedOver) {
		const hour = hourOf(at);
		if (from?.hour !== hour) {
			const hours = new Set([
				hour,
				...buckets.filter((bucket) => bucket.hour > hour).map((bucket) => bucket.hour),
			]);
			from = { hour, sets: [...hours].map((later) => keysOfHour(memory, buckets, later)) };
		}
		if (!from.sets.some((keys) => keys.has(key))) missing.push({ key, hour });
	}
	const revokedPresent = [...memory.revoked.keys()].filter((key) => holds(buckets, key, now));
	if (missing.length === 0 && revokedPresent.length === 0) return buckets;
	update(staticData, now, missing, revokedPresent, DEDUPE_CAPACITY, true);
	return bucketsOf(staticData, now);
}

/**
 * Brings the call's static data up to this process's memory again just before n8n saves it: a call
 * that waited (for the confirmation, or for its execution to be handed over) would otherwise save
 * the keys it loaded, without those handed over meanwhile.
 */
export function bringUpToDate(scope: string, staticData: IDataObject, now: number): void {
	reconcile(memoryOf(scope), staticData, now);
}

/**
 * Whether a delivery was already emitted (in the static data, brought up to this process's memory),
 * or is being processed or handed over without n8n's answer yet, by this process.
 */
export function duplicateState(
	scope: string,
	staticData: IDataObject,
	key: string,
	now: number,
): 'new' | 'emitted' | 'inFlight' {
	const memory = memoryOf(scope);
	const buckets = reconcile(memory, staticData, now);
	if (memory.inFlight.has(key) || memory.handedOver.get(key)?.accepted === false) return 'inFlight';
	return holds(buckets, key, now) ? 'emitted' : 'new';
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
 * Returns, once per hour and workflow, a warning when the capacity pushed out deliveries emitted
 * less than the window ago.
 */
export function markEmitted(
	scope: string,
	staticData: IDataObject,
	key: string,
	now: number,
	trackSave: boolean,
): string | undefined {
	const pushedOut = remember(staticData, key, now);
	const memory = memoryOf(scope);
	if (trackSave) {
		memory.revoked.delete(key);
		memory.handedOver.delete(key);
		memory.handedOver.set(key, { at: now, accepted: false });
		expire(memory.handedOver, (entry) => entry.at, now, WRITE_BACK_WINDOW);
	}
	if (pushedOut === 0 || memory.warnedHour === hourOf(now)) return undefined;
	memory.warnedHour = hourOf(now);
	const hours = hourOf(now) - (bucketsOf(staticData, now)[0]?.hour ?? hourOf(now));
	return (
		`the duplicate memory is full (${DEDUPE_CAPACITY} deliveries within ${DEDUPE_WINDOW_HOURS} hours): it now reaches back ` +
		`about ${hours} hour(s), less than the service's 24 hours of retries, so a retry of a delivery emitted before would run again`
	);
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
