import type { IDataObject } from 'n8n-workflow';
import { REFUNDED_WITHDRAWAL_WORDS, statusOf } from '../../service/catalog';
import { instantMs, scalarText, timeMs, tradeIdOf } from '../../service/values';
import { addMoney, amountIn, moneyFigures, roundMoney, statedNumber } from '../../service/money';
import { HOUR_MS, utcDayText } from '../../service/utcDay';
import { assetRef, depositAssetIndex, type AssetFacts } from '../../service/depositAssets';
import type { Day } from './day';
import type { KeptRecords } from './recordColumns';
import type { ReadLists } from './statementLists';

/** A statement's lines (docs/statement.md, "Lines"). Pure: records in, lines out. */

/** Lines whose amount cannot be read (0 proves nothing), for the balance check: a mark beside the line, not a field of it. */
const UNREADABLE = new WeakSet<Line>();

export const hasUnreadableAmount = (line: Line) => UNREADABLE.has(line);

/** What a line is (docs/statement.md, "Kinds"). */
export const LINE_KINDS = {
	deposit:
		"Crypto received on a deposit wallet and converted (a trade); credits the wallet's currency once completed",
	depositFee: 'The platform fee the service deducted from a deposit',
	autoSettlement:
		"A payout the service made by itself from a deposit to the wallet's linked bank account (a withdrawal naming its `trade`)",
	cryptoWithdrawal: 'A crypto withdrawal: what the recipient receives',
	bankWithdrawal: 'A bank (NGN or GHS) withdrawal: what the recipient receives',
	withdrawalFee: 'The fee of a withdrawal or an auto-settlement payout',
	refund: `A ${REFUNDED_WITHDRAWAL_WORDS} withdrawal given back to the balance (payout and fee)`,
} as const;

export type LineKind = keyof typeof LINE_KINDS;

/** A record's first line, at its creation (timeText: once per record, not once per line): every field of a line, in its order (docs/statement.md, "Lines"). */
function baseLine(
	kind: LineKind,
	record: IDataObject,
	type: 'transaction' | 'withdrawal',
	day: Day,
) {
	const recordId = scalarText(record.id ?? record._id);
	return {
		lineKey: `${kind}:${recordId}`,
		kind,
		day: day.day,
		recordId,
		record: type,
		externalId: '',
		walletLabel: '',
		walletAddress: '',
		reference: '',
		payee: '',
		status: scalarText(record.status).toLowerCase(),
		createdAt: scalarText(record.createdAt),
		time: timeText(record.createdAt),
		amount: 0,
		currency: '',
		amounts: {} as IDataObject,
		description: '',
		exception: '',
	};
}

export type Line = ReturnType<typeof baseLine>;

/** The lists read (statementLists.ts); those that only name (a deposit's token, the payees) may be empty. */
type StatementLists = Pick<ReadLists<KeptRecords>, 'trades' | 'withdrawals' | 'wallets'> &
	Partial<Pick<ReadLists<KeptRecords>, 'assets' | 'bankAccounts' | 'payoutAddresses'>>;

export interface LineOptions {
	day: Day;
	/** n8n's clock, for the age of open records. */
	now: number;
	pendingAfterHours: number;
}

/** The only fields of a record kept, in columns (recordColumns.ts; docs/statement.md, "Speed"). */
export const LINE_FIELDS = {
	transactions: [
		'id',
		'_id',
		'createdAt',
		'updatedAt',
		'status',
		'wallet',
		'label',
		'address',
		'asset',
		'currency',
		'amount',
		'feeAmount',
		'amountReceived',
		'cryptoReceived',
		'feeAmountInUsd',
		'rate',
		'reason',
	],
	withdrawals: [
		'id',
		'_id',
		'createdAt',
		'updatedAt',
		'status',
		'trade',
		'token',
		'walletAddress',
		'bankName',
		'accountNumber',
		'bankAccount',
		'currency',
		'externalId',
		'payoutAmount',
		'fee',
		'amount',
		'cryptoAmount',
		'network',
		'reason',
	],
} as const;

const CURRENCIES = new Set(['USD', 'NGN', 'GHS']);

// Amounts are read and rounded once by service/money.ts (docs/statement.md, "Money: one reading, one rounding").

/** A rounded amount's negative (a debit of it, or the credit of a debit), never -0. */
const negated = (amount: number) => (amount === 0 ? 0 : -amount);

/** A movement's time, never before its record's creation (docs/statement.md, "The day"); ISO texts order as their instants. */
const notBeforeCreated = (created: string, moved: string) =>
	moved > created ? moved : created || moved;

const currencyIn = (value: unknown) => {
	const text = scalarText(value).trim().toUpperCase();
	return CURRENCIES.has(text) ? text : undefined;
};

/** A record's date as ISO text, read in any form the node reads a date (`timeMs`); '' when unreadable. */
export function timeText(value: unknown): string {
	// The service's dates are usually written so already: given back as they are, not parsed and written again (a busy day has 200,000).
	if (typeof value === 'string' && isInstantText(value)) return value;
	const at = timeMs(value);
	return at === null ? '' : new Date(at).toISOString();
}

/** The form toISOString writes (YYYY-MM-DDTHH:mm:ss.sssZ), with a time of the day, whether or not its date exists. */
const INSTANT_TEXT = /^\d{4}-\d\d-\d\dT([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const twoDigits = (text: string, at: number) =>
	(text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * Whether `text` is what toISOString writes for some instant: its form, and a date and time that
 * exist (Date.parse also reads 2026-02-30 or 24:00, as another day, which toISOString writes otherwise).
 */
export function isInstantText(text: string): boolean {
	if (!INSTANT_TEXT.test(text)) return false;
	const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
	const month = twoDigits(text, 5);
	const day = twoDigits(text, 8);
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	const days = month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
	return days !== undefined && day >= 1 && day <= days;
}

interface WalletIndex {
	byId: Map<string, IDataObject>;
	assets: Map<string, AssetFacts>;
	payees: PayeeIndex;
}

/** The payees' names (docs/statement.md, "Lines": `payee`) by bank account id, bank and number, or payout address (each key's prefix); two names for one key name none. */
type PayeeIndex = Map<string, string>;

const AMBIGUOUS = '\u0000';
const addressKey = (address: string) =>
	`address:${/^0x/i.test(address) ? address.toLowerCase() : address}`;
const bankKey = (bankName: unknown, accountNumber: string) =>
	`number:${scalarText(bankName).trim().toLowerCase()}\u0000${accountNumber}`;

function payeeIndex(bankAccounts: IDataObject[] = [], payoutAddresses: IDataObject[] = []) {
	const index: PayeeIndex = new Map();
	const setName = (key: string | false, name: string) => {
		if (!key || !name) return;
		const known = index.get(key);
		index.set(key, known === undefined || known === name ? name : AMBIGUOUS);
	};
	for (const account of bankAccounts) {
		const name = scalarText(account.accountName).trim();
		const id = scalarText(account.id ?? account._id);
		const number = scalarText(account.accountNumber).trim();
		setName(id !== '' && `id:${id}`, name);
		setName(number !== '' && bankKey(account.bankName, number), name);
	}
	for (const saved of payoutAddresses) {
		const address = scalarText(saved.address).trim();
		setName(address !== '' && addressKey(address), scalarText(saved.label).trim());
	}
	return index;
}

/** The name the service gives a withdrawal's recipient (PayeeIndex), '' when none. */
function recipientName(record: IDataObject, kind: LineKind, payees: PayeeIndex): string {
	const named = (key: string) => {
		const name = payees.get(key);
		return name === undefined || name === AMBIGUOUS ? '' : name;
	};
	if (kind === 'cryptoWithdrawal')
		return named(addressKey(scalarText(record.walletAddress).trim()));
	if (kind !== 'bankWithdrawal') return '';
	const number = scalarText(record.accountNumber).trim();
	const byId = named(`id:${scalarText(record.bankAccount)}`);
	return byId || (number ? named(bankKey(record.bankName, number)) : '');
}

/** A deposit's token and network from the deposit-asset list, else the wallet's asset identifier (docs/statement.md, "Lines"). */
function depositCrypto(
	record: IDataObject,
	wallet: IDataObject | undefined,
	assets: Map<string, AssetFacts>,
): { unit: string; words: string } {
	for (const ref of [wallet?.asset, wallet?.identifier, record.asset]) {
		const facts = assets.get(assetRef(ref));
		if (facts?.token)
			return {
				unit: facts.token,
				words: facts.network ? `${facts.token} on ${facts.network}` : facts.token,
			};
	}
	const unit =
		scalarText(wallet?.identifier) ||
		(scalarText(record.asset) ? `asset ${scalarText(record.asset)}` : 'crypto');
	return { unit, words: unit };
}

/** The open-too-long exception of a record whose status is not final (docs/statement.md, "Exceptions"). */
function openTooLong(
	kind: 'trade' | 'withdrawal',
	record: IDataObject,
	options: LineOptions,
	what: string,
): string | undefined {
	const status = scalarText(record.status).toLowerCase();
	const entry = statusOf(kind, status);
	if (!entry)
		return `Status ${JSON.stringify(status)} is unknown to the node: check this ${what} in the service's dashboard`;
	if (!entry.open || entry.held) return undefined;
	const at = timeMs(record.createdAt) ?? options.now;
	const hours = (options.now - at) / HOUR_MS;
	if (hours <= options.pendingAfterHours) return undefined;
	return `Not final after ${Math.floor(hours)} hours (status ${status}; Pending After Hours is ${options.pendingAfterHours}): check this ${what} with the service`;
}

const join = (...parts: Array<string | undefined | false>) => parts.filter(Boolean).join('; ');

/** An amount of money in words, as the files write it: `5000.00 NGN` (money.ts, moneyFigures). */
const inWords = (amount: number, currency: string) =>
	`${moneyFigures(amount, currency)} ${currency}`;

/** The key of another line of the same record (`<kind>:<record id>`), by which a line names its sibling. */
const keyOf = (kind: LineKind, line: Pick<Line, 'recordId'>) => `${kind}:${line.recordId}`;

/** The lines of one deposit (trade): the deposit, and its platform fee when the wallet was credited. */
function depositLines(record: IDataObject, wallets: WalletIndex, options: LineOptions): Line[] {
	const line = baseLine('deposit', record, 'transaction', options.day);
	const wallet = wallets.byId.get(scalarText(record.wallet));
	const label = scalarText(wallet?.label ?? record.label).trim();
	const address = scalarText(record.address ?? wallet?.address);
	const crypto = depositCrypto(record, wallet, wallets.assets);
	const currency = currencyIn(record.currency);
	const credited = amountIn(record.amount);
	const fee = amountIn(record.feeAmount);
	const usd = statedNumber(record.amountReceived);
	const completed = line.status === 'completed';
	line.walletLabel = label;
	line.walletAddress = address;
	line.reference = label || address;
	line.payee = label;
	line.currency = currency ?? '';
	const amounts: IDataObject = {};
	if (usd !== undefined) amounts.amountReceived = { value: usd, unit: 'USD' };
	if (record.cryptoReceived !== undefined && record.cryptoReceived !== null)
		amounts.cryptoReceived = { value: scalarText(record.cryptoReceived), unit: crypto.unit };
	if (credited !== undefined && currency) amounts.credited = { value: credited, unit: currency };
	if (fee !== undefined && currency) amounts.feeAmount = { value: fee, unit: currency };
	const feeUsd = statedNumber(record.feeAmountInUsd);
	if (feeUsd !== undefined) amounts.feeAmountInUsd = { value: feeUsd, unit: 'USD' };
	const rate = statedNumber(record.rate);
	if (rate !== undefined && currency) amounts.rate = { value: rate, unit: `${currency} per USD` };
	line.amounts = amounts;
	// Only a completed deposit moved money, so only its amounts must be readable.
	const unreadable =
		completed &&
		(!currency ||
			credited === undefined ||
			(fee === undefined && record.feeAmount !== undefined && record.feeAmount !== null));
	// The credited amount and the fee, each rounded once: the deposit line credits both, the fee line debits the fee, so they net to the credit.
	const feeMoney = fee === undefined ? 0 : roundMoney(fee, currency);
	if (completed && !unreadable)
		line.amount = addMoney(roundMoney(credited as number, currency), feeMoney, currency);
	if (unreadable) UNREADABLE.add(line);
	// A completed deposit was credited when it completed: its last update, never before its creation (docs/statement.md, "The day").
	if (completed) line.time = notBeforeCreated(line.time, timeText(record.updatedAt));
	// The words say what the line's amount is (the value converted, before the fee), what it was converted from, and which line the fee is on.
	const where = label ? `wallet ${label}` : `address ${address}`;
	const received = `${amounts.cryptoReceived ? `${scalarText(record.cryptoReceived)} ${crypto.words}` : 'the crypto received'}${usd !== undefined ? ` (${usd} USD${rate !== undefined && currency ? ` at ${rate} ${currency} per USD` : ''})` : ''}`;
	line.description = !completed
		? `Deposit to ${where}: ${received} received, ${line.status}, not credited`
		: unreadable
			? `Deposit to ${where}: ${received} received, its credited amount cannot be read`
			: `Deposit to ${where}: ${inWords(line.amount, line.currency)} converted from ${received}; ${
					feeMoney === 0
						? 'no platform fee'
						: `less its platform fee ${inWords(feeMoney, line.currency)} (line ${keyOf('depositFee', line)})`
				}, ${inWords(roundMoney(credited as number, currency), line.currency)} credited`;
	line.exception = join(
		unreadable &&
			`The record states no credited amount the node can read (amount ${JSON.stringify(record.amount ?? null)}, feeAmount ${JSON.stringify(record.feeAmount ?? null)}, currency ${JSON.stringify(record.currency ?? null)}): check this deposit in the service's dashboard`,
		!label &&
			`Deposit to a wallet without a label (address ${address || 'unknown'}): check which customer owns this address`,
		statusOf('trade', line.status)?.held === true &&
			`${line.status.charAt(0).toUpperCase()}${line.status.slice(1)}${scalarText(record.reason) ? ` (${scalarText(record.reason)})` : ''}: the funds are held and not credited; check this deposit in the service's dashboard`,
		openTooLong('trade', record, options, 'deposit'),
	);
	const lines = [line];
	if (completed && !unreadable && feeMoney !== 0) {
		lines.push(
			sibling(line, 'depositFee', line.time, {
				amount: negated(feeMoney),
				amounts: { feeAmount: { value: fee as number, unit: line.currency } },
				description: `Platform fee of the deposit to ${where} (line ${keyOf('deposit', line)}): ${inWords(feeMoney, line.currency)} of its ${inWords(line.amount, line.currency)} converted, ${inWords(addMoney(line.amount, negated(feeMoney), line.currency), line.currency)} credited`,
			}),
		);
	}
	return lines;
}

function withdrawalKind(record: IDataObject): LineKind {
	const has = (...fields: string[]) => fields.some((field) => scalarText(record[field]) !== '');
	if (tradeIdOf(record.trade) !== undefined) return 'autoSettlement';
	if (has('token', 'walletAddress')) return 'cryptoWithdrawal';
	if (has('bankName', 'accountNumber', 'bankAccount')) return 'bankWithdrawal';
	return scalarText(record.currency).toLowerCase() === 'usd'
		? 'cryptoWithdrawal'
		: 'bankWithdrawal';
}

/** What one withdrawal record says, read once for its lines (payout, fee, refund). */
type Withdrawal = ReturnType<typeof readWithdrawal>;

/** A transaction read, by its id (undefined when none was read). */
type TradeById = (id: string) => IDataObject | undefined;

function readWithdrawal(
	record: IDataObject,
	trades: TradeById,
	wallets: WalletIndex,
	options: LineOptions,
) {
	const kind = withdrawalKind(record);
	const line = baseLine(kind, record, 'withdrawal', options.day);
	const currency = currencyIn(record.currency);
	const trade = kind === 'autoSettlement' ? trades(tradeIdOf(record.trade) ?? '') : undefined;
	const wallet = trade ? wallets.byId.get(scalarText(trade.wallet)) : undefined;
	const destination =
		kind === 'cryptoWithdrawal'
			? scalarText(record.walletAddress)
			: [scalarText(record.bankName), scalarText(record.accountNumber)].filter(Boolean).join(' ');
	line.externalId = scalarText(record.externalId).trim();
	line.walletLabel = scalarText(wallet?.label);
	line.walletAddress = scalarText(trade?.address ?? wallet?.address);
	line.reference = line.externalId || line.walletLabel || destination;
	line.payee =
		kind === 'autoSettlement' ? line.walletLabel : recipientName(record, kind, wallets.payees);
	line.currency = currency ?? '';
	const payout = amountIn(record.payoutAmount);
	const fee = amountIn(record.fee);
	return {
		record,
		kind,
		line,
		payout,
		fee,
		// The payout and the fee rounded once to the currency's minor unit (0 when unreadable): what its lines debit, and a refund credits.
		payoutMoney: payout === undefined ? 0 : roundMoney(payout, currency),
		feeMoney: fee === undefined ? 0 : roundMoney(fee, currency),
		readable: currency !== undefined && payout !== undefined && fee !== undefined,
		refunded: statusOf('withdrawal', line.status)?.refunded === true,
		destination: destination || 'an unnamed destination',
		what: kind === 'autoSettlement' ? 'auto-settlement payout' : 'withdrawal',
		trade,
	};
}

/** Another line of `first`'s record (a fee, a refund), made with it: its record's and reference fields, its own amounts, no exception. */
const sibling = (
	first: Line,
	kind: LineKind,
	time: string,
	fields: Pick<Line, 'amount' | 'amounts' | 'description'>,
): Line => ({ ...first, lineKey: keyOf(kind, first), kind, time, ...fields, exception: '' });

/** The payout's own line: what the recipient receives, debited when it was asked; the record's exceptions sit on it. */
function payoutLine(w: Withdrawal, options: LineOptions): Line {
	const { record, kind, line, payout, fee, what } = w;
	const amounts: IDataObject = {};
	const usd = statedNumber(record.amount);
	// The `amount` of an auto-settlement payout has no documented unit (docs/api.md, "Withdrawal records").
	if (usd !== undefined && kind !== 'autoSettlement') amounts.amount = { value: usd, unit: 'USD' };
	const token = scalarText(record.token);
	if (token && record.cryptoAmount !== undefined && record.cryptoAmount !== null) {
		const value = statedNumber(record.cryptoAmount) ?? scalarText(record.cryptoAmount);
		amounts.cryptoAmount = { value, unit: token };
	}
	if (payout !== undefined && line.currency)
		amounts.payoutAmount = { value: payout, unit: line.currency };
	if (fee !== undefined && line.currency) amounts.fee = { value: fee, unit: line.currency };
	line.amounts = amounts;
	if (w.readable) line.amount = negated(w.payoutMoney);
	else UNREADABLE.add(line);
	line.description = payoutWords(w, usd);
	line.exception = join(
		!w.readable &&
			`The record states no payout and fee the node can read (payoutAmount ${JSON.stringify(record.payoutAmount ?? null)}, fee ${JSON.stringify(record.fee ?? null)}, currency ${JSON.stringify(record.currency ?? null)}): check this ${what} in the service's dashboard`,
		w.refunded &&
			`Refunded (status ${line.status}${scalarText(record.reason) ? `: ${scalarText(record.reason)}` : ''}): the recipient was not paid by this ${what} and the amount is back in the balance; check the reason and the destination`,
		kind !== 'autoSettlement' &&
			!line.externalId &&
			'No External ID: this withdrawal cannot be matched to your own records by reference; check who made it (the dashboard, another integration)',
		kind === 'autoSettlement' &&
			!w.trade &&
			`The deposit ${tradeIdOf(record.trade) ?? ''} it settles is not in the transaction list read for this statement; check it in the service's dashboard`,
		openTooLong('withdrawal', record, options, what),
		w.refunded &&
			timeMs(record.updatedAt) === null &&
			scalarText(record.updatedAt) !== '' &&
			`The date its money came back (updatedAt ${JSON.stringify(record.updatedAt ?? null)}) cannot be read, so the refund is dated when the ${what} was created: check it in the service's dashboard`,
	);
	return line;
}

/** The record in words: `Crypto withdrawal to TRecipient`, `Bank withdrawal to Access Bank 0123456789`, `Auto-settlement of deposit … to …`. */
function withdrawalWords(w: Withdrawal): string {
	const what =
		w.kind === 'autoSettlement'
			? `Auto-settlement of deposit ${tradeIdOf(w.record.trade) ?? ''}`
			: w.kind === 'cryptoWithdrawal'
				? 'Crypto withdrawal'
				: 'Bank withdrawal';
	return `${what} to ${w.destination}`;
}

/** The payout and the fee together: what the whole withdrawal took from the balance. */
const totalOf = (w: Withdrawal) => addMoney(w.payoutMoney, w.feeMoney, w.line.currency);

/** The payout line in words, agreeing with its amount (docs/statement.md, "Lines": `description`). */
function payoutWords(w: Withdrawal, usd: number | undefined): string {
	const { record, line } = w;
	if (!w.readable) return `${withdrawalWords(w)}: its payout and fee cannot be read`;
	const token = scalarText(record.token);
	const network = scalarText(record.network);
	const crypto = scalarText(record.cryptoAmount);
	const sent =
		w.kind === 'cryptoWithdrawal' && token
			? ` (the record's crypto amount: ${crypto ? `${crypto} ` : ''}${token}${network ? ` on ${network}` : ''})`
			: '';
	const fee =
		w.feeMoney === 0
			? 'no fee'
			: `with its fee ${inWords(w.feeMoney, line.currency)} (line ${keyOf('withdrawalFee', line)}), ${inWords(totalOf(w), line.currency)} in all`;
	const asked = usd !== undefined && w.kind !== 'autoSettlement' ? `; asked as ${usd} USD` : '';
	return `${withdrawalWords(w)}: ${inWords(w.payoutMoney, line.currency)} paid out, what the recipient receives${sent}; ${fee}${asked}`;
}

/** The withdrawal's fee, debited with the payout. */
function withdrawalFeeLine(w: Withdrawal): Line {
	return sibling(w.line, 'withdrawalFee', w.line.time, {
		amount: negated(w.feeMoney),
		amounts: { fee: { value: w.fee as number, unit: w.line.currency } },
		description: `Fee of the ${w.what} to ${w.destination} (line ${keyOf(w.kind, w.line)}): ${inWords(w.feeMoney, w.line.currency)}; with its payout ${inWords(w.payoutMoney, w.line.currency)}, ${inWords(totalOf(w), w.line.currency)} in all`,
	});
}

/** The payout and fee given back when the money came back: exactly what they debited, so the record nets to nothing. */
function refundLine(w: Withdrawal, debited: number): Line {
	return sibling(w.line, 'refund', notBeforeCreated(w.line.time, timeText(w.record.updatedAt)), {
		amount: negated(debited),
		amounts: {
			payoutAmount: { value: w.payout as number, unit: w.line.currency },
			fee: { value: w.fee as number, unit: w.line.currency },
		},
		description: `Refund of the ${w.line.status} ${w.what} to ${w.destination}: ${inWords(negated(debited), w.line.currency)} back in the balance, its payout ${inWords(w.payoutMoney, w.line.currency)} (line ${keyOf(w.kind, w.line)})${
			w.feeMoney === 0
				? ''
				: ` and fee ${inWords(w.feeMoney, w.line.currency)} (line ${keyOf('withdrawalFee', w.line)})`
		}`,
	});
}

/** A withdrawal's payout and fee, debited when asked whoever bears the fee (docs/api.md, "Withdrawal fees"), and a refund of both. */
function withdrawalLines(
	record: IDataObject,
	trades: TradeById,
	wallets: WalletIndex,
	options: LineOptions,
): Line[] {
	const w = readWithdrawal(record, trades, wallets, options);
	const lines = [payoutLine(w, options)];
	if (!w.readable) return lines;
	if (w.feeMoney !== 0) lines.push(withdrawalFeeLine(w));
	// The refund credits what the lines above debited, summed exactly in the minor unit.
	if (w.refunded)
		lines.push(
			refundLine(
				w,
				lines.reduce((sum, line) => addMoney(sum, line.amount, line.currency), 0),
			),
		);
	return lines;
}

/** Texts in the order `<` gives them. */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A line's place in the day: by time, then by key (the order of the lines, the exceptions and the files). */
export const byTime = (a: Pick<Line, 'time' | 'lineKey'>, b: Pick<Line, 'time' | 'lineKey'>) =>
	byText(a.time, b.time) || byText(a.lineKey, b.lineKey);

/** Where a line belongs: on the day, or after it (for the balance check). */
export type Placement = 'day' | 'after';

/** Every record's lines, each on the day its money moved, handed on as made and not kept (docs/statement.md, "The day", "Speed"). */
export class LineMaker {
	private readonly wallets: WalletIndex;

	/** Each transaction's number by its id (the last of an id): its record is read from the columns again when a payout names it. */
	private readonly tradeAt = new Map<string, number>();

	private readonly tradeById: TradeById = (id) => {
		const index = this.tradeAt.get(id);
		return index === undefined ? undefined : this.lists.trades.at(index);
	};

	/** Whether every transaction's id is in tradeAt (each() fills it as it goes, transactions before withdrawals). */
	private tradesIndexed = false;

	constructor(
		private readonly lists: StatementLists,
		private readonly options: LineOptions,
	) {
		const byId = new Map(
			lists.wallets.map((wallet) => [scalarText(wallet.id ?? wallet._id), wallet]),
		);
		byId.delete('');
		this.wallets = {
			byId,
			assets: depositAssetIndex(lists.assets ?? []) ?? new Map(),
			payees: payeeIndex(lists.bankAccounts, lists.payoutAddresses),
		};
	}

	/** The lines of record number `record`, the same on every call. */
	linesOf(record: number): Line[] {
		const { trades, withdrawals } = this.lists;
		if (record < trades.length) {
			const trade = trades.at(record);
			if (!this.tradesIndexed) this.indexTrade(trade, record);
			return depositLines(trade, this.wallets, this.options);
		}
		if (!this.tradesIndexed)
			for (let index = 0; index < trades.length; index++) this.indexTrade(trades.at(index), index);
		this.tradesIndexed = true;
		return withdrawalLines(
			withdrawals.at(record - trades.length),
			this.tradeById,
			this.wallets,
			this.options,
		);
	}

	private indexTrade(trade: IDataObject, index: number): void {
		const id = scalarText(trade.id);
		if (id) this.tradeAt.set(id, index);
	}

	/** Every line placed on the day or after it, with its record's number, its place among that record's lines and its instant (ms). */
	each(
		visit: (line: Line, placement: Placement, record: number, ordinal: number, at: number) => void,
	): void {
		const { day } = this.options;
		// Records are numbered transactions first, then withdrawals.
		const { trades, withdrawals } = this.lists;
		for (let record = 0; record < trades.length + withdrawals.length; record++) {
			// Every transaction's id is in tradeAt (linesOf) before the first withdrawal's lines are made.
			if (record === trades.length) this.tradesIndexed = true;
			const lines = this.linesOf(record);
			for (let ordinal = 0; ordinal < lines.length; ordinal++) {
				const line = lines[ordinal];
				const at = instantMs(line.time);
				// A record without a readable date is on no day's statement (its exception cannot be placed either).
				if (!Number.isFinite(at)) continue;
				if (at >= day.end) visit(line, 'after', record, ordinal, at);
				else if (at >= day.start) {
					// A range's line is of the day its money moved (docs/statement.md, "The day").
					if (day.days) line.day = utcDayText(at);
					visit(line, 'day', record, ordinal, at);
				}
			}
		}
	}
}

/** The day's lines, kept, in time order, then by key. */
export function linesOf(lists: StatementLists, options: LineOptions): Line[] {
	const lines: Line[] = [];
	new LineMaker(lists, options).each((line, placement) => placement === 'day' && lines.push(line));
	return lines.sort(byTime);
}
