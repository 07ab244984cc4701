/** Deposits (trades) through their life: pending, then completed (credited, maybe auto-settled) or flagged. */
import { BANK_FEES, round } from './catalog';
import type { FakeApiCore } from './core';
import type { DepositAsset, Trade, Wallet } from './types';
import { createWithdrawal } from './withdrawals';

/** What a mock deposit supplies to create a trade. */
export interface NewTrade {
	wallet: Wallet;
	asset: DepositAsset;
	amountInUSD: number;
	cryptoReceived: string;
	reference: string;
	txHash: string;
	sourceAddress: string | null;
	confirmations: number | null;
}

/** Creates a pending trade on a deposit wallet, emits trade.pending and schedules the outcome. */
export function createTrade(core: FakeApiCore, input: NewTrade): Trade {
	const { wallet, asset } = input;
	const currency = wallet.currency;
	const markup = wallet.autoSettlement && wallet.bank ? core.state.account.markupPercent : 0;
	const rate = round(asset.rate[currency === 'ngn' ? 'NGN' : 'GHS'] * (1 + markup / 100), 2);
	const feePercentage = core.state.account.platformFeePercent[0]?.percent ?? 0;
	const feeAmountInUsd = round((feePercentage / 100) * input.amountInUSD, 2);
	const feeAmount = round(feeAmountInUsd * rate, 2);
	const now = core.iso();
	const trade: Trade = {
		id: core.newId(),
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
		integration: core.state.account.id,
		feeAmount,
		reference: input.reference,
		confirmations: 0,
		createdAt: now,
		updatedAt: now,
	};
	core.state.trades.push(trade);
	core.emit('trade.pending', trade.id, tradePayload(core, trade));
	const finalConfirmations = Math.max(input.confirmations ?? 0, asset.confirmations);
	scheduleTrade(core, trade.id, finalConfirmations);
	return trade;
}

/** Webhook body of trade events (docs/api.md, public notes); timestamps in epoch milliseconds. */
function tradePayload(core: FakeApiCore, trade: Trade): Record<string, unknown> {
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
		blockInfo: {
			blockHeight: String(1000000 + core.state.trades.indexOf(trade)),
			blockHash: `0x${trade.txHash.replace(/^0x/, '').padEnd(64, '0').slice(0, 64)}`,
		},
	};
}

export function scheduleTrade(core: FakeApiCore, id: string, confirmations?: number): void {
	core.scheduler.add({
		kind: 'lifecycle',
		dueAt: core.now() + core.options.lifecycleDelayMs,
		run: () => finishTrade(core, id, confirmations),
	});
}

function finishTrade(core: FakeApiCore, id: string, confirmations?: number): void {
	const trade = core.state.trades.find((candidate) => candidate.id === id);
	if (!trade || trade.status !== 'pending') return;
	const asset = core.state.assets.find((candidate) => candidate.id === trade.asset);
	const minimum = asset?.minimum ?? 0;
	trade.confirmations = confirmations ?? asset?.confirmations ?? 1;
	trade.updatedAt = core.iso();
	if (trade.amountReceived < minimum) {
		trade.status = 'flagged';
		trade.reason = `amount below the minimum deposit of ${minimum} USD for ${trade.assetIdentifier}`;
		core.emit('trade.flagged', trade.id, tradePayload(core, trade));
		core.save();
		return;
	}
	trade.status = 'completed';
	trade.walletCredited = true;
	core.adjustBalance(trade.currency, trade.amount);
	core.emit('trade.completed', trade.id, tradePayload(core, trade));
	const wallet = core.state.wallets.find((candidate) => candidate.id === trade.wallet);
	if (wallet?.autoSettlement && wallet.bank) {
		const bankLink = wallet.bank;
		try {
			createWithdrawal(core, {
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
	core.save();
}
