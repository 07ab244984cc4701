import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { ROUTES } from '../../service/routes';
import { callApi } from '../../service/transport';
import type { ApiRequest, ApiResponse, HttpCall } from '../../service/api';
import { isSuccess, serviceError } from '../../service/apiErrors';
import { header } from '../../service/pacing';
import { statusOf } from '../../service/catalog';
import { isObject, scalarText, tradeIdOf } from '../../service/values';
import { maxPagesFor } from '../engine/lists';
import { valueUsd, type Rates } from './rates';

/**
 * Today's withdrawals of a credential in USD, for Max per Day (docs/guardrails.md, "Max per Day").
 * The service documents neither the order of its withdrawal list nor a filter of it, so the count
 * depends on neither: it asks for today's range (`startDate`, `endDate`, as the service's other
 * lists take them) and reads every page of the answer, whatever the answer holds. Where the service
 * honours the range the answer is a few pages; where it does not, it is the whole list, read within
 * the page budget and refused beyond it. Only records created today count, by the node's own check
 * of each record, never by the filter's word.
 */

/**
 * How far the service's clock (its Date header) may move n8n's "today": minutes, never a day. A
 * header further off refuses the item: n8n's clock or the service's is wrong, and which day it is
 * cannot be told, so the day's total cannot be either.
 */
export const SERVICE_CLOCK_SKEW_MS = 5 * 60_000;

const DAY_MS = 86_400_000;

/** The page size of these reads (the largest the service answers in full, as Withdrawal → Get Many reads). */
export const WITHDRAWALS_PAGE_SIZE = 100;

/** Walks of the list one count may take when the list changes under a walk (records move between pages). */
const WALKS = 3;

/** The start (UTC) of today: n8n's clock, moved by the service's Date header within SERVICE_CLOCK_SKEW_MS. */
function todayStart(dateHeader: string | undefined, now: number): number {
	const told = Date.parse(dateHeader ?? '');
	if (Number.isFinite(told) && Math.abs(told - now) > SERVICE_CLOCK_SKEW_MS) {
		const minutes = Math.round((told - now) / 60_000);
		throw new Error(
			`the service's clock (Date: ${String(dateHeader)}) is ${Math.abs(minutes)} minutes ${minutes > 0 ? 'ahead of' : 'behind'} n8n's clock, more than the ${SERVICE_CLOCK_SKEW_MS / 60_000} minutes allowed, so which day it is cannot be told; check the clock of the n8n server`,
		);
	}
	const today = new Date(Number.isFinite(told) ? told : now);
	return Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
}

/**
 * The range asked of the service: from the start of the UTC day a clock skew ago (the service's
 * Date header, read with the first page, may make today the day before n8n's) to a day from now
 * (records dated ahead of the clock count too).
 */
function rangeAsked(now: number): IDataObject {
	return {
		startDate: new Date(todayStart(undefined, now - SERVICE_CLOCK_SKEW_MS)).toISOString(),
		endDate: new Date(now + DAY_MS).toISOString(),
	};
}

/** One complete read of the list: its distinct records, and what the service said of its length on the first page. */
interface Walk {
	records: IDataObject[];
	totalDocs: number | undefined;
	dateHeader: string | undefined;
}

const recordKey = (record: IDataObject) => {
	const id = scalarText(record.id ?? record._id);
	return id || JSON.stringify(record);
};

/** Every page of one query, in order, until the service says there is no next page; refused beyond the page budget. */
async function walkList(ctx: IExecuteSingleFunctions, http: HttpCall, range: IDataObject | undefined): Promise<Walk | ApiResponse> {
	const { path } = ROUTES.withdrawals;
	const size = WITHDRAWALS_PAGE_SIZE;
	const seen = new Map<string, IDataObject>();
	let dateHeader: string | undefined;
	let totalDocs: number | undefined;
	for (let page = 1; page <= maxPagesFor(size); page++) {
		const request: ApiRequest = { method: 'GET', route: path, url: path, qs: { page, size, ...range } };
		const response = await callApi(ctx, http, request, 'safe');
		// The range is the service's to refuse: an answer of 400 or 422 to it is read again without.
		if (page === 1 && range && (response.statusCode === 400 || response.statusCode === 422)) return response;
		if (!isSuccess(response)) throw serviceError(ctx, request, response);
		if (page === 1) {
			dateHeader = header(response.headers, 'date');
			const total = Number(response.body.meta?.totalDocs);
			totalDocs = Number.isInteger(total) && total >= 0 ? total : undefined;
		}
		const records = Array.isArray(response.body.data) ? response.body.data.filter(isObject) : [];
		// A list that shifts while it is read repeats a record at a page boundary: kept once.
		for (const record of records) seen.set(recordKey(record), record);
		if (records.length === 0 || response.body.meta?.hasNextPage !== true) return { records: [...seen.values()], totalDocs, dateHeader };
	}
	throw new Error(
		`the service's withdrawal list is longer than the node reads for one check (${maxPagesFor(size)} pages of ${size}), so today's withdrawals could not be counted`,
	);
}

/**
 * The list, read whole: with today's range, or without where the service refuses the range. A
 * walk that saw fewer distinct records than the list held when it began (`meta.totalDocs` of its
 * first page) missed some (a record moved to a page already read): the list is read again, up to
 * WALKS times, then the check is refused. Records added while a walk runs (the list grows on a
 * busy account) do not make it read again: they were not there when it began.
 */
async function readList(ctx: IExecuteSingleFunctions, http: HttpCall, now: number): Promise<Walk> {
	let range: IDataObject | undefined = rangeAsked(now);
	let short = '';
	for (let walk = 1; walk <= WALKS; walk++) {
		let answer = await walkList(ctx, http, range);
		if (!('records' in answer)) {
			range = undefined;
			answer = (await walkList(ctx, http, range)) as Walk;
		}
		if (answer.totalDocs === undefined || answer.records.length >= answer.totalDocs) return answer;
		short = `${answer.records.length} of the ${answer.totalDocs} it held when the read began`;
	}
	throw new Error(`the service's withdrawal list changed under every one of ${WALKS} reads (the last saw ${short}), so today's withdrawals could not be counted`);
}

/** An amount a record states: a number of 0 or more (or such text); `missing` when absent or empty; `invalid` otherwise. */
function statedAmount(value: unknown): number | 'missing' | 'invalid' {
	if (value === undefined || value === null || value === '') return 'missing';
	if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : 'invalid';
	if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return 'invalid';
}

/**
 * A listed withdrawal's value in USD, from what it states: its USD `amount`; where that is missing
 * or 0, its `cryptoAmount` at the service's price of its `token`. Never below zero: an amount that is
 * not a number of 0 or more, or a record that states no value, cannot be valued and refuses.
 */
export async function recordUsd(record: IDataObject, rates: () => Promise<Rates | undefined>): Promise<number> {
	const name = `withdrawal ${scalarText(record.id) || '(without an id)'}`;
	const usd = statedAmount(record.amount);
	const crypto = statedAmount(record.cryptoAmount);
	if (usd === 'invalid') throw new Error(`${name} states an amount of ${JSON.stringify(record.amount)}, which is not a USD amount of 0 or more, so it cannot be valued`);
	if (typeof usd === 'number' && usd > 0) return usd;
	if (crypto === 'invalid') throw new Error(`${name} states a crypto amount of ${JSON.stringify(record.cryptoAmount)}, which is not an amount of 0 or more, so it cannot be valued`);
	if (typeof crypto === 'number' && crypto > 0) {
		const value = valueUsd({ token: scalarText(record.token), crypto }, await rates());
		if (typeof value === 'string') throw new Error(`${name} states no USD amount and its crypto amount cannot be valued: ${value}`);
		return value;
	}
	if (usd === 0) return 0;
	throw new Error(`${name} states neither a USD amount nor a crypto amount, so it cannot be valued`);
}

/**
 * Today's (UTC, see todayStart) withdrawals of this credential, in USD: every withdrawal created
 * today counts but those whose status LIFECYCLES marks refunded, and the payouts the service makes
 * by itself from deposits (auto-settlement: a `trade` that names one).
 */
export async function readTodaysTotal(ctx: IExecuteSingleFunctions, http: HttpCall, rates: () => Promise<Rates | undefined>): Promise<number> {
	const now = Date.now();
	const { records, dateHeader } = await readList(ctx, http, now);
	const dayStart = todayStart(dateHeader, now);
	let total = 0;
	for (const record of records) {
		const created = Date.parse(scalarText(record.createdAt));
		if (!Number.isFinite(created)) throw new Error(`withdrawal ${scalarText(record.id)} has no creation date`);
		if (created < dayStart) continue;
		if (statusOf('withdrawal', scalarText(record.status).toLowerCase())?.refunded || tradeIdOf(record.trade) !== undefined) continue;
		total += await recordUsd(record, rates);
	}
	return total;
}
