/**
 * The statement's day: one UTC day, whatever n8n's time zone (docs/statement.md, "The day").
 * Pure functions: no clock of their own, the caller gives `now`.
 */

import { DAY_MS, utcDayStart, utcDayText } from '../../service/utcDay';
import { instantMs } from '../../service/values';

/**
 * How many days before the statement's day its records are read (docs/statement.md, "The day"): a
 * record created then and refunded or credited on the day is on the day's statement. A movement
 * later than that after its record is on none, and the summary's `lookBack` says so.
 */
export const LOOK_BACK_DAYS = 10;

export interface Day {
	/** YYYY-MM-DD. */
	day: string;
	/** First millisecond of the day, UTC. */
	start: number;
	/** First millisecond of the next day, UTC (exclusive). */
	end: number;
}

export function dayOf(text: string): Day {
	const start = instantMs(`${text}T00:00:00.000Z`);
	return { day: text, start, end: start + DAY_MS };
}

/** Yesterday in UTC, from n8n's clock. */
export function yesterday(now: number): Day {
	return dayOf(utcDayText(utcDayStart(now) - DAY_MS));
}

/**
 * The day a value names, or why it names none. A date as written (`2026-03-10`), or the date part
 * of a date-time as written (`2026-03-10T00:00:00+01:00` is the 10th, whatever its offset: the
 * user wrote that day); a Luxon DateTime or a Date from an expression is read by its text the same
 * way. Empty means yesterday (UTC).
 */
export function parseDay(value: unknown, now: number): Day | { error: string } {
	if (value === undefined || value === null || value === '') return yesterday(now);
	const text = (
		typeof value === 'string'
			? value
			: value instanceof Date
				? value.toISOString()
				: typeof (value as { toISO?: unknown }).toISO === 'function'
					? String((value as { toISO: () => string }).toISO())
					: ''
	).trim();
	const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(text);
	if (!match) return { error: `must be a day written YYYY-MM-DD (UTC), e.g. ${yesterday(now).day}; got ${JSON.stringify(typeof value === 'string' ? value : text || typeof value)}` };
	const day = dayOf(`${match[1]}-${match[2]}-${match[3]}`);
	if (!Number.isFinite(day.start) || new Date(day.start).toISOString().slice(0, 10) !== day.day) {
		return { error: `${JSON.stringify(day.day)} is not a day of the calendar` };
	}
	return day;
}
