import type { Line } from './lines';

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
 * One cell: quoted when it holds a comma, quote or line break; text that a spreadsheet would run as
 * a formula (= + - @, tab, carriage return first) gets a leading apostrophe, except a plain signed
 * number (an amount). Service data (labels, reasons) is not trusted.
 */
export function cell(value: string): string {
	const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
	return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The day a line's money moved (UTC), in the chosen format. */
export function dateIn(line: Line, format: DateFormat): string {
	const [year, month, day] = line.time.slice(0, 10).split('-');
	return format === 'DD/MM/YYYY' ? `${day}/${month}/${year}` : format === 'MM/DD/YYYY' ? `${month}/${day}/${year}` : `${year}-${month}-${day}`;
}

/** What a file's lines need besides the lines: the date format and the payee of each line. */
export interface CsvOptions {
	dateFormat: DateFormat;
	payee: (line: Line) => string;
}

const text = (rows: string[][]) => `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;

/** Xero's bank-statement CSV: Date, Amount, Payee, Description, Reference (the lineKey). */
export function xeroCsv(lines: Line[], options: CsvOptions): string {
	return text([
		['Date', 'Amount', 'Payee', 'Description', 'Reference'],
		...lines.map((line) => [dateIn(line, options.dateFormat), line.amount.toFixed(2), options.payee(line), line.description, line.lineKey]),
	]);
}

/** QuickBooks Online's three-column CSV: Date, Description, Amount; the payee and lineKey in the description. */
export function quickbooksCsv(lines: Line[], options: CsvOptions): string {
	return text([
		['Date', 'Description', 'Amount'],
		...lines.map((line) => [dateIn(line, options.dateFormat), `${options.payee(line)}: ${line.description} [${line.lineKey}]`, line.amount.toFixed(2)]),
	]);
}
