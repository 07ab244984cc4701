import type { IDataObject } from 'n8n-workflow';
import { objectIn, scalarText } from '../../service/values';
import { DAY_MS } from '../../service/utcDay';
import { LOOK_BACK_DAYS, type Day } from './day';
import { addMoney, money, statedNumber } from '../../service/money';
import { accountBalances } from '../../service/balances';
import { byTime, hasUnreadableAmount, LINE_KINDS, type Line, type Placement } from './lines';

/** A statement's summary and its balance check (docs/statement.md, "Summary", "Balance check"). Pure. */

/** What the service does not list, so no statement can show it (docs/statement.md, "What the API does not list"). */
export const NOT_LISTED: readonly string[] = [
	'Currency swaps: the service gives no list of its swaps between NGN and GHS, so a swap moves both balances without a line on the statement; it shows in the balance check as a difference of the swapped amounts.',
	`Movements of records created more than ${LOOK_BACK_DAYS} days before the day: the statement reads the records of the ${LOOK_BACK_DAYS} days before it (the look-back window), so a refund or a credit that comes later than that is on no statement; it shows in the balance check as a difference.`,
	'Withdrawal details: the service documents its withdrawal records only in part; the statement reads the payout, its fee and currency, the External ID, the status and the reason as the service describes them, and whoever bears the fee, the balance moves by the payout plus the fee.',
	"Deposit details: the credited amount and the platform fee in the wallet's currency, the amount received in USD and in crypto, as the service describes them; the crypto asset is named from the wallet.",
	"Which fee bearer applied to a past withdrawal: the records do not say; the summary gives the account's setting today.",
	"The balance at the end of a day: the service gives today's balances only, so the statement takes them back by every movement since the day ended.",
	'Deposits held in USD (a holding currency the service offers besides NGN and GHS) are read like any other currency.',
];

/** Amounts by currency: balances, nets. */
type Amounts = Record<string, number>;

/** Balances in words: `NGN 1,500,000.00, USD 2,000.00` (none: `no balance`). */
function balancesInWords(balances: Amounts): string {
	const entries = Object.entries(balances);
	return entries.length
		? entries.map(([currency, amount]) => money(currency, amount)).join(', ')
		: 'no balance';
}

/** Balances as given (currency → amount, each rounded once to its minor unit), with currencies in capitals; or why they cannot be read. */
export function readBalances(value: unknown): Amounts | { error: string } {
	if (value === undefined || value === null || value === '') return {};
	const object = objectIn(value);
	if (!object)
		return { error: 'must be an object of currency → amount, e.g. {"NGN": 1500000, "USD": 2000}' };
	const bad = Object.entries(object).find(([, amount]) => statedNumber(amount) === undefined);
	if (bad) return { error: `${bad[0]}: ${JSON.stringify(bad[1])} is not a number` };
	// Read as the account's balances are (service/balances.ts).
	return accountBalances({ fiatWallets: object })?.balances ?? {};
}

/** A line's place in the day's order (lines.ts, byTime). */
type Rank = Pick<Line, 'time' | 'lineKey'>;

/** Values keyed in the order their first line has in the day (as they were when the lines were kept sorted). */
class Ranked<T> {
	private readonly entries = new Map<string, { value: T; first: Line }>();

	constructor(private readonly start: () => T) {}

	/** The value of `key`, made when first met; `line` may make it rank earlier. */
	of(key: string, line: Line): T {
		let entry = this.entries.get(key);
		if (!entry) this.entries.set(key, (entry = { value: this.start(), first: line }));
		else if (byTime(line, entry.first) < 0) entry.first = line;
		return entry.value;
	}

	/** Key → value, in the day's order. */
	inOrder<U>(map: (value: T) => U): Record<string, U> {
		const sorted = [...this.entries].sort(([, a], [, b]) => byTime(a.first, b.first));
		return Object.fromEntries(sorted.map(([key, { value }]) => [key, map(value)]));
	}
}

/** Lines whose record states an amount the node cannot trust (service/money.ts, `amountIn`): their amount is 0. */
interface Untrusted {
	count: number;
	/** The first of them (the day's: in time order; after the day: as read). */
	first?: Line;
}

/** The summary's figures, taken one line at a time so a busy day's lines are not kept (docs/statement.md, "Speed"), ordered as the day's lines. */
export class LineTally {
	/** The day's lines. */
	lines = 0;

	/** The lines after the day (the service's balances are taken back by them). */
	after = 0;

	private readonly totals = new Ranked(() => new Ranked(() => ({ count: 0, amount: 0 })));

	readonly counts: Amounts = Object.fromEntries(Object.keys(LINE_KINDS).map((kind) => [kind, 0]));

	private readonly net = new Ranked(() => ({ amount: 0 }));

	/** Net movement per currency of the lines after the day. */
	readonly netAfter: Amounts = {};

	private readonly exceptions: Array<{ rank: Rank; exception: IDataObject }> = [];

	readonly untrustedDay: Untrusted = { count: 0 };

	readonly untrustedAfter: Untrusted = { count: 0 };

	/** A range's lines tallied per day too, for the summary's `days`. */
	readonly days?: Map<string, LineTally>;

	constructor(days?: string[]) {
		if (days) this.days = new Map(days.map((day) => [day, new LineTally()]));
	}

	add(line: Line, placement: Placement): void {
		if (hasUnreadableAmount(line)) {
			const untrusted = placement === 'day' ? this.untrustedDay : this.untrustedAfter;
			untrusted.count++;
			if (!untrusted.first || (placement === 'day' && byTime(line, untrusted.first) < 0))
				untrusted.first = line;
		}
		if (placement === 'after') {
			this.after++;
			const { currency, amount } = line;
			if (currency && amount !== 0)
				this.netAfter[currency] = addMoney(this.netAfter[currency] ?? 0, amount, currency);
			return;
		}
		this.days?.get(line.day)?.add(line, placement);
		this.lines++;
		this.counts[line.kind]++;
		const total = this.totals.of(line.kind, line).of(line.currency || 'unknown', line);
		total.count++;
		total.amount = addMoney(total.amount, line.amount, line.currency);
		if (line.currency && line.amount !== 0) {
			const net = this.net.of(line.currency, line);
			net.amount = addMoney(net.amount, line.amount, line.currency);
		}
		if (line.exception) {
			const { lineKey, kind, recordId, reference, status, exception } = line;
			this.exceptions.push({
				rank: { time: line.time, lineKey },
				exception: { lineKey, kind, recordId, reference, status, exception },
			});
		}
	}

	/** Net movement per currency of the day's lines. */
	dayNet(): Amounts {
		return this.net.inOrder(({ amount }) => amount);
	}

	kindTotals(): Record<string, Record<string, { count: number; amount: number }>> {
		return this.totals.inOrder((byCurrency) => byCurrency.inOrder((total) => ({ ...total })));
	}

	/** The day's exceptions, in time order. */
	exceptionList(): IDataObject[] {
		return this.exceptions.sort((a, b) => byTime(a.rank, b.rank)).map(({ exception }) => exception);
	}
}

interface BalanceCheck extends IDataObject {
	result: 'balanced' | 'differs' | 'notCheckable';
}

/** A check that cannot be made, and why. */
const notCheckable = (why: string): BalanceCheck => ({ result: 'notCheckable', why });

/** The check when a record of the day states an amount the node cannot trust: the day's lines cannot be vouched for. */
function untrustedDay(tally: LineTally): BalanceCheck | undefined {
	const { count, first } = tally.untrustedDay;
	if (!first) return undefined;
	return notCheckable(
		`${count} record(s) of the day (e.g. ${first.record} ${first.recordId}) state an amount the node cannot trust (negative, not a number, or in a unit it cannot read), so the day's lines cannot be vouched for: see the exceptions.`,
	);
}

/** What a statement covers, in its words: one day, or a range of days. */
type Span = 'day' | 'period';

/** The service's balances at a time: its balances now less what moved since (net per currency). */
function takenBack(now: Amounts, moved: Amounts): Amounts {
	const balances: Amounts = {};
	for (const [currency, amount] of Object.entries(now))
		balances[currency] = addMoney(amount, -(moved[currency] ?? 0), currency);
	return balances;
}

/** Why the service's balances cannot be taken back: a line after the day whose amount cannot be read. */
function unreadableAfter(tally: LineTally, span: Span): string | undefined {
	const { count, first } = tally.untrustedAfter;
	if (!first) return undefined;
	return `${count} record(s) that moved money after the ${span} (e.g. ${first.recordId}) state no amount the node can read, so the service's balances cannot be taken back to the ${span}'s end.`;
}

/** Whether the closing balances equal the service's at the statement's end, currency by currency, to the cent. */
function balanceCheck(
	closing: Amounts,
	atEnd: Amounts,
	movedAfter: number,
	span: Span,
): BalanceCheck {
	const missing = Object.keys(closing).filter((currency) => !(currency in atEnd));
	if (missing.length)
		return notCheckable(
			`The service states no ${missing.join(', ')} balance, so the closing balance cannot be compared.`,
		);
	const serviceAtEnd: Amounts = {};
	const difference: Amounts = {};
	for (const currency of Object.keys(closing)) {
		serviceAtEnd[currency] = atEnd[currency];
		const differs = addMoney(closing[currency], -atEnd[currency], currency);
		if (differs !== 0) difference[currency] = differs;
	}
	const basis = `the service's balances at the ${span}'s end (its balances now, taken back by the ${movedAfter} movement(s) since)`;
	if (!Object.keys(difference).length) {
		return {
			result: 'balanced',
			serviceBalancesAtEnd: serviceAtEnd,
			why: `The closing balances (${balancesInWords(closing)}) equal ${basis}.`,
		};
	}
	const each = Object.entries(difference).map(
		([currency, amount]) =>
			`${currency}: the closing balance ${money(currency, closing[currency])} is ${money(currency, Math.abs(amount))} ${amount > 0 ? 'more' : 'less'} than the service's ${money(currency, atEnd[currency])}`,
	);
	return {
		result: 'differs',
		difference,
		serviceBalancesAtEnd: serviceAtEnd,
		why: `${each.join('; ')} (${basis}). Likely causes, the most common first: a currency swap on the day, which no list shows (check the swaps in the service's dashboard); opening balances that are not the previous day's closing balances; a refund or credit of a record older than the look-back window; a record created while the statement was read (run it again).`,
	};
}

interface SummaryInput {
	day: Day;
	/** The day's lines, and those that moved after it, tallied. */
	tally: LineTally;
	account: IDataObject | undefined;
	/** Given opening balances; empty or undefined: derived from the service's balances. */
	openingBalances: Amounts | undefined;
	now: number;
	pendingAfterHours: number;
}

interface Balances {
	opening: Amounts;
	source: 'given' | 'derived' | 'none';
	closing: Amounts;
	check: BalanceCheck;
}

/** Balances moved by a net per currency (opening + net: closing). */
function plus(balances: Amounts, net: Amounts): Amounts {
	const moved = { ...balances };
	for (const [currency, amount] of Object.entries(net))
		moved[currency] = addMoney(moved[currency] ?? 0, amount, currency);
	return moved;
}

/** Opening and closing balances and the check: from the given opening balances, or derived on the first run. */
function balancesOf(input: SummaryInput, net: Amounts): Balances {
	const { openingBalances } = input;
	const given = Object.keys(openingBalances ?? {}).length ? openingBalances : undefined;
	// The service's balances now (each rounded once to its minor unit), taken back to the statement's end.
	const now = accountBalances(input.account)?.balances;
	const span: Span = input.day.days ? 'period' : 'day';
	const cannotTakeBack = now
		? unreadableAfter(input.tally, span)
		: "The service did not state the account's balances, so they cannot be compared.";
	const atEnd = cannotTakeBack || !now ? undefined : takenBack(now, input.tally.netAfter);
	if (given) {
		const closing = plus(given, net);
		const missing = Object.keys(net).filter((currency) => !(currency in given));
		const check: BalanceCheck = missing.length
			? notCheckable(
					`No opening balance was given for ${missing.join(', ')}, which the ${span}'s lines move, so its closing balance counts from 0 and cannot be compared.`,
				)
			: atEnd
				? balanceCheck(closing, atEnd, input.tally.after, span)
				: notCheckable(cannotTakeBack as string);
		return { opening: given, source: 'given', closing, check };
	}
	if (!atEnd)
		return {
			opening: {},
			source: 'none',
			closing: {},
			check: notCheckable(
				`No opening balances were given and none can be derived: ${cannotTakeBack as string}`,
			),
		};
	// The first run: the day's opening balances are the service's at the day's end less the day's lines.
	const opening = takenBack(atEnd, net);
	return {
		opening,
		source: 'derived',
		closing: atEnd,
		check: notCheckable(
			`First statement: the opening balances (${balancesInWords(opening)}) were derived from the service's balances, so there is nothing to compare them with yet. Keep today's closing balances (${balancesInWords(atEnd)}) and give them as tomorrow's opening balances: from then on each day is checked.`,
		),
	};
}

/** The closing balance an OFX file states as LEDGERBAL, or why there is none (docs/statement.md, "The files"). */
export function closingBalanceOf(summary: IDataObject, currency: string): number | { why: string } {
	const closing = (summary.closingBalances ?? {}) as Amounts;
	const opening = (summary.openingBalances ?? {}) as Amounts;
	const source = summary.openingBalancesSource;
	if (source === 'given' && currency in opening && currency in closing) return closing[currency];
	if (source === 'derived' && currency in closing) return closing[currency];
	if (source === 'given')
		return {
			why: `no Opening Balance was given for ${currency} (Opening Balances has ${Object.keys(opening).join(', ')}), so its closing balance is not known`,
		};
	if (source === 'derived')
		return {
			why: `the service states no ${currency} balance and no Opening Balance was given for ${currency}, so its closing balance is not known`,
		};
	return {
		why: `the service states no balances and no Opening Balances were given, so the closing balance of ${currency} is not known`,
	};
}

/** A range's days, each opening with the day before's closing balances (docs/statement.md, "A range of days"). */
function daysOf(input: SummaryInput, days: string[], balances: Balances): IDataObject[] {
	let opening: Amounts | undefined =
		balances.source === 'none' ? undefined : { ...balances.opening };
	return days.map((day) => {
		const tally = input.tally.days?.get(day);
		const net = tally?.dayNet() ?? {};
		const closing = opening ? plus(opening, net) : {};
		const entry: IDataObject = {
			day,
			openingBalances: opening ?? {},
			closingBalances: closing,
			net,
			lines: tally?.lines ?? 0,
			totals: tally?.kindTotals() ?? {},
		};
		if (opening) opening = closing;
		return entry;
	});
}

export function summarize(input: SummaryInput): IDataObject {
	const { tally } = input;
	const net = tally.dayNet();
	const exceptions = tally.exceptionList();
	const balances = balancesOf(input, net);
	const lookBackFrom = new Date(input.day.start - LOOK_BACK_DAYS * DAY_MS).toISOString();
	// What a person reads first comes first: the day, whether it balances, the balances, then the detail.
	return {
		day: input.day.day,
		from: new Date(input.day.start).toISOString(),
		to: new Date(input.day.end).toISOString(),
		complete: input.now >= input.day.end,
		// A record of the day whose amount the node cannot trust: no check can vouch for the day.
		balanceCheck: untrustedDay(tally) ?? balances.check,
		openingBalances: balances.opening,
		openingBalancesSource: balances.source,
		closingBalances: balances.closing,
		net,
		exceptionCount: exceptions.length,
		lines: tally.lines,
		counts: tally.counts,
		totals: tally.kindTotals(),
		...(input.day.days ? { days: daysOf(input, input.day.days, balances) } : {}),
		exceptions,
		lookBack: {
			days: LOOK_BACK_DAYS,
			from: lookBackFrom,
			cannotSee: `A movement ${input.day.days ? 'in this period' : 'on this day'} of a record created before ${lookBackFrom.slice(0, 10)} (a refund or a credit more than ${LOOK_BACK_DAYS} days after its record) is not on this statement; it shows in the balance check as a difference.`,
		},
		withdrawalFeeBearer: scalarText(input.account?.withdrawalFeeBearer) || 'not stated',
		pendingAfterHours: input.pendingAfterHours,
		readAt: new Date(input.now).toISOString(),
		notListed: [...NOT_LISTED],
	};
}
