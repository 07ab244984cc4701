/** Types of the fake API's options and fault switches. */

export type Environment = 'sandbox' | 'production';
export type Currency = 'usd' | 'ngn' | 'ghs';
export type FiatWallets = Record<Currency, number>;

/** What a fault switch can do to a request. */
export type FaultKind = '429' | '5xx' | '5xxAfterCommit' | 'drop' | 'dropAfterCommit';

/**
 * Fault switches for one route. Rates are probabilities (0..1) per request; `nextN` forces the
 * next N requests of that route to fail that way (deterministic, checked before the rates).
 * - 429: answered 429 with Retry-After, nothing happens.
 * - 5xx: answered 500 (or `status5xx`), nothing happens.
 * - 5xxAfterCommit: the request takes effect, then the answer is a 500.
 * - drop: the socket is destroyed before anything happens.
 * - dropAfterCommit: the request takes effect, then the socket is destroyed.
 */
export interface FaultRule {
	rate429?: number;
	rate5xx?: number;
	rate5xxAfterCommit?: number;
	rateDrop?: number;
	rateDropAfterCommit?: number;
	nextN?: Partial<Record<FaultKind, number>>;
	/** Status of 5xx faults (default 500). */
	status5xx?: number;
	/** Retry-After seconds of 429 faults (default 1). */
	retryAfterSeconds?: number;
}

/**
 * Keys: 'METHOD /path' with the route template ('GET /trades/wallets/{walletId}', any name in
 * braces), a concrete path ('GET /trades/wallets/abc'), 'METHOD *' or '*' (every route).
 * The most specific key that exists applies.
 */
export type FaultConfig = Record<string, FaultRule>;

export type RateLimitKey = 'withdraw' | 'sellRates';

export interface FakeApiOptions {
	/** 0 = free port (default 0); host is always 127.0.0.1. */
	port?: number;
	/** Demo credentials (defaults 'demo-app-id' / 'demo-app-secret'). */
	appId?: string;
	appSecret?: string;
	/** Transaction PIN (default '1234'); a wrong PIN is a 400 with no effect. */
	pin?: string;
	/** Where webhooks are POSTed; none = events are recorded as failed, without attempts. */
	webhookUrl?: string;
	/** Sent as header x-webhook-secret (default 'demo-webhook-secret'). */
	webhookSecret?: string;
	/** Optional JSON persistence: loaded at start if it exists, written after every change. */
	stateFile?: string;
	/** Requests per minute per x-app-id (defaults: withdraw 200, sellRates 20). */
	rateLimits?: Partial<Record<RateLimitKey, number>>;
	/** Largest page size of the four main lists (default 100); larger requests are capped. */
	maxPageSize?: number;
	/** Largest page size of GET /transactions/webhooks (default 200). */
	maxWebhookPageSize?: number;
	/** Delay before pending -> terminal transitions (default 1000 ms). */
	lifecycleDelayMs?: number;
	/** Withdrawals to these addresses (or bank account numbers) end `rejected` / `reversed`. */
	rejectAddresses?: string[];
	reverseAddresses?: string[];
	/** Withdrawals to these addresses (or bank account numbers) stay `pending` (a stuck payout). */
	stuckAddresses?: string[];
	/** Each page of a paginated list is answered this much later (a slow service; the statement's bench uses 40). */
	pageDelayMs?: number;
	faults?: FaultConfig;
	/**
	 * Time source of the service's clock (default Date.now): timestamps, ids, the Date header,
	 * rate-limit windows and the due times of transitions and webhook retries.
	 */
	now?: () => number;
	/**
	 * The instant the service stands at when it starts (ISO 8601 date-time, or ms), running on
	 * from there (docs/fake-api.md, "The service's clock"). Without it, the service keeps its
	 * source's time, or where a state file left it.
	 */
	clock?: string | number;
	/** Random source of the fault rates (default Math.random). */
	random?: () => number;
	/** Starting balances (defaults usd 10000, ngn 5000000, ghs 50000). */
	balances?: Partial<FiatWallets>;
	/** USD value above which a crypto payout "cannot be priced now" (400; default 50000). */
	payoutCapacityUsd?: number;
	/** Delays between webhook delivery attempts (default 1s, 5s, 30s, 2min, 10min). */
	webhookRetryDelaysMs?: number[];
	/** Time limit of one webhook delivery (default 5000 ms). */
	webhookTimeoutMs?: number;
	/** false = the integration is inactive: every authenticated call is a 403. */
	integrationActive?: boolean;
	/** false = no VIP access: webhook inspection and resend are a 403. */
	webhookAccess?: boolean;
	/** When non-empty, withdrawals from other caller IPs are a 403. */
	ipWhitelist?: string[];
	/** Keep at most this many entries in the request log (default 1000). */
	requestLogLimit?: number;
}
