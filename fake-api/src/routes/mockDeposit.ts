/**
 * Mock deposits, sandbox environment only (the node's `sandbox` resource, operation `mockDeposit`;
 * docs/api.md, public notes).
 */
import { CRYPTO_DECIMALS } from '../../../nodes/service/catalog';
import { ApiError, assertValid, badRequest, notFound, ok, type Violation } from '../http';
import { createTrade } from '../trades';
import type { Route } from './context';
import {
	isBlank,
	numberOf,
	optionalString,
	requiredAmount,
	requiredString,
	text,
} from './validation';

export const mockDepositRoutes: Route[] = [
	{
		method: 'POST',
		template: '/trades/sell/mock-trade',
		access: 'credentials',
		handle: (ctx) => {
			if (ctx.env !== 'sandbox') {
				throw new ApiError(403, 'mock trades are only available in the sandbox environment');
			}
			const { body } = ctx;
			const confirmations = body.confirmations;
			const violations: Violation[] = [
				...requiredString('walletAddress', body.walletAddress),
				...requiredString('asset', body.asset),
				...requiredAmount('amountInUSD', body.amountInUSD, CRYPTO_DECIMALS),
				...requiredAmount('cryptoReceived', body.cryptoReceived, 18),
				...requiredString('reference', body.reference),
				...requiredString('txHash', body.txHash),
				...optionalString('sourceAddress', body.sourceAddress),
			];
			if (!isBlank(confirmations)) {
				const count = numberOf(confirmations);
				if (count === undefined || !Number.isInteger(count) || count < 0) {
					violations.push({
						field: 'confirmations',
						message: 'confirmations must be a non-negative integer',
					});
				}
			}
			assertValid(violations);
			const { state } = ctx.core;
			const address = (body.walletAddress as string).trim();
			const assetKey = (body.asset as string).trim();
			const wallet = state.wallets.find(
				(candidate) =>
					candidate.address === address &&
					(candidate.identifier === assetKey || candidate.asset === assetKey),
			);
			if (!wallet) throw notFound('no wallet found for this walletAddress and asset');
			const asset = state.assets.find((candidate) => candidate.id === wallet.asset);
			if (!asset) throw notFound('asset not found');
			const reference = (body.reference as string).trim();
			const txHash = (body.txHash as string).trim();
			if (state.trades.some((trade) => trade.reference === reference)) {
				throw badRequest(`a mock trade with reference ${reference} already exists`);
			}
			if (state.trades.some((trade) => trade.txHash === txHash)) {
				throw badRequest(`a mock trade with txHash ${txHash} already exists`);
			}
			const trade = createTrade(ctx.core, {
				wallet,
				asset,
				amountInUSD: numberOf(body.amountInUSD) as number,
				cryptoReceived: String(body.cryptoReceived),
				reference,
				txHash,
				sourceAddress: text(body.sourceAddress) ?? null,
				confirmations: isBlank(confirmations) ? null : (numberOf(confirmations) as number),
			});
			return ok('mock trade queued successfully', {
				id: trade.id,
				reference,
				status: trade.status,
			});
		},
	},
];
