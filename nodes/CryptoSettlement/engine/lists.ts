import { NodeOperationError, type IDataObject } from 'n8n-workflow';
import { Params } from '../record/params';
import { callApi } from '../../service/transport';
import type { ApiRequest, ApiResponse, HttpCall } from '../../service/api';
import { isSuccess, serviceError } from '../../service/apiErrors';
import { isObject } from '../../service/values';

/**
 * Lists (docs/api.md, "Pagination"): Return All and Limit, pages read in order or at once once
 * `meta.pages` is known, duplicates dropped, repeated pages and runaway lists refused.
 */

/** Return All stops here, with a hint: n8n's engine cannot take much more from one node run. */
export const MAX_LIST_ITEMS = 100_000;

export function limitOf(params: Params): number {
	if (params.raw('returnAll', false) === true) return Number.POSITIVE_INFINITY;
	const limit = Number(params.raw('limit', 50));
	return Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : 50;
}

const recordKey = (record: IDataObject) => {
	const id = record.id ?? record._id;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : JSON.stringify(record);
};

/** Pages one walk may ask for: what MAX_LIST_ITEMS needs at this page size, plus a margin for shifting lists. */
export const maxPagesFor = (size: number) => Math.ceil(MAX_LIST_ITEMS / size) + 10;

/**
 * Records of a list, page by page in order: a record seen before is dropped, and the walk ends
 * with an error when a page brings no record not read before (a list that repeats or alternates
 * its pages would otherwise be read forever) or more pages than MAX_LIST_ITEMS can need.
 */
class PagedList {
	readonly records: IDataObject[] = [];

	private readonly seen = new Set<string>();

	/** `meta.pages` and `meta.totalDocs` of the last page read, when the service gives them. */
	pages: number | undefined;

	totalDocs: number | undefined;

	readonly maxPages: number;

	constructor(
		private readonly params: Params,
		readonly limit: number,
		size: number,
	) {
		this.maxPages = maxPagesFor(size);
	}

	/** Adds one page; tells whether another page may follow. */
	add(page: number, response: ApiResponse): boolean {
		const data = (Array.isArray(response.body.data) ? response.body.data : []).filter(isObject);
		let fresh = 0;
		for (const entry of data) {
			if (this.records.length >= this.limit) break;
			const key = recordKey(entry);
			if (this.seen.has(key)) continue;
			this.seen.add(key);
			fresh++;
			this.records.push(entry);
			if (this.records.length > MAX_LIST_ITEMS) throw listError(this.params, `more than ${MAX_LIST_ITEMS} records`);
		}
		if (page > 1 && data.length && fresh === 0 && this.records.length < this.limit) {
			throw listError(this.params, `page ${page} with no record not already read (it repeats earlier pages)`);
		}
		const meta = response.body.meta ?? {};
		this.pages = typeof meta.pages === 'number' ? meta.pages : undefined;
		this.totalDocs = typeof meta.totalDocs === 'number' ? meta.totalDocs : undefined;
		if (this.records.length >= this.limit || meta.hasNextPage !== true || data.length === 0) return false;
		if (page >= this.maxPages) throw listError(this.params, `more than ${this.maxPages} pages`);
		return !(this.pages !== undefined && page >= this.pages);
	}
}

/**
 * Reads a paged list with one constant page size (so page numbers stay aligned) until the limit,
 * `meta.pages`, or `hasNextPage` is false. Once a page gives `meta.pages`, the remaining pages the
 * limit needs are fetched at once (within the route's in-flight limit) and assembled in order.
 */
export async function fetchPages(
	params: Params,
	http: HttpCall,
	request: ApiRequest,
	pageSize: number,
): Promise<IDataObject[]> {
	const limit = limitOf(params);
	const size = Math.min(pageSize, limit);
	const list = new PagedList(params, limit, size);
	const fetchPage = async (page: number): Promise<ApiResponse> => {
		const pageRequest = { ...request, qs: { ...request.qs, page, size } };
		const response = await callApi(params.ctx, http, pageRequest, 'safe');
		if (!isSuccess(response)) throw serviceError(params.ctx, pageRequest, response);
		return response;
	};
	let page = 1;
	let more = list.add(page, await fetchPage(page));
	while (more) {
		const { pages, totalDocs } = list;
		if (list.limit > MAX_LIST_ITEMS && ((totalDocs ?? 0) > MAX_LIST_ITEMS || (pages ?? 0) > Math.ceil(MAX_LIST_ITEMS / size) + 1)) {
			throw listError(params, `more than ${MAX_LIST_ITEMS} records`);
		}
		const needed = Math.ceil((list.limit - list.records.length) / size);
		const last = Math.min(list.maxPages, pages === undefined ? page + 1 : Math.min(pages, page + needed));
		const numbers = Array.from({ length: last - page }, (_, i) => page + 1 + i);
		const responses = await Promise.all(numbers.map(fetchPage));
		for (const [index, response] of responses.entries()) {
			page = numbers[index];
			more = list.add(page, response);
			if (!more) break;
		}
	}
	return list.records;
}

function listError(params: Params, what: string): NodeOperationError {
	return new NodeOperationError(params.ctx.getNode(), `Return All stopped: the list returned ${what}`, {
		itemIndex: params.itemIndex,
		description: `Lists are read up to ${MAX_LIST_ITEMS} records and stop when a page brings nothing new (the service repeats or alternates its pages). Turn off Return All and set a Limit, or narrow the list with filters.`,
	});
}

/** The item's parameters with Return All on: a filtered list is read whole before Limit applies. */
export class WholeList extends Params {
	raw(name: string, fallback?: unknown): unknown {
		return name === 'returnAll' ? true : super.raw(name, fallback);
	}
}
