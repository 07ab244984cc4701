/** The statement's day, one UTC day whatever n8n's time zone (docs/statement.md, "The day"); the caller gives `now`. */

import { DAY_MS, utcDayStart, utcDayText } from '../../service/utcDay';
import { instantMs } from '../../service/values';

/** How many days before the statement's day its records are read (docs/statement.md, "A range of days": the look-back window). */
export const LOOK_BACK_DAYS = 10;

export interface Day {
	/** YYYY-MM-DD; a range's first and last day, `2026-03-01_2026-03-31`. */
	day: string;
	/** First millisecond of the day, UTC. */
	start: number;
	/** First millisecond of the next day, UTC (exclusive). */
	end: number;
	/** A range's days, YYYY-MM-DD, first to last (undefined for one day). */
	days?: string[];
}

/** The most days a range may hold (Statement → Get, Period Range). */
export const MAX_RANGE_DAYS = 31;

/** The days from `from` to `to`, both included, or the field that is wrong and why (docs/statement.md, "Statement → Get"). */
export function parseRange(
	from: unknown,
	to: unknown,
	now: number,
): Day | { field: 'from' | 'to'; error: string } {
	const ends: Day[] = [];
	for (const field of ['from', 'to'] as const) {
		const value = field === 'from' ? from : to;
		if (value === undefined || value === null || value === '')
			return {
				field,
				error: `${field} is required with Period Range: the ${field === 'from' ? 'first' : 'last'} day, YYYY-MM-DD (UTC)`,
			};
		const day = parseDay(value, now);
		if ('error' in day) return { field, error: `${field} ${day.error}` };
		ends.push(day);
	}
	const [first, last] = ends;
	if (last.start < first.start)
		return { field: 'to', error: `to (${last.day}) is before From (${first.day})` };
	const count = Math.round((last.end - first.start) / DAY_MS);
	if (count > MAX_RANGE_DAYS)
		return {
			field: 'to',
			error: `the range ${first.day} to ${last.day} holds ${count} days: at most ${MAX_RANGE_DAYS}`,
		};
	const days = Array.from({ length: count }, (_, index) =>
		utcDayText(first.start + index * DAY_MS),
	);
	return { day: `${first.day}_${last.day}`, start: first.start, end: last.end, days };
}

export function dayOf(text: string): Day {
	const start = instantMs(`${text}T00:00:00.000Z`);
	return { day: text, start, end: start + DAY_MS };
}

/** Yesterday in UTC, from n8n's clock. */
export function yesterday(now: number): Day {
	return dayOf(utcDayText(utcDayStart(now) - DAY_MS));
}

/** The day a value names as written, whatever its offset, or why it names none; empty is yesterday (docs/statement.md, "The day"). */
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
	if (!match)
		return {
			error: `must be a day written YYYY-MM-DD (UTC), e.g. ${yesterday(now).day}; got ${JSON.stringify(typeof value === 'string' ? value : text || typeof value)}`,
		};
	const day = dayOf(`${match[1]}-${match[2]}-${match[3]}`);
	if (!Number.isFinite(day.start) || new Date(day.start).toISOString().slice(0, 10) !== day.day)
		return { error: `${JSON.stringify(day.day)} is not a day of the calendar` };
	return day;
}
