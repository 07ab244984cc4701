import { sleep, type IDataObject } from 'n8n-workflow';
import type { ApiContext } from './api';
import { timeMs } from './values';
import { sharedOf } from './boundedMemory';

/**
 * Pacing and retry bounds of the API client (service/transport.ts): the rolling-minute budget of
 * rate-limited routes, the adaptive in-flight limit per credential and route, and how long to
 * wait before trying again (docs/api.md, "Rate limits").
 */

/**
 * The service's rolling minute, counted here from when a request's answer came back (`countFrom`),
 * which is after the service counted it, so network latency needs no margin; 250 ms covers a service
 * that rounds its clock.
 */
const RATE_WINDOW_MS = 60_250;
/**
 * Requests in flight per credential and route adapt to the service (docs/usage.md, "Pacing, retries and
 * timeouts"): they start at 32, grow by one per fast clean answer (doubling per round trip) up to
 * 256, and halve on a 429, a 5xx, a failure without an answer, or an answer much slower than usual.
 */
export const CONCURRENCY = { initial: 32, min: 2, max: 256 };

export const RETRY = {
	/** Attempts on 429 before giving up, and the longest we wait in total. */
	maxRateLimitedAttempts: 6,
	maxRateLimitWaitMs: 180_000,
	/** A single 429 wait is capped (a wrong Retry-After must not park a workflow for hours). */
	maxSingleWaitMs: 65_000,
	/** Attempts on 5xx or network failure, for requests that may be repeated. */
	maxAmbiguousAttempts: 4,
	baseBackoffMs: 500,
	maxBackoffMs: 8_000,
	/**
	 * After a send whose outcome is in doubt, how long the External ID is looked up, with backoff,
	 * for a late commit (the service may record it after the gateway or the client gave up).
	 */
	inDoubtLookupWindowMs: 12_000,
};

class Lane {
	/** Send times, ascending: granted ahead of sending, then moved to the actual send time. */
	private sent: Array<{ at: number }> = [];

	blockedUntil = 0;

	/**
	 * Waits until a request may be sent without exceeding `limit` per rolling window, and holds
	 * its place in the window; `countFrom` then moves it to when it really left, and to when its
	 * answer came back.
	 */
	async reserve(limit: number | undefined): Promise<{ at: number } | undefined> {
		const now = Date.now();
		let at = Math.max(now, this.blockedUntil);
		let entry: { at: number } | undefined;
		if (limit) {
			while (this.sent.length && this.sent[0].at <= now - RATE_WINDOW_MS) this.sent.shift();
			if (this.sent.length >= limit)
				at = Math.max(at, this.sent[this.sent.length - limit].at + RATE_WINDOW_MS);
			if (this.sent.length) at = Math.max(at, this.sent[this.sent.length - 1].at);
			entry = { at };
			this.sent.push(entry);
		}
		if (at > now) await sleep(at - now);
		return entry;
	}

	/** Whether a request without a rate limit may go at once (no await, the common case). */
	isOpen(limit: number | undefined, now = Date.now()): boolean {
		return !limit && this.blockedUntil <= now;
	}

	/** The request's place in the window counts from now (it left, or its answer came back), never earlier. */
	countFrom(entry: { at: number } | undefined): void {
		const now = Date.now();
		if (!entry || entry.at >= now) return;
		entry.at = now;
		this.sent.sort((a, b) => a.at - b.at);
	}
}

export class Gate {
	limit = CONCURRENCY.initial;

	private inFlight = 0;

	private readonly queue: Array<() => void> = [];

	/** The fastest answer seen: "usual" latency, which does not drift up under load. */
	private fastestMs = Number.POSITIVE_INFINITY;

	private lastCutAt = 0;

	/** Takes a slot if one is free (no await, the common case). */
	tryEnter(): boolean {
		if (this.inFlight >= this.limit) return false;
		this.inFlight++;
		return true;
	}

	async enter(): Promise<void> {
		if (this.tryEnter()) return;
		await new Promise<void>((resolve) => this.queue.push(resolve));
	}

	/** Frees the slot; `outcome` tells how the service coped with the request. */
	leave(outcome: { overloaded: boolean; latencyMs?: number }, now = Date.now()): void {
		const { latencyMs } = outcome;
		if (latencyMs !== undefined) this.fastestMs = Math.min(this.fastestMs, latencyMs);
		const slow =
			latencyMs !== undefined && latencyMs > Math.max(4 * this.fastestMs, this.fastestMs + 1000);
		if (outcome.overloaded || slow) {
			// One cut per round trip: the answers already in flight report the same congestion.
			if (now - this.lastCutAt > Math.max(this.fastestMs, 50)) {
				this.limit = Math.max(CONCURRENCY.min, Math.floor(this.limit / 2));
				this.lastCutAt = now;
			}
		} else if (this.limit < CONCURRENCY.max) {
			this.limit++;
		}
		this.inFlight--;
		while (this.inFlight < this.limit && this.queue.length) {
			this.inFlight++;
			(this.queue.shift() as () => void)();
		}
	}
}

/** Shared by every execution in this n8n process, so concurrent workflows pace together. */
const lanes = new Map<string, Lane>();
const gates = new Map<string, Gate>();

export const laneFor = (credentialKey: string, route: string): Lane =>
	sharedOf(lanes, `${credentialKey} ${route}`, () => new Lane());

/** Routes do not share a budget, so they do not share in-flight slots either. */
export const gateFor = (credentialKey: string, route: string): Gate =>
	sharedOf(gates, `${credentialKey} ${route}`, () => new Gate());

/** Rate limits are per app id; a credential holds one app id, and its id is known without decrypting it. */
export function credentialKey(ctx: ApiContext): string {
	const credential = ctx.getNode().credentials?.cryptoSettlementApi;
	return credential?.id ?? credential?.name ?? 'default';
}

export function header(headers: IDataObject, name: string): string | undefined {
	const value = headers[name.toLowerCase()] ?? headers[name];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

/** Retry-After (seconds or an HTTP date), else X-RateLimit-Reset (unix seconds), else undefined. */
export function rateLimitWaitMs(headers: IDataObject, now = Date.now()): number | undefined {
	const retryAfter = header(headers, 'retry-after');
	if (retryAfter !== undefined && retryAfter.trim() !== '') {
		const seconds = Number(retryAfter);
		if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
		const date = timeMs(retryAfter);
		if (date !== null) return Math.max(0, date - now);
	}
	const reset = Number(header(headers, 'x-ratelimit-reset'));
	if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
	return undefined;
}

export function backoffMs(attempt: number): number {
	const ceiling = Math.min(RETRY.maxBackoffMs, RETRY.baseBackoffMs * 2 ** attempt);
	return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/**
 * Work under the same key in one process, one at a time, so the second sees what the first did
 * (the same External ID and credential; a credential's daily-limit check).
 */
const turns = new Map<string, Promise<unknown>>();

export async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
	const previous = turns.get(key);
	const current = (async () => {
		if (previous) await previous.catch(() => undefined);
		return await work();
	})();
	turns.set(key, current);
	try {
		return await current;
	} finally {
		if (turns.get(key) === current) turns.delete(key);
	}
}
