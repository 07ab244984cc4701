/**
 * A day of history (docs/fake-api.md, "A seeded day"): N deposits and payouts spread over one UTC
 * day, of every kind a statement shows, written straight into the state as the lifecycle of
 * trades.ts and withdrawals.ts would have left them (fees by the account's fee bearer, platform fee,
 * auto-settlement payouts, refunds), with the balances moved the same way. For tests, the
 * statement's example and the bench; seeded records send no webhooks.
 */
import { round } from './catalog';
import type { FakeApiCore } from './core';
import { DayRecords, seedWallets } from './seedRecords';
import type { Currency, DepositAsset } from './types';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What one seeded record is. The pattern repeats every PATTERN.length records, so any N of at least
 * that length holds every kind; shorter days take the first N.
 */
export type SeededKind =
	| 'deposit'
	| 'autoSettledDeposit'
	| 'cryptoWithdrawal'
	| 'bankWithdrawal'
	| 'rejectedWithdrawal'
	| 'reversedWithdrawal'
	| 'stuckWithdrawal'
	| 'withdrawalWithoutExternalId'
	| 'unlabelledDeposit'
	| 'flaggedDeposit'
	| 'pendingDeposit';

/** One of each first (so a short day still has every kind), then the common ones more often. */
export const PATTERN: readonly SeededKind[] = [
	'deposit',
	'autoSettledDeposit',
	'cryptoWithdrawal',
	'bankWithdrawal',
	'rejectedWithdrawal',
	'reversedWithdrawal',
	'stuckWithdrawal',
	'withdrawalWithoutExternalId',
	'unlabelledDeposit',
	'flaggedDeposit',
	'pendingDeposit',
	'deposit',
	'cryptoWithdrawal',
	'deposit',
	'bankWithdrawal',
	'autoSettledDeposit',
	'deposit',
	'cryptoWithdrawal',
	'deposit',
	'cryptoWithdrawal',
];

export interface SeedDayOptions {
	/** The UTC day, YYYY-MM-DD. */
	day: string;
	/**
	 * Records (trades and withdrawals together; an auto-settled deposit is two: the trade and its
	 * payout). Spread evenly over the day, the first at 00:00:00.000, the last at 23:59:59.999.
	 */
	records: number;
	/** Prefix of External IDs and wallet labels, so that two seeded days never share one (default: the day). */
	prefix?: string;
}

export interface SeededDay {
	day: string;
	/** Balances before the day's first record and after its last (what a statement's check compares). */
	openingBalances: Record<Currency, number>;
	closingBalances: Record<Currency, number>;
	/** How many records of each kind. */
	kinds: Partial<Record<SeededKind, number>>;
	trades: number;
	withdrawals: number;
}

/** Seeds `records` records over the UTC day `day` (see SeedDayOptions) and moves the balances as they would have moved. */
export function seedDay(core: FakeApiCore, options: SeedDayOptions): SeededDay {
	if (
		!/^\d{4}-\d{2}-\d{2}$/.test(options.day) ||
		Number.isNaN(Date.parse(`${options.day}T00:00:00Z`))
	) {
		throw new Error(`day must be YYYY-MM-DD, got ${JSON.stringify(options.day)}`);
	}
	const count = Math.floor(options.records);
	if (!Number.isFinite(count) || count < 1 || count > 1_000_000)
		throw new Error('records must be between 1 and 1000000');
	const start = Date.parse(`${options.day}T00:00:00.000Z`);
	const prefix = options.prefix ?? options.day;
	const { state } = core;
	const openingBalances = { ...state.account.fiatWallets };
	const wallets = seedWallets(core, prefix, new Date(start - DAY_MS).toISOString());
	const asset = core.state.assets.find(
		(candidate) => candidate.id === wallets.unlabelled.asset,
	) as DepositAsset;
	const records = new DayRecords(core, start, count, prefix, asset);
	const kinds: Partial<Record<SeededKind, number>> = {};
	let slot = 0;
	for (let index = 0; slot < count; index++) {
		const kind = PATTERN[index % PATTERN.length];
		// An auto-settled deposit takes two slots (trade, then payout); at the very end there may be room for one only.
		if (kind === 'autoSettledDeposit' && slot + 1 >= count) continue;
		kinds[kind] = (kinds[kind] ?? 0) + 1;
		slot += seedKind(records, kind, slot, index, wallets, prefix, asset);
	}
	// The lists show the newest first by their order in the state: seeded records take their place by time.
	const byTime = (a: { createdAt: string }, b: { createdAt: string }) =>
		Date.parse(a.createdAt) - Date.parse(b.createdAt);
	state.trades.push(...records.trades);
	state.trades.sort(byTime);
	state.withdrawals.push(...records.withdrawals);
	state.withdrawals.sort(byTime);
	const seeded: SeededDay = {
		day: options.day,
		openingBalances,
		closingBalances: { ...state.account.fiatWallets },
		kinds,
		trades: records.trades.length,
		withdrawals: records.withdrawals.length,
	};
	state.seededDays.push(seeded);
	core.save();
	return seeded;
}

/** One record of `kind` (two for an auto-settled deposit) at `slot`; how many slots it took. */
function seedKind(
	records: DayRecords,
	kind: SeededKind,
	slot: number,
	index: number,
	wallets: ReturnType<typeof seedWallets>,
	prefix: string,
	asset: DepositAsset,
): number {
	const customer = wallets.labelled[index % wallets.labelled.length];
	switch (kind) {
		case 'deposit':
			records.trade(slot, customer, 50 + (index % 50), 'completed');
			return 1;
		case 'pendingDeposit':
			records.trade(slot, customer, 40 + (index % 20), 'pending');
			return 1;
		case 'flaggedDeposit':
			records.trade(slot, customer, round(asset.minimum / 2, 2), 'flagged');
			return 1;
		case 'unlabelledDeposit':
			records.trade(slot, wallets.unlabelled, 30 + (index % 20), 'completed');
			return 1;
		case 'autoSettledDeposit':
			records.autoSettled(slot, wallets.autoSettled, 100 + (index % 50));
			return 2;
		case 'cryptoWithdrawal':
			records.cryptoPayout(slot, 'completed', `${prefix}-order-${slot}`);
			return 1;
		case 'withdrawalWithoutExternalId':
			records.cryptoPayout(slot, 'completed', null);
			return 1;
		case 'rejectedWithdrawal':
			records.cryptoPayout(slot, 'rejected', `${prefix}-order-${slot}`);
			return 1;
		case 'reversedWithdrawal':
			records.bankPayout(slot, 'reversed');
			return 1;
		case 'stuckWithdrawal':
			records.cryptoPayout(slot, 'pending', `${prefix}-order-${slot}`);
			return 1;
		case 'bankWithdrawal':
			records.bankPayout(slot, 'completed');
			return 1;
	}
}
