/** Saved bank accounts (the node's `bankAccount` resource). */
import { ApiError, assertValid, badRequest, ok } from '../http';
import { deleteRecordRoute, getRecordRoute, pageOf, type Route } from './context';
import { bankAccountViolations, resolveBankAccount } from './lookups';
import { narration, text } from './validation';

const BANK_ACCOUNT = '/payments/integration-banks/{bankAccountId}';

export const bankAccountRoutes: Route[] = [
	{
		method: 'POST',
		template: '/payments/banks/add',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid([...bankAccountViolations(body), ...narration(body.narration)]);
			const { bank, ...link } = resolveBankAccount(ctx, body.id, body.accountNumber);
			const { state } = ctx.core;
			if (
				state.bankAccounts.some(
					(saved) => saved.bankId === bank.id && saved.accountNumber === link.accountNumber,
				)
			) {
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
		handle: (ctx) => pageOf(ctx, ctx.core.state.bankAccounts, 'banks retrieved successfully'),
	},
	getRecordRoute({
		template: BANK_ACCOUNT,
		records: (ctx) => ctx.core.state.bankAccounts,
		missing: 'bank account not found',
		message: 'bank retrieved successfully',
	}),
	deleteRecordRoute({
		template: BANK_ACCOUNT,
		records: (ctx) => ctx.core.state.bankAccounts,
		missing: 'bank account not found',
		message: 'bank account removed successfully',
	}),
];
