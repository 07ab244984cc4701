/**
 * The API's endpoints (the README's Operations table): validation with the shared rules module, then the
 * effect on the sandbox's state. Paths are relative to /v1.
 */
import {
	CRYPTO_DECIMALS,
	FIAT_CURRENCIES,
	USD_DECIMALS,
	WITHDRAWAL_FEE_BEARERS,
	checkMarkupPercent,
	checkNarration,
	checkOneOf,
	checkPositiveAmount,
	checkRequired,
	checkSwap,
	checkTokenNetworkFee,
	checkWithdrawalAmount,
	isStablecoin,
	toNumber,
	type Violation,
} from '../../nodes/CryptoSettlement/helpers/rules';
import {
	BANK_FEES,
	NETWORK_FEES_USD,
	PRICES_USD,
	SELL_RATE,
	UTXO_FEES_USD,
	WITHDRAWAL_LIMITS,
	imageOf,
	isValidAddress,
	maskAccountNumber,
	resolveAccount,
	round,
	swapRate,
	withdrawalAssetsInfo,
} from './catalog';
import { FakeApiCore, isObjectId, publicTrade, publicWallet, publicWithdrawal } from './core';
import { ApiError, MESSAGES, assertValid, badRequest, notFound, ok, type Reply } from './http';
import type { Bank, BankLink, Environment, PayoutAddress, RateLimitKey } from './types';

export interface Context {
	core: FakeApiCore;
	params: Record<string, string>;
	query: URLSearchParams;
	body: Record<string, unknown>;
	env: Environment;
	remoteAddress: string;
}

export interface Route {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** Path template relative to /v1, parameters in braces. */
	template: string;
	/** public: no credentials (docs/api.md); vip: webhook inspection (docs/api.md). */
	access: 'public' | 'credentials' | 'vip';
	limit?: RateLimitKey;
	handle: (ctx: Context) => Reply | Promise<Reply>;
}

// ---- helpers ------------------------------------------------------------------------------

function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function requiredString(field: string, value: unknown): Violation[] {
	if (isBlank(value)) return checkRequired(field, value);
	return typeof value === 'string' ? [] : [{ field, message: `${field} must be a string`, value }];
}

function optionalString(field: string, value: unknown): Violation[] {
	return value === undefined || value === null || typeof value === 'string'
		? []
		: [{ field, message: `${field} must be a string`, value }];
}

function optionalBoolean(field: string, value: unknown): Violation[] {
	return value === undefined || value === null || typeof value === 'boolean'
		? []
		: [{ field, message: `${field} must be a boolean`, value }];
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

interface PageMeta {
	pages: number;
	prevPage: number | null;
	nextPage: number | null;
	page: number;
	totalDocs: number;
	hasPrevPage: boolean;
	hasNextPage: boolean;
}

function positiveIntegerParam(query: URLSearchParams, name: string, fallback: number): number {
	const raw = query.get(name);
	if (raw === null || raw === '') return fallback;
	if (!/^\d+$/.test(raw) || Number(raw) < 1) {
		throw new ApiError(422, MESSAGES.validation, [
			{ message: `${name} must be a positive integer`, field: name, location: 'query' },
		]);
	}
	return Number(raw);
}

/** docs/api.md, "Pagination": page (default 1) and size (default 10, capped at `maxSize`); newest first. */
export function paginate<T>(items: T[], query: URLSearchParams, maxSize: number): { data: T[]; meta: PageMeta } {
	const page = positiveIntegerParam(query, 'page', 1);
	const size = Math.min(positiveIntegerParam(query, 'size', 10), Math.max(1, maxSize));
	const totalDocs = items.length;
	const pages = Math.max(1, Math.ceil(totalDocs / size));
	const newestFirst = [...items].reverse();
	return {
		data: newestFirst.slice((page - 1) * size, page * size),
		meta: {
			pages,
			prevPage: page > 1 ? page - 1 : null,
			nextPage: page < pages ? page + 1 : null,
			page,
			totalDocs,
			hasPrevPage: page > 1,
			hasNextPage: page < pages,
		},
	};
}

function checkPin(ctx: Context): void {
	if (String(ctx.body.pin) !== ctx.core.options.pin) throw badRequest('invalid transaction pin');
}

function checkExternalIdUnused(ctx: Context, externalId: string | undefined): void {
	if (externalId && ctx.core.state.withdrawals.some((withdrawal) => withdrawal.externalId === externalId)) {
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
	const amount = toNumber(body.amount);
	if (amount !== undefined) return { usd: amount, crypto: round(amount / price, CRYPTO_DECIMALS) };
	const crypto = toNumber(body.cryptoAmount) ?? 0;
	return { usd: round(crypto * price, USD_DECIMALS), crypto };
}

/** docs/api.md, "Status codes": limits and availability (403), temporary payout capacity (400). */
function checkLimitsAndCapacity(ctx: Context, token: string, usd: number): void {
	if (usd < WITHDRAWAL_LIMITS.minimum) {
		throw new ApiError(403, `amount is below the minimum withdrawal of ${WITHDRAWAL_LIMITS.minimum} USD`);
	}
	if (usd > WITHDRAWAL_LIMITS.maximum) {
		throw new ApiError(403, `amount is above the maximum withdrawal of ${WITHDRAWAL_LIMITS.maximum} USD`);
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

/** docs/api.md, "Field rules": an unsupported token/network pair is reported as an invalid address. */
function addressViolations(body: Record<string, unknown>): Violation[] {
	const violations: Violation[] = [];
	violations.push(...requiredString('address', body.address));
	const pair = checkTokenNetworkFee(
		{ token: body.token, network: body.network, feeLevel: body.feeLevel },
		{ feeLevelRequired: false },
	);
	let pairUnsupported = false;
	for (const violation of pair) {
		if (violation.field === 'network' && violation.message.startsWith('network must be one of')) pairUnsupported = true;
		else violations.push(violation);
	}
	const tokenOk = !pair.some((violation) => violation.field === 'token');
	const addressGiven = !isBlank(body.address) && typeof body.address === 'string';
	if (
		pairUnsupported ||
		(tokenOk && addressGiven && !pair.length && !isValidAddress(body.address, body.token, body.network))
	) {
		violations.push({ field: 'address', message: 'invalid wallet address', value: body.address });
	}
	return violations;
}

function findBank(ctx: Context, id: unknown): Bank | undefined {
	return ctx.core.state.banks.find((bank) => bank.id === String(id));
}

/** Looks up the bank and resolves the account number (422 unknown bank or bad format, 400 unresolved). */
function resolveBankAccount(ctx: Context, bankId: unknown, accountNumber: unknown): BankLink & { bank: Bank } {
	const bank = findBank(ctx, bankId);
	if (!bank) {
		throw new ApiError(422, MESSAGES.validation, [{ message: 'bank not found', field: 'id', location: 'body' }]);
	}
	const number = String(accountNumber).trim();
	const resolved = resolveAccount(bank, number);
	if (!resolved.ok && resolved.reason === 'format') {
		const expected = bank.currency === 'ngn' ? 'a 10-digit account number' : 'an 8 to 16 digit account number';
		throw new ApiError(422, MESSAGES.validation, [
			{ message: `accountNumber must be ${expected}`, field: 'accountNumber', location: 'body' },
		]);
	}
	if (!resolved.ok) throw badRequest('could not resolve account name; check the account number and bank');
	return { bank, bankId: bank.id, bankName: bank.name, accountNumber: number, accountName: resolved.accountName, narration: '' };
}

function findWallet(ctx: Context) {
	const wallet = ctx.core.state.wallets.find((candidate) => candidate.id === ctx.params.walletId);
	if (!wallet) throw notFound('wallet not found');
	return wallet;
}

function findAsset(ctx: Context, id: string) {
	if (!isObjectId(id)) {
		throw new ApiError(422, MESSAGES.validation, [{ message: 'id is not a valid id', field: 'id', location: 'params' }]);
	}
	const asset = ctx.core.state.assets.find((candidate) => candidate.id === id);
	if (!asset) throw notFound('asset not found');
	return asset;
}

function accountView(ctx: Context): Record<string, unknown> {
	const { account } = ctx.core.state;
	// The webhook secret is never part of the answer.
	return {
		id: account.id,
		user: account.user,
		name: account.name,
		email: account.email,
		isActive: account.isActive,
		environment: ctx.env,
		fiatWallets: { ...account.fiatWallets },
		platformFeePercent: account.platformFeePercent,
		markupPercent: account.markupPercent,
		withdrawalFeeBearer: account.withdrawalFeeBearer,
		webhookUrl: ctx.core.webhook.url,
		ipWhitelist: account.ipWhitelist,
		createdAt: account.createdAt,
		updatedAt: account.updatedAt,
	};
}

// ---- routes -------------------------------------------------------------------------------

export const routes: Route[] = [
	// account
	{
		method: 'GET',
		template: '/users/fetch-integration',
		access: 'credentials',
		handle: (ctx) => ok('integration fetched successfully', accountView(ctx)),
	},
	{
		method: 'PUT',
		template: '/users/withdrawal-fee-bearer',
		access: 'credentials',
		handle: (ctx) => {
			assertValid(checkOneOf('withdrawalFeeBearer', ctx.body.withdrawalFeeBearer, WITHDRAWAL_FEE_BEARERS));
			const { account } = ctx.core.state;
			account.withdrawalFeeBearer = ctx.body.withdrawalFeeBearer as 'user' | 'business';
			account.updatedAt = ctx.core.iso();
			return ok('withdrawal fee bearer set successfully', { withdrawalFeeBearer: account.withdrawalFeeBearer });
		},
	},
	{
		method: 'PUT',
		template: '/users/markup-percent',
		access: 'credentials',
		handle: (ctx) => {
			const value = ctx.body.markupPercent;
			assertValid(isBlank(value) ? checkRequired('markupPercent', value) : checkMarkupPercent(value));
			const { account } = ctx.core.state;
			account.markupPercent = toNumber(value) as number;
			account.updatedAt = ctx.core.iso();
			return ok('markup percentage set successfully', { markupPercent: account.markupPercent });
		},
	},

	// assets
	{
		method: 'GET',
		template: '/trades/assets',
		access: 'credentials',
		handle: (ctx) => ok('assets retrieved successfully', ctx.core.state.assets),
	},
	{
		method: 'GET',
		template: '/payments/supported-assets-info',
		access: 'credentials',
		handle: () => ok('data fetched', withdrawalAssetsInfo()),
	},

	// wallets
	{
		method: 'POST',
		template: '/trades/sell/assets/{assetId}/generate-address',
		access: 'credentials',
		handle: (ctx) => {
			const asset = findAsset(ctx, ctx.params.assetId);
			const { body } = ctx;
			const bankGiven = !isBlank(body.bankId) || !isBlank(body.accountNumber);
			const violations: Violation[] = [
				...requiredString('label', body.label),
				...optionalString('bankId', body.bankId),
				...optionalString('accountNumber', body.accountNumber),
				...checkNarration(body.narration),
				...optionalBoolean('autoSettlement', body.autoSettlement),
			];
			if (bankGiven && isBlank(body.bankId)) violations.push({ field: 'bankId', message: 'bankId is required with accountNumber' });
			if (bankGiven && isBlank(body.accountNumber)) {
				violations.push({ field: 'accountNumber', message: 'accountNumber is required with bankId' });
			}
			if (body.autoSettlement === true && !bankGiven) {
				violations.push({ field: 'autoSettlement', message: 'auto settlement requires a linked bank account' });
			}
			assertValid(violations);
			const label = (body.label as string).trim();
			if (ctx.core.state.wallets.some((wallet) => wallet.asset === asset.id && wallet.label === label)) {
				throw badRequest(`${asset.identifier} for ${label} already exists in your wallets`);
			}
			let link: (BankLink & { bank: Bank }) | undefined;
			if (bankGiven) link = resolveBankAccount(ctx, body.bankId, body.accountNumber);
			const wallet = ctx.core.createWallet(asset, label);
			if (link) {
				const { bank, ...bankLink } = link;
				wallet.bank = { ...bankLink, narration: text(body.narration) ?? '' };
				wallet.currency = bank.currency;
				wallet.autoSettlement = body.autoSettlement === true;
			}
			return ok('wallet address generated successfully', { id: wallet.id, address: wallet.address });
		},
	},
	{
		method: 'GET',
		template: '/trades/wallets',
		access: 'credentials',
		handle: (ctx) => {
			const { data, meta } = paginate(ctx.core.state.wallets, ctx.query, ctx.core.options.maxPageSize);
			return ok('wallets retrieved successfully', data.map(publicWallet), { ...meta });
		},
	},
	{
		method: 'GET',
		template: '/trades/wallets/{walletId}',
		access: 'credentials',
		handle: (ctx) => ok('wallets retrieved successfully', publicWallet(findWallet(ctx))),
	},
	{
		method: 'PUT',
		template: '/trades/wallets/{walletId}/bank',
		access: 'credentials',
		handle: (ctx) => {
			const wallet = findWallet(ctx);
			const { body } = ctx;
			const bankGiven = !isBlank(body.id) || !isBlank(body.accountNumber);
			const violations: Violation[] = [
				...optionalString('id', body.id),
				...optionalString('accountNumber', body.accountNumber),
				...checkNarration(body.narration),
				...optionalBoolean('autoSettlement', body.autoSettlement),
			];
			if (bankGiven && isBlank(body.id)) violations.push({ field: 'id', message: 'id is required with accountNumber' });
			if (bankGiven && isBlank(body.accountNumber)) {
				violations.push({ field: 'accountNumber', message: 'accountNumber is required with id' });
			}
			if (!bankGiven && !wallet.bank) {
				if (body.autoSettlement === true) {
					violations.push({ field: 'autoSettlement', message: 'auto settlement requires a linked bank account' });
				} else {
					violations.push({ field: 'id', message: 'id is required' }, { field: 'accountNumber', message: 'accountNumber is required' });
				}
			}
			assertValid(violations);
			if (bankGiven) {
				const { bank, ...link } = resolveBankAccount(ctx, body.id, body.accountNumber);
				wallet.bank = { ...link, narration: text(body.narration) ?? '' };
				wallet.currency = bank.currency;
			} else if (wallet.bank && typeof body.narration === 'string') {
				wallet.bank.narration = body.narration.trim();
			}
			if (typeof body.autoSettlement === 'boolean') wallet.autoSettlement = body.autoSettlement;
			wallet.updatedAt = ctx.core.iso();
			return ok('bank added to wallet successfully', {});
		},
	},
	{
		method: 'PUT',
		template: '/trades/wallets/{walletId}/auto-settlement',
		access: 'credentials',
		handle: (ctx) => {
			const wallet = findWallet(ctx);
			const value = ctx.body.autoSettlement;
			assertValid(isBlank(value) ? checkRequired('autoSettlement', value) : optionalBoolean('autoSettlement', value));
			if (value === true && !wallet.bank) {
				assertValid([{ field: 'autoSettlement', message: 'auto settlement requires a linked bank account' }]);
			}
			wallet.autoSettlement = value as boolean;
			wallet.updatedAt = ctx.core.iso();
			return ok(`auto settlement ${value ? 'enabled' : 'disabled'} successfully`, {
				walletId: wallet.id,
				autoSettlement: wallet.autoSettlement,
			});
		},
	},

	// withdrawals
	{
		method: 'POST',
		template: '/payments/withdraw/address',
		access: 'credentials',
		limit: 'withdraw',
		handle: (ctx) => {
			const { body } = ctx;
			const violations: Violation[] = [
				...requiredString('pin', typeof body.pin === 'number' ? String(body.pin) : body.pin),
				...checkTokenNetworkFee({ token: body.token, network: body.network, feeLevel: body.feeLevel }),
				...checkWithdrawalAmount({ amount: body.amount, cryptoAmount: body.cryptoAmount }),
				...requiredString('walletAddress', body.walletAddress),
				...optionalString('externalId', body.externalId),
			];
			if (
				!violations.some((violation) => ['token', 'network', 'walletAddress'].includes(violation.field)) &&
				!isValidAddress(body.walletAddress, body.token, body.network)
			) {
				violations.push({ field: 'walletAddress', message: 'invalid wallet address', value: body.walletAddress });
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
			const withdrawal = ctx.core.createWithdrawal({
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
				...checkTokenNetworkFee({ token: body.token, network: body.network, feeLevel: body.feeLevel }, { feeLevelRequired: false }),
				...(amountGiven ? checkWithdrawalAmount({ amount: body.amount, cryptoAmount: body.cryptoAmount }) : []),
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
			const bankAccount = ctx.core.state.bankAccounts.find((candidate) => candidate.id === ctx.params.bankAccountId);
			if (!bankAccount) throw notFound('bank account not found');
			const { body } = ctx;
			assertValid([
				...requiredString('pin', typeof body.pin === 'number' ? String(body.pin) : body.pin),
				...(isBlank(body.amount) ? checkRequired('amount', body.amount) : checkPositiveAmount('amount', body.amount, USD_DECIMALS)),
				...checkNarration(body.narration),
				...optionalString('externalId', body.externalId),
			]);
			checkIpAllowed(ctx);
			checkPin(ctx);
			const externalId = text(body.externalId);
			checkExternalIdUnused(ctx, externalId);
			if (bankAccount.disabled) throw new ApiError(403, 'this bank account is disabled');
			const usd = toNumber(body.amount) as number;
			const currency = bankAccount.currency;
			const local = round(usd * (currency === 'ngn' ? SELL_RATE.NGN : SELL_RATE.GHS), 2);
			const withdrawal = ctx.core.createWithdrawal({
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
			const items = ctx.core.state.withdrawals.filter((withdrawal) => !status || withdrawal.status === status);
			const { data, meta } = paginate(items, ctx.query, ctx.core.options.maxPageSize);
			return ok('withdrawals retrieved successfully', data.map(publicWithdrawal), { ...meta });
		},
	},

	// payout addresses
	{
		method: 'POST',
		template: '/payments/wallet-addresses/validate',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid(addressViolations(body));
			const data: Record<string, unknown> = { address: body.address, token: body.token };
			if (isStablecoin(body.token)) data.network = body.network;
			data.valid = true;
			return ok('wallet address is valid', data);
		},
	},
	{
		method: 'POST',
		template: '/payments/wallet-addresses',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid([...addressViolations(body), ...optionalString('label', body.label)]);
			const address = (body.address as string).trim();
			const token = body.token as string;
			const network = isStablecoin(token) ? (body.network as string) : undefined;
			const label = text(body.label) ?? '';
			const { state } = ctx.core;
			const now = ctx.core.iso();
			const existing = state.payoutAddresses.find(
				(candidate) => candidate.address === address && candidate.token === token && candidate.network === network,
			);
			if (existing) {
				existing.label = label;
				existing.updatedAt = now;
				return ok('wallet address updated successfully', existing);
			}
			const id = ctx.core.newId();
			const record: PayoutAddress = {
				_id: id,
				id,
				createdAt: now,
				updatedAt: now,
				user: state.account.user,
				address,
				...(network ? { network } : {}),
				token,
				label,
				avatar: imageOf(token),
				isBusiness: true,
				integration: state.account.id,
			};
			state.payoutAddresses.push(record);
			return ok('wallet address added successfully', record);
		},
	},
	{
		method: 'GET',
		template: '/payments/wallet-addresses',
		access: 'credentials',
		handle: (ctx) => ok('data fetched', [...ctx.core.state.payoutAddresses].reverse()),
	},
	{
		method: 'DELETE',
		template: '/payments/wallet-addresses/{payoutAddressId}',
		access: 'credentials',
		handle: (ctx) => {
			const { state } = ctx.core;
			const index = state.payoutAddresses.findIndex((candidate) => candidate.id === ctx.params.payoutAddressId);
			if (index < 0) throw notFound('wallet address not found');
			state.payoutAddresses.splice(index, 1);
			return ok('wallet address deleted successfully', {});
		},
	},

	// banks
	{
		method: 'GET',
		template: '/payments/banks',
		access: 'credentials',
		handle: (ctx) => {
			const currency = ctx.query.get('currency') ?? undefined;
			const violations = checkOneOf('currency', currency, FIAT_CURRENCIES);
			if (violations.length) {
				throw new ApiError(422, MESSAGES.validation, [
					{ message: `currency ISO code should be one of ${FIAT_CURRENCIES.join(', ')}`, field: 'currency', location: 'query' },
				]);
			}
			return ok('banks fetched successfully', ctx.core.state.banks.filter((bank) => bank.currency === currency));
		},
	},
	{
		method: 'POST',
		template: '/payments/banks/validate',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid([
				...requiredString('id', typeof body.id === 'number' ? String(body.id) : body.id),
				...requiredString('accountNumber', body.accountNumber),
				...(isBlank(body.currency) ? [] : checkOneOf('currency', body.currency, FIAT_CURRENCIES)),
			]);
			const bank = findBank(ctx, body.id);
			if (bank && !isBlank(body.currency) && bank.currency !== body.currency) {
				assertValid([{ field: 'currency', message: `currency does not match the bank's currency (${bank.currency})` }]);
			}
			const resolved = resolveBankAccount(ctx, body.id, body.accountNumber);
			return ok('data fetched', {
				accountNumber: maskAccountNumber(resolved.accountNumber),
				type: resolved.bank.type,
				bankName: resolved.bankName,
				accountName: resolved.accountName,
			});
		},
	},
	{
		method: 'POST',
		template: '/payments/banks/add',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid([
				...requiredString('id', typeof body.id === 'number' ? String(body.id) : body.id),
				...requiredString('accountNumber', body.accountNumber),
				...checkNarration(body.narration),
			]);
			const { bank, ...link } = resolveBankAccount(ctx, body.id, body.accountNumber);
			const { state } = ctx.core;
			if (state.bankAccounts.some((saved) => saved.bankId === bank.id && saved.accountNumber === link.accountNumber)) {
				throw new ApiError(409, 'bank account already exists');
			}
			if (state.bankAccounts.length >= 3) throw badRequest('you can save at most 3 bank accounts');
			const now = ctx.core.iso();
			const record = {
				id: ctx.core.newId(),
				account: ctx.core.newId(),
				user: state.account.user,
				accountName: link.accountName,
				accountNumber: link.accountNumber,
				autoSettlement: false,
				bankId: bank.id,
				bankName: bank.name,
				createdAt: now,
				currency: bank.currency,
				disabled: false,
				integration: state.account.id,
				isBusiness: true,
				narration: text(body.narration) ?? '',
				type: bank.type,
				updatedAt: now,
			};
			state.bankAccounts.push(record);
			return ok('bank added', record);
		},
	},
	{
		method: 'GET',
		template: '/payments/integration-banks',
		access: 'credentials',
		handle: (ctx) => {
			const { data, meta } = paginate(ctx.core.state.bankAccounts, ctx.query, ctx.core.options.maxPageSize);
			return ok('banks retrieved successfully', data, { ...meta });
		},
	},
	{
		method: 'GET',
		template: '/payments/integration-banks/{bankAccountId}',
		access: 'credentials',
		handle: (ctx) => {
			const record = ctx.core.state.bankAccounts.find((candidate) => candidate.id === ctx.params.bankAccountId);
			if (!record) throw notFound('bank account not found');
			return ok('bank retrieved successfully', record);
		},
	},
	{
		method: 'DELETE',
		template: '/payments/integration-banks/{bankAccountId}',
		access: 'credentials',
		handle: (ctx) => {
			const { state } = ctx.core;
			const index = state.bankAccounts.findIndex((candidate) => candidate.id === ctx.params.bankAccountId);
			if (index < 0) throw notFound('bank account not found');
			state.bankAccounts.splice(index, 1);
			return ok('bank account removed successfully', {});
		},
	},

	// transactions
	{
		method: 'GET',
		template: '/trades/transactions',
		access: 'credentials',
		handle: (ctx) => {
			const status = ctx.query.get('status');
			const items = ctx.core.state.trades.filter((trade) => !status || trade.status === status);
			const { data, meta } = paginate(items, ctx.query, ctx.core.options.maxPageSize);
			return ok('transactions retrieved successfully', data.map(publicTrade), { ...meta });
		},
	},
	{
		method: 'GET',
		template: '/trades/transactions/{transactionId}',
		access: 'credentials',
		handle: (ctx) => {
			const trade = ctx.core.state.trades.find((candidate) => candidate.id === ctx.params.transactionId);
			if (!trade) throw notFound('transaction not found');
			return ok('transaction retrieved successfully', publicTrade(trade));
		},
	},
	{
		method: 'GET',
		template: '/trades/sell/{tradeId}',
		access: 'credentials',
		handle: (ctx) => {
			const trade = ctx.core.state.trades.find((candidate) => candidate.id === ctx.params.tradeId);
			if (!trade) throw notFound('transaction not found');
			return ok('transaction retrieved successfully', publicTrade(trade));
		},
	},

	// currency
	{
		method: 'POST',
		template: '/payments/swap-currency',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid([
				...checkSwap({ amount: body.amount, from: body.from, to: body.to }),
				...requiredString('pin', typeof body.pin === 'number' ? String(body.pin) : body.pin),
			]);
			checkPin(ctx);
			const from = body.from as 'ngn' | 'ghs';
			const to = body.to as 'ngn' | 'ghs';
			const amount = toNumber(body.amount) as number;
			ctx.core.ensureBalance(from, amount);
			ctx.core.adjustBalance(from, -amount);
			ctx.core.adjustBalance(to, round(amount * swapRate(from, to), 2));
			return { status: 200, body: { message: 'currency swap successful', success: true, data: {} } };
		},
	},

	// rates (public: docs/api.md)
	{
		method: 'GET',
		template: '/trades/pbc/sell/rates',
		access: 'public',
		limit: 'sellRates',
		handle: (ctx) =>
			ok(
				'rates fetched successfully',
				ctx.core.state.assets.map((asset) => ({
					id: asset.id,
					name: asset.name,
					identifier: asset.identifier,
					symbol: asset.symbol,
					rate: { ...asset.rate },
					priceUSD: PRICES_USD[asset.symbol] ?? null,
				})),
			),
	},
	{
		method: 'POST',
		template: '/trades/pbc/sell/rate-calculator/{assetId}',
		access: 'public',
		handle: (ctx) => {
			const asset = findAsset(ctx, ctx.params.assetId);
			const { body } = ctx;
			assertValid([
				...(isBlank(body.amountInUSD)
					? checkRequired('amountInUSD', body.amountInUSD)
					: checkPositiveAmount('amountInUSD', body.amountInUSD, USD_DECIMALS)),
				...checkOneOf('currency', body.currency, FIAT_CURRENCIES),
			]);
			const usd = toNumber(body.amountInUSD) as number;
			const rate = body.currency === 'ngn' ? asset.rate.NGN : asset.rate.GHS;
			return ok('data fetched', {
				NGNAmount: round(usd * asset.rate.NGN, 2),
				GHSAmount: round(usd * asset.rate.GHS, 2),
				rate,
				cryptoAmount: round(usd / (PRICES_USD[asset.symbol] ?? 1), CRYPTO_DECIMALS),
			});
		},
	},
	{
		method: 'GET',
		template: '/trades/pbc/sell/assets/market/converter',
		access: 'public',
		handle: (ctx) => {
			const from = (ctx.query.get('from') ?? '').toUpperCase();
			const to = (ctx.query.get('to') ?? '').toUpperCase();
			const violations: Violation[] = [];
			if (!from) violations.push({ field: 'from', message: 'from is required' });
			else if (PRICES_USD[from] === undefined) {
				violations.push({ field: 'from', message: `from must be one of ${Object.keys(PRICES_USD).join(', ')}` });
			}
			if (!to) violations.push({ field: 'to', message: 'to is required' });
			else if (!['USD', 'NGN', 'GHS'].includes(to)) violations.push({ field: 'to', message: 'to must be one of usd, ngn, ghs' });
			assertValid(violations, 'query');
			const usd = PRICES_USD[from];
			const price = to === 'USD' ? usd : usd * (to === 'NGN' ? SELL_RATE.NGN : SELL_RATE.GHS);
			return ok('data fetched', {
				symbol: from,
				amount: 1,
				quote: { [to]: { price: round(price, 8), last_updated: ctx.core.iso() } },
			});
		},
	},

	// webhook events (VIP)
	{
		method: 'GET',
		template: '/transactions/webhooks',
		access: 'vip',
		handle: (ctx) => {
			const { query } = ctx;
			const bound = (name: 'startDate' | 'endDate'): number | undefined => {
				const raw = query.get(name);
				if (!raw) return undefined;
				const time = Date.parse(raw);
				if (Number.isNaN(time)) {
					throw new ApiError(422, MESSAGES.validation, [
						{ message: `${name} must be a valid date`, field: name, location: 'query' },
					]);
				}
				return time;
			};
			const start = bound('startDate');
			const end = bound('endDate');
			const reference = query.get('reference');
			const eventType = query.get('eventType');
			const status = query.get('status');
			const items = ctx.core.state.webhookEvents.filter((event) => {
				const created = Date.parse(event.createdAt);
				return (
					(start === undefined || created >= start) &&
					(end === undefined || created <= end) &&
					(!reference || event.reference === reference) &&
					(!eventType || event.eventType === eventType) &&
					(!status || event.status === status)
				);
			});
			const { data, meta } = paginate(items, query, ctx.core.options.maxWebhookPageSize);
			return ok('', data, { ...meta });
		},
	},
	{
		method: 'GET',
		template: '/transactions/webhooks/{webhookEventId}',
		access: 'vip',
		handle: (ctx) => {
			const event = ctx.core.state.webhookEvents.find((candidate) => candidate.id === ctx.params.webhookEventId);
			if (!event) throw notFound('webhook event not found');
			// The single-event answer has no message (docs/api.md, public notes).
			return { status: 200, body: { success: true, data: event, meta: {}, summary: {}, stats: {} } };
		},
	},
	{
		method: 'POST',
		template: '/transactions/webhooks/resend/{reference}',
		access: 'vip',
		handle: async (ctx) => {
			const { reference } = ctx.params;
			if (reference.length < 1 || reference.length > 32) {
				throw new ApiError(422, MESSAGES.validation, [
					{ message: 'reference must be 1 to 32 characters', field: 'reference', location: 'params' },
				]);
			}
			const events = ctx.core.state.webhookEvents.filter((event) => event.reference === reference);
			if (!events.length) throw notFound('no webhook events found for this reference');
			const results: Array<Record<string, unknown>> = [];
			for (const event of events) {
				const delivered = await ctx.core.attemptDelivery(event);
				results.push(
					delivered ? { id: event.id, status: 'delivered' } : { id: event.id, status: 'failed', error: 'webhook delivery failed' },
				);
			}
			return ok('webhook resend attempted', results);
		},
	},

	// sandbox testing (docs/api.md, public notes)
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
				...(isBlank(body.amountInUSD)
					? checkRequired('amountInUSD', body.amountInUSD)
					: checkPositiveAmount('amountInUSD', body.amountInUSD, CRYPTO_DECIMALS)),
				...(isBlank(body.cryptoReceived)
					? checkRequired('cryptoReceived', body.cryptoReceived)
					: checkPositiveAmount('cryptoReceived', body.cryptoReceived, 18)),
				...requiredString('reference', body.reference),
				...requiredString('txHash', body.txHash),
				...optionalString('sourceAddress', body.sourceAddress),
			];
			if (!isBlank(confirmations)) {
				const count = toNumber(confirmations);
				if (count === undefined || !Number.isInteger(count) || count < 0) {
					violations.push({ field: 'confirmations', message: 'confirmations must be a non-negative integer' });
				}
			}
			assertValid(violations);
			const { state } = ctx.core;
			const address = (body.walletAddress as string).trim();
			const assetKey = (body.asset as string).trim();
			const wallet = state.wallets.find(
				(candidate) => candidate.address === address && (candidate.identifier === assetKey || candidate.asset === assetKey),
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
			const trade = ctx.core.createTrade({
				wallet,
				asset,
				amountInUSD: toNumber(body.amountInUSD) as number,
				cryptoReceived: String(body.cryptoReceived),
				reference,
				txHash,
				sourceAddress: text(body.sourceAddress) ?? null,
				confirmations: isBlank(confirmations) ? null : (toNumber(confirmations) as number),
			});
			return ok('mock trade queued successfully', { id: trade.id, reference, status: trade.status });
		},
	},
];

/** Matches a path (relative to /v1) against the route table. */
export function matchRoute(
	method: string,
	path: string,
): { route: Route; params: Record<string, string> } | { route: undefined; params: Record<string, never> } {
	const segments = path.split('/');
	for (const route of routes) {
		if (route.method !== method) continue;
		const parts = route.template.split('/');
		if (parts.length !== segments.length) continue;
		const params: Record<string, string> = {};
		let matched = true;
		for (let index = 0; index < parts.length; index++) {
			const part = parts[index];
			const segment = segments[index];
			if (part.startsWith('{') && part.endsWith('}')) {
				if (!segment) {
					matched = false;
					break;
				}
				try {
					params[part.slice(1, -1)] = decodeURIComponent(segment);
				} catch {
					params[part.slice(1, -1)] = segment;
				}
			} else if (part !== segment) {
				matched = false;
				break;
			}
		}
		if (matched) return { route, params };
	}
	return { route: undefined, params: {} };
}
