import type { IDataObject } from 'n8n-workflow';
import type { Order, PageRead } from './pageOrder';

/**
 * Where a poll stands in one list (docs/trigger.md, "How it polls", the table "What a poll
 * remembers per list"). Kept in the node's static data as plain JSON, bounded in size: the
 * memory of records read reaches back the overlap window, not a count.
 */

/** Memory of what was read reaches this far below the position: records listed late are still recognised as new. */
export const OVERLAP_MS = 10 * 60 * 1000;
/**
 * How late a record may be listed on the service's clock: each poll reads again the records created this
 * long before its first answer, at most LISTING_LAG_RECORDS of them, over at least LISTING_LAG_MIN_MS
 * (docs/trigger.md, "What it guarantees": the window).
 */
export const LISTING_LAG_MS = 15_000;
export const LISTING_LAG_RECORDS = 75;
export const LISTING_LAG_MIN_MS = 1000;
/** The most the whole state (every list) may take as JSON: n8n writes it to its database with every poll. */
export const STATE_MAX_BYTES = 512 * 1024;
/**
 * The memory of each list, as JSON, within STATE_MAX_BYTES for both lists: records read, and
 * records not yet final. Past it the oldest go first (the records read: the floor follows them,
 * so nothing is emitted twice; the records not yet final: with a warning).
 */
const SEEN_MAX_BYTES = 150 * 1024;
const OPEN_MAX_BYTES = 90 * 1024;

/** A record's statuses as kept: the one read or, once it changed, every status read, in order (docs/trigger.md, "What it guarantees"). */
export type Statuses = string | string[];

/** The status a record has now, as far as the trigger read. */
export const statusNow = (kept: Statuses): string =>
	typeof kept === 'string' ? kept : (kept.at(-1) ?? '');

/** Every status a record was read with, oldest first. */
export const statusesOf = (kept: Statuses): string[] => (typeof kept === 'string' ? [kept] : kept);

/** The statuses kept once `status` is read (a status read before changes nothing). */
export function withStatus(kept: Statuses | undefined, status: string): Statuses {
	if (kept === undefined) return status;
	const all = statusesOf(kept);
	return all.includes(status) ? kept : [...all, status];
}

/** A record's place in a list: its creation time on the service's clock (null when it has none) and identity. */
export interface Mark {
	at: number | null;
	id: string;
}

/** What a list's record is to the poll: its identity, creation time and status. */
export interface Identity extends Mark {
	status: string;
}

/**
 * Records not read yet between the position and `top`, left by a walk that had to stop (Max Pages
 * per Poll, the time budget, a 429). Everything from `top` up to `head` was read.
 */
export interface Gap {
	top: Mark;
	head: Mark;
	/** `top`'s index from the newest end when read, and from the oldest end (which new records do not move). */
	index: number;
	tail?: number;
	/** Identities without a creation date read above the gap: not the boundary of what was read before. */
	above?: string[];
	/**
	 * The newest creation time of a record read above the gap that the memory's bound forgot: once the
	 * gap is read, the floor rises to it (the record was read; no walk reaches it again but one that
	 * crosses it, which would take it for new).
	 */
	forgotten?: number;
}

export interface ListCursor {
	order?: Order;
	/**
	 * The newest record fully processed (everything older was read): never later than the time of
	 * the answer it was read from minus LISTING_LAG_MS, on the records' clock (the service's plus `ahead`).
	 */
	position?: Mark;
	/** Dated records created after this and not in `seen` are new; null: every record not in `seen` is new. */
	floor?: number | null;
	/** Oldest first: the page that held the position. */
	page?: number;
	/** Oldest first: the last record read, in the list's order; records after it were appended since (new, whatever their dates). */
	last?: string;
	gap?: Gap;
	/** Records read: identity → [creation time, statuses] (without a creation time: [null, statuses, last read]). */
	seen: Record<string, [number | null, Statuses, number?]>;
	/** Records not yet final: identity → [creation time (or first seen), statuses, last checked], service clock. */
	open: Record<string, [number, Statuses, number]>;
	/** The page size the service really answers with. */
	size?: number;
	/** How far the records' dates run ahead of the service's clock (a list in local time stamped "Z"). */
	ahead?: number;
}

/** A list as the walk sees it. */
export interface ListSource {
	/** A page (1-based), within `range` of creation dates when given; undefined when the poll must stop reading this list. */
	fetch(page: number, range?: Range): Promise<PageRead | undefined>;
	/** Whether the list can be asked for a range of creation dates (stored deliveries). */
	ranged: boolean;
	identify(record: IDataObject): Identity | undefined;
	/** Statuses after which a record can still change: such records are followed in `open`. */
	isOpen(status: string): boolean;
	/** Whether `status` comes before `than` in the record's life cycle (a lagging replica's answer). */
	isBehind(status: string, than: string): boolean;
	pageSize: number;
}

export interface Range {
	start?: number;
	end?: number;
}

/** A record to emit: new, or a known record whose status changed. */
export interface Change {
	record: IDataObject;
	identity: Identity;
}

/**
 * A table keyed by the service's ids, with no inherited keys: an id `__proto__`, `constructor` or
 * `toString` is an entry like any other. Its JSON form is a plain object whose keys are the ids
 * (`JSON.parse` makes each one an own key, `__proto__` too) and reads back the same.
 */
function idTable<T>(entries: Iterable<[string, T]> = []): Record<string, T> {
	const table = Object.create(null) as Record<string, T>;
	for (const [id, value] of entries) table[id] = value;
	return table;
}

/** The cursor of a list not read yet. */
export const newCursor = (): ListCursor => ({ seen: idTable(), open: idTable() });

/** The cursor as stored, or undefined when it is missing or unreadable (the next poll is a first look). */
export function readCursor(value: unknown): ListCursor | undefined {
	const stored = value as Partial<ListCursor> | undefined;
	if (!stored || typeof stored !== 'object' || !stored.position) return undefined;
	if (typeof stored.seen !== 'object' || typeof stored.open !== 'object') return undefined;
	const copy = JSON.parse(JSON.stringify(stored)) as ListCursor;
	return {
		...copy,
		seen: idTable(Object.entries(copy.seen)),
		open: idTable(Object.entries(copy.open)),
	};
}

/** The creation times of a gap's top and head, when both are known. */
function spanOf(gap: Gap | undefined): { top: number; head: number } | undefined {
	return gap && gap.top.at !== null && gap.head.at !== null
		? { top: gap.top.at, head: gap.head.at }
		: undefined;
}

/** A memory entry's size as JSON (`"id":[…],`). */
const bytesOf = (id: string, value: unknown[]): number =>
	id.length + JSON.stringify(value).length + 4;
const bytesIn = (table: Record<string, unknown[]>): number =>
	Object.entries(table).reduce((sum, [id, value]) => sum + bytesOf(id, value), 0);

/**
 * Forgets what the next polls do not need: dated records below the floor, and around a gap the
 * middle of the part read above it (its two edges stay, where the next walks meet it). Undated
 * records are kept while a walk is unfinished, and otherwise for the overlap after they were last
 * read (one missing from an answer is still known when it is back). The byte bounds come last,
 * oldest first among what no walk reaches again but a late listing (at or below the position: the
 * floor follows; read above a gap: the floor follows once the gap is read), and only then among
 * what a walk still reaches (the records read again for the listing lag, between the position and
 * the gap), which a bound that small may emit again.
 */
export function forget(
	cursor: ListCursor,
	readThisPoll: Set<string>,
	reachedBoundary: boolean,
	now: number,
): number {
	const { seen, gap } = cursor;
	const floor = cursor.floor ?? Number.NEGATIVE_INFINITY;
	const span = spanOf(gap);
	for (const [id, [at, , read]] of Object.entries(seen)) {
		const needed =
			at === null
				? !reachedBoundary || readThisPoll.has(id) || now - (read ?? now) <= OVERLAP_MS
				: at >= floor && (!span || at <= span.top || at >= span.head - OVERLAP_MS);
		if (!needed) delete seen[id];
	}
	forgetOverBound(cursor);
	let openBytes = bytesIn(cursor.open);
	let dropped = 0;
	for (const [id, value] of Object.entries(cursor.open).sort((a, b) => a[1][0] - b[1][0])) {
		if (openBytes <= OPEN_MAX_BYTES) break;
		openBytes -= bytesOf(id, value);
		delete cursor.open[id];
		dropped++;
	}
	return dropped;
}

/** The read records past SEEN_MAX_BYTES, the oldest first: first those no walk reaches again (the floor follows them), then the rest. */
function forgetOverBound(cursor: ListCursor): void {
	const { seen, gap, position } = cursor;
	let bytes = bytesIn(seen);
	if (bytes <= SEEN_MAX_BYTES) return;
	const belowPosition = (at: number | null): at is number =>
		at !== null && position?.at != null && at <= position.at;
	const span = spanOf(gap);
	const aboveGap = (at: number | null): at is number =>
		at !== null && span !== undefined && at > span.top && at < span.head;
	const order = (id: string) => seen[id][0] ?? seen[id][2] ?? Number.NEGATIVE_INFINITY;
	const byAge = Object.keys(seen).sort((a, b) => order(a) - order(b));
	const unreached = (id: string) => belowPosition(seen[id][0]) || aboveGap(seen[id][0]);
	for (const id of [...byAge.filter(unreached), ...byAge.filter((id) => !unreached(id))]) {
		if (bytes <= SEEN_MAX_BYTES) break;
		const at = seen[id][0];
		if (belowPosition(at)) cursor.floor = Math.max(cursor.floor ?? at, at);
		else if (gap && aboveGap(at)) gap.forgotten = Math.max(gap.forgotten ?? at, at);
		bytes -= bytesOf(id, seen[id]);
		delete seen[id];
	}
}
