/**
 * The service's clock (docs/fake-api.md, "The service's clock"): the time source (options.now,
 * default Date.now) plus an offset. Standing the service at an instant sets the offset, so it runs
 * on from there at the speed of its source. It only moves forward: every date the fake writes, the
 * ids built from it and the due times of its scheduler stay in order.
 */

/** Why a move of the clock is refused (the admin route answers 400 with it). */
export class ClockError extends Error {}

export class ServiceClock {
	private offset = 0;

	constructor(private readonly source: () => number) {}

	now(): number {
		return this.source() + this.offset;
	}

	/** How far the service stands from its source, in ms (0: it keeps its source's time). */
	get offsetMs(): number {
		return this.offset;
	}

	/** Throws when the service cannot stand at `at` (ms): not an instant, or earlier than its now. */
	check(at: number): void {
		if (!Number.isFinite(at))
			throw new ClockError('at must be a date-time, e.g. 2026-03-11T00:05:00Z');
		const now = this.now();
		if (at < now) {
			throw new ClockError(
				`the service's clock only moves forward: ${new Date(at).toISOString()} is before its now, ${new Date(now).toISOString()}`,
			);
		}
	}

	/** Stands the service at `at`, or leaves it where it is when `at` is already past (never back). */
	moveTo(at: number): void {
		this.offset += Math.max(0, at - this.now());
	}

	/** Where a restart leaves the service: its saved offset (state files), or an instant to start at. */
	restore(offsetMs: number): void {
		if (Number.isFinite(offsetMs)) this.offset = offsetMs;
	}
}

/** An instant: ms since the epoch, or an ISO 8601 date-time (`2026-03-11T00:05:00Z`; without a zone it is UTC). */
export function parseInstant(value: unknown): number {
	if (typeof value === 'number') return value;
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return Number.NaN;
	const text = value.trim();
	const zoned =
		/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text) || /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : `${text}Z`;
	return Date.parse(zoned);
}

/**
 * A forward move in ms: a number of ms, an ISO 8601 duration of weeks, days, hours, minutes and
 * seconds (`PT10M`, `P1D`, `P1DT6H`), or a short one (`90s`, `10m`, `6h`, `1d`). Months and years
 * have no fixed length: stand at an instant (`at`) instead. NaN when it is none of these.
 */
export function parseDuration(value: unknown): number {
	if (typeof value === 'number') return value;
	if (typeof value !== 'string') return Number.NaN;
	const text = value.trim();
	const short = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/i.exec(text);
	if (short)
		return (
			Number(short[1]) *
			{ ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[short[2].toLowerCase() as 'ms']
		);
	const iso = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(
		text,
	);
	if (!iso || text.toUpperCase() === 'P' || /T$/i.test(text)) return Number.NaN;
	const [, weeks, days, hours, minutes, seconds] = iso.map((part) => Number(part ?? 0));
	return (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60_000 + seconds * 1000;
}
