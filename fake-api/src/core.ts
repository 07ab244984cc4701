/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * The sandbox's state and life: balances, withdrawals and trades moving through their states,
 * webhook events recorded and delivered with retries, optional JSON persistence.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { BANK_FEES, banks, depositAssets, generateDepositAddress, round } from './catalog';
import { badRequest } from './http';
import type {
	Account,
	Currency,
	DepositAsset,
	FaultConfig,
	FiatWallets,
	RateLimitKey,
	FakeApiOptions,
	FakeApiState,
	Trade,
	WebhookEvent,
	Wallet,
	Withdrawal,
} from './types';
import { Scheduler, postJson } from './webhooks';

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

const WEBHOOK_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const PERSISTED_KEYS = ['account', 'wallets', 'bankAccounts', 'payoutAddresses', 'withdrawals', 'trades', 'webhookEvents'] as const;

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
		now: options.now ?? Date.now,
		random: options.random ?? Math.random,
		payoutCapacityUsd: options.payoutCapacityUsd ?? DEFAULTS.payoutCapacityUsd,
		webhookRetryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULTS.webhookRetryDelaysMs,
		webhookTimeoutMs: options.webhookTimeoutMs ?? DEFAULTS.webhookTimeoutMs,
		requestLogLimit: options.requestLogLimit ?? DEFAULTS.requestLogLimit,
	};
}

/** ObjectId-like identifier: 8 hex digits of seconds, 16 random hex digits. */
export function objectId(nowMs: number): string {
	return Math.floor(nowMs / 1000).toString(16).padStart(8, '0').slice(-8) + randomBytes(8).toString('hex');
}

export function isObjectId(value: string): boolean {
	return /^[0-9a-f]{24}$/i.test(value);
}

/** Wallet as the API returns it: without the linked bank and auto-settlement flag (docs/api.md). */
/** A shallow copy without the given keys. */
export function omit<T extends object>(record: T, keys: Array<keyof T>): Record<string, unknown> {
	const copy = { ...record } as Record<string, unknown>;
	for (const key of keys) delete copy[key as string];
	return copy;
}

export function publicWallet(wallet: Wallet): Record<string, unknown> {
	return omit(wallet, ['bank', 'autoSettlement']);
}

export function publicWithdrawal(withdrawal: Withdrawal): Record<string, unknown> {
	return omit(withdrawal, ['debitedAmount', 'feeBearer']);
}

export function publicTrade(trade: Trade): Record<string, unknown> {
	return omit(trade, ['assetIdentifier', 'label']);
}

/** What a route supplies to create a withdrawal: the record without what the core decides. */
export type NewWithdrawal = Omit<
	Withdrawal,
	'id' | 'status' | 'payoutAmount' | 'debitedAmount' | 'feeBearer' | 'txHash' | 'reason' | 'createdAt' | 'updatedAt'
> & {
	/** Gross payout before a user-borne fee, in `currency`. */
	gross: number;
};

export class FakeApiCore {
	readonly options: ResolvedOptions;
	readonly state: FakeApiState;
	readonly scheduler = new Scheduler();
	faults: FaultConfig;
	webhook: { url: string | null; secret: string };
	private inFlight = new Set<Promise<unknown>>();

	constructor(options: FakeApiOptions) {
		this.options = resolveOptions(options);
		this.faults = options.faults ?? {};
		this.webhook = {
			url: options.webhookUrl || null,
			secret: options.webhookSecret ?? DEFAULTS.webhookSecret,
		};
		const createdAt = this.iso();
		const account: Account = {
			id: '650a1b2c3d4e5f6a7b8c9d0e',
			user: '650a1b2c3d4e5f6a7b8c9d0f',
			name: 'Demo Integration',
			email: 'demo@sandbox.invalid',
			isActive: options.integrationActive ?? true,
			webhookAccess: options.webhookAccess ?? true,
			withdrawalFeeBearer: 'user',
			markupPercent: 0,
			platformFeePercent: [{ min: 0, max: null, percent: 0.5 }],
			fiatWallets: { ...DEFAULTS.balances, ...options.balances },
			ipWhitelist: options.ipWhitelist ?? [],
			createdAt,
			updatedAt: createdAt,
		};
		this.state = {
			account,
			assets: depositAssets(),
			banks: banks(),
			wallets: [],
			bankAccounts: [],
			payoutAddresses: [],
			withdrawals: [],
			trades: [],
			webhookEvents: [],
			requests: [],
		};
		this.load();
	}

	now(): number {
		return this.options.now();
	}

	iso(): string {
		return new Date(this.now()).toISOString();
	}

	newId(): string {
		return objectId(this.now());
	}

	// ---- persistence ------------------------------------------------------------------------

	private load(): void {
		const file = this.options.stateFile;
		if (!file || !fs.existsSync(file)) return;
		const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<FakeApiState>;
		const target = this.state as unknown as Record<string, unknown>;
		for (const key of PERSISTED_KEYS) if (saved[key] !== undefined) target[key] = saved[key];
		// Pending records resume their lifecycle after a restart.
		for (const withdrawal of this.state.withdrawals) {
			if (withdrawal.status === 'pending') this.scheduleWithdrawal(withdrawal.id);
		}
		for (const trade of this.state.trades) if (trade.status === 'pending') this.scheduleTrade(trade.id);
	}

	save(): void {
		const file = this.options.stateFile;
		if (!file) return;
		const data: Record<string, unknown> = { version: 1, savedAt: this.iso() };
		for (const key of PERSISTED_KEYS) data[key] = this.state[key];
		fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
		const temporary = `${file}.${process.pid}.tmp`;
		fs.writeFileSync(temporary, JSON.stringify(data, null, 2));
		fs.renameSync(temporary, file);
	}

	// ---- balances ---------------------------------------------------------------------------

	/** 400 `insufficient balance` when the balance cannot cover the amount; nothing is debited. */
	ensureBalance(currency: Currency, amount: number): void {
		if (this.state.account.fiatWallets[currency] + 1e-9 < amount) {
			throw badRequest(`insufficient balance: ${currency.toUpperCase()} balance is too low for this request`);
		}
	}

	adjustBalance(currency: Currency, delta: number): void {
		const wallets = this.state.account.fiatWallets;
		wallets[currency] = round(wallets[currency] + delta, 2);
		this.state.account.updatedAt = this.iso();
	}

	// ---- webhooks ---------------------------------------------------------------------------

	/** Records a webhook event and queues its delivery. */
	emit(eventType: string, reference: string, payload: Record<string, unknown>): WebhookEvent {
		const now = this.now();
		const event: WebhookEvent = {
			id: this.newId(),
			integration: this.state.account.id,
			reference,
			eventType,
			payload: { event: eventType, ...payload },
			url: this.webhook.url,
			status: this.webhook.url ? 'pending' : 'failed',
			attemptsCount: 0,
			attempts: [],
			deliveredAt: null,
			lastAttemptAt: null,
			nextAttemptAt: null,
			expireAt: new Date(now + WEBHOOK_RETENTION_MS).toISOString(),
			createdAt: new Date(now).toISOString(),
			updatedAt: new Date(now).toISOString(),
		};
		this.state.webhookEvents.push(event);
		if (this.webhook.url) {
			this.scheduler.add({ kind: 'delivery', dueAt: Date.now(), run: () => this.deliverWithRetry(event.id) });
		}
		return event;
	}

	/** One delivery attempt, recorded on the event. True when the receiver answered 2xx. */
	async attemptDelivery(event: WebhookEvent): Promise<boolean> {
		const url = this.webhook.url;
		let result: { status: number | null; body: string };
		if (!url) {
			result = { status: null, body: 'no webhook url configured' };
		} else {
			const headers: Record<string, string> = {};
			if (this.webhook.secret) headers['x-webhook-secret'] = this.webhook.secret;
			const delivery = postJson(url, event.payload, headers, this.options.webhookTimeoutMs);
			this.inFlight.add(delivery);
			try {
				result = await delivery;
			} finally {
				this.inFlight.delete(delivery);
			}
		}
		const at = this.iso();
		const delivered = result.status !== null && result.status >= 200 && result.status < 300;
		event.url = url;
		event.attempts.push({ attemptedAt: at, responseStatus: result.status, responseBody: result.body });
		event.attemptsCount = event.attempts.length;
		event.lastAttemptAt = at;
		event.updatedAt = at;
		event.status = delivered ? 'delivered' : 'failed';
		if (delivered) {
			event.deliveredAt = at;
			event.nextAttemptAt = null;
		}
		return delivered;
	}

	private async deliverWithRetry(eventId: string): Promise<void> {
		const event = this.state.webhookEvents.find((candidate) => candidate.id === eventId);
		if (!event || event.status === 'delivered') return;
		const delivered = await this.attemptDelivery(event);
		const delays = this.options.webhookRetryDelaysMs;
		if (!delivered && event.attemptsCount <= delays.length) {
			const delay = delays[event.attemptsCount - 1];
			event.nextAttemptAt = new Date(this.now() + delay).toISOString();
			this.scheduler.add({ kind: 'retry', dueAt: Date.now() + delay, run: () => this.deliverWithRetry(eventId) });
		} else if (!delivered) {
			event.nextAttemptAt = null;
		}
		this.save();
	}

	/** Waits for deliveries started outside the scheduler (resend). */
	async drain(): Promise<void> {
		await Promise.all([...this.inFlight]);
	}

	// ---- wallets ----------------------------------------------------------------------------

	createWallet(asset: DepositAsset, label: string): Wallet {
		const now = this.iso();
		const wallet: Wallet = {
			id: this.newId(),
			avatar: asset.icon,
			name: asset.name,
			label,
			address: generateDepositAddress(asset),
			identifier: asset.identifier,
			asset: asset.id,
			currency: 'ngn',
			vaultId: this.newId(),
			type: 'crypto',
			isAccountBased: asset.isAccountBased,
			isActive: true,
			createdAt: now,
			updatedAt: now,
			bank: null,
			autoSettlement: false,
		};
		this.state.wallets.push(wallet);
		this.emit('trade.address.created', wallet.id, {
			id: wallet.id,
			status: 'active',
			address: wallet.address,
			asset: asset.identifier,
			assetId: asset.id,
			label,
			createdAt: now,
		});
		return wallet;
	}

	// ---- withdrawals ------------------------------------------------------------------------

	/**
	 * Creates a pending withdrawal: debits the balance (amount + fee when the business bears the
	 * fee, the amount alone when the user does), emits withdrawal.pending, schedules the outcome.
	 */
	createWithdrawal(input: NewWithdrawal): Withdrawal {
		const { gross, ...fields } = input;
		const feeBearer = this.state.account.withdrawalFeeBearer;
		const debitedAmount = round(feeBearer === 'business' ? gross + input.fee : gross, 2);
		const payoutAmount = round(feeBearer === 'business' ? gross : gross - input.fee, 2);
		if (payoutAmount <= 0) throw badRequest('amount is too small to cover the withdrawal fee');
		this.ensureBalance(input.currency, debitedAmount);
		const now = this.iso();
		const withdrawal: Withdrawal = {
			...fields,
			id: this.newId(),
			status: 'pending',
			payoutAmount,
			debitedAmount,
			feeBearer,
			txHash: null,
			reason: null,
			createdAt: now,
			updatedAt: now,
		};
		this.adjustBalance(input.currency, -debitedAmount);
		this.state.withdrawals.push(withdrawal);
		this.emit(`withdrawal.pending`, withdrawal.id, this.withdrawalPayload(withdrawal));
		this.scheduleWithdrawal(withdrawal.id);
		return withdrawal;
	}

	private withdrawalPayload(withdrawal: Withdrawal): Record<string, unknown> {
		const { id, status, ...rest } = publicWithdrawal(withdrawal);
		return { id, status, ...rest };
	}

	private scheduleWithdrawal(id: string): void {
		this.scheduler.add({
			kind: 'lifecycle',
			dueAt: Date.now() + this.options.lifecycleDelayMs,
			run: () => this.finishWithdrawal(id),
		});
	}

	private finishWithdrawal(id: string): void {
		const withdrawal = this.state.withdrawals.find((candidate) => candidate.id === id);
		if (!withdrawal || withdrawal.status !== 'pending') return;
		const destination = withdrawal.walletAddress ?? withdrawal.accountNumber ?? '';
		const now = this.iso();
		if (this.options.rejectAddresses.includes(destination)) {
			withdrawal.status = 'rejected';
			withdrawal.reason = 'withdrawal failed an internal check before broadcast';
		} else if (this.options.reverseAddresses.includes(destination)) {
			withdrawal.status = 'reversed';
			withdrawal.reason = 'payout failed after broadcast; funds returned';
		} else {
			withdrawal.status = 'completed';
			withdrawal.txHash =
				withdrawal.type === 'crypto' ? `0x${randomBytes(32).toString('hex')}` : `NIP${Date.now()}${randomBytes(4).toString('hex')}`;
		}
		if (withdrawal.status !== 'completed') this.adjustBalance(withdrawal.currency, withdrawal.debitedAmount);
		withdrawal.updatedAt = now;
		this.emit(`withdrawal.${withdrawal.status}`, withdrawal.id, this.withdrawalPayload(withdrawal));
		this.save();
	}

	// ---- trades -----------------------------------------------------------------------------

	createTrade(input: {
		wallet: Wallet;
		asset: DepositAsset;
		amountInUSD: number;
		cryptoReceived: string;
		reference: string;
		txHash: string;
		sourceAddress: string | null;
		confirmations: number | null;
	}): Trade {
		const { wallet, asset } = input;
		const currency = wallet.currency;
		const markup = wallet.autoSettlement && wallet.bank ? this.state.account.markupPercent : 0;
		const rate = round(asset.rate[currency === 'ngn' ? 'NGN' : 'GHS'] * (1 + markup / 100), 2);
		const feePercentage = this.state.account.platformFeePercent[0]?.percent ?? 0;
		const feeAmountInUsd = round((feePercentage / 100) * input.amountInUSD, 2);
		const feeAmount = round(feeAmountInUsd * rate, 2);
		const now = this.iso();
		const trade: Trade = {
			id: this.newId(),
			amount: round(input.amountInUSD * rate - feeAmount, 2),
			avatar: asset.icon,
			rate,
			reason: null,
			txHash: input.txHash,
			txLink: `${asset.txLink}${input.txHash}`,
			asset: asset.id,
			assetIdentifier: asset.identifier,
			vaultId: wallet.vaultId,
			address: wallet.address,
			sourceAddress: input.sourceAddress,
			wallet: wallet.id,
			label: wallet.label,
			passAMLCheck: true,
			conversionRate: rate,
			amountReceived: input.amountInUSD,
			cryptoReceived: input.cryptoReceived,
			flagFeeUSD: asset.flagFeeUSD,
			feePercentage,
			feeAmountInUsd,
			walletCredited: false,
			status: 'pending',
			currency,
			integration: this.state.account.id,
			feeAmount,
			reference: input.reference,
			confirmations: 0,
			createdAt: now,
			updatedAt: now,
		};
		this.state.trades.push(trade);
		this.emit('trade.pending', trade.id, this.tradePayload(trade));
		const finalConfirmations = Math.max(input.confirmations ?? 0, asset.confirmations);
		this.scheduleTrade(trade.id, finalConfirmations);
		return trade;
	}

	/** Webhook body of trade events (docs/api.md, public notes); timestamps in epoch milliseconds. */
	private tradePayload(trade: Trade): Record<string, unknown> {
		return {
			id: trade.id,
			status: trade.status,
			asset: trade.assetIdentifier,
			feePercentage: trade.feePercentage,
			feeAmountInUsd: trade.feeAmountInUsd,
			cryptoAmount: trade.cryptoReceived,
			amountInUSD: trade.amountReceived,
			flagFeeUSD: trade.flagFeeUSD,
			vaultId: trade.vaultId,
			destinationAddress: trade.address,
			destinationDescription: trade.label,
			txHash: trade.txHash,
			confirmations: trade.confirmations,
			note: trade.reason ?? '',
			reference: trade.reference,
			wallet: trade.wallet,
			rate: trade.rate,
			conversionRate: trade.conversionRate,
			senderAddress: trade.sourceAddress,
			amount: trade.amount,
			currency: trade.currency,
			createdAt: Date.parse(trade.createdAt),
			updatedAt: Date.parse(trade.updatedAt),
			index: 0,
			blockInfo: { blockHeight: String(1000000 + this.state.trades.indexOf(trade)), blockHash: `0x${trade.txHash.replace(/^0x/, '').padEnd(64, '0').slice(0, 64)}` },
		};
	}

	private scheduleTrade(id: string, confirmations?: number): void {
		this.scheduler.add({
			kind: 'lifecycle',
			dueAt: Date.now() + this.options.lifecycleDelayMs,
			run: () => this.finishTrade(id, confirmations),
		});
	}

	private finishTrade(id: string, confirmations?: number): void {
		const trade = this.state.trades.find((candidate) => candidate.id === id);
		if (!trade || trade.status !== 'pending') return;
		const asset = this.state.assets.find((candidate) => candidate.id === trade.asset);
		const minimum = asset?.minimum ?? 0;
		trade.confirmations = confirmations ?? asset?.confirmations ?? 1;
		trade.updatedAt = this.iso();
		if (trade.amountReceived < minimum) {
			trade.status = 'flagged';
			trade.reason = `amount below the minimum deposit of ${minimum} USD for ${trade.assetIdentifier}`;
			this.emit('trade.flagged', trade.id, this.tradePayload(trade));
			this.save();
			return;
		}
		trade.status = 'completed';
		trade.walletCredited = true;
		this.adjustBalance(trade.currency, trade.amount);
		this.emit('trade.completed', trade.id, this.tradePayload(trade));
		const wallet = this.state.wallets.find((candidate) => candidate.id === trade.wallet);
		if (wallet?.autoSettlement && wallet.bank) {
			const bankLink = wallet.bank;
			try {
				this.createWithdrawal({
					type: 'bank',
					externalId: null,
					amount: round(trade.amountReceived - trade.feeAmountInUsd, 2),
					fee: BANK_FEES[wallet.currency],
					currency: wallet.currency,
					cryptoAmount: null,
					token: null,
					network: null,
					feeLevel: null,
					walletAddress: null,
					bankAccount: null,
					bankName: bankLink.bankName,
					accountNumber: bankLink.accountNumber,
					narration: bankLink.narration || null,
					gross: trade.amount,
					trade: trade.id,
				});
			} catch (error) {
				// Below the fee or not covered: the funds stay in the wallet (docs/api.md, public notes).
				trade.reason = `auto-settlement skipped: ${(error as Error).message}`;
			}
		}
		this.save();
	}
}
