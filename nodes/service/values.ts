import type { IDataObject } from 'n8n-workflow';

/** A plain JSON object (not null, not a list). */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A scalar field as text (`''` when absent or not a string, number or boolean). */
export function scalarText(value: unknown): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
		return String(value);
	return '';
}

/** An ISO date and time without a zone (`2026-03-01T12:00:00`, `2026-03-01 12:00:00.123`). */
const WITHOUT_ZONE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

/**
 * A time in ms from a date the service writes: ISO text, an HTTP date, or epoch milliseconds; null
 * when absent or unreadable. A date and time without a zone is read as UTC: `Date.parse` would read
 * it in n8n's own time zone (its `TZ`), so the same record would move with the n8n instance reading it.
 */
export function timeMs(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	const text = scalarText(value).trim();
	if (text === '') return null;
	const local = WITHOUT_ZONE.exec(text);
	const time = /^\d+$/.test(text)
		? Number(text)
		: Date.parse(local ? `${local[1]}T${local[2]}Z` : text);
	return Number.isFinite(time) ? time : null;
}

/** The time of an instant the node wrote itself (toISOString's form); NaN when it is not one. Cheaper than timeMs on a busy day's lines. */
export const instantMs = (text: string) => Date.parse(text);

/**
 * The trade a withdrawal record's `trade` names: an id, or an object with one (auto-settlement
 * payouts the service makes from a deposit have one). `false`, `0`, `{}`, `""` and the text
 * `"null"` name no trade (docs/guardrails.md, "The value of a listed withdrawal"). One reading for
 * the daily limit, the statement and the units of a withdrawal's amounts.
 */
export function tradeIdOf(value: unknown): string | undefined {
	if (isObject(value)) return tradeIdOf(value.id) ?? tradeIdOf(value._id);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return /^[A-Za-z0-9][\w-]*$/.test(text) &&
		!/^(null|undefined|none|nil|false|true|nan|0+)$/i.test(text)
		? text
		: undefined;
}

/**
 * An option that takes an object (a collection field, or JSON text from an expression): the object,
 * or undefined when it is neither.
 */
export function objectIn(value: unknown): Record<string, unknown> | undefined {
	let object: unknown = value;
	if (typeof value === 'string') {
		try {
			object = JSON.parse(value) as unknown;
		} catch {
			return undefined;
		}
	}
	return isObject(object) ? object : undefined;
}
