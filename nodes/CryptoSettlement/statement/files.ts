import { quickbooksCsv, xeroCsv, XERO_MAX_LINES, type DateFormat } from './csv';
import type { Line } from './lines';
import { statementOfx } from './ofx';

/**
 * The statement's files (docs/statement.md, "The files"): one per currency that moved, since an
 * accounting package's bank account holds one currency, in the format chosen. Pure.
 */

export const FILE_FORMATS = {
	xeroCsv: 'Xero CSV: Date, Amount, Payee, Description, Reference (at most 1,000 lines a file)',
	quickbooksCsv: 'QuickBooks Online CSV: Date, Description, Amount',
	ofx: 'OFX: each transaction\'s FITID its lineKey, the currency and the closing balance; Xero, QuickBooks Online, Sage and Zoho Books import it',
} as const;
export type FileFormat = keyof typeof FILE_FORMATS;

export interface FileOptions {
	day: { day: string; start: number; end: number };
	format: FileFormat;
	dateFormat: DateFormat;
	/** Reference (External ID, wallet label) → name: the Payee. */
	payeeNames: Record<string, string>;
	/** The currencies whose files are wanted (all that moved when undefined). */
	currency?: string;
	closingBalances: Record<string, number>;
}

/** One file of one currency: its name and text (a Xero file of more than 1,000 lines is in parts). */
export interface StatementFile {
	currency: string;
	fileName: string;
	mimeType: string;
	text: string;
	rows: number;
}

/** The name a line's payee has: the workflow's name for its External ID or wallet label, else its reference. */
export function payeeOf(payeeNames: Record<string, string>) {
	return (line: Line) =>
		payeeNames[line.externalId] ?? payeeNames[line.walletLabel] ?? payeeNames[line.reference] ?? (line.reference || line.recordId);
}

/** The lines that moved money, per currency, in the order given. */
function byCurrency(lines: Line[], only?: string): Map<string, Line[]> {
	const map = new Map<string, Line[]>();
	for (const line of lines) {
		if (line.amount === 0 || !line.currency || (only && line.currency !== only)) continue;
		const list = map.get(line.currency);
		if (list) list.push(line);
		else map.set(line.currency, [line]);
	}
	return map;
}

/** The files of one currency (several only for a Xero CSV beyond its 1,000 lines). */
function filesOf(currency: string, lines: Line[], options: FileOptions): StatementFile[] {
	const payee = payeeOf(options.payeeNames);
	const base = `statement-${options.day.day}-${currency}`;
	if (options.format === 'ofx') {
		const text = statementOfx({
			currency,
			from: new Date(options.day.start).toISOString(),
			to: new Date(options.day.end).toISOString(),
			lines,
			closingBalance: options.closingBalances[currency],
			payee,
		});
		return [{ currency, fileName: `${base}.ofx`, mimeType: 'application/x-ofx', text, rows: lines.length }];
	}
	const csvOptions = { dateFormat: options.dateFormat, payee };
	if (options.format === 'quickbooksCsv') {
		return [{ currency, fileName: `${base}.csv`, mimeType: 'text/csv', text: quickbooksCsv(lines, csvOptions), rows: lines.length }];
	}
	const parts: StatementFile[] = [];
	for (let first = 0; first < lines.length; first += XERO_MAX_LINES) {
		const part = lines.slice(first, first + XERO_MAX_LINES);
		const number = first / XERO_MAX_LINES + 1;
		const fileName = lines.length > XERO_MAX_LINES ? `${base}-part${number}.csv` : `${base}.csv`;
		parts.push({ currency, fileName, mimeType: 'text/csv', text: xeroCsv(part, csvOptions), rows: part.length });
	}
	return parts;
}

/** Per currency that moved (alphabetical), its file(s). */
export function statementFiles(lines: Line[], options: FileOptions): Array<{ currency: string; files: StatementFile[] }> {
	return [...byCurrency(lines, options.currency)]
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([currency, ofCurrency]) => ({ currency, files: filesOf(currency, ofCurrency, options) }));
}
