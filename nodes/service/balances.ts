import { isObject } from './values';
import { roundMoney, statedNumber } from './money';

/**
 * The account's balances, the one reading of them: Account → Get's `fiatWallets` (`GET
 * /users/fetch-integration`, docs/api.md), one balance per currency. The statement's balance check
 * and the poll trigger's balance alerts read them here.
 */

interface AccountBalances {
	/** Currency in capitals → amount, rounded once to its minor unit. */
	balances: Record<string, number>;
	/** Currencies the record names without an amount the node can read (not a number): never guessed. */
	unreadable: string[];
}

/** The balances the account record states; undefined when it states none (no `fiatWallets` object). */
export function accountBalances(account: unknown): AccountBalances | undefined {
	const wallets =
		isObject(account) && isObject(account.fiatWallets) ? account.fiatWallets : undefined;
	if (!wallets) return undefined;
	const read: AccountBalances = { balances: {}, unreadable: [] };
	for (const [currency, amount] of Object.entries(wallets)) {
		const number = statedNumber(amount);
		const unit = currency.trim().toUpperCase();
		if (number === undefined) read.unreadable.push(unit);
		else read.balances[unit] = roundMoney(number, unit);
	}
	return read;
}
