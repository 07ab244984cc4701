/** What startFakeApi() returns: the running fake API, its live state and its switches. */
import type { SeedDayOptions, SeededDay } from './seed';
import type {
	FakeApiState,
	FaultConfig,
	FiatWallets,
	RateLimitKey,
	RequestLogEntry,
	Withdrawal,
} from './types';

/** Destinations whose withdrawals end rejected, reversed or stay pending (the options of the same names). */
export interface Destinations {
	reject: string[];
	reverse: string[];
	stuck: string[];
}

export interface FakeApi {
	/** Base URL including /v1, e.g. http://127.0.0.1:43210/v1 */
	url: string;
	port: number;
	/** Live state: account (balances, settings), wallets, withdrawals, trades, webhookEvents, requests... */
	state: FakeApiState;
	/** Credentials and PIN in force. */
	appId: string;
	appSecret: string;
	pin: string;
	/** Replaces the fault switches. */
	setFaults(faults: FaultConfig): void;
	/**
	 * Runs every pending lifecycle transition and first webhook delivery now (without waiting for
	 * their delay) and waits for them; retries run when due, or now with `{ retries: true }`
	 * (each pending retry once per call).
	 */
	settle(options?: { retries?: boolean }): Promise<void>;
	close(): Promise<void>;
	/** Request log (state.requests): method, path, query, headers without x-app-secret, body. */
	readonly requests: RequestLogEntry[];
	clearRequests(): void;
	/** Changes where (and with which secret) webhooks go; null stops deliveries. */
	setWebhook(url: string | null, secret?: string): void;
	readonly webhookUrl: string | null;
	readonly webhookSecret: string;
	setRateLimits(limits: Partial<Record<RateLimitKey, number>>): void;
	/** Forgets the current rate-limit windows. */
	resetRateLimits(): void;
	setBalances(balances: Partial<FiatWallets>): void;
	/** The service's now, in ms (its clock: docs/fake-api.md, "The service's clock"). */
	now(): number;
	/**
	 * Stands the service at `at` (ISO 8601 date-time or ms) and runs on from there; then runs the
	 * transitions, deliveries and retries that became due (and waits for them). Only forward: an
	 * earlier instant throws.
	 */
	setClock(at: string | number): Promise<void>;
	/** Moves the service's clock forward by `by` (ms, `PT10M`, `1d`...), then runs what became due. */
	advanceClock(by: string | number): Promise<void>;
	/** Reverses a pending (or processing) withdrawal now, refunded (withdrawals.ts); undefined when unknown, throws when final. */
	reverseWithdrawal(idOrExternalId: string, reason?: string): Withdrawal | undefined;
	/** Replaces the given destination lists (reject, reverse, stuck); returns them all. */
	setDestinations(lists: Partial<Destinations>): Destinations;
	/** Writes a day of N records of every kind a statement shows (seed.ts; docs/fake-api.md, "A seeded day"). */
	seedDay(options: SeedDayOptions): SeededDay;
}
