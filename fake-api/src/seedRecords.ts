/**
 * The records of a seeded day (docs/fake-api.md, "A seeded day"), one builder per kind of record:
 * deposits (trades), crypto and bank payouts, auto-settled deposits with their payout. Each writes
 * the record as the lifecycle of trades.ts and withdrawals.ts would have left it and moves the
 * balances the same way. seed.ts picks which kind goes in which slot.
 */
import { BANK_FEES, NETWORK_FEES_USD, PRICES_USD, SELL_RATE, round } from './catalog';
import type { FakeApiCore } from './core';
import type { DepositAsset, Trade, Wallet, Withdrawal, WithdrawalStatus } from './types';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The demo wallets of a seeded day: labelled customers, one auto-settled to a bank, one without a label. */
export function seedWallets(
	core: FakeApiCore,
	prefix: string,
	at: string,
): { labelled: Wallet[]; autoSettled: Wallet; unlabelled: Wallet } {
	const asset = core.state.assets.find(
		(candidate) => candidate.identifier === 'USDT_TRX_TEST',
	) as DepositAsset;
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

type WithdrawalFields = Pick<
	Withdrawal,
	| 'type'
	| 'externalId'
	| 'amount'
	| 'fee'
	| 'currency'
	| 'cryptoAmount'
	| 'token'
	| 'network'
	| 'walletAddress'
	| 'bankName'
	| 'accountNumber'
	| 'narration'
	| 'trade'
>;

/** An NGN bank payout's fields: the bank's flat fee, and no crypto side. */
function ngnBankFields(
	fields: Pick<
		Withdrawal,
		'externalId' | 'amount' | 'bankName' | 'accountNumber' | 'narration' | 'trade'
	>,
): WithdrawalFields {
	return {
		type: 'bank',
		fee: BANK_FEES.ngn,
		currency: 'ngn',
		cryptoAmount: null,
		token: null,
		network: null,
		walletAddress: null,
		...fields,
	};
}

/** Writes one day's records into lists of its own (seed.ts adds them to the state in time order). */
export class DayRecords {
	readonly trades: Trade[] = [];
	readonly withdrawals: Withdrawal[] = [];
	private serial: number;
	private readonly feePercentage: number;

	constructor(
		private readonly core: FakeApiCore,
		private readonly start: number,
		private readonly slots: number,
		private readonly prefix: string,
		private readonly asset: DepositAsset,
	) {
		this.serial = core.state.trades.length + core.state.withdrawals.length;
		this.feePercentage = core.state.account.platformFeePercent[0]?.percent ?? 0;
	}

	/** Ids as the service's (24 hex digits, seconds first), stable for one state: the same seed gives the same ids. */
	private id(): string {
		const serial = this.serial++;
		return `${(Math.floor(this.start / 1000) + serial).toString(16).padStart(8, '0').slice(-8)}${serial.toString(16).padStart(16, '0')}`;
	}

	/** Slots over the day: the first at 00:00:00.000, the last at 23:59:59.999. */
	private timeOf(slot: number): string {
		return new Date(
			this.slots === 1
				? this.start
				: this.start + Math.floor(((DAY_MS - 1) * slot) / (this.slots - 1)),
		).toISOString();
	}

	/** A deposit to `wallet` of `usd`, credited when completed. */
	trade(slot: number, wallet: Wallet, usd: number, status: Trade['status']): Trade {
		const at = this.timeOf(slot);
		const markup = wallet.autoSettlement && wallet.bank ? this.core.state.account.markupPercent : 0;
		const rate = round(SELL_RATE.NGN * (1 + markup / 100), 2);
		const feeAmountInUsd = round((this.feePercentage / 100) * usd, 2);
		const feeAmount = round(feeAmountInUsd * rate, 2);
		const txHash = `0x${this.id()}${'0'.repeat(16)}`;
		const trade: Trade = {
			id: this.id(),
			amount: round(usd * rate - feeAmount, 2),
			avatar: this.asset.icon,
			rate,
			reason:
				status === 'flagged'
					? `amount below the minimum deposit of ${this.asset.minimum} USD for ${this.asset.identifier}`
					: null,
			txHash,
			txLink: `${this.asset.txLink}${txHash}`,
			asset: this.asset.id,
			assetIdentifier: this.asset.identifier,
			vaultId: wallet.vaultId,
			address: wallet.address,
			sourceAddress: null,
			wallet: wallet.id,
			label: wallet.label,
			passAMLCheck: true,
			conversionRate: rate,
			amountReceived: usd,
			cryptoReceived: String(round(usd / (PRICES_USD[this.asset.symbol] ?? 1), 8)),
			flagFeeUSD: this.asset.flagFeeUSD,
			feePercentage: this.feePercentage,
			feeAmountInUsd,
			walletCredited: status === 'completed',
			status,
			currency: 'ngn',
			integration: this.core.state.account.id,
			feeAmount,
			reference: `${this.prefix}-deposit-${slot}`,
			confirmations: status === 'pending' ? 0 : this.asset.confirmations,
			createdAt: at,
			updatedAt: at,
		};
		if (status === 'completed') this.core.adjustBalance('ngn', trade.amount);
		this.trades.push(trade);
		return trade;
	}

	/** A withdrawal as createWithdrawal and its lifecycle leave it: payout and debit by the fee bearer, refunded when it failed. */
	withdrawal(
		slot: number,
		fields: WithdrawalFields,
		gross: number,
		status: WithdrawalStatus,
	): Withdrawal {
		const at = this.timeOf(slot);
		const feeBearer = this.core.state.account.withdrawalFeeBearer;
		const debitedAmount = round(feeBearer === 'business' ? gross + fields.fee : gross, 2);
		const payoutAmount = round(feeBearer === 'business' ? gross : gross - fields.fee, 2);
		const refunded = status === 'rejected' || status === 'reversed';
		const withdrawal: Withdrawal = {
			...fields,
			id: this.id(),
			status,
			feeLevel: null,
			bankAccount: null,
			payoutAmount,
			debitedAmount,
			feeBearer,
			txHash:
				status === 'completed'
					? fields.type === 'crypto'
						? `0x${this.id()}`
						: `NIP${this.id()}`
					: null,
			reason:
				status === 'rejected'
					? 'withdrawal failed an internal check before broadcast'
					: status === 'reversed'
						? 'payout failed after broadcast; funds returned'
						: null,
			createdAt: at,
			// A refund or a completion a few minutes later, within the day when the record is.
			updatedAt:
				status === 'pending'
					? at
					: new Date(Math.min(Date.parse(at) + 5 * 60_000, this.start + DAY_MS - 1)).toISOString(),
		};
		if (!refunded) this.core.adjustBalance(fields.currency, -debitedAmount);
		this.withdrawals.push(withdrawal);
		return withdrawal;
	}

	/** A USDT payout on TRC20. */
	cryptoPayout(slot: number, status: WithdrawalStatus, externalId: string | null): Withdrawal {
		const usd = 10 + (slot % 40);
		return this.withdrawal(
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
				walletAddress: `TSeeded${this.prefix.replace(/\W/g, '')}${slot}`,
				bankName: null,
				accountNumber: null,
				narration: null,
				trade: null,
			},
			usd,
			status,
		);
	}
	/** An NGN bank payout under an External ID. */
	bankPayout(slot: number, status: WithdrawalStatus): Withdrawal {
		const usd = 20 + (slot % 30);
		return this.withdrawal(
			slot,
			ngnBankFields({
				externalId: `${this.prefix}-payout-${slot}`,
				amount: usd,
				bankName: 'Access Bank',
				accountNumber: '0123456789',
				narration: 'payout',
				trade: null,
			}),
			round(usd * SELL_RATE.NGN, 2),
			status,
		);
	}

	/** A deposit to a wallet with auto-settlement and the payout the service made from it (two slots). */
	autoSettled(slot: number, wallet: Wallet, usd: number): void {
		const trade = this.trade(slot, wallet, usd, 'completed');
		this.withdrawal(
			slot + 1,
			ngnBankFields({
				externalId: null,
				amount: round(trade.amountReceived - trade.feeAmountInUsd, 2),
				bankName: wallet.bank?.bankName ?? null,
				accountNumber: wallet.bank?.accountNumber ?? null,
				narration: wallet.bank?.narration || null,
				trade: trade.id,
			}),
			trade.amount,
			'completed',
		);
	}
}
