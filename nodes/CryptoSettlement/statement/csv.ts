import { timeMs } from '../../service/values';
import type { Line } from './lines';

/**
 * The statement as a bank-statement CSV file (docs/statement.md, "The CSV file"): one row per line
 * that moved money, in the column layout accounting software imports (Date, Amount, Payee,
 * Description, Reference), plus the line's Currency. Pure.
 */

export const CSV_COLUMNS = ['Date', 'Amount', 'Payee', 'Description', 'Reference', 'Currency'] as const;

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
export function cell(value: string): string {
	const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
	return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The day (UTC) of a line's time, read as the node reads the service's dates; empty when unreadable (the line is then an exception). */
export function dayCell(time: string): string {
	const at = timeMs(time);
	return at === null ? '' : new Date(at).toISOString().slice(0, 10);
}

/** The lines that moved money (amount not 0), optionally of one currency, as CSV text (CRLF rows, header first). */
export function statementCsv(lines: Line[], currency?: string): string {
	const rows = [CSV_COLUMNS.join(',')];
	for (const line of lines) {
		if (line.amount === 0 || (currency && line.currency !== currency)) continue;
		rows.push([dayCell(line.time), line.amount.toFixed(2), line.reference || line.recordId, line.description, line.lineKey, line.currency].map(cell).join(','));
	}
	return `${rows.join('\r\n')}\r\n`;
}
