import { moneyFigures } from '../../service/money';
import { timeMs } from '../../service/values';
import { INSTANT_TEXT, type FileLine } from './lines';

/**
 * The statement's CSV files (docs/statement.md, "The files"): one currency's lines that moved money,
 * in the layout an accounting package imports as a bank statement: Xero's (Date, Amount, Payee,
 * Description, Reference) or QuickBooks Online's three columns (Date, Description, Amount). Every
 * cell goes through `cell`. Pure.
 */

export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** The most lines Xero imports from one CSV file; beyond, the lines go on in further files. */
export const XERO_MAX_LINES = 1000;

/**
 * What a spreadsheet would run as a formula at the start of a cell: = + - @ (also their full-width
 * forms, which some spreadsheets read as the same), tab or carriage return, after any spaces.
 */
const FORMULA_START = /^\s*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A plain number (the node's own amounts), which is never a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One cell, every column alike: text that a spreadsheet would run as a formula gets a leading
 * apostrophe; a cell with a comma, a semicolon (the separator of spreadsheets in other locales), a
 * quote or a line break is quoted. Service data (labels, reasons, dates) is not trusted.
 */
function cell(value: string): string {
	const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
	return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The day a line's money moved (UTC), in the chosen format, read as the node reads the service's
 * dates; empty when unreadable (the line is then an exception).
 */
function dateIn(line: FileLine, format: DateFormat): string {
	const date = isoDayOf(line.time) ?? dayRead(line.time);
	if (date === undefined) return '';
	const [year, month, day] = date.split('-');
	return format === 'DD/MM/YYYY' ? `${day}/${month}/${year}` : format === 'MM/DD/YYYY' ? `${month}/${day}/${year}` : `${year}-${month}-${day}`;
}

/** The UTC day of a date read as the node reads the service's dates (timeMs), YYYY-MM-DD; undefined when unreadable. */
function dayRead(value: string): string | undefined {
	const at = timeMs(value);
	return at === null ? undefined : new Date(at).toISOString().slice(0, 10);
}

/**
 * The day of a line's time read from its text (no date parsed, for the many rows of a busy day);
 * undefined for any text toISOString does not write, which dayRead then reads.
 */
function isoDayOf(text: string): string | undefined {
	// A line's `time` is toISOString's text (lines.ts, timeText): its day is its first ten characters.
	return INSTANT_TEXT.test(text) ? text.slice(0, 10) : undefined;
}

/** What a file's lines need besides the lines: the date format and the payee of each line. */
interface CsvOptions {
	dateFormat: DateFormat;
	payee: (line: FileLine) => string;
}

/** One row of cells as CSV text. */
const row = (cells: string[]) => cells.map(cell).join(',');

export const XERO_HEADER = row(['Date', 'Amount', 'Payee', 'Description', 'Reference']);
export const QUICKBOOKS_HEADER = row(['Date', 'Description', 'Amount']);

/** A line as a row of Xero's bank-statement CSV: Date, Amount, Payee, Description, Reference (the lineKey). */
export const xeroRow = (line: FileLine, options: CsvOptions) =>
	row([dateIn(line, options.dateFormat), moneyFigures(line.amount, line.currency), options.payee(line), line.description, line.lineKey]);

/** A line as a row of QuickBooks Online's three-column CSV: Date, Description, Amount; the payee and lineKey in the description. */
export const quickbooksRow = (line: FileLine, options: CsvOptions) =>
	row([dateIn(line, options.dateFormat), `${options.payee(line)}: ${line.description} [${line.lineKey}]`, moneyFigures(line.amount, line.currency)]);
