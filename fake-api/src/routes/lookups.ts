/** Lookups more than one resource shares: banks and account-name resolution, deposit assets. */
import { resolveAccount } from '../catalog';
import { isObjectId } from '../records';
import { ApiError, MESSAGES, badRequest, notFound, type Violation } from '../http';
import type { Bank, BankLink, DepositAsset } from '../types';
import type { Context } from './context';
import { requiredString, requiredText } from './validation';

export function findBank(ctx: Context, id: unknown): Bank | undefined {
	return ctx.core.state.banks.find((bank) => bank.id === String(id));
}

/** The bank id and account number of a body that names a bank account (validate, add). */
export function bankAccountViolations(body: Record<string, unknown>): Violation[] {
	return [...requiredText('id', body.id), ...requiredString('accountNumber', body.accountNumber)];
}

/** Looks up the bank and resolves the account number (422 unknown bank or bad format, 400 unresolved). */
export function resolveBankAccount(
	ctx: Context,
	bankId: unknown,
	accountNumber: unknown,
): BankLink & { bank: Bank } {
	const bank = findBank(ctx, bankId);
	if (!bank) {
		throw new ApiError(422, MESSAGES.validation, [
			{ message: 'bank not found', field: 'id', location: 'body' },
		]);
	}
	const number = String(accountNumber).trim();
	const resolved = resolveAccount(bank, number);
	if (!resolved.ok && resolved.reason === 'format') {
		const expected =
			bank.currency === 'ngn' ? 'a 10-digit account number' : 'an 8 to 16 digit account number';
		throw new ApiError(422, MESSAGES.validation, [
			{ message: `accountNumber must be ${expected}`, field: 'accountNumber', location: 'body' },
		]);
	}
	if (!resolved.ok)
		throw badRequest('could not resolve account name; check the account number and bank');
	return {
		bank,
		bankId: bank.id,
		bankName: bank.name,
		accountNumber: number,
		accountName: resolved.accountName,
		narration: '',
	};
}

/** The deposit asset of a path parameter: 422 when not an id, 404 when unknown. */
export function findAsset(ctx: Context, id: string): DepositAsset {
	if (!isObjectId(id)) {
		throw new ApiError(422, MESSAGES.validation, [
			{ message: 'id is not a valid id', field: 'id', location: 'params' },
		]);
	}
	const asset = ctx.core.state.assets.find((candidate) => candidate.id === id);
	if (!asset) throw notFound('asset not found');
	return asset;
}
