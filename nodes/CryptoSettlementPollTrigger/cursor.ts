import type { IDataObject } from 'n8n-workflow';
import type { Order, PageRead } from './read';

/**
 * Where a poll stands in one list (docs/trigger.md, "How it polls", the table "What a poll
 * remembers per list"). Kept in the node's static data as plain JSON, bounded in size: the
 * memory of records read reaches back the overlap window, not a count.
 */

/** Memory of what was read reaches this far below the position: records listed late are still recognised as new. */
export const OVERLAP_MS = 10 * 60 * 1000;
/** How far ahead of the service's own clock the position may be (its `Date` header has 1 s resolution). */
export const CLOCK_TOLERANCE_MS = 60 * 1000;
/** Last-resort bounds whatever the volume (records read; records not yet final). */
export const SEEN_CAPACITY = 30_000;
export const OPEN_CAPACITY = 2_000;

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
}

export interface ListCursor {
	order?: Order;
	/** The newest record fully processed (everything older was read), never ahead of the service's clock plus the tolerance. */
	position?: Mark;
	/** Dated records created after this and not in `seen` are new; null: every record not in `seen` is new. */
	floor?: number | null;
	/** Oldest first: the page that held the position. */
	page?: number;
	gap?: Gap;
	/** Records read: identity → [creation time, status]. */
	seen: Record<string, [number | null, string]>;
	/** Records not yet final: identity → [creation time (or first seen), status, last checked], service clock. */
	open: Record<string, [number, string, number]>;
	/** The page size the service really answers with. */
	size?: number;
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

/** The cursor as stored, or undefined when it is missing or unreadable (the next poll is a first look). */
export function readCursor(value: unknown): ListCursor | undefined {
	const stored = value as Partial<ListCursor> | undefined;
	if (!stored || typeof stored !== 'object' || !stored.position || typeof stored.seen !== 'object' || typeof stored.open !== 'object') {
		return undefined;
	}
	return JSON.parse(JSON.stringify(stored)) as ListCursor;
}

/**
 * Forgets what the next polls do not need: dated records below the floor, and around a gap the
 * middle of the part read above it (its two edges stay, where the next walks meet it). Undated
 * records are kept while a walk is unfinished and, once one reached what was read before, only
 * those it read. The capacities are a last resort: the oldest go first, and the floor follows
 * them up to the position.
 */
export function forget(cursor: ListCursor, readThisPoll: Set<string>, reachedBoundary: boolean): number {
	const { seen, gap, position } = cursor;
	const floor = cursor.floor ?? Number.NEGATIVE_INFINITY;
	for (const [id, [at]] of Object.entries(seen)) {
		const needed =
			at === null
				? !reachedBoundary || readThisPoll.has(id)
				: at >= floor && (!gap || gap.top.at === null || gap.head.at === null || at <= gap.top.at || at >= gap.head.at - OVERLAP_MS);
		if (!needed) delete seen[id];
	}
	const ids = Object.keys(seen);
	if (ids.length > SEEN_CAPACITY) {
		const oldestFirst = ids.sort((a, b) => (seen[a][0] ?? Number.NEGATIVE_INFINITY) - (seen[b][0] ?? Number.NEGATIVE_INFINITY));
		for (const id of oldestFirst.slice(0, ids.length - SEEN_CAPACITY)) {
			const at = seen[id][0];
			if (at !== null && position?.at != null && at <= position.at) cursor.floor = Math.max(cursor.floor ?? at, at);
			delete seen[id];
		}
	}
	const open = Object.entries(cursor.open);
	if (open.length <= OPEN_CAPACITY) return 0;
	const dropped = open.sort((a, b) => a[1][0] - b[1][0]).slice(0, open.length - OPEN_CAPACITY);
	for (const [id] of dropped) delete cursor.open[id];
	return dropped.length;
}
