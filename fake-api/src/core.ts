/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * The fake API's state: balances, webhook events recorded and delivered with retries, deposit
 * wallets, optional JSON persistence. Withdrawals and trades move through their states in
 * withdrawals.ts and trades.ts; options and their defaults are in options.ts.
 */
import fs from 'node:fs';
import path from 'node:path';

import { ServiceClock, parseInstant } from './clock';
import { banks, depositAssets, generateDepositAddress, round } from './catalog';
import { badRequest } from './http';
import type {
	Account,
	Currency,
	DepositAsset,
	FaultConfig,
	FakeApiOptions,
	FakeApiState,
	WebhookEvent,
	Wallet,
} from './types';
import { DEFAULTS, resolveOptions, type ResolvedOptions } from './options';
import { objectId } from './records';
import { scheduleTrade } from './trades';
import { Scheduler, postJson } from './webhooks';
import { scheduleWithdrawal } from './withdrawals';

const WEBHOOK_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const PERSISTED_KEYS = [
	'account',
	'wallets',
	'bankAccounts',
	'payoutAddresses',
	'withdrawals',
	'trades',
	'webhookEvents',
	'seededDays',
] as const;

export class FakeApiCore {
	readonly options: ResolvedOptions;
	readonly state: FakeApiState;
	/** The service's clock: every date the fake writes and every due time (clock.ts). */
	readonly clock: ServiceClock;
	readonly scheduler: Scheduler;
	faults: FaultConfig;
	webhook: { url: string | null; secret: string };
	private inFlight = new Set<Promise<unknown>>();

	constructor(options: FakeApiOptions) {
		this.options = resolveOptions(options);
		this.clock = new ServiceClock(this.options.now);
		this.scheduler = new Scheduler(() => this.clock.now());
		const startAt = options.clock === undefined ? Number.NaN : parseInstant(options.clock);
		if (options.clock !== undefined && Number.isNaN(startAt))
			throw new Error(
				`clock must be a date-time such as 2026-03-11T00:05:00Z, got ${String(options.clock)}`,
			);
		if (!Number.isNaN(startAt)) this.clock.restore(startAt - this.options.now());
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
			seededDays: [],
			requests: [],
		};
		this.load(Number.isNaN(startAt));
	}

	now(): number {
		return this.clock.now();
	}

	iso(): string {
		return new Date(this.now()).toISOString();
	}

	newId(): string {
		return objectId(this.now());
	}

	/** Waits `ms` (a slow service's answer, options.pageDelayMs). */
	async pause(ms: number): Promise<void> {
		if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
	}

	// ---- persistence ------------------------------------------------------------------------

	/** Reads the state file; `keepClock`: the service's clock resumes where it stood (no `clock` option given). */
	private load(keepClock: boolean): void {
		const file = this.options.stateFile;
		if (!file || !fs.existsSync(file)) return;
		const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<FakeApiState> & {
			clockOffsetMs?: number;
		};
		const target = this.state as unknown as Record<string, unknown>;
		for (const key of PERSISTED_KEYS) if (saved[key] !== undefined) target[key] = saved[key];
		if (keepClock && typeof saved.clockOffsetMs === 'number')
			this.clock.restore(saved.clockOffsetMs);
		// Pending records resume their lifecycle after a restart.
		for (const withdrawal of this.state.withdrawals) {
			if (withdrawal.status === 'pending') scheduleWithdrawal(this, withdrawal.id);
		}
		for (const trade of this.state.trades)
			if (trade.status === 'pending') scheduleTrade(this, trade.id);
	}

	save(): void {
		const file = this.options.stateFile;
		if (!file) return;
		const data: Record<string, unknown> = {
			version: 1,
			savedAt: this.iso(),
			clockOffsetMs: this.clock.offsetMs,
		};
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
			throw badRequest(
				`insufficient balance: ${currency.toUpperCase()} balance is too low for this request`,
			);
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
			this.scheduler.add({
				kind: 'delivery',
				dueAt: now,
				run: () => this.deliverWithRetry(event.id),
			});
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
		event.attempts.push({
			attemptedAt: at,
			responseStatus: result.status,
			responseBody: result.body,
		});
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
			this.scheduler.add({
				kind: 'retry',
				dueAt: this.now() + delay,
				run: () => this.deliverWithRetry(eventId),
			});
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
}
