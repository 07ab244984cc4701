/** Deposit wallets (the node's `wallet` resource): addresses, linked bank, auto settlement. */
import { assertValid, badRequest, ok, type Violation } from '../http';
import { publicWallet } from '../records';
import type { Bank, BankLink } from '../types';
import { findOr404, getRecordRoute, pageOf, type Context, type Route } from './context';
import { findAsset, resolveBankAccount } from './lookups';
import {
	isBlank,
	narration,
	optionalBoolean,
	optionalString,
	required,
	requiredString,
	text,
} from './validation';

const findWallet = (ctx: Context) =>
	findOr404(ctx.core.state.wallets, ctx.params.walletId, 'wallet not found');

export const walletRoutes: Route[] = [
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
				...narration(body.narration),
				...optionalBoolean('autoSettlement', body.autoSettlement),
			];
			if (bankGiven && isBlank(body.bankId))
				violations.push({ field: 'bankId', message: 'bankId is required with accountNumber' });
			if (bankGiven && isBlank(body.accountNumber)) {
				violations.push({
					field: 'accountNumber',
					message: 'accountNumber is required with bankId',
				});
			}
			if (body.autoSettlement === true && !bankGiven) {
				violations.push({
					field: 'autoSettlement',
					message: 'auto settlement requires a linked bank account',
				});
			}
			assertValid(violations);
			const label = (body.label as string).trim();
			if (
				ctx.core.state.wallets.some((wallet) => wallet.asset === asset.id && wallet.label === label)
			) {
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
			return ok('wallet address generated successfully', {
				id: wallet.id,
				address: wallet.address,
			});
		},
	},
	{
		method: 'GET',
		template: '/trades/wallets',
		access: 'credentials',
		handle: (ctx) =>
			pageOf(ctx, ctx.core.state.wallets, 'wallets retrieved successfully', publicWallet),
	},
	getRecordRoute({
		template: '/trades/wallets/{walletId}',
		records: (ctx) => ctx.core.state.wallets,
		missing: 'wallet not found',
		message: 'wallets retrieved successfully',
		view: publicWallet,
	}),
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
				...narration(body.narration),
				...optionalBoolean('autoSettlement', body.autoSettlement),
			];
			if (bankGiven && isBlank(body.id))
				violations.push({ field: 'id', message: 'id is required with accountNumber' });
			if (bankGiven && isBlank(body.accountNumber)) {
				violations.push({ field: 'accountNumber', message: 'accountNumber is required with id' });
			}
			if (!bankGiven && !wallet.bank) {
				if (body.autoSettlement === true) {
					violations.push({
						field: 'autoSettlement',
						message: 'auto settlement requires a linked bank account',
					});
				} else {
					violations.push(
						{ field: 'id', message: 'id is required' },
						{ field: 'accountNumber', message: 'accountNumber is required' },
					);
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
			assertValid(
				isBlank(value)
					? required('autoSettlement', value)
					: optionalBoolean('autoSettlement', value),
			);
			if (value === true && !wallet.bank) {
				assertValid([
					{ field: 'autoSettlement', message: 'auto settlement requires a linked bank account' },
				]);
			}
			wallet.autoSettlement = value as boolean;
			wallet.updatedAt = ctx.core.iso();
			return ok(`auto settlement ${value ? 'enabled' : 'disabled'} successfully`, {
				walletId: wallet.id,
				autoSettlement: wallet.autoSettlement,
			});
		},
	},
];
