/** Identifiers, and records as the API shows them (without what only the fake API keeps). */
import { randomBytes } from 'node:crypto';

import type { Trade, Wallet, Withdrawal } from './types';

/** ObjectId-like identifier: 8 hex digits of seconds, 16 random hex digits. */
export function objectId(nowMs: number): string {
	return (
		Math.floor(nowMs / 1000)
			.toString(16)
			.padStart(8, '0')
			.slice(-8) + randomBytes(8).toString('hex')
	);
}

export function isObjectId(value: string): boolean {
	return /^[0-9a-f]{24}$/i.test(value);
}

/**
 * A shallow copy without the given keys (built key by key rather than copied then deleted from: a
 * busy day's list pages copy thousands of records a second, docs/fake-api.md).
 */
export function omit<T extends object>(record: T, keys: Array<keyof T>): Record<string, unknown> {
	const copy: Record<string, unknown> = {};
	for (const key in record) if (!keys.includes(key)) copy[key] = record[key];
	return copy;
}

/** Wallet as the API returns it: without the linked bank and auto-settlement flag (docs/api.md). */
export function publicWallet(wallet: Wallet): Record<string, unknown> {
	return omit(wallet, ['bank', 'autoSettlement']);
}

/** What only the fake keeps of a withdrawal. */
const WITHDRAWAL_PRIVATE: ReadonlyArray<keyof Withdrawal> = ['debitedAmount', 'feeBearer'];

/**
 * Withdrawal as the API returns it, each amount with its currency beside it (docs/api.md,
 * "Withdrawal records"): `amount` is the USD value asked for; `fee` and `payoutAmount` are in
 * `currency`, the balance paid from (USD for crypto, NGN or GHS for a bank account).
 */
export function publicWithdrawal(withdrawal: Withdrawal): Record<string, unknown> {
	const local = withdrawal.currency.toUpperCase();
	const record: Record<string, unknown> = {};
	for (const key in withdrawal) {
		if (WITHDRAWAL_PRIVATE.includes(key as keyof Withdrawal)) continue;
		record[key] = withdrawal[key as keyof Withdrawal];
		if (key === 'amount') record.amountCurrency = 'USD';
		else if (key === 'fee') record.feeCurrency = local;
		else if (key === 'payoutAmount') record.payoutCurrency = local;
	}
	return record;
}

export function publicTrade(trade: Trade): Record<string, unknown> {
	return omit(trade, ['assetIdentifier', 'label']);
}

/** What a route supplies to create a withdrawal: the record without what the core decides. */
export type NewWithdrawal = Omit<
	Withdrawal,
	| 'id'
	| 'status'
	| 'payoutAmount'
	| 'debitedAmount'
	| 'feeBearer'
	| 'txHash'
	| 'reason'
	| 'createdAt'
	| 'updatedAt'
> & {
	/** Gross payout before a user-borne fee, in `currency`. */
	gross: number;
};
