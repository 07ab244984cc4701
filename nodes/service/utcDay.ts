/**
 * One UTC day, the unit of the daily limit (docs/guardrails.md, "Max per Day") and of the statement
 * (docs/statement.md, "The day"). Pure: no clock of its own, the caller gives the time.
 */

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** The first millisecond (UTC) of the day holding `time`. */
export function utcDayStart(time: number): number {
	const date = new Date(time);
	return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** The day holding `time`, written YYYY-MM-DD (UTC). */
export const utcDayText = (time: number) => new Date(utcDayStart(time)).toISOString().slice(0, 10);
