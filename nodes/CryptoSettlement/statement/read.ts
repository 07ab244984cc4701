import { NodeOperationError, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';
import type { ApiRequest, HttpCall } from '../../service/api';
import { isSuccess, serviceError } from '../../service/apiErrors';
import { ROUTES } from '../../service/routes';
import { callApi } from '../../service/transport';
import { isObject, scalarText } from '../../service/values';

/**
 * Reads what a statement needs (docs/statement.md, "How the lists are read"): the transaction,
 * withdrawal and wallet lists and the account, with the pacing and retries of every request
 * (nodes/service/transport.ts). Pages are read a window at a time once the first page gives the count;
 * a record on two pages (a list that shifted while read) is kept once; a page that still fails
 * after its retries fails the whole read, naming the page: never a statement with a hole in it.
 */

export const LIST_PATHS = {
	transactions: ROUTES.trades.path,
	withdrawals: ROUTES.withdrawals.path,
	wallets: ROUTES.wallets.path,
} as const;
export const ACCOUNT_PATH = ROUTES.account.path;

/** Records per page asked for (the service's largest page is not documented; a smaller one is followed). */
export const STATEMENT_PAGE_SIZE = 100;
/** Pages of one list read at once. */
export const PAGES_IN_FLIGHT = 16;
/** Pages one list may take at most (200,000 records at 100 a page). */
export const MAX_STATEMENT_PAGES = 2000;

export interface ReadLists {
	trades: IDataObject[];
	withdrawals: IDataObject[];
	wallets: IDataObject[];
	/** Account → Get's record (balances, fee bearer), when asked for. */
	account?: IDataObject;
	/** Pages read per list (the bench and the docs report them). */
	pages: Record<string, number>;
}

function pageError(ctx: IExecuteSingleFunctions, list: string, page: number, size: number, error: unknown): NodeOperationError {
	const reason = (error as { message?: unknown })?.message;
	return new NodeOperationError(
		ctx.getNode(),
		`The statement could not be read: page ${page} of the ${list} list (GET ${LIST_PATHS[list as keyof typeof LIST_PATHS]}?page=${page}&size=${size}) failed after its retries`,
		{
			itemIndex: ctx.getItemIndex(),
			description: `${typeof reason === 'string' ? `${reason}. ` : ''}A statement is never made from a list with a page missing: run it again later.`,
		},
	);
}

/**
 * Every record of a paged list, or (with `olderThan`) its records down to the first page wholly
 * older than that time, once the list has shown itself newest first (every record no newer than
 * the one before it, some older); a list in any other order is read whole.
 */
export async function readList(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	list: keyof typeof LIST_PATHS,
	olderThan?: number,
): Promise<{ records: IDataObject[]; pages: number }> {
	const path = LIST_PATHS[list];
	const size = STATEMENT_PAGE_SIZE;
	const byId = new Map<string, IDataObject>();
	const records: IDataObject[] = [];
	let previous: number | undefined;
	let newestFirst: boolean | undefined;
	let read = 0;
	const fetchPage = async (page: number) => {
		const request: ApiRequest = { method: 'GET', route: path, url: path, qs: { page, size } };
		try {
			const response = await callApi(ctx, http, request, 'safe');
			if (!isSuccess(response)) throw serviceError(ctx, request, response);
			return response;
		} catch (error) {
			throw pageError(ctx, list, page, size, error);
		}
	};
	/** Adds a page; tells whether the walk goes on. */
	const add = (body: { data?: unknown; meta?: IDataObject }): boolean => {
		read++;
		const data = Array.isArray(body.data) ? body.data.filter(isObject) : [];
		let older = 0;
		for (const record of data) {
			const id = scalarText(record.id ?? record._id);
			const created = Date.parse(scalarText(record.createdAt));
			if (Number.isFinite(created)) {
				if (previous !== undefined && created !== previous) newestFirst = created < previous && newestFirst !== false;
				previous = created;
				if (olderThan !== undefined && created < olderThan) older++;
			}
			// A record on two pages (the list shifted while it was read) is one record.
			if (id && byId.has(id)) continue;
			if (id) byId.set(id, record);
			records.push(record);
		}
		if (data.length === 0 || body.meta?.hasNextPage !== true) return false;
		return !(olderThan !== undefined && newestFirst === true && older === data.length);
	};
	const first = await fetchPage(1);
	let more = add(first.body);
	let next = 2;
	while (more) {
		if (next > MAX_STATEMENT_PAGES) {
			throw new NodeOperationError(ctx.getNode(), `The statement could not be read: the ${list} list has more than ${MAX_STATEMENT_PAGES} pages`, {
				itemIndex: ctx.getItemIndex(),
			});
		}
		// Once the service says how many pages there are, a window of them at once; otherwise one by one.
		const pages = typeof first.body.meta?.pages === 'number' ? first.body.meta.pages : undefined;
		const last = Math.min(MAX_STATEMENT_PAGES, next + PAGES_IN_FLIGHT - 1, Math.max(next, pages ?? next));
		const numbers = Array.from({ length: last - next + 1 }, (_, i) => next + i);
		const responses = await Promise.all(numbers.map(fetchPage));
		for (const response of responses) {
			more = add(response.body);
			if (!more) break;
		}
		next = last + 1;
	}
	return { records, pages: read };
}

/**
 * The three lists (and the account, read after them, so its balances include every record the
 * lists showed), all at once. `olderThan` bounds the transaction and withdrawal lists (see readList).
 */
export async function readStatementLists(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	options: { olderThan?: number; account: boolean },
): Promise<ReadLists> {
	const [trades, withdrawals, wallets] = await Promise.all([
		readList(ctx, http, 'transactions', options.olderThan),
		readList(ctx, http, 'withdrawals', options.olderThan),
		readList(ctx, http, 'wallets'),
	]);
	let account: IDataObject | undefined;
	if (options.account) {
		const request: ApiRequest = { method: 'GET', route: ACCOUNT_PATH, url: ACCOUNT_PATH };
		const response = await callApi(ctx, http, request, 'safe');
		if (!isSuccess(response)) throw serviceError(ctx, request, response);
		account = isObject(response.body.data) ? response.body.data : undefined;
	}
	return {
		trades: trades.records,
		withdrawals: withdrawals.records,
		wallets: wallets.records,
		account,
		pages: { transactions: trades.pages, withdrawals: withdrawals.pages, wallets: wallets.pages },
	};
}
