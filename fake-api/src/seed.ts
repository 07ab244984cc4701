/**
 * A day of history (docs/fake-api.md, "A seeded day"): N deposits and payouts spread over one UTC
 * day, of every kind a statement shows, written straight into the state as the lifecycle of
 * trades.ts and withdrawals.ts would have left them (fees by the account's fee bearer, platform fee,
 * auto-settlement payouts, refunds), with the balances moved the same way. For tests, the
 * statement's example and the bench; seeded records send no webhooks.
 */
import { BANK_FEES, NETWORK_FEES_USD, PRICES_USD, SELL_RATE, round } from './catalog';
import type { FakeApiCore } from './core';
import type { Currency, DepositAsset, Trade, Wallet, Withdrawal, WithdrawalStatus } from './types';

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

/** The demo wallets of a seeded day: labelled customers, one auto-settled to a bank, one without a label. */
function seedWallets(core: FakeApiCore, prefix: string, at: string): { labelled: Wallet[]; autoSettled: Wallet; unlabelled: Wallet } {
	const asset = core.state.assets.find((candidate) => candidate.identifier === 'USDT_TRX_TEST') as DepositAsset;
	const make = (label: string): Wallet => {
		const wallet = core.createWallet(asset, label);
		wallet.createdAt = at;
		wallet.updatedAt = at;
		return wallet;
	};
	const labelled = [1, 2, 3].map((n) => make(`${prefix}-customer-${n}`));
	const autoSettled = make(`${prefix}-customer-auto`);
	const bank = core.state.banks.find((candidate) => candidate.id === '39');
	autoSettled.bank = {
		bankId: '39',
		bankName: bank?.name ?? 'Access Bank',
		accountNumber: '0123456789',
		accountName: 'Demo Customer',
		narration: 'settlement',
	};
	autoSettled.autoSettlement = true;
	// A wallet generated without a label (the public notes: older API versions did not require one).
	const unlabelled = make('');
	return { labelled, autoSettled, unlabelled };
}

/** Seeds `records` records over the UTC day `day` (see SeedDayOptions) and moves the balances as they would have moved. */
export function seedDay(core: FakeApiCore, options: SeedDayOptions): SeededDay {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(options.day) || Number.isNaN(Date.parse(`${options.day}T00:00:00Z`))) {
		throw new Error(`day must be YYYY-MM-DD, got ${JSON.stringify(options.day)}`);
	}
	const count = Math.floor(options.records);
	if (!Number.isFinite(count) || count < 1 || count > 1_000_000) throw new Error('records must be between 1 and 1000000');
	const start = Date.parse(`${options.day}T00:00:00.000Z`);
	const prefix = options.prefix ?? options.day;
	const { state } = core;
	const openingBalances = { ...state.account.fiatWallets };
	const wallets = seedWallets(core, prefix, new Date(start - DAY_MS).toISOString());
	const asset = core.state.assets.find((candidate) => candidate.id === wallets.unlabelled.asset) as DepositAsset;
	const feePercentage = state.account.platformFeePercent[0]?.percent ?? 0;
	const kinds: Partial<Record<SeededKind, number>> = {};
	const trades: Trade[] = [];
	const withdrawals: Withdrawal[] = [];
	// Ids as the service's (24 hex digits, seconds first), stable for one state: the same seed gives the same ids.
	let serial = state.trades.length + state.withdrawals.length;
	const id = () => `${(Math.floor(start / 1000) + serial).toString(16).padStart(8, '0').slice(-8)}${(serial++).toString(16).padStart(16, '0')}`;
	// Slots over the day: the first at 00:00:00.000, the last at 23:59:59.999.
	const slots = count;
	const timeOf = (slot: number) => new Date(slots === 1 ? start : start + Math.floor(((DAY_MS - 1) * slot) / (slots - 1))).toISOString();

	const newTrade = (slot: number, wallet: Wallet, usd: number, status: Trade['status']): Trade => {
		const at = timeOf(slot);
		const markup = wallet.autoSettlement && wallet.bank ? state.account.markupPercent : 0;
		const rate = round(SELL_RATE.NGN * (1 + markup / 100), 2);
		const feeAmountInUsd = round((feePercentage / 100) * usd, 2);
		const feeAmount = round(feeAmountInUsd * rate, 2);
		const txHash = `0x${id()}${'0'.repeat(16)}`;
		const trade: Trade = {
			id: id(),
			amount: round(usd * rate - feeAmount, 2),
			avatar: asset.icon,
			rate,
			reason: status === 'flagged' ? `amount below the minimum deposit of ${asset.minimum} USD for ${asset.identifier}` : null,
			txHash,
			txLink: `${asset.txLink}${txHash}`,
			asset: asset.id,
			assetIdentifier: asset.identifier,
			vaultId: wallet.vaultId,
			address: wallet.address,
			sourceAddress: null,
			wallet: wallet.id,
			label: wallet.label,
			passAMLCheck: true,
			conversionRate: rate,
			amountReceived: usd,
			cryptoReceived: String(round(usd / (PRICES_USD[asset.symbol] ?? 1), 8)),
			flagFeeUSD: asset.flagFeeUSD,
			feePercentage,
			feeAmountInUsd,
			walletCredited: status === 'completed',
			status,
			currency: 'ngn',
			integration: state.account.id,
			feeAmount,
			reference: `${prefix}-deposit-${slot}`,
			confirmations: status === 'pending' ? 0 : asset.confirmations,
			createdAt: at,
			updatedAt: at,
		};
		if (status === 'completed') core.adjustBalance('ngn', trade.amount);
		trades.push(trade);
		return trade;
	};

	/** A withdrawal as createWithdrawal and its lifecycle leave it: payout and debit by the fee bearer, refunded when it failed. */
	const newWithdrawal = (
		slot: number,
		fields: Pick<Withdrawal, 'type' | 'externalId' | 'amount' | 'fee' | 'currency' | 'cryptoAmount' | 'token' | 'network' | 'walletAddress' | 'bankName' | 'accountNumber' | 'narration' | 'trade'>,
		gross: number,
		status: WithdrawalStatus,
	): Withdrawal => {
		const at = timeOf(slot);
		const feeBearer = state.account.withdrawalFeeBearer;
		const debitedAmount = round(feeBearer === 'business' ? gross + fields.fee : gross, 2);
		const payoutAmount = round(feeBearer === 'business' ? gross : gross - fields.fee, 2);
		const refunded = status === 'rejected' || status === 'reversed';
		const withdrawal: Withdrawal = {
			...fields,
			id: id(),
			status,
			feeLevel: null,
			bankAccount: null,
			payoutAmount,
			debitedAmount,
			feeBearer,
			txHash: status === 'completed' ? (fields.type === 'crypto' ? `0x${id()}` : `NIP${id()}`) : null,
			reason:
				status === 'rejected'
					? 'withdrawal failed an internal check before broadcast'
					: status === 'reversed'
						? 'payout failed after broadcast; funds returned'
						: null,
			createdAt: at,
			// A refund or a completion a few minutes later, within the day when the record is.
			updatedAt: status === 'pending' ? at : new Date(Math.min(Date.parse(at) + 5 * 60_000, start + DAY_MS - 1)).toISOString(),
		};
		if (!refunded) core.adjustBalance(fields.currency, -debitedAmount);
		withdrawals.push(withdrawal);
		return withdrawal;
	};

	const crypto = (slot: number, status: WithdrawalStatus, externalId: string | null) => {
		const usd = 10 + (slot % 40);
		newWithdrawal(
			slot,
			{
				type: 'crypto',
				externalId,
				amount: usd,
				fee: NETWORK_FEES_USD.TRC20,
				currency: 'usd',
				cryptoAmount: usd,
				token: 'USDT',
				network: 'TRC20',
				walletAddress: `TSeeded${prefix.replace(/\W/g, '')}${slot}`,
				bankName: null,
				accountNumber: null,
				narration: null,
				trade: null,
			},
			usd,
			status,
		);
	};
	const bankPayout = (slot: number, status: WithdrawalStatus) => {
		const usd = 20 + (slot % 30);
		newWithdrawal(
			slot,
			{
				type: 'bank',
				externalId: `${prefix}-payout-${slot}`,
				amount: usd,
				fee: BANK_FEES.ngn,
				currency: 'ngn',
				cryptoAmount: null,
				token: null,
				network: null,
				walletAddress: null,
				bankName: 'Access Bank',
				accountNumber: '0123456789',
				narration: 'payout',
				trade: null,
			},
			round(usd * SELL_RATE.NGN, 2),
			status,
		);
	};

	let slot = 0;
	for (let index = 0; slot < slots; index++) {
		const kind = PATTERN[index % PATTERN.length];
		// An auto-settled deposit takes two slots (trade, then payout); at the very end there may be room for one only.
		if (kind === 'autoSettledDeposit' && slot + 1 >= slots) continue;
		kinds[kind] = (kinds[kind] ?? 0) + 1;
		const customer = wallets.labelled[index % wallets.labelled.length];
		switch (kind) {
			case 'deposit':
				newTrade(slot++, customer, 50 + (index % 50), 'completed');
				break;
			case 'pendingDeposit':
				newTrade(slot++, customer, 40 + (index % 20), 'pending');
				break;
			case 'flaggedDeposit':
				newTrade(slot++, customer, round(asset.minimum / 2, 2), 'flagged');
				break;
			case 'unlabelledDeposit':
				newTrade(slot++, wallets.unlabelled, 30 + (index % 20), 'completed');
				break;
			case 'autoSettledDeposit': {
				const wallet = wallets.autoSettled;
				const trade = newTrade(slot++, wallet, 100 + (index % 50), 'completed');
				newWithdrawal(
					slot++,
					{
						type: 'bank',
						externalId: null,
						amount: round(trade.amountReceived - trade.feeAmountInUsd, 2),
						fee: BANK_FEES.ngn,
						currency: 'ngn',
						cryptoAmount: null,
						token: null,
						network: null,
						walletAddress: null,
						bankName: wallet.bank?.bankName ?? null,
						accountNumber: wallet.bank?.accountNumber ?? null,
						narration: wallet.bank?.narration || null,
						trade: trade.id,
					},
					trade.amount,
					'completed',
				);
				break;
			}
			case 'cryptoWithdrawal':
				crypto(slot, 'completed', `${prefix}-order-${slot}`);
				slot++;
				break;
			case 'withdrawalWithoutExternalId':
				crypto(slot, 'completed', null);
				slot++;
				break;
			case 'rejectedWithdrawal':
				crypto(slot, 'rejected', `${prefix}-order-${slot}`);
				slot++;
				break;
			case 'reversedWithdrawal':
				bankPayout(slot++, 'reversed');
				break;
			case 'stuckWithdrawal':
				crypto(slot, 'pending', `${prefix}-order-${slot}`);
				slot++;
				break;
			case 'bankWithdrawal':
				bankPayout(slot++, 'completed');
				break;
		}
	}
	// The lists show the newest first by their order in the state: seeded records take their place by time.
	const byTime = (a: { createdAt: string }, b: { createdAt: string }) => Date.parse(a.createdAt) - Date.parse(b.createdAt);
	state.trades.push(...trades);
	state.trades.sort(byTime);
	state.withdrawals.push(...withdrawals);
	state.withdrawals.sort(byTime);
	const seeded: SeededDay = {
		day: options.day,
		openingBalances,
		closingBalances: { ...state.account.fiatWallets },
		kinds,
		trades: trades.length,
		withdrawals: withdrawals.length,
	};
	state.seededDays.push(seeded);
	core.save();
	return seeded;
}
