/** Crypto and bank payouts (the node's `withdrawal` resource), their fees and their records. */
import { CRYPTO_DECIMALS, USD_DECIMALS } from '../../../nodes/service/catalog';
import {
	BANK_FEES,
	NETWORK_FEES_USD,
	PRICES_USD,
	SELL_RATE,
	UTXO_FEES_USD,
	WITHDRAWAL_LIMITS,
	isStablecoin,
	round,
} from '../catalog';
import { ApiError, assertValid, badRequest, notFound, ok, type Violation } from '../http';
import { publicWithdrawal } from '../records';
import { createWithdrawal } from '../withdrawals';
import { checkPin, findOr404, pageOf, type Context, type Route } from './context';
import {
	isBlank,
	isWalletAddress,
	narration,
	numberOf,
	optionalString,
	requiredAmount,
	requiredString,
	requiredText,
	text,
	tokenNetworkFee,
	withdrawalAmount,
} from './validation';

function checkExternalIdUnused(ctx: Context, externalId: string | undefined): void {
	if (
		externalId &&
		ctx.core.state.withdrawals.some((withdrawal) => withdrawal.externalId === externalId)
	) {
		throw badRequest(`duplicate withdrawal: externalId ${externalId} has already been used`);
	}
}

function checkIpAllowed(ctx: Context): void {
	const whitelist = ctx.core.state.account.ipWhitelist;
	if (whitelist.length && !whitelist.includes(ctx.remoteAddress)) {
		throw new ApiError(403, `ip address ${ctx.remoteAddress} is not whitelisted for withdrawals`);
	}
}

/** The USD value and crypto amount of a withdrawal request (cryptoAmount priced at the demo price). */
function valueOf(token: string, body: Record<string, unknown>): { usd: number; crypto: number } {
	const price = PRICES_USD[token] ?? 1;
	const amount = numberOf(body.amount);
	if (amount !== undefined) return { usd: amount, crypto: round(amount / price, CRYPTO_DECIMALS) };
	const crypto = numberOf(body.cryptoAmount) ?? 0;
	return { usd: round(crypto * price, USD_DECIMALS), crypto };
}

/** docs/api.md, "Status codes": limits and availability (403), temporary payout capacity (400). */
function checkLimitsAndCapacity(ctx: Context, token: string, usd: number): void {
	if (usd < WITHDRAWAL_LIMITS.minimum) {
		throw new ApiError(
			403,
			`amount is below the minimum withdrawal of ${WITHDRAWAL_LIMITS.minimum} USD`,
		);
	}
	if (usd > WITHDRAWAL_LIMITS.maximum) {
		throw new ApiError(
			403,
			`amount is above the maximum withdrawal of ${WITHDRAWAL_LIMITS.maximum} USD`,
		);
	}
	if (usd > ctx.core.options.payoutCapacityUsd) {
		throw badRequest(
			`temporary payout capacity: a payout of ${usd} USD in ${token} cannot be priced now; retry with a smaller amount or later`,
		);
	}
}

function feeOf(token: string, network: unknown, feeLevel: unknown): number {
	if (isStablecoin(token)) return NETWORK_FEES_USD[network as string] ?? 0;
	return UTXO_FEES_USD[token]?.[feeLevel as 'low' | 'medium' | 'high'] ?? 0;
}

export const withdrawalRoutes: Route[] = [
	{
		method: 'POST',
		template: '/payments/withdraw/address',
		access: 'credentials',
		limit: 'withdraw',
		handle: (ctx) => {
			const { body } = ctx;
			const violations: Violation[] = [
				...requiredText('pin', body.pin),
				...tokenNetworkFee(body, 'required'),
				...withdrawalAmount(body),
				...requiredString('walletAddress', body.walletAddress),
				...optionalString('externalId', body.externalId),
			];
			if (
				!violations.some((violation) =>
					['token', 'network', 'walletAddress'].includes(violation.field),
				) &&
				!isWalletAddress(body.walletAddress, body.token, body.network)
			) {
				violations.push({
					field: 'walletAddress',
					message: 'invalid wallet address',
					value: body.walletAddress,
				});
			}
			assertValid(violations);
			checkIpAllowed(ctx);
			checkPin(ctx);
			const externalId = text(body.externalId);
			checkExternalIdUnused(ctx, externalId);
			const token = body.token as string;
			const { usd, crypto } = valueOf(token, body);
			checkLimitsAndCapacity(ctx, token, usd);
			const stable = isStablecoin(token);
			const withdrawal = createWithdrawal(ctx.core, {
				type: 'crypto',
				externalId: externalId ?? null,
				amount: usd,
				fee: feeOf(token, body.network, body.feeLevel),
				currency: 'usd',
				cryptoAmount: crypto,
				token,
				network: stable ? (body.network as string) : null,
				feeLevel: stable ? null : (body.feeLevel as string),
				walletAddress: (body.walletAddress as string).trim(),
				bankAccount: null,
				bankName: null,
				accountNumber: null,
				narration: null,
				gross: usd,
				trade: null,
			});
			return ok('withdrawal initiated successfully', { id: withdrawal.id });
		},
	},
	{
		method: 'POST',
		template: '/payments/estimate-network-fee',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			const amountGiven = !isBlank(body.amount) || !isBlank(body.cryptoAmount);
			assertValid([
				...tokenNetworkFee(body, 'optional'),
				...(amountGiven ? withdrawalAmount(body) : []),
			]);
			const token = body.token as string;
			if (amountGiven) checkLimitsAndCapacity(ctx, token, valueOf(token, body).usd);
			const price = PRICES_USD[token] ?? 1;
			if (isStablecoin(token)) {
				const fee = NETWORK_FEES_USD[body.network as string];
				return ok('network fee estimated successfully', {
					token,
					network: body.network,
					fee,
					feeCurrency: 'USD',
					cryptoFee: round(fee / price, CRYPTO_DECIMALS),
				});
			}
			const fees = UTXO_FEES_USD[token];
			const level = text(body.feeLevel) as 'low' | 'medium' | 'high' | undefined;
			return ok('network fee estimated successfully', {
				token,
				feeLevel: level ?? null,
				fee: level ? fees[level] : null,
				fees: { ...fees },
				cryptoFees: {
					low: round(fees.low / price, CRYPTO_DECIMALS),
					medium: round(fees.medium / price, CRYPTO_DECIMALS),
					high: round(fees.high / price, CRYPTO_DECIMALS),
				},
				feeCurrency: 'USD',
			});
		},
	},
	{
		method: 'POST',
		template: '/payments/withdraw/bank/{bankAccountId}',
		access: 'credentials',
		handle: (ctx) => {
			const bankAccount = findOr404(
				ctx.core.state.bankAccounts,
				ctx.params.bankAccountId,
				'bank account not found',
			);
			const { body } = ctx;
			assertValid([
				...requiredText('pin', body.pin),
				...requiredAmount('amount', body.amount, USD_DECIMALS),
				...narration(body.narration),
				...optionalString('externalId', body.externalId),
			]);
			checkIpAllowed(ctx);
			checkPin(ctx);
			const externalId = text(body.externalId);
			checkExternalIdUnused(ctx, externalId);
			if (bankAccount.disabled) throw new ApiError(403, 'this bank account is disabled');
			const usd = numberOf(body.amount) as number;
			const currency = bankAccount.currency;
			const local = round(usd * (currency === 'ngn' ? SELL_RATE.NGN : SELL_RATE.GHS), 2);
			const withdrawal = createWithdrawal(ctx.core, {
				type: 'bank',
				externalId: externalId ?? null,
				amount: usd,
				fee: BANK_FEES[currency],
				currency,
				cryptoAmount: null,
				token: null,
				network: null,
				feeLevel: null,
				walletAddress: null,
				bankAccount: bankAccount.id,
				bankName: bankAccount.bankName,
				accountNumber: bankAccount.accountNumber,
				narration: text(body.narration) ?? (bankAccount.narration || null),
				gross: local,
				trade: null,
			});
			return ok('withdrawal request received', { id: withdrawal.id });
		},
	},
	{
		method: 'GET',
		template: '/payments/withdrawal/{withdrawalId}',
		access: 'credentials',
		handle: (ctx) => {
			const key = ctx.params.withdrawalId;
			const { withdrawals } = ctx.core.state;
			const withdrawal =
				withdrawals.find((candidate) => candidate.id === key) ??
				withdrawals.find((candidate) => candidate.externalId === key);
			if (!withdrawal) throw notFound('withdrawal not found');
			return ok('withdrawal retrieved successfully', publicWithdrawal(withdrawal));
		},
	},
	{
		method: 'GET',
		template: '/payments/withdrawals',
		access: 'credentials',
		handle: (ctx) => {
			const status = ctx.query.get('status');
			const items = status
				? ctx.core.state.withdrawals.filter((withdrawal) => withdrawal.status === status)
				: ctx.core.state.withdrawals;
			return pageOf(ctx, items, 'withdrawals retrieved successfully', publicWithdrawal);
		},
	},
];
