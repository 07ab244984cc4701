import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeListSearchItems,
	INodePropertyOptions,
	JsonObject,
} from 'n8n-workflow';
import { SPECS } from '../operations';
import { CREDENTIAL_TYPE } from '../../service/credentials';
import { scalarText } from '../../service/values';
import { callApi, createAuthenticatedHttpCall, networkCode } from '../../service/transport';
import type { ApiRequest, ApiResponse } from '../../service/api';
import { apiError, isSuccess } from '../../service/apiErrors';
import { allRead, walkList } from '../engine/pageWalker';

/** Records asked for per page by the locators' lists (the service's largest page). */
const SEARCH_PAGE_SIZE = 100;
/** With a search text, pages scanned per call before the list offers "load more". */
const SEARCH_PAGES_PER_CALL = 10;

/** The editor's error of a list it could not load: the service's message and HTTP code, never the request (which holds the credentials). */
function loadError(ctx: ILoadOptionsFunctions, error: unknown, response?: ApiResponse): Error {
	const httpCode = response
		? String(response.statusCode)
		: ((error as { httpCode?: string }).httpCode ?? undefined);
	const message = response
		? `${response.body.message || 'request failed'} (HTTP ${httpCode})`
		: (networkCode(error) ?? (error as Error).message);
	return apiError(ctx.getNode(), { message, ...(httpCode ? { httpCode } : {}) } as JsonObject, {
		message: `Could not load the list: ${message}`,
		httpCode,
	});
}

/**
 * Choices for the editor's dropdowns and resource locators from a list the service gives whole (no
 * pages). A failing call raises the service's own message and HTTP code (n8n shows the message in
 * the dropdown).
 */
async function fetchList(
	ctx: ILoadOptionsFunctions,
	url: string,
	qs: IDataObject = {},
): Promise<IDataObject[]> {
	const request: ApiRequest = { method: 'GET', route: url, url, qs };
	const http = createAuthenticatedHttpCall(ctx, CREDENTIAL_TYPE);
	let response: ApiResponse;
	try {
		// The same pipeline as the node's requests: pacing, 429 waits, backoff, no redirects.
		response = await callApi(ctx, http, request, 'safe');
	} catch (error) {
		throw loadError(ctx, error);
	}
	if (!isSuccess(response)) throw loadError(ctx, undefined, response);
	return Array.isArray(response.body.data) ? (response.body.data as IDataObject[]) : [];
}

const text = scalarText;

/**
 * What every list offers while the node has no credential (issue 45): a new node's lists are
 * loaded from the service with the credential, and n8n loads them again once one is selected
 * (a list depends on the node's credential). Without one, asking the service would only fail after
 * its retries ("Error fetching options", and n8n's log blaming the service); one entry says what
 * to do instead. Its value is empty: picked, the field stays empty and the node says so.
 */
export const NO_CREDENTIAL = 'Select a credential above first: this list comes from the service';

const hasCredential = (ctx: ILoadOptionsFunctions) =>
	!!ctx.getNode().credentials?.[CREDENTIAL_TYPE];

/** The one entry of a dropdown without a credential. */
const needsCredential = (): INodePropertyOptions[] => [{ name: NO_CREDENTIAL, value: '' }];

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** A search matches the shown name or the ID, ignoring case. */
function matches(result: INodeListSearchItems, filter?: string): boolean {
	if (!filter?.trim()) return true;
	const wanted = filter.trim().toLowerCase();
	return [result.name, String(result.value)].some((shown) => shown.toLowerCase().includes(wanted));
}

/** The deposit assets, by name; `value` picks what the option stands for (Wallet → Create: the id). */
async function depositAssets(
	ctx: ILoadOptionsFunctions,
	value: (asset: IDataObject) => string,
): Promise<INodePropertyOptions[]> {
	if (!hasCredential(ctx)) return needsCredential();
	const records = await fetchList(ctx, SPECS.asset.getDepositAssets.path);
	return records
		.map((asset) => ({
			name: `${text(asset.name)} (${text(asset.symbol)}${asset.network ? ` on ${text(asset.network)}` : ''})`,
			value: value(asset),
			description: asset.identifier ? `Identifier ${text(asset.identifier)}` : undefined,
		}))
		.filter((option) => option.value !== '')
		.sort(byName);
}

export async function getDepositAssets(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await depositAssets(this, (asset) => text(asset.id ?? asset._id));
}

/** Sandbox → Mock Deposit names the asset by its identifier (TRX_TEST), as Wallet → Create's list shows it. */
export async function getDepositAssetIdentifiers(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await depositAssets(this, (asset) => text(asset.identifier));
}

/** Banks of the chosen currency; where the operation has no currency, NGN and GHS banks together. */
export async function getBanks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	if (!hasCredential(this)) return needsCredential();
	const chosen = this.getCurrentNodeParameter('currency') as string | undefined;
	const currencies = chosen ? [chosen] : ['ngn', 'ghs'];
	const lists = await allRead(
		currencies.map(async (currency) =>
			(await fetchList(this, SPECS.bank.getAll.path, { currency })).map((bank) => ({
				name: chosen ? text(bank.name) : `${text(bank.name)} (${currency.toUpperCase()})`,
				value: text(bank.id),
			})),
		),
	);
	return lists.flat().sort(byName);
}

/**
 * Pages of a paginated list through the node's page walker (engine/pageWalker.ts), one at a time: one
 * page, or with a search text (the service has none) pages until enough matches are found or
 * SEARCH_PAGES_PER_CALL is reached; the token says where the next call goes on.
 */
async function searchPaged(
	ctx: ILoadOptionsFunctions,
	url: string,
	toResult: (record: IDataObject) => INodeListSearchItems,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const firstPage = Math.max(1, Number(paginationToken) || 1);
	const found = (records: IDataObject[]) =>
		records.map(toResult).filter((result) => matches(result, filter));
	const walked = await walkList(ctx, createAuthenticatedHttpCall(ctx, CREDENTIAL_TYPE), {
		request: { method: 'GET', route: url, url },
		size: SEARCH_PAGE_SIZE,
		maxPages: filter?.trim() ? SEARCH_PAGES_PER_CALL : 1,
		proof: 'limit',
		inFlight: 1,
		firstPage,
		pastBudget: 'pause',
		enough: (records) => found(records).length >= SEARCH_PAGE_SIZE,
		fail: (problem) =>
			problem.kind === 'page'
				? loadError(ctx, problem.error, problem.response)
				: loadError(ctx, new Error('the list repeats its pages')),
	});
	const results = found(walked.records);
	return walked.ended ? { results } : { results, paginationToken: String(walked.lastPage + 1) };
}

/**
 * What a list with nothing to choose from offers (issue 36): one entry saying there is none yet and
 * how to add one, instead of n8n's "No results", or its "Could not load list" title above an error.
 * The editor shows only an entry's name. Its value is empty: picked, it leaves the field empty, so
 * the node refuses the item naming the field before any request.
 */
function noneYet(name: string): INodeListSearchResult {
	return { results: [{ name, value: '' }] };
}

/**
 * A list search over one of the node's paged lists (its Get Many path), one result per record; a
 * list with no record at all (no search text) offers `none` instead.
 */
function pagedSearch(
	path: string,
	toResult: (record: IDataObject) => INodeListSearchItems,
	none: string,
) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		if (!hasCredential(this)) return noneYet(NO_CREDENTIAL);
		const found = await searchPaged(this, path, toResult, filter, paginationToken);
		return !filter?.trim() && !paginationToken && !found.results.length && !found.paginationToken
			? noneYet(none)
			: found;
	};
}

/** Short enough to show whole in the field-wide dropdown (it cuts longer names with an ellipsis). */
export const NONE_YET = {
	bankAccounts: 'None saved yet: add one with Bank Account → Create',
	payoutAddresses: 'None saved yet: add one with Payout Address → Create',
	wallets: 'No wallets yet: create one with Wallet → Create',
};

export const searchWallets = pagedSearch(
	SPECS.wallet.getAll.path,
	(wallet) => ({
		name: `${text(wallet.label) || text(wallet.id)} — ${text(wallet.name)} ${text(wallet.address)}`.trim(),
		value: text(wallet.id),
	}),
	NONE_YET.wallets,
);

export const searchBankAccounts = pagedSearch(
	SPECS.bankAccount.getAll.path,
	(account) => ({
		name: `${text(account.bankName)} ${text(account.accountNumber)} — ${text(account.accountName)}`.trim(),
		value: text(account.id),
	}),
	NONE_YET.bankAccounts,
);

/** The service returns every payout address at once; a search filters that list. */
export async function searchPayoutAddresses(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	if (!hasCredential(this)) return noneYet(NO_CREDENTIAL);
	const records = await fetchList(this, SPECS.payoutAddress.getAll.path);
	if (!records.length && !filter?.trim()) return noneYet(NONE_YET.payoutAddresses);
	return {
		results: records
			.map((address) => ({
				name: `${text(address.label) || text(address.address)} — ${text(address.token)}${address.network ? ` ${text(address.network)}` : ''}`,
				value: text(address.id ?? address._id),
			}))
			.filter((result) => matches(result, filter)),
	};
}
