/** The fake API's defaults and its options with every default filled in. */
import type { FakeApiOptions, FiatWallets, RateLimitKey } from './types';

export const DEFAULTS = {
	appId: 'demo-app-id',
	appSecret: 'demo-app-secret',
	pin: '1234',
	webhookSecret: 'demo-webhook-secret',
	rateLimits: { withdraw: 200, sellRates: 20 } as Record<RateLimitKey, number>,
	maxPageSize: 100,
	maxWebhookPageSize: 200,
	lifecycleDelayMs: 1000,
	balances: { usd: 10000, ngn: 5000000, ghs: 50000 } as FiatWallets,
	payoutCapacityUsd: 50000,
	webhookRetryDelaysMs: [1000, 5000, 30000, 120000, 600000],
	webhookTimeoutMs: 5000,
	requestLogLimit: 1000,
};

export interface ResolvedOptions {
	appId: string;
	appSecret: string;
	pin: string;
	stateFile: string | undefined;
	rateLimits: Record<RateLimitKey, number>;
	maxPageSize: number;
	maxWebhookPageSize: number;
	lifecycleDelayMs: number;
	rejectAddresses: string[];
	reverseAddresses: string[];
	stuckAddresses: string[];
	pageDelayMs: number;
	now: () => number;
	random: () => number;
	payoutCapacityUsd: number;
	webhookRetryDelaysMs: number[];
	webhookTimeoutMs: number;
	requestLogLimit: number;
}

export function resolveOptions(options: FakeApiOptions): ResolvedOptions {
	return {
		appId: options.appId || DEFAULTS.appId,
		appSecret: options.appSecret || DEFAULTS.appSecret,
		pin: options.pin || DEFAULTS.pin,
		stateFile: options.stateFile || undefined,
		rateLimits: { ...DEFAULTS.rateLimits, ...options.rateLimits },
		maxPageSize: options.maxPageSize ?? DEFAULTS.maxPageSize,
		maxWebhookPageSize: options.maxWebhookPageSize ?? DEFAULTS.maxWebhookPageSize,
		lifecycleDelayMs: options.lifecycleDelayMs ?? DEFAULTS.lifecycleDelayMs,
		rejectAddresses: options.rejectAddresses ?? [],
		reverseAddresses: options.reverseAddresses ?? [],
		stuckAddresses: options.stuckAddresses ?? [],
		pageDelayMs: options.pageDelayMs ?? 0,
		now: options.now ?? Date.now,
		random: options.random ?? Math.random,
		payoutCapacityUsd: options.payoutCapacityUsd ?? DEFAULTS.payoutCapacityUsd,
		webhookRetryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULTS.webhookRetryDelaysMs,
		webhookTimeoutMs: options.webhookTimeoutMs ?? DEFAULTS.webhookTimeoutMs,
		requestLogLimit: options.requestLogLimit ?? DEFAULTS.requestLogLimit,
	};
}
