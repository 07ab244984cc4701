import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { ROUTES } from '../../service/routes';
import type { HttpCall } from '../../service/api';
import { header } from '../../service/pacing';
import { statusOf } from '../../service/catalog';
import { scalarText, timeMs, tradeIdOf } from '../../service/values';
import { statedAmount } from '../../service/money';
import { DAY_MS, utcDayStart } from '../../service/utcDay';
import { maxPagesFor } from '../engine/lists';
import { movingWords, walkList, type Walked } from '../engine/pageWalker';
import { valueUsd, type Rates } from './rates';

/**
 * Today's withdrawals of a credential in USD: today's range asked for, never trusted; every page read;
 * only records created today, by the node's own check (docs/guardrails.md, "Max per Day").
 */

/**
 * How far the service's clock (its Date header) may move n8n's "today": minutes, never a day. A
 * header further off refuses the item: n8n's clock or the service's is wrong, and which day it is
 * cannot be told, so the day's total cannot be either.
 */
const SERVICE_CLOCK_SKEW_MS = 5 * 60_000;

/** The page size of these reads (the largest the service answers in full, as Withdrawal → Get Many reads). */
const WITHDRAWALS_PAGE_SIZE = 100;

/** Walks of the list one count may take when the list changes under a walk (records move between pages). */
const WALKS = 3;

/** Pages of the list asked at once once its count of pages is known (the client's pacing still applies). */
const PAGES_IN_FLIGHT = 8;

/** The start (UTC) of today: n8n's clock, moved by the service's Date header within SERVICE_CLOCK_SKEW_MS. */
function todayStart(dateHeader: string | undefined, now: number): number {
	const told = timeMs(dateHeader);
	if (told !== null && Math.abs(told - now) > SERVICE_CLOCK_SKEW_MS) {
		const minutes = Math.round((told - now) / 60_000);
		throw new Error(
			`the service's clock (Date: ${String(dateHeader)}) is ${Math.abs(minutes)} minutes ${minutes > 0 ? 'ahead of' : 'behind'} n8n's clock, more than the ${SERVICE_CLOCK_SKEW_MS / 60_000} minutes allowed, so which day it is cannot be told; check the clock of the n8n server`,
		);
	}
	return utcDayStart(told ?? now);
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

/**
 * The list, read whole (`whole`, engine/pageWalker.ts), with today's range or without where the service
 * refuses it; a list that grew while read is read again too (docs/guardrails.md, "Max per Day").
 */
async function readList(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	now: number,
): Promise<Walked> {
	const { path } = ROUTES.withdrawals;
	const size = WITHDRAWALS_PAGE_SIZE;
	return await walkList(ctx, http, {
		request: { method: 'GET', route: path, url: path },
		size,
		maxPages: maxPagesFor(size),
		proof: 'whole',
		walks: WALKS,
		inFlight: PAGES_IN_FLIGHT,
		range: rangeAsked(now),
		fail: (problem) => {
			if (problem.kind === 'page') return problem.error as Error;
			const why =
				problem.kind === 'moving'
					? movingWords(problem)
					: problem.kind === 'repeats'
						? `repeats its pages (page ${problem.page} brought no record not already read)`
						: `is longer than the node reads for one check (${problem.maxPages} pages of ${size})`;
			return new Error(
				`the service's withdrawal list ${why}, so today's withdrawals could not be counted`,
			);
		},
	});
}

/**
 * A listed withdrawal's value in USD, from what it states (read as the statement reads it: service/money.ts, statedAmount): its USD `amount`; where that is missing
 * or 0, its `cryptoAmount` at the service's price of its `token`. Never below zero: an amount that is
 * not a number of 0 or more, or a record that states no value, cannot be valued and refuses.
 */
async function recordUsd(
	record: IDataObject,
	rates: () => Promise<Rates | undefined>,
): Promise<number> {
	const name = `withdrawal ${scalarText(record.id) || '(without an id)'}`;
	const usd = statedAmount(record.amount);
	const crypto = statedAmount(record.cryptoAmount);
	if (usd === 'invalid')
		throw new Error(
			`${name} states an amount of ${JSON.stringify(record.amount)}, which is not a USD amount of 0 or more, so it cannot be valued`,
		);
	if (typeof usd === 'number' && usd > 0) return usd;
	if (crypto === 'invalid')
		throw new Error(
			`${name} states a crypto amount of ${JSON.stringify(record.cryptoAmount)}, which is not an amount of 0 or more, so it cannot be valued`,
		);
	if (typeof crypto === 'number' && crypto > 0) {
		const value = valueUsd({ token: scalarText(record.token), crypto }, await rates());
		if (typeof value === 'string')
			throw new Error(
				`${name} states no USD amount and its crypto amount cannot be valued: ${value}`,
			);
		return value;
	}
	if (usd === 0) return 0;
	throw new Error(
		`${name} states neither a USD amount nor a crypto amount, so it cannot be valued`,
	);
}

/**
 * Today's (UTC, see todayStart) withdrawals of this credential, in USD: every withdrawal created
 * today counts but those whose status LIFECYCLES marks refunded, and the payouts the service makes
 * by itself from deposits (auto-settlement: a `trade` that names one).
 */
export async function readTodaysTotal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	rates: () => Promise<Rates | undefined>,
): Promise<number> {
	const now = Date.now();
	const { records, first } = await readList(ctx, http, now);
	const dayStart = todayStart(header(first.headers, 'date'), now);
	let total = 0;
	for (const record of records) {
		// One reading of a service date (timeMs): a date without a zone is UTC, whatever n8n's TZ.
		const created = timeMs(record.createdAt);
		if (created === null)
			throw new Error(`withdrawal ${scalarText(record.id)} has no creation date`);
		if (created < dayStart) continue;
		if (
			statusOf('withdrawal', scalarText(record.status).toLowerCase())?.refunded ||
			tradeIdOf(record.trade) !== undefined
		)
			continue;
		total += await recordUsd(record, rates);
	}
	return total;
}
