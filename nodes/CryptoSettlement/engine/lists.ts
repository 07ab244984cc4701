import type { IDataObject, NodeOperationError } from 'n8n-workflow';
import { itemError, Params } from '../record/params';
import type { ApiRequest, HttpCall } from '../../service/api';
import { walkList } from './pageWalker';

/**
 * Lists (docs/api.md, "Pagination"): Return All and Limit, pages read in order or at once once
 * `meta.pages` is known, duplicates dropped, repeated pages and runaway lists refused.
 */

/** Return All stops here, with a hint: n8n's engine cannot take much more from one node run. */
const MAX_LIST_ITEMS = 100_000;

export function limitOf(params: Params): number {
	if (params.raw('returnAll', false) === true) return Number.POSITIVE_INFINITY;
	const limit = Number(params.raw('limit', 50));
	return Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : 50;
}

/** Pages one walk may ask for: what MAX_LIST_ITEMS needs at this page size, plus a margin for shifting lists. */
export const maxPagesFor = (size: number) => Math.ceil(MAX_LIST_ITEMS / size) + 10;

/**
 * Reads a paged list through the node's page walker (pageWalker.ts), with one constant page size (so page
 * numbers stay aligned), proving its Limit only (docs/architecture.md, "Reading a list").
 */
export async function fetchPages(
	params: Params,
	http: HttpCall,
	request: ApiRequest,
	pageSize: number,
): Promise<IDataObject[]> {
	const limit = limitOf(params);
	const size = Math.min(pageSize, limit);
	const tooMany = () => listError(params, `more than ${MAX_LIST_ITEMS} records`);
	const { records } = await walkList(params.ctx, http, {
		request,
		size,
		maxPages: maxPagesFor(size),
		proof: 'limit',
		inFlight: (read) => Math.ceil((limit - read.length) / size),
		enough: (read) => {
			if (read.length > MAX_LIST_ITEMS) throw tooMany();
			return read.length >= limit;
		},
		check: (response) => {
			const { pages, totalDocs } = response.body.meta ?? {};
			if (
				limit > MAX_LIST_ITEMS &&
				(Number(totalDocs ?? 0) > MAX_LIST_ITEMS ||
					Number(pages ?? 0) > Math.ceil(MAX_LIST_ITEMS / size) + 1)
			)
				throw tooMany();
		},
		fail: (problem) => {
			if (problem.kind === 'page') return problem.error as Error;
			if (problem.kind === 'repeats')
				return listError(
					params,
					`page ${problem.page} with no record not already read (it repeats earlier pages)`,
				);
			return listError(params, `more than ${maxPagesFor(size)} pages`);
		},
	});
	return records.slice(0, limit);
}

function listError(params: Params, what: string): NodeOperationError {
	return itemError(
		params.ctx,
		`Return All stopped: the list returned ${what}`,
		`Lists are read up to ${MAX_LIST_ITEMS} records and stop when a page brings nothing new (the service repeats or alternates its pages). Turn off Return All and set a Limit, or narrow the list with filters.`,
	);
}

/** The item's parameters with Return All on: a filtered list is read whole before Limit applies. */
export class WholeList extends Params {
	raw(name: string, fallback?: unknown): unknown {
		return name === 'returnAll' ? true : super.raw(name, fallback);
	}
}
