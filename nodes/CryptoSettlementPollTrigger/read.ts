import type { IDataObject } from 'n8n-workflow';
import { scalarText } from '../CryptoSettlement/helpers/values';

/**
 * Reading a paged list from its newest end (docs/trigger.md, "Poll trigger"). The API pages with
 * `page`/`size` and `meta.hasNextPage`/`meta.pages` (docs/api.md, "Pagination") but does not say in
 * which order: the order is detected from the creation dates of the first pages read.
 */

export interface Page {
	records: IDataObject[];
	/** Total pages, when the service says (`meta.pages`). */
	pages?: number;
	hasNextPage: boolean;
}

export type FetchPage = (page: number) => Promise<Page>;

export type Order = 'newestFirst' | 'oldestFirst' | 'unknown';

export interface ReadResult {
	/**
	 * The records of the pages walked from the newest end, newest page first (duplicates possible
	 * when the list moved while reading). A page read only to detect the order is not included.
	 */
	records: IDataObject[];
	/** The list was read from its newest record down to `stopAt` (or to its end). */
	complete: boolean;
	pagesRead: number;
	order: Order;
	/** When not complete: the next page the walk would have read (where the next poll resumes). */
	nextPage?: number;
}

/** Where an unfinished walk resumes: its next page, in the order it had detected. */
export interface Resume {
	page: number;
	order: Order;
}

/** A record's creation time in ms; ISO text or epoch milliseconds. NaN when absent or unreadable. */
export function createdAtMs(record: IDataObject): number {
	const value = record.createdAt;
	if (typeof value === 'number') return value;
	const text = scalarText(value).trim();
	if (text === '') return Number.NaN;
	if (/^\d+$/.test(text)) return Number(text);
	return Date.parse(text);
}

/** The order a page's records are in, by creation date; `unknown` when it cannot tell (fewer than two distinct dates). */
export function orderOf(records: IDataObject[]): Order {
	const times = records.map(createdAtMs).filter((time) => Number.isFinite(time));
	let descending = 0;
	let ascending = 0;
	for (let i = 1; i < times.length; i++) {
		if (times[i] < times[i - 1]) descending++;
		else if (times[i] > times[i - 1]) ascending++;
	}
	if (descending > ascending) return 'newestFirst';
	if (ascending > descending) return 'oldestFirst';
	return 'unknown';
}

function oldestOf(records: IDataObject[]): number {
	let oldest = Number.POSITIVE_INFINITY;
	for (const record of records) {
		const time = createdAtMs(record);
		if (Number.isFinite(time) && time < oldest) oldest = time;
	}
	return oldest;
}

/**
 * Reads a list from its newest end towards its oldest, page by page, until a page holds a record
 * created before `stopAt` (everything further is older), the list ends, or `maxPages` pages were
 * read. Page 1 is always read first; when its dates do not tell the order and there are more pages,
 * the last page is compared with it. A list sorted oldest first is read from its last page backwards.
 */
export async function readNewestFirst(
	fetchPage: FetchPage,
	stopAt: number,
	maxPages: number,
	resume?: Resume,
): Promise<ReadResult> {
	const budget = Math.max(1, Math.floor(maxPages));
	const fetched = new Map<number, Page>();
	const read = async (page: number): Promise<Page> => {
		let found = fetched.get(page);
		if (!found) {
			found = await fetchPage(page);
			fetched.set(page, found);
		}
		return found;
	};
	const walked: number[] = [];
	const walk = async (page: number): Promise<Page> => {
		walked.push(page);
		return await read(page);
	};
	const done = (complete: boolean, order: Order, nextPage?: number): ReadResult => ({
		records: walked.flatMap((page) => fetched.get(page)?.records ?? []),
		complete,
		pagesRead: fetched.size,
		order,
		nextPage: complete ? undefined : nextPage,
	});
	if (resume) {
		// Continue an unfinished walk. Newest first, records only move to later pages as new ones
		// arrive (read again, never skipped); oldest first, earlier pages do not move.
		const backwards = resume.order === 'oldestFirst';
		for (let page = Math.max(1, resume.page); ; page += backwards ? -1 : 1) {
			if (fetched.size >= budget) return done(false, resume.order, page);
			const current = await walk(page);
			if (oldestOf(current.records) < stopAt || (backwards ? page <= 1 : !current.hasNextPage)) return done(true, resume.order);
		}
	}
	const first = await read(1);
	if (!first.hasNextPage) {
		walked.push(1);
		return done(true, orderOf(first.records));
	}

	let order = orderOf(first.records);
	const lastPage = first.pages !== undefined && first.pages > 1 ? first.pages : undefined;
	if (order === 'unknown' && lastPage !== undefined && budget > 1) {
		const last = await read(lastPage);
		const a = createdAtMs(first.records[0] ?? {});
		const b = createdAtMs(last.records[0] ?? {});
		if (Number.isFinite(a) && Number.isFinite(b) && a !== b) order = a > b ? 'newestFirst' : 'oldestFirst';
	}

	if (order === 'oldestFirst' && lastPage !== undefined) {
		// The newest records are on the last page: walk back towards page 1.
		for (let page = lastPage; page >= 1; page--) {
			if (!fetched.has(page) && fetched.size >= budget) return done(false, order, page);
			const current = await walk(page);
			if (oldestOf(current.records) < stopAt || page === 1) return done(true, order);
		}
		return done(true, order);
	}

	// Newest first (or undetectable: all dates equal, the same walk is the only sensible one).
	for (let page = 1; ; page++) {
		if (!fetched.has(page) && fetched.size >= budget) return done(false, order, page);
		const current = await walk(page);
		if (oldestOf(current.records) < stopAt || !current.hasNextPage) return done(true, order);
		if (lastPage !== undefined && page >= lastPage) return done(true, order);
	}
}
