import type { IDataObject } from 'n8n-workflow';
import {
	LISTING_LAG_MIN_MS,
	LISTING_LAG_MS,
	LISTING_LAG_RECORDS,
	OVERLAP_MS,
	forget,
	statusNow,
	statusesOf,
	withStatus,
	type Change,
	type Gap,
	type Identity,
	type ListCursor,
	type ListSource,
	type Mark,
	type Range,
	type Statuses,
} from './cursor';
import { hasDates, orderAcross, orderOf, type Order, type PageRead } from './pageOrder';

/**
 * One poll's walk through one list, progress first; a walk that has to stop leaves a gap, found again by
 * position, never by page number (docs/trigger.md, "How it polls", "Lists of every shape").
 */

interface PageSeen {
	/** The page ends with a record older than the position (or, undated, holds one read before): the walk reached known ground. */
	reached: boolean;
	/** An unknown record created before the position was on it: one listed late, perhaps with others on the next page. */
	late: boolean;
}

export class ListWalk {
	/** New records and status changes, in the order read. */
	readonly changes: Change[] = [];
	/** Identities read in this poll. */
	readonly visited = new Set<string>();
	/** The walk stopped before reading everything new. */
	cut = false;
	pagesRead = 0;
	/** Records not yet final that no longer fit in the memory (see OPEN_MAX_BYTES). */
	droppedOpen = 0;
	/** Records read that the list cannot identify (no id; a stored delivery: no event): never emitted, so the poll warns. */
	readonly unidentified = new Set<IDataObject>();

	private readonly added = new Set<string>();
	private readonly above: Set<string>;
	private readonly pages = new Map<string, PageRead>();
	private passedBoundary = false;
	private reachedBoundary = false;
	/** Undated identities first read by the current walk down: above its gap if it has to stop. */
	private undatedAdded: string[] = [];
	private newest?: Mark;
	/** When the walk's first page was answered, on the service's clock. */
	private servedAt?: number;
	/** The three newest creation dates read, newest first: how far the list's dates run ahead of the service's clock. */
	private readonly recent: number[] = [];

	constructor(
		readonly cursor: ListCursor,
		private readonly source: ListSource,
		private readonly maxPages: number,
		private readonly serviceNow: () => number,
	) {
		this.above = new Set(cursor.gap?.above ?? []);
	}

	/** The first poll: records where the list stands and emits nothing. */
	private get firstLook(): boolean {
		return this.cursor.position === undefined;
	}

	private get size(): number {
		return this.cursor.size ?? this.source.pageSize;
	}

	async run(): Promise<void> {
		const firstLook = this.firstLook;
		if (firstLook) await this.look();
		else if (this.cursor.order === 'oldestFirst') await this.forward();
		else if (!this.cursor.gap || (await this.fillGap(this.cursor.gap))) await this.fromNewest();
		if (!this.firstLook) {
			const position = this.cursor.position as Mark;
			if (position.at !== null && this.cursor.floor !== null) {
				this.cursor.floor = Math.max(
					this.cursor.floor ?? Number.NEGATIVE_INFINITY,
					position.at - OVERLAP_MS,
				);
			}
			this.droppedOpen = forget(
				this.cursor,
				this.visited,
				firstLook || this.reachedBoundary,
				this.serviceNow(),
			);
		}
		this.cursor.ahead = this.ahead();
	}

	// ------------------------------------------------------------------------------ reading

	private async page(n: number, range?: Range): Promise<PageRead | undefined> {
		const key = `${n} ${range?.start ?? ''} ${range?.end ?? ''}`;
		const known = this.pages.get(key);
		if (known) return known;
		const page = this.pagesRead < this.maxPages ? await this.source.fetch(n, range) : undefined;
		if (!page) {
			this.cut = true;
			return undefined;
		}
		this.pagesRead++;
		this.servedAt ??= page.servedAt ?? this.serviceNow();
		if (page.hasNextPage && page.records.length > 0) this.cursor.size = page.records.length;
		this.pages.set(key, page);
		return page;
	}

	/** `appendedFrom`: the records from this index on were appended to a list sorted oldest first since it was last read. */
	private visitPage(
		page: PageRead,
		skip?: (identity: Identity) => boolean,
		appendedFrom = Number.POSITIVE_INFINITY,
	): PageSeen {
		const seen: PageSeen = { reached: false, late: false };
		let last: number | undefined;
		for (const [index, record] of page.records.entries()) {
			const identity = this.source.identify(record);
			if (identity?.at != null) last = identity.at;
			if (!identity) this.unidentified.add(record);
			if (identity && !skip?.(identity)) this.visit(record, identity, seen, index >= appendedFrom);
		}
		// The page ends below the position: what follows is older (a record near its top may be an old one updated lately).
		const position = this.cursor.position?.at;
		if (last !== undefined && position != null && last < position) seen.reached = true;
		return seen;
	}

	/** Classifies one record: known (perhaps with a new status), new, or older than what the poll looks at. */
	private visit(record: IDataObject, identity: Identity, page: PageSeen, appended = false): void {
		const { id, at, status } = identity;
		const { seen, open, position, floor } = this.cursor;
		this.visited.add(id);
		if (at !== null && (this.newest?.at == null || at > this.newest.at)) this.newest = { at, id };
		else if (!this.newest) this.newest = { at, id };
		if (at !== null && (this.recent.length < 3 || at > this.recent[2])) {
			this.recent.push(at);
			this.recent.sort((a, b) => b - a).splice(3);
		}
		const kept = seen[id]?.[1] ?? open[id]?.[1];
		if (kept !== undefined) {
			if (at === null && !this.added.has(id) && !this.above.has(id)) {
				this.passedBoundary = true;
				page.reached = true;
			}
			// A status read before (a lagging replica answering back and forth), or one earlier in the
			// life cycle than a status read before: what was read stands, nothing is emitted.
			const known = statusesOf(kept);
			if (!known.includes(status) && known.some((earlier) => this.source.isBehind(status, earlier)))
				return;
			this.remember(identity, withStatus(kept, status));
			if (!known.includes(status) && !this.firstLook) this.changes.push({ record, identity });
			return;
		}
		// Appended after the last record read of a list sorted oldest first: new, whatever its date.
		const fresh =
			!this.firstLook &&
			(appended || (at === null ? !this.passedBoundary : floor == null || at > floor));
		this.added.add(id);
		if (at === null) this.undatedAdded.push(id);
		// An old record seen for the first time (below the floor) is not followed.
		this.remember(identity, status, fresh || this.firstLook);
		if (!fresh) return;
		this.changes.push({ record, identity });
		if (at !== null && position?.at != null && at <= position.at) page.late = true;
	}

	/** Keeps a record read: its statuses, and while its status now can change, it is followed (unless `follow` is false). */
	private remember({ id, at }: Identity, kept: Statuses, follow = true): void {
		this.cursor.seen[id] = at === null ? [at, kept, this.serviceNow()] : [at, kept];
		if (!follow || !this.source.isOpen(statusNow(kept))) {
			delete this.cursor.open[id];
			return;
		}
		const now = this.serviceNow();
		this.cursor.open[id] = [at ?? this.cursor.open[id]?.[0] ?? now, kept, now];
	}

	/** Moves the position up to `mark`, never past the service's clock plus the tolerance, never back. */
	private advance(mark: Mark | undefined, lagMs?: number): void {
		if (!mark) return;
		const next = this.capped(mark, lagMs);
		const position = this.cursor.position;
		if (position?.at != null && (next.at === null || next.at < position.at)) return;
		this.cursor.position = next;
	}

	// ----------------------------------------------------------------------------- the walks

	/**
	 * The first poll: the newest end of the list (page 1, or the last page of a list sorted oldest
	 * first) is recorded; nothing is emitted. Without `meta.pages`, a list sorted oldest first is
	 * stepped through to its end, over several polls if Max Pages per Poll or the time ends first.
	 */
	private async look(): Promise<void> {
		const first = await this.page(1);
		const order = first && (await this.orderFrom(first));
		if (!first || this.cut) return;
		let end = { n: 1, page: first };
		if (order === 'oldestFirst' && first.pages) {
			const last = await this.page(first.pages);
			if (!last) return;
			end = { n: first.pages, page: last };
		} else if (order === 'oldestFirst') {
			for (let n = 2; end.page.hasNextPage; n++) {
				const next = await this.page(n);
				if (!next) break;
				end = { n, page: next };
			}
		}
		this.cursor.order = order;
		if (order === 'oldestFirst') this.cursor.page = end.n;
		this.visitPage(end.page);
		if (order === 'oldestFirst' && !this.cut) this.cursor.last = this.lastIdOf(end.page);
		if (this.cut || end.page.records.length === 0) {
			// The end was not reached yet, or the list is empty: what is created from now on (the
			// service's clock) is new; from an empty list, also a record listed late within the lag.
			const now = this.cut ? this.answeredAt() : this.settled(LISTING_LAG_MIN_MS);
			this.cursor.position = { at: now, id: '' };
			this.cursor.floor = now;
			return;
		}
		// What was created before activation (its first answer less the shortest listing lag) is old,
		// also when listed later; every record above the floor was read on this page.
		this.cursor.position = { at: null, id: '' };
		this.advance(this.newest, LISTING_LAG_MIN_MS);
		const { at } = this.cursor.position;
		const dates = this.identities(end.page).flatMap((identity) => identity?.at ?? []);
		this.cursor.floor = at === null ? null : Math.max(at, dates.length ? Math.min(...dates) : at);
	}

	/** The order, from the pages' dates as docs/trigger.md says ("Lists of every shape"); undecidable reads as newest first. */
	private async orderFrom(first: PageRead, range?: Range): Promise<Order | undefined> {
		const told = orderOf(first.records);
		if (told || !first.hasNextPage || !hasDates(first))
			return told ?? (first.hasNextPage ? 'newestFirst' : undefined);
		if (first.pages) {
			const last = await this.page(first.pages, range);
			return (last && orderAcross(first, last)) ?? 'newestFirst';
		}
		// Leaves a page of Max Pages per Poll unused: the walk itself goes on, and a probe never cuts it.
		for (
			let n = 2, page: PageRead | undefined = first;
			page?.hasNextPage && this.pagesRead < this.maxPages - 1;
			n++
		) {
			page = await this.page(n, range);
			const order = page && (orderOf(page.records) ?? orderAcross(first, page));
			if (order) return order;
		}
		return 'newestFirst';
	}

	/** Newest first: from page 1 down to the position (for stored deliveries, from the overlap before it on). */
	private async fromNewest(): Promise<void> {
		const position = this.cursor.position as Mark;
		const range =
			this.source.ranged && position.at !== null ? { start: position.at - OVERLAP_MS } : undefined;
		if (!this.cursor.order) {
			const first = await this.page(1, range);
			if (!first) return;
			this.cursor.order = await this.orderFrom(first, range);
			if (this.cursor.order === 'oldestFirst') return await this.forward();
		}
		if (await this.walkDown(1, range)) {
			this.advance(this.newest);
			this.reachedBoundary = true;
		}
	}

	/** The records of an earlier walk's gap, found by position; true once the gap is read. */
	private async fillGap(gap: Gap): Promise<boolean> {
		const position = this.cursor.position as Mark;
		let done: boolean;
		if (this.source.ranged && gap.top.at !== null) {
			// Stored deliveries: the gap is the date range below its top.
			const start = position.at === null ? undefined : position.at - OVERLAP_MS;
			done = await this.walkDown(1, { start, end: gap.top.at });
		} else {
			const start = await this.locate(gap);
			if (start === undefined) return false;
			done = await this.walkDown(start.n, undefined, start.skip);
		}
		if (!done) return false;
		this.advance(gap.head);
		// What was read above the gap and forgotten is old: a walk down from the newest end may cross it.
		if (gap.forgotten !== undefined)
			this.cursor.floor = Math.max(this.cursor.floor ?? gap.forgotten, gap.forgotten);
		delete this.cursor.gap;
		this.above.clear();
		return true;
	}

	/**
	 * Reads pages from `start` towards older records until a page reaches known ground with no
	 * record listed late on it, or the list ends: true. When it has to stop first, the records not
	 * yet read are left as the gap below the last record read.
	 */
	private async walkDown(
		start: number,
		range?: Range,
		skip?: (identity: Identity) => boolean,
	): Promise<boolean> {
		this.passedBoundary = false;
		this.undatedAdded = [];
		let last: { n: number; page: PageRead } | undefined;
		for (let n = start; ; n++) {
			const page = await this.page(n, range);
			if (!page) break;
			const seen = this.visitPage(page, n === start ? skip : undefined);
			last = { n, page };
			if (!page.hasNextPage || (seen.reached && !seen.late)) return true;
		}
		const top = last && this.identities(last.page).reverse().find(Boolean);
		if (!last || !top) return false;
		const index = (last.n - 1) * this.size + last.page.records.length - 1;
		const above = [...new Set([...this.above, ...this.undatedAdded])];
		this.cursor.gap = {
			top: { at: top.at, id: top.id },
			head: this.cursor.gap?.head ?? this.capped(this.newest ?? top),
			index,
			...(last.page.total !== undefined ? { tail: last.page.total - 1 - index } : {}),
			...(above.length ? { above } : {}),
			...(this.cursor.gap?.forgotten !== undefined ? { forgotten: this.cursor.gap.forgotten } : {}),
		};
		return false;
	}

	/**
	 * A position is never later than `settled()`: the records created since may still be listed
	 * late, so the next walk reads them again (a future-dated record is read and emitted, but does
	 * not move the position past it either).
	 */
	private capped(mark: Mark, lagMs?: number): Mark {
		const limit = this.settled(lagMs);
		return mark.at !== null && mark.at > limit
			? { at: limit, id: '' }
			: { at: mark.at, id: mark.id };
	}

	/**
	 * Up to when, on the records' clock, the list answered is complete: the first answer's time, less
	 * the listing lag (LISTING_LAG_MS, or down to LISTING_LAG_MIN_MS where more than
	 * LISTING_LAG_RECORDS known records were created in it: the next walk reads at most that many again).
	 */
	private settled(lagMs?: number): number {
		const answered = this.answeredAt();
		if (lagMs !== undefined) return answered - lagMs;
		const window = Object.values(this.cursor.seen)
			.map(([at]) => at)
			.filter((at): at is number => at !== null && at > answered - LISTING_LAG_MS)
			.sort((a, b) => b - a);
		const bounded =
			window.length > LISTING_LAG_RECORDS ? window[LISTING_LAG_RECORDS] : Number.NEGATIVE_INFINITY;
		return Math.min(answered - LISTING_LAG_MIN_MS, Math.max(answered - LISTING_LAG_MS, bounded));
	}

	/** The time of the walk's first answer, on the records' clock. */
	private answeredAt(): number {
		return (this.servedAt ?? this.serviceNow()) + this.ahead();
	}

	/**
	 * How far the list's dates run ahead of the service's clock (local time stamped "Z"): its third
	 * newest record's, so one or two records dated ahead do not count; 0 when none is ahead.
	 */
	private ahead(): number {
		if (this.recent.length < 3) return this.cursor.ahead ?? 0;
		return Math.max(0, this.recent[2] - (this.servedAt ?? this.serviceNow()));
	}

	/**
	 * The page where a gap continues, just below its top, found by the top's index from the list's oldest
	 * end (exact with `meta.totalDocs`; else a lower bound, stepped forward or back against the top's date
	 * or identity, what was learnt kept in the gap): docs/trigger.md, "Lists of every shape".
	 */
	private async locate(
		gap: Gap,
	): Promise<{ n: number; skip: (identity: Identity) => boolean } | undefined> {
		const after = (index: number) => Math.floor((index + 1) / this.size) + 1;
		let n = after(gap.index);
		let page = await this.page(n);
		let exact = false;
		if (page && gap.tail !== undefined && page.total !== undefined) {
			exact = true;
			const estimate = after(Math.max(0, page.total - 1 - gap.tail));
			if (estimate !== n) page = await this.page((n = estimate));
		}
		let direction = 0;
		while (page) {
			const place = this.placeOf(page, gap.top);
			if (place === 'on') gap.index = (n - 1) * this.size + this.indexOn(page, gap.top);
			// Counted exactly, the page just below the top is the right one.
			const step =
				place === 'above' && page.hasNextPage ? 1 : place === 'below' && n > 1 && !exact ? -1 : 0;
			if (place === 'above') gap.index = Math.max(gap.index, n * this.size);
			if (step !== 0 && step === -direction) {
				// The top lies between this page and the one before (it was removed): the gap starts on the later one.
				n = Math.max(n, n + step);
				page = await this.page(n);
				break;
			}
			if (step === 0) break;
			direction = step;
			page = await this.page((n += step));
		}
		return page && { n, skip: this.skipAbove(gap.top, page) };
	}

	/** Where the top is on a page it is on (by identity, else the last record not older than it). */
	private indexOn(page: PageRead, top: Mark): number {
		const identities = this.identities(page);
		const at = identities.findIndex((identity) => identity?.id === top.id);
		if (at >= 0) return at;
		let last = 0;
		identities.forEach((identity, i) => {
			if (top.at !== null && identity?.at != null && identity.at >= top.at) last = i;
		});
		return last;
	}

	private placeOf(page: PageRead, top: Mark): 'on' | 'above' | 'below' {
		const identities = this.identities(page).filter((identity): identity is Identity => !!identity);
		if (identities.some((identity) => identity.id === top.id)) return 'on';
		if (top.at !== null) {
			const dates = identities.flatMap((identity) => identity.at ?? []);
			if (dates.length && Math.min(...dates) > top.at) return 'above';
			if (!dates.length || Math.max(...dates) <= top.at) return 'below';
			return 'on';
		}
		// Undated: a page with records read above the gap is above it; any other may hold the gap's first records.
		return identities.some((identity) => this.above.has(identity.id)) ? 'above' : 'below';
	}

	/** On the gap's first page, the records up to its top were read above it. */
	private skipAbove(top: Mark, page: PageRead): (identity: Identity) => boolean {
		const ids = this.identities(page).map((identity) => identity?.id);
		const at = ids.indexOf(top.id);
		if (at >= 0) {
			const before = new Set(ids.slice(0, at + 1));
			return (identity) => before.has(identity.id);
		}
		return (identity) => top.at !== null && identity.at !== null && identity.at > top.at;
	}

	/** Oldest first: forward from the page that held the position (stored deliveries: from the position's date). */
	private async forward(): Promise<void> {
		const position = this.cursor.position as Mark;
		const range = this.source.ranged && position.at !== null ? { start: position.at } : undefined;
		let n = range ? 1 : (this.cursor.page ?? 1);
		let page = await this.page(n, range);
		// Records removed before the position move it to an earlier page.
		while (page && !range && n > 1 && this.startsAfter(page, position)) page = await this.page(--n);
		// Records after the last one read before (the anchor) were appended since: new whatever their dates.
		const anchor = range ? undefined : this.cursor.last;
		let passed = anchor === undefined;
		let lastRead: string | undefined;
		while (page) {
			const at = passed
				? -1
				: this.identities(page).findIndex((identity) => identity?.id === anchor);
			this.visitPage(
				page,
				undefined,
				anchor === undefined ? undefined : passed ? 0 : at >= 0 ? at + 1 : undefined,
			);
			passed ||= at >= 0;
			lastRead = this.lastIdOf(page) ?? lastRead;
			if (!range) this.cursor.page = n;
			if (!page.hasNextPage) break;
			page = await this.page(++n, range);
		}
		// The next anchor: the list's end as read, or where a walk that had to stop after the anchor stopped.
		if (!range && lastRead !== undefined && (!this.cut || (anchor !== undefined && passed)))
			this.cursor.last = lastRead;
		this.advance(this.newest);
		this.reachedBoundary = !this.cut;
	}

	/** The identities of a page's records, in its order (undefined for a record the list cannot identify). */
	private identities(page: PageRead): Array<Identity | undefined> {
		return page.records.map((record) => this.source.identify(record));
	}

	private lastIdOf(page: PageRead): string | undefined {
		return this.identities(page).reverse().find(Boolean)?.id;
	}

	private startsAfter(page: PageRead, position: Mark): boolean {
		if (!page.records.length) return true;
		const first = this.identities(page).find((identity) => identity?.at != null)?.at;
		return position.at !== null && first != null && first > position.at;
	}
}
