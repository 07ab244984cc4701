/** Fixed one-minute windows per (x-app-id, route) (docs/api.md). */
const WINDOW_MS = 60_000;

export interface RateWindow {
	start: number;
	count: number;
}

export interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
	retryAfter: number;
}

export class RateLimiter {
	private windows = new Map<string, RateWindow>();

	constructor(private readonly now: () => number) {}

	reset(): void {
		this.windows.clear();
	}

	hit(key: string, limit: number, consume: boolean): RateDecision {
		const now = this.now();
		let window = this.windows.get(key);
		if (!window || now >= window.start + WINDOW_MS) {
			window = { start: now, count: 0 };
			this.windows.set(key, window);
		}
		const allowed = window.count < limit;
		if (allowed && consume) window.count++;
		const resetAt = window.start + WINDOW_MS;
		return {
			allowed,
			retryAfter: Math.max(1, Math.ceil((resetAt - now) / 1000)),
			headers: {
				'X-RateLimit-Limit': String(limit),
				'X-RateLimit-Remaining': String(Math.max(0, limit - window.count)),
				'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
			},
		};
	}
}
