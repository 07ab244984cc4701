import type { IDataObject } from 'n8n-workflow';
import { tradeIdOf } from './values';

/**
 * The unit of each amount in the service's records, named beside the amount (docs/api.md,
 * "Withdrawal records"; docs/trigger.md, "The item"). Shared by the action node's withdrawal
 * records and both triggers' items, so a record reads the same wherever it is output.
 */

/** What an item says for an amount whose unit no source states. */
export const NOT_STATED = 'not stated';

/**
 * Which field names the unit of each amount of a withdrawal record, and what the record's own
 * `currency` is: the settlement currency (the balance paid from), not the unit of `amount`.
 */
export const WITHDRAWAL_UNIT_FIELDS: Record<string, string> = {
	amount: 'amountCurrency',
	fee: 'feeCurrency',
	payoutAmount: 'payoutCurrency',
	currency: 'settlementCurrency',
};

/** A record's `currency` as a unit: `ngn` → `NGN`; undefined when it names none. */
export function currencyUnit(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() ? value.trim().toUpperCase() : undefined;
}

const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/**
 * A copy of `record` with `unitOf[field]` named beside each amount (as `names[field]`), right after
 * it, wherever the record has the amount (`isAmount`: a number, or the record's `currency`) and does
 * not name its unit itself (a unit the service names wins). `undefined` in `unitOf` leaves that
 * amount unlabelled.
 */
export function withUnits(
	record: IDataObject,
	names: Record<string, string>,
	unitOf: Record<string, string | undefined>,
	isAmount = (value: unknown, key: string) => typeof value === 'number' || key === 'currency',
): IDataObject {
	const entries = Object.entries(record).flatMap(([key, value]): Array<[string, unknown]> => {
		const field = has(names, key) ? names[key] : undefined;
		const unit = has(unitOf, key) ? unitOf[key] : undefined;
		const named = field !== undefined && !has(record, field) && isAmount(value, key) && unit;
		return named
			? [
					[key, value],
					[field, unit],
				]
			: [[key, value]];
	});
	// From entries: a field of any name (`__proto__` in a delivery's JSON) stays an ordinary field.
	return Object.fromEntries(entries) as IDataObject;
}

/**
 * A withdrawal record with each amount's currency named beside it where the service does not name it;
 * an auto-settlement payout's `amount` is left unlabelled (docs/api.md, "Withdrawal records").
 */
export function withCurrencies(record: IDataObject): IDataObject {
	const local = currencyUnit(record.currency);
	return withUnits(record, WITHDRAWAL_UNIT_FIELDS, {
		amount: tradeIdOf(record.trade) !== undefined ? undefined : 'USD',
		fee: local,
		payoutAmount: local,
		currency: local,
	});
}
