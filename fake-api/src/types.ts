/**
 * Types of the local sandbox: options, fault switches and the records it keeps.
 * Record shapes follow docs/api.md (the specification and, where it is silent, the public notes).
 */

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
	faults?: FaultConfig;
	/** Clock used for timestamps and rate-limit windows (default Date.now). */
	now?: () => number;
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

export interface Account {
	id: string;
	user: string;
	name: string;
	email: string;
	isActive: boolean;
	webhookAccess: boolean;
	withdrawalFeeBearer: 'user' | 'business';
	markupPercent: number;
	platformFeePercent: Array<{ min: number; max: number | null; percent: number }>;
	fiatWallets: FiatWallets;
	ipWhitelist: string[];
	createdAt: string;
	updatedAt: string;
}

/** Deposit asset (docs/api.md). */
export interface DepositAsset {
	id: string;
	name: string;
	identifier: string;
	symbol: string;
	icon: string;
	txLink: string;
	minimum: number;
	flagFeeUSD: number;
	type: 'BASE_ASSET' | 'ERC20';
	isAccountBased: boolean;
	network: string;
	confirmations: number;
	rate: { NGN: number; GHS: number };
}

export interface Bank {
	id: string;
	name: string;
	slug: string;
	country: string;
	currency: 'ngn' | 'ghs';
	type: string;
	avatar: string;
}

export interface BankLink {
	bankId: string;
	bankName: string;
	accountNumber: string;
	accountName: string;
	narration: string;
}

/** Deposit wallet (docs/api.md) plus its linked bank, which the API does not return. */
export interface Wallet {
	id: string;
	avatar: string;
	name: string;
	label: string;
	address: string;
	identifier: string;
	asset: string;
	currency: 'ngn' | 'ghs';
	vaultId: string;
	type: 'crypto';
	isAccountBased: boolean;
	isActive: boolean;
	createdAt: string;
	updatedAt: string;
	bank: BankLink | null;
	autoSettlement: boolean;
}

/** Saved bank account (docs/api.md, public notes). */
export interface BankAccount {
	id: string;
	account: string;
	user: string;
	accountName: string;
	accountNumber: string;
	autoSettlement: boolean;
	bankId: string;
	bankName: string;
	createdAt: string;
	currency: 'ngn' | 'ghs';
	disabled: boolean;
	integration: string;
	isBusiness: boolean;
	narration: string;
	type: string;
	updatedAt: string;
}

/** Saved payout address (docs/api.md). */
export interface PayoutAddress {
	_id: string;
	id: string;
	createdAt: string;
	updatedAt: string;
	user: string;
	address: string;
	network?: string;
	token: string;
	label: string;
	avatar: string;
	isBusiness: boolean;
	integration: string;
}

export type WithdrawalStatus = 'pending' | 'completed' | 'rejected' | 'reversed';

/** Withdrawal (docs/api.md, public notes); crypto, bank and auto-settlement payouts. */
export interface Withdrawal {
	id: string;
	externalId: string | null;
	type: 'crypto' | 'bank';
	status: WithdrawalStatus;
	/** USD value requested. */
	amount: number;
	/** Fee, in `currency`. */
	fee: number;
	/** Currency of the balance debited: usd for crypto, ngn/ghs for bank payouts. */
	currency: Currency;
	cryptoAmount: number | null;
	token: string | null;
	network: string | null;
	feeLevel: string | null;
	walletAddress: string | null;
	bankAccount: string | null;
	bankName: string | null;
	accountNumber: string | null;
	narration: string | null;
	/** What the recipient receives, in `currency` (crypto: in USD). */
	payoutAmount: number;
	/** Amount taken from the balance (refunded on rejected/reversed). */
	debitedAmount: number;
	feeBearer: 'user' | 'business';
	trade: string | null;
	txHash: string | null;
	reason: string | null;
	createdAt: string;
	updatedAt: string;
}

export type TradeStatus = 'pending' | 'completed' | 'flagged';

/** Deposit / trade transaction (docs/api.md, public notes) plus the fields webhooks carry (4.1). */
export interface Trade {
	id: string;
	amount: number;
	avatar: string;
	rate: number;
	reason: string | null;
	txHash: string;
	txLink: string;
	asset: string;
	assetIdentifier: string;
	vaultId: string;
	address: string;
	sourceAddress: string | null;
	wallet: string;
	label: string;
	passAMLCheck: boolean;
	conversionRate: number;
	amountReceived: number;
	cryptoReceived: string;
	flagFeeUSD: number;
	feePercentage: number;
	feeAmountInUsd: number;
	walletCredited: boolean;
	status: TradeStatus;
	currency: 'ngn' | 'ghs';
	integration: string;
	feeAmount: number;
	reference: string;
	confirmations: number;
	createdAt: string;
	updatedAt: string;
}

export interface WebhookAttempt {
	attemptedAt: string;
	responseStatus: number | null;
	responseBody: string;
}

/** Stored outgoing webhook delivery (docs/api.md, public notes). */
export interface WebhookEvent {
	id: string;
	integration: string;
	reference: string;
	eventType: string;
	payload: Record<string, unknown>;
	url: string | null;
	status: 'pending' | 'delivered' | 'failed';
	attemptsCount: number;
	attempts: WebhookAttempt[];
	deliveredAt: string | null;
	lastAttemptAt: string | null;
	nextAttemptAt: string | null;
	expireAt: string;
	createdAt: string;
	updatedAt: string;
}

export interface RequestLogEntry {
	at: string;
	method: string;
	/** Path as received, including /v1 and the query string. */
	url: string;
	path: string;
	query: Record<string, string>;
	/** Request headers, without x-app-secret. */
	headers: Record<string, string>;
	/** Parsed JSON body, the raw text when it was not JSON, undefined when empty. */
	body: unknown;
	/** Status answered (undefined while running or when the connection was dropped). */
	status?: number;
	fault?: FaultKind;
}

/** Everything the sandbox knows; inspect it freely in tests. */
export interface FakeApiState {
	account: Account;
	assets: DepositAsset[];
	banks: Bank[];
	wallets: Wallet[];
	bankAccounts: BankAccount[];
	payoutAddresses: PayoutAddress[];
	withdrawals: Withdrawal[];
	trades: Trade[];
	webhookEvents: WebhookEvent[];
	/** Requests that reached the sandbox's API (not the /_sandbox admin routes), oldest first. */
	requests: RequestLogEntry[];
}
