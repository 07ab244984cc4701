import { moneyFigures } from '../../service/money';
import { timeText, type Line } from './lines';

/** The statement's CSV rows, Xero's and QuickBooks Online's (docs/statement.md, "The files"); every cell goes through `cell`. Pure. */

export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** What a spreadsheet would run as a formula at the start of a cell (docs/statement.md, "The files"). */
const FORMULA_START = /^\s*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A plain number (the node's own amounts), which is never a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** One cell, every column alike, service data trusted in none (docs/statement.md, "The files"). */
function cell(value: string): string {
	const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
	return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The day a line's money moved (UTC) in the chosen format, '' when unreadable; toISOString's text is not parsed again (a busy day). */
function dateIn(line: Line, format: DateFormat): string {
	const iso = timeText(line.time);
	if (!iso) return '';
	const [year, month, day] = iso.slice(0, 10).split('-');
	return format.replace('YYYY', year).replace('MM', month).replace('DD', day);
}

/** What a file's lines need besides the lines: the date format and the payee of each line. */
interface CsvOptions {
	dateFormat: DateFormat;
	payee: (line: Line) => string;
}

/** One row of cells as CSV text. */
const row = (cells: string[]) => cells.map(cell).join(',');

/** Each CSV format (docs/statement.md, "The files"): its word in a file's name, its header, the most lines of a file, a line's row. */
export const CSV_FORMATS = {
	/** Xero's bank-statement CSV: Date, Amount, Payee, Description, Reference (the lineKey). */
	xeroCsv: {
		name: 'xero',
		header: row(['Date', 'Amount', 'Payee', 'Description', 'Reference']),
		// The most lines Xero imports from one CSV file; beyond, the lines go on in further files.
		perFile: 1000,
		row: (line: Line, options: CsvOptions) =>
			row([
				dateIn(line, options.dateFormat),
				moneyFigures(line.amount, line.currency),
				options.payee(line),
				line.description,
				line.lineKey,
			]),
	},
	/** QuickBooks Online's three-column CSV: Date, Description, Amount; the payee and lineKey in the description. */
	quickbooksCsv: {
		name: 'quickbooks',
		header: row(['Date', 'Description', 'Amount']),
		perFile: Infinity,
		row: (line: Line, options: CsvOptions) =>
			row([
				dateIn(line, options.dateFormat),
				`${options.payee(line)}: ${line.description} [${line.lineKey}]`,
				moneyFigures(line.amount, line.currency),
			]),
	},
};
