import type { IDataObject } from 'n8n-workflow';
import { isObject, scalarText } from '../../service/values';
import type { Day } from './day';
import { cents, LINE_KINDS, numberIn, type Line } from './lines';

/**
 * A statement's summary (docs/statement.md, "Summary"): totals per kind and currency, the
 * exceptions, closing balances from the opening ones, and the balance check. Pure.
 */

/** What the service does not list, so no statement can show it (docs/statement.md, "What the API does not list"). */
export const NOT_LISTED: readonly string[] = [
	'Currency swaps (Currency → Swap): the API has no list of swaps, so a swap moves NGN and GHS balances without a line; it shows as a difference in the balance check.',
	'Withdrawal record fields: the specification does not show them; the statement reads id, externalId, status, amount (USD), fee and payoutAmount (in currency), currency, trade, token, cryptoAmount and reason as the public notes list them (docs/api.md, "Withdrawal records"), and the balance moves by payoutAmount + fee whoever bears the fee.',
	'Transaction (deposit) record fields: from the public notes (amount credited and feeAmount in currency, amountReceived in USD, cryptoReceived in the asset); the asset is named from the wallet list.',
	'Which fee bearer applied to a past withdrawal: records do not say; the summary gives the account\'s setting now.',
	'The balance at the end of the day: the API gives the balances now only (GET /users/fetch-integration, public notes), so the check takes them back by the lines of records created since the day ended.',
	'Deposits held in USD (a holding currency the service\'s dashboard offers besides NGN and GHS) are read like any other currency the record names.',
];

/** Balances as given (currency → amount), with currencies in capitals; or why they cannot be read. */
export function readBalances(value: unknown): Record<string, number> | { error: string } {
	if (value === undefined || value === null || value === '') return {};
	let object: unknown = value;
	if (typeof value === 'string') {
		try {
			object = JSON.parse(value) as unknown;
		} catch {
			return { error: 'must be an object of currency → amount, e.g. {"NGN": 1500000, "USD": 2000}' };
		}
	}
	if (!isObject(object)) return { error: 'must be an object of currency → amount, e.g. {"NGN": 1500000, "USD": 2000}' };
	const balances: Record<string, number> = {};
	for (const [currency, amount] of Object.entries(object)) {
		const number = numberIn(amount);
		if (number === undefined) return { error: `${currency}: ${JSON.stringify(amount)} is not a number` };
		balances[currency.trim().toUpperCase()] = number;
	}
	return balances;
}

/** Net movement per currency of some lines. */
export function netOf(lines: Line[]): Record<string, number> {
	const net: Record<string, number> = {};
	for (const line of lines) {
		if (!line.currency || line.amount === 0) continue;
		net[line.currency] = cents((net[line.currency] ?? 0) + line.amount);
	}
	return net;
}

export interface BalanceCheck extends IDataObject {
	result: 'balanced' | 'differs' | 'notCheckable';
}

/** The lines whose record states an amount the node cannot trust (lines.ts, `amountIn`): their amount is 0. */
const untrusted = (lines: Line[]) => lines.filter((line) => line.exception.startsWith('The record states no'));

/** The check when a record of the day states an amount the node cannot trust: the day's lines cannot be vouched for. */
function untrustedDay(lines: Line[]): BalanceCheck | undefined {
	const [first, ...more] = untrusted(lines);
	if (!first) return undefined;
	return {
		result: 'notCheckable',
		why: `${1 + more.length} record(s) of the day (e.g. ${first.record} ${first.recordId}) state an amount the node cannot trust (negative, not a number, or in a unit it cannot read), so the day's lines cannot be vouched for: see the exceptions.`,
	};
}

/**
 * Whether the closing balances agree with the service: its balances now, less what the lines of
 * records created after the day moved, must equal opening + the day's lines.
 */
export function balanceCheck(closing: Record<string, number> | undefined, linesAfter: Line[], account: IDataObject | undefined, dayEnded: boolean): BalanceCheck {
	if (!closing) {
		return { result: 'notCheckable', why: 'No opening balances were given (Options → Opening Balances, e.g. the previous day\'s closingBalances).' };
	}
	const wallets = account && isObject(account.fiatWallets) ? account.fiatWallets : undefined;
	if (!wallets) return { result: 'notCheckable', why: 'The account does not state its balances (fiatWallets of Account → Get), so they cannot be compared.' };
	const unreadableAfter = untrusted(linesAfter);
	if (unreadableAfter.length) {
		return {
			result: 'notCheckable',
			why: `${unreadableAfter.length} record(s) created after the day (e.g. ${unreadableAfter[0].recordId}) state no amount the node can read, so the balances now cannot be taken back to the day's end.`,
		};
	}
	const after = netOf(linesAfter);
	const serviceAtEnd: Record<string, number> = {};
	const difference: Record<string, number> = {};
	const missing: string[] = [];
	for (const currency of Object.keys(closing)) {
		const now = numberIn(wallets[currency.toLowerCase()] ?? wallets[currency]);
		if (now === undefined) {
			missing.push(currency);
			continue;
		}
		serviceAtEnd[currency] = cents(now - (after[currency] ?? 0));
		const differs = cents(closing[currency] - serviceAtEnd[currency]);
		if (Math.abs(differs) >= 0.01) difference[currency] = differs;
	}
	if (missing.length) {
		return { result: 'notCheckable', why: `The account states no ${missing.join(', ')} balance, so the closing balance cannot be compared.` };
	}
	const basis = `The service's balances now, less ${linesAfter.length} line(s) of records created ${dayEnded ? 'after the day' : 'since'}: ${JSON.stringify(serviceAtEnd)}.`;
	if (!Object.keys(difference).length) return { result: 'balanced', serviceBalancesAtEnd: serviceAtEnd, why: basis };
	return {
		result: 'differs',
		difference,
		serviceBalancesAtEnd: serviceAtEnd,
		why: `${basis} The closing balances differ by ${Object.entries(difference)
			.map(([currency, amount]) => `${amount > 0 ? '+' : ''}${amount} ${currency}`)
			.join(', ')} (closing minus the service's). Check: opening balances that are not the previous day's closing ones; currency swaps (no list); a record of an earlier day refunded or credited since; a record created while the statement was read.`,
	};
}

export interface SummaryInput {
	day: Day;
	lines: Line[];
	/** Lines of the records created after the day (to take the balances now back to the day's end). */
	linesAfter: Line[];
	account: IDataObject | undefined;
	openingBalances: Record<string, number> | undefined;
	now: number;
	pendingAfterHours: number;
}

export function summarize(input: SummaryInput): IDataObject {
	const { lines } = input;
	const totals: Record<string, Record<string, { count: number; amount: number }>> = {};
	const counts: Record<string, number> = {};
	for (const kind of Object.keys(LINE_KINDS)) counts[kind] = 0;
	for (const line of lines) {
		counts[line.kind]++;
		const currency = line.currency || 'unknown';
		const byCurrency = (totals[line.kind] ??= {});
		const total = (byCurrency[currency] ??= { count: 0, amount: 0 });
		total.count++;
		total.amount = cents(total.amount + line.amount);
	}
	const net = netOf(lines);
	const exceptions = lines
		.filter((line) => line.exception)
		.map(({ lineKey, kind, recordId, reference, status, exception }) => ({ lineKey, kind, recordId, reference, status, exception }));
	const opening = input.openingBalances && Object.keys(input.openingBalances).length ? input.openingBalances : undefined;
	let closing: Record<string, number> | undefined;
	if (opening) {
		closing = { ...opening };
		for (const [currency, amount] of Object.entries(net)) closing[currency] = cents((closing[currency] ?? 0) + amount);
	}
	const missingOpening = opening ? Object.keys(net).filter((currency) => !(currency in opening)) : [];
	const dayEnded = input.now >= input.day.end;
	const check: BalanceCheck = untrustedDay(lines) ?? (missingOpening.length
		? {
				result: 'notCheckable',
				why: `No opening balance was given for ${missingOpening.join(', ')}, which the day's lines move; the closing balance of ${missingOpening.join(', ')} counts from 0.`,
			}
		: balanceCheck(closing, input.linesAfter, input.account, dayEnded));
	// What a person reads first comes first: the day, whether it balances, the balances, then the detail.
	return {
		day: input.day.day,
		from: new Date(input.day.start).toISOString(),
		to: new Date(input.day.end).toISOString(),
		complete: dayEnded,
		balanceCheck: check,
		...(opening ? { openingBalances: opening, closingBalances: closing } : {}),
		net,
		exceptionCount: exceptions.length,
		lines: lines.length,
		counts,
		totals,
		exceptions,
		withdrawalFeeBearer: scalarText(input.account?.withdrawalFeeBearer) || 'not stated',
		pendingAfterHours: input.pendingAfterHours,
		readAt: new Date(input.now).toISOString(),
		notListed: [...NOT_LISTED],
	};
}
