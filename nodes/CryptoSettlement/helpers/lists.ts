import { NodeOperationError, type IDataObject } from 'n8n-workflow';
import { Params } from './params';
import { callApi, isSuccess, serviceError, type ApiRequest, type ApiResponse, type HttpCall } from './transport';
import { isObject } from './values';

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
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};

/** Records of a list, page by page in order: a record seen before is dropped, a repeated page is refused. */
class PagedList {
	readonly records: IDataObject[] = [];

	private readonly seen = new Set<string>();

	private previousPage = '';

	/** `meta.pages` and `meta.totalDocs` of the last page read, when the service gives them. */
	pages: number | undefined;

	totalDocs: number | undefined;

	constructor(
		private readonly params: Params,
		readonly limit: number,
	) {}

	/** Adds one page; tells whether another page may follow. */
	add(page: number, response: ApiResponse): boolean {
		const data = Array.isArray(response.body.data) ? response.body.data : [];
		const keys = data.map((entry) => (isObject(entry) ? (recordKey(entry) ?? JSON.stringify(entry)) : '')).join('\n');
		if (page > 1 && data.length && keys === this.previousPage) {
			throw listError(this.params, `page ${page} repeats page ${page - 1}`);
		}
		this.previousPage = keys;
		for (const entry of data) {
			if (this.records.length >= this.limit) break;
			if (!isObject(entry)) continue;
			const key = recordKey(entry);
			if (key !== undefined) {
				if (this.seen.has(key)) continue;
				this.seen.add(key);
			}
			this.records.push(entry);
			if (this.records.length > MAX_LIST_ITEMS) throw listError(this.params, `more than ${MAX_LIST_ITEMS} records`);
		}
		const meta = response.body.meta ?? {};
		this.pages = typeof meta.pages === 'number' ? meta.pages : undefined;
		this.totalDocs = typeof meta.totalDocs === 'number' ? meta.totalDocs : undefined;
		if (this.records.length >= this.limit || meta.hasNextPage !== true || data.length === 0) return false;
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
	const list = new PagedList(params, limitOf(params));
	const size = Math.min(pageSize, list.limit);
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
		const last = pages === undefined ? page + 1 : Math.min(pages, page + needed);
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
		description: `Lists are read up to ${MAX_LIST_ITEMS} records and stop when the service repeats a page. Turn off Return All and set a Limit, or narrow the list with filters.`,
	});
}

/** The item's parameters with Return All on: a filtered list is read whole before Limit applies. */
export class WholeList extends Params {
	raw(name: string, fallback?: unknown): unknown {
		return name === 'returnAll' ? true : super.raw(name, fallback);
	}
}
