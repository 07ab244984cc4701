/** Banks and account-name resolution (the node's `bank` resource). */
import { FIAT_CURRENCIES } from '../../../nodes/service/catalog';
import { maskAccountNumber } from '../catalog';
import { ApiError, MESSAGES, assertValid, ok } from '../http';
import type { Route } from './context';
import { bankAccountViolations, findBank, resolveBankAccount } from './lookups';
import { isBlank, oneOf } from './validation';

export const bankRoutes: Route[] = [
	{
		method: 'GET',
		template: '/payments/banks',
		access: 'credentials',
		handle: (ctx) => {
			const currency = ctx.query.get('currency') ?? undefined;
			const violations = oneOf('currency', currency, FIAT_CURRENCIES);
			if (violations.length) {
				throw new ApiError(422, MESSAGES.validation, [
					{
						message: `currency ISO code should be one of ${FIAT_CURRENCIES.join(', ')}`,
						field: 'currency',
						location: 'query',
					},
				]);
			}
			return ok(
				'banks fetched successfully',
				ctx.core.state.banks.filter((bank) => bank.currency === currency),
			);
		},
	},
	{
		method: 'POST',
		template: '/payments/banks/validate',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid([
				...bankAccountViolations(body),
				...(isBlank(body.currency) ? [] : oneOf('currency', body.currency, FIAT_CURRENCIES)),
			]);
			const bank = findBank(ctx, body.id);
			if (bank && !isBlank(body.currency) && bank.currency !== body.currency) {
				assertValid([
					{
						field: 'currency',
						message: `currency does not match the bank's currency (${bank.currency})`,
					},
				]);
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
];
