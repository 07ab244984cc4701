import type { IDataObject } from 'n8n-workflow';
import { timeMs } from '../service/values';

/**
 * Pages of the service's lists and their order. The API pages with `page`/`size` and
 * `meta.hasNextPage`/`meta.pages`/`meta.totalDocs` (docs/api.md, "Pagination") but does not say in
 * which order: the order is told from the records' creation dates.
 */

/** One page of a list as the service answered it. */
export interface PageRead {
	records: IDataObject[];
	/** More records follow (`meta.hasNextPage`, or `meta.pages`, or a full page). */
	hasNextPage: boolean;
	/** Total pages (`meta.pages`), when the service says. */
	pages?: number;
	/** Total records (`meta.totalDocs`), when the service says. */
	total?: number;
	/** When the service answered, on its clock (its `Date` header), when it says. */
	servedAt?: number;
}

export type Order = 'newestFirst' | 'oldestFirst';

function datesOf(records: IDataObject[]): number[] {
	return records
		.map((record) => timeMs(record.createdAt))
		.filter((time): time is number => time !== null);
}

/** The order of a page's records by creation date; undefined when it cannot tell (fewer than two distinct dates). */
export function orderOf(records: IDataObject[]): Order | undefined {
	const times = datesOf(records);
	let balance = 0;
	for (let i = 1; i < times.length; i++) balance += Math.sign(times[i - 1] - times[i]);
	return balance > 0 ? 'newestFirst' : balance < 0 ? 'oldestFirst' : undefined;
}

/** Whether any record of the page has a creation date (without dates the order cannot be told). */
export function hasDates(page: PageRead): boolean {
	return datesOf(page.records).length > 0;
}

/** The order told by the first and the last page (their dates all equal within each page). */
export function orderAcross(first: PageRead, last: PageRead): Order | undefined {
	const [a] = datesOf(first.records);
	const [b] = datesOf(last.records);
	if (a === undefined || b === undefined || a === b) return undefined;
	return a > b ? 'newestFirst' : 'oldestFirst';
}
