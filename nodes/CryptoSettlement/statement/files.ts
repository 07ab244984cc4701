import { csvText, QUICKBOOKS_HEADER, quickbooksRow, XERO_HEADER, XERO_MAX_LINES, xeroRow, type DateFormat } from './csv';
import type { FileLine } from './lines';
import { ofxTransaction, statementOfx } from './ofx';

/**
 * The statement's files (docs/statement.md, "The files"): one per currency that moved, since an
 * accounting package's bank account holds one currency, in the format chosen. Each line is written
 * as its row when it is made, and only the rows are kept (docs/statement.md, "Speed"). Pure.
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
	return (line: FileLine) =>
		payeeNames[line.externalId] ?? payeeNames[line.walletLabel] ?? payeeNames[line.reference] ?? (line.reference || line.recordId);
}

/**
 * A row with its place in the day's order before it: the line's time (ISO, of one width), its
 * lineKey (any NUL in it written as NUL 0x01) and two NULs, so that rows sort as their lines do
 * (lines.ts, byTime) as plain text; joined, so each row is one flat string.
 */
const sortable = (line: FileLine, text: string) => [line.time, line.lineKey.replace(/\0/g, '\0\x01'), '\0\0', text].join('');
const TIME_WIDTH = '2026-03-10T00:00:00.000Z'.length;
const textOf = (row: string) => row.slice(row.indexOf('\0\0', TIME_WIDTH) + 2);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The files of a statement, written from its lines as they are made (add), then put together one
 * file at a time (filesOf), each row let go once it is in its file.
 */
export class StatementFiles {
	/** Per currency, its rows (sortable). */
	private readonly rows = new Map<string, string[]>();

	private readonly row: (line: FileLine) => string;

	constructor(private readonly options: FileOptions) {
		const payee = payeeOf(options.payeeNames);
		const csvOptions = { dateFormat: options.dateFormat, payee };
		this.row =
			options.format === 'ofx'
				? (line) => ofxTransaction(line, payee)
				: options.format === 'quickbooksCsv'
					? (line) => quickbooksRow(line, csvOptions)
					: (line) => xeroRow(line, csvOptions);
	}

	/** A line of the day (redacted): a row of its currency's file when it moved money in a currency wanted. */
	add(line: FileLine): void {
		if (line.amount === 0 || !line.currency || (this.options.currency && line.currency !== this.options.currency)) return;
		const rows = this.rows.get(line.currency);
		const row = sortable(line, this.row(line));
		if (rows) rows.push(row);
		else this.rows.set(line.currency, [row]);
	}

	/** The currencies that moved (alphabetical). */
	currencies(): string[] {
		return [...this.rows.keys()].sort(byText);
	}

	/** The file(s) of one currency, one at a time (several only for a Xero CSV beyond its 1,000 lines), the rows in the day's order. */
	*filesOf(currency: string, closingBalance: number | undefined): Generator<StatementFile> {
		const rows = (this.rows.get(currency) ?? []).sort(byText);
		this.rows.delete(currency);
		const { day, format } = this.options;
		const base = `statement-${day.day}-${currency}`;
		const take = (first: number, count: number) => {
			const texts = rows.slice(first, first + count).map(textOf);
			rows.fill('', first, first + count);
			return texts;
		};
		if (format === 'ofx') {
			const transactions = take(0, rows.length);
			const text = statementOfx({ currency, from: new Date(day.start).toISOString(), to: new Date(day.end).toISOString(), transactions, closingBalance });
			yield { currency, fileName: `${base}.ofx`, mimeType: 'application/x-ofx', text, rows: transactions.length };
			return;
		}
		if (format === 'quickbooksCsv') {
			const part = take(0, rows.length);
			yield { currency, fileName: `${base}.csv`, mimeType: 'text/csv', text: csvText(QUICKBOOKS_HEADER, part), rows: part.length };
			return;
		}
		for (let first = 0; first < rows.length; first += XERO_MAX_LINES) {
			const part = take(first, XERO_MAX_LINES);
			const number = first / XERO_MAX_LINES + 1;
			const fileName = rows.length > XERO_MAX_LINES ? `${base}-part${number}.csv` : `${base}.csv`;
			yield { currency, fileName, mimeType: 'text/csv', text: csvText(XERO_HEADER, part), rows: part.length };
		}
	}
}
