/**
 * The records the fake API keeps. Record shapes follow docs/api.md (the specification and, where
 * it is silent, the public notes).
 */
import type { LIFECYCLES, TRADE_EVENT_STATUSES } from '../../../nodes/service/catalog';
import type { Currency, FaultKind, FiatWallets } from './options';

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

/** Every withdrawal status of the table, those without an event too (a cancelled withdrawal is seen in records only). */
export type WithdrawalStatus = keyof (typeof LIFECYCLES)['withdrawal'];

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

export type TradeStatus = (typeof TRADE_EVENT_STATUSES)[number];

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

/** Everything the fake API knows; inspect it freely in tests. */
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
	/** The days written by seedDay (seed.ts): their day, balances before and after, and counts. */
	seededDays: Array<{
		day: string;
		openingBalances: FiatWallets;
		closingBalances: FiatWallets;
		kinds: Record<string, number>;
		trades: number;
		withdrawals: number;
	}>;
	/** Requests that reached the fake API (not the /_sandbox admin routes), oldest first. */
	requests: RequestLogEntry[];
	/** The currency swaps made, oldest first: the service lists them nowhere (docs/statement.md), so only the fake's own checks read them. */
	swaps?: Array<{ at: string; from: string; to: string; amount: number; received: number }>;
}
