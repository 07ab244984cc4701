import { NodeOperationError, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';
import type { ApiRequest, HttpCall } from '../../service/api';
import { isSuccess, serviceError } from '../../service/apiErrors';
import { ROUTES } from '../../service/routes';
import { callApi } from '../../service/transport';
import { isObject } from '../../service/values';
import { allRead, movingWords, walkList, type WalkProblem } from '../engine/pageWalker';
import { DAY_MS } from '../../service/utcDay';
import { KeptRecords, RecordColumns } from './recordColumns';
import { LINE_FIELDS } from './lines';

/** Reads what a statement needs (docs/statement.md, "How the lists are read"). */

export const LIST_PATHS = {
	transactions: ROUTES.trades.path,
	withdrawals: ROUTES.withdrawals.path,
	wallets: ROUTES.wallets.path,
} as const;
export const ACCOUNT_PATH = ROUTES.account.path;

/** Records per page asked for (the service's largest page is not documented; a smaller one is followed). */
const STATEMENT_PAGE_SIZE = 100;
/** Pages of one list read at once. */
export const PAGES_IN_FLIGHT = 16;
/**
 * Pages one list may take at most (1,000,000 records at 100 a page): a busy merchant's month in one
 * range (30 days of 10,000 records per list, and the look-back window's 10 days before) is 4,000.
 */
const MAX_STATEMENT_PAGES = 10_000;

export interface ReadLists<Records = IDataObject[]> {
	trades: Records;
	withdrawals: Records;
	wallets: IDataObject[];
	/** The deposit-asset list (`GET /trades/assets`), when asked for: `[]` when it could not be read. */
	assets: IDataObject[];
	/** The saved bank accounts and payout addresses (the payees' names), when asked for: `[]` when they could not be read. */
	bankAccounts?: IDataObject[];
	payoutAddresses?: IDataObject[];
	/** Account → Get's record (balances, fee bearer), when asked for. */
	account?: IDataObject;
	/** Pages read per list (the bench and the docs report them). */
	pages: Record<string, number>;
}

/** The statement's words for a list it could not prove whole: never a statement with a hole in it. */
function readError(
	ctx: IExecuteSingleFunctions,
	list: keyof typeof LIST_PATHS,
	problem: WalkProblem,
): NodeOperationError {
	const path = LIST_PATHS[list];
	// What went wrong, and what the description says before that the statement is never made with a hole.
	const [message, before = ''] = ((): [string, string?] => {
		switch (problem.kind) {
			case 'page': {
				const reason = (problem.error as { message?: unknown })?.message;
				return [
					`page ${problem.page} of the ${list} list (GET ${path}?page=${problem.page}&size=${problem.size}) failed after its retries`,
					typeof reason === 'string' ? `${reason}. ` : '',
				];
			}
			case 'budget':
				return [`the ${list} list has more than ${problem.maxPages} pages`];
			case 'repeats':
				return [
					`page ${problem.page} of the ${list} list brought no record not already read (it repeats earlier pages)`,
				];
			case 'moving':
				return [
					`the ${list} list ${movingWords(problem)}`,
					'A list that never holds still while it is read cannot be proven whole. ',
				];
		}
	})();
	return new NodeOperationError(ctx.getNode(), `The statement could not be read: ${message}`, {
		itemIndex: ctx.getItemIndex(),
		description: `${before}A statement is never made from a list that may miss a record: run it again later.`,
	});
}

/** Every record of a paged list, proven whole (engine/pageWalker.ts); with `since`, asked from a day before it on. */
export async function readList<T = IDataObject>(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	list: keyof typeof LIST_PATHS,
	since?: number,
	keep?: (record: IDataObject) => T,
): Promise<{ records: T[]; pages: number }> {
	const path = LIST_PATHS[list];
	// A day's margin: a service that reads the range's dates in its own time zone still answers the whole day.
	const range =
		since === undefined
			? undefined
			: {
					startDate: new Date(since - DAY_MS).toISOString(),
					endDate: new Date(Date.now() + DAY_MS).toISOString(),
				};
	const { records, pages } = await walkList(ctx, http, {
		request: { method: 'GET', route: path, url: path },
		size: STATEMENT_PAGE_SIZE,
		maxPages: MAX_STATEMENT_PAGES,
		proof: 'whole',
		inFlight: PAGES_IN_FLIGHT,
		range,
		keep,
		fail: (problem) => readError(ctx, list, problem),
	});
	return { records, pages };
}

/** The account's record (balances, fee bearer). */
async function readAccount(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
): Promise<IDataObject | undefined> {
	const request: ApiRequest = { method: 'GET', route: ACCOUNT_PATH, url: ACCOUNT_PATH };
	const response = await callApi(ctx, http, request, 'safe');
	if (!isSuccess(response)) throw serviceError(ctx, request, response);
	return isObject(response.body.data) ? response.body.data : undefined;
}

/** A list of one answer that only names (the deposit assets, the payout addresses): `[]` when it cannot be read. */
async function readNaming(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	path: string,
): Promise<IDataObject[]> {
	try {
		const response = await callApi(ctx, http, { method: 'GET', route: path, url: path }, 'safe');
		const data = isSuccess(response) ? response.body.data : undefined;
		return Array.isArray(data) ? data.filter(isObject) : [];
	} catch {
		return [];
	}
}

/** The three lists, whole and of whole records (Statement → Match), all at once; no deposit-asset list. */
export async function readStatementLists(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
): Promise<ReadLists> {
	const [trades, withdrawals, wallets] = await allRead([
		readList(ctx, http, 'transactions'),
		readList(ctx, http, 'withdrawals'),
		readList(ctx, http, 'wallets'),
	]);
	return {
		trades: trades.records,
		withdrawals: withdrawals.records,
		wallets: wallets.records,
		assets: [],
		pages: pagesOf(trades, withdrawals, wallets),
	};
}

/** What Statement → Get reads: the lists at once, records kept in columns, then the account, so its balances include them all. */
export async function readStatementDay(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	since: number,
): Promise<ReadLists<KeptRecords>> {
	const columns = {
		transactions: new RecordColumns(LINE_FIELDS.transactions),
		withdrawals: new RecordColumns(LINE_FIELDS.withdrawals),
	};
	const bankPath = ROUTES.bankAccounts.path;
	const [trades, withdrawals, wallets, assets, bankAccounts, payoutAddresses] = await allRead([
		readList(ctx, http, 'transactions', since, (record) => columns.transactions.keep(record)),
		readList(ctx, http, 'withdrawals', since, (record) => columns.withdrawals.keep(record)),
		readList(ctx, http, 'wallets'),
		readNaming(ctx, http, ROUTES.depositAssets.path),
		// The payees' names: the saved bank accounts (every page) and payout addresses, `[]` when unread.
		walkList(ctx, http, {
			request: { method: 'GET', route: bankPath, url: bankPath },
			size: STATEMENT_PAGE_SIZE,
			maxPages: 100,
			proof: 'whole',
			inFlight: PAGES_IN_FLIGHT,
			fail: (problem) => new Error(`the bank accounts list could not be read (${problem.kind})`),
		}).then(
			(walked) => walked.records,
			() => [],
		),
		readNaming(ctx, http, ROUTES.payoutAddresses.path),
	]);
	return {
		trades: new KeptRecords(columns.transactions, trades.records),
		withdrawals: new KeptRecords(columns.withdrawals, withdrawals.records),
		wallets: wallets.records,
		assets,
		bankAccounts,
		payoutAddresses,
		account: await readAccount(ctx, http),
		pages: pagesOf(trades, withdrawals, wallets),
	};
}

type Read = { pages: number };
const pagesOf = (trades: Read, withdrawals: Read, wallets: Read) => ({
	transactions: trades.pages,
	withdrawals: withdrawals.pages,
	wallets: wallets.pages,
});
