import type { IDataObject } from 'n8n-workflow';
import { addMoney, money, roundMoney } from '../../service/money';
import { accountBalances } from '../../service/balances';

/**
 * Whether the account's balance covers a Dry Run's batch (docs/guardrails.md, "Does the balance
 * cover the batch?"): each item's debit, counted with the debits of the run's items before it, in
 * the balance the service debits (crypto: USD). What cannot be told is never said to be covered.
 */

/** What one item takes from a balance: an amount in a currency, nothing, or why it cannot be told. */
export type Debit = { currency: string; amount: number } | { none: true } | { unknown: string };

/** The debits of a run's items in item order: a Dry Run item gives its own, then reads those before it. */
export class RunDebits {
	private readonly slots = new Map<
		number,
		{ debit: Promise<Debit>; give: (debit: Debit) => void }
	>();

	/** Each item of the run is expected once, before any gives its debit (pipeline/batch.ts, register). */
	expect(itemIndex: number): void {
		let give!: (debit: Debit) => void;
		const debit = new Promise<Debit>((resolve) => (give = resolve));
		this.slots.set(itemIndex, { debit, give });
	}

	/** This item's debit; the first one given stands (a promise resolves once). */
	give(itemIndex: number, debit: Debit): void {
		this.slots.get(itemIndex)?.give(debit);
	}

	/**
	 * An item that ends without giving a debit (refused, failed, not sent) takes nothing. Items start
	 * in order (pipeline/batch.ts), so every item before one that reads has started or ended, and
	 * gives its debit or ends: reading never waits on an item after it.
	 */
	settle(itemIndex: number): void {
		this.give(itemIndex, { none: true });
	}

	/** The debits of the items up to this one, in item order, with their indices. */
	async through(itemIndex: number): Promise<Array<{ index: number; debit: Debit }>> {
		const before = [...this.slots.entries()]
			.filter(([index]) => index <= itemIndex)
			.sort(([a], [b]) => a - b);
		return await Promise.all(
			before.map(async ([index, slot]) => ({ index, debit: await slot.debit })),
		);
	}
}

/** The account's balances (Account → Get's `fiatWallets`, service/balances.ts), or why they cannot be read. */
export type Balances = Record<string, number> | { unreadable: string };

/** Account → Get's record, read once per node run, or why it could not be read. */
export type AccountRead = { record: IDataObject } | { unreadable: string };

export function balancesOf(account: AccountRead): Balances {
	if ('unreadable' in account) return { unreadable: account.unreadable };
	return (
		accountBalances(account.record)?.balances ?? {
			unreadable: "the service's account record states no balances (fiatWallets)",
		}
	);
}

const inWords = (value: number, currency: string) => money(currency, value);

/** This payout with the run's payouts before it, and what they need, in words. */
function whatAndNeeds(before: number, needs: string): string {
	if (before === 0) return `this payout (${needs})`;
	return `this payout and the run's ${before === 1 ? 'payout' : `${before} payouts`} before it (${needs} in all)`;
}

/** The cannot-tell answer: never covered, saying why and what to do. */
function cannotTell(why: string, currency?: string): IDataObject {
	return {
		covers: false,
		status: 'cannot tell',
		...(currency ? { currency } : {}),
		why,
		summary: `Whether the balance covers this payout cannot be told: ${why}. Do not count on it: check the balance before approving.`,
	};
}

/**
 * The balance check of the item `itemIndex` whose own debit the run already holds: its debit with the
 * run's debits before it, against the balance of its currency.
 */
export function balanceCheckOf(
	itemIndex: number,
	through: Array<{ index: number; debit: Debit }>,
	balances: Balances,
): IDataObject {
	const own = through.find(({ index }) => index === itemIndex)?.debit;
	if ('unreadable' in balances)
		return cannotTell(
			`the account's balances could not be read (${String(balances.unreadable)})`,
			own && 'currency' in own ? own.currency : undefined,
		);
	if (!own || 'none' in own) return cannotTell('this payout has no debit of its own to count');
	if ('unknown' in own) return cannotTell(own.unknown);
	const { currency } = own;
	const unknownBefore = through.find(({ index, debit }) => index < itemIndex && 'unknown' in debit);
	if (unknownBefore) {
		const { debit, index } = unknownBefore as { index: number; debit: { unknown: string } };
		return cannotTell(
			`what row ${index + 1} of this run takes cannot be told (${debit.unknown})`,
			currency,
		);
	}
	const balance = balances[currency];
	if (balance === undefined)
		return cannotTell(`the account states no ${currency} balance`, currency);
	const counted = through.filter(
		({ index, debit }) => index <= itemIndex && 'currency' in debit && debit.currency === currency,
	);
	const runNeeds = counted.reduce(
		(sum, { debit }) => addMoney(sum, (debit as { amount: number }).amount, currency),
		0,
	);
	const missing = Math.max(0, addMoney(runNeeds, -balance, currency));
	const figures = {
		currency,
		balance,
		itemNeeds: roundMoney(own.amount, currency),
		runNeeds,
		missing,
	};
	const what = whatAndNeeds(counted.length - 1, inWords(runNeeds, currency));
	if (missing === 0) {
		return {
			covers: true,
			status: 'covered',
			...figures,
			summary: `The balance of ${inWords(balance, currency)} covers ${what}, leaving ${inWords(addMoney(balance, -runNeeds, currency), currency)}.`,
		};
	}
	return {
		covers: false,
		status: 'not covered',
		...figures,
		summary: `The balance of ${inWords(balance, currency)} does not cover ${what}: ${inWords(missing, currency)} is missing. Add at least ${inWords(missing, currency)} to the ${currency} balance, or pay fewer rows.`,
	};
}
