import { CSV_FORMATS, type DateFormat } from './csv';
import type { Line } from './lines';
import { ofxTransaction, statementOfx } from './ofx';
import type { DayOrder } from './order';

/** The statement's files, one per currency, written a row at a time (docs/statement.md, "The files", "Speed"). */

export const FILE_FORMATS = {
	xeroCsv: 'Xero CSV: Date, Amount, Payee, Description, Reference (at most 1,000 lines a file)',
	quickbooksCsv: 'QuickBooks Online CSV: Date, Description, Amount',
	ofx: "OFX: each transaction's FITID its lineKey, the currency and the closing balance; Xero, QuickBooks Online, Sage and Zoho Books import it",
} as const;
export type FileFormat = keyof typeof FILE_FORMATS;

interface FileOptions {
	day: { day: string; start: number; end: number };
	format: FileFormat;
	dateFormat: DateFormat;
	payeeNames: Record<string, string>;
	/** The one currency whose file is wanted (all when undefined). */
	currency?: string;
	/** OFX Account ID per currency, when given (operations/statement.ts). */
	ofxAccountId?: (currency: string) => string;
}

/** A line's Payee (docs/statement.md, "The files": `Payee`). */
export function payeeOf(payeeNames: Record<string, string>) {
	// A Map: the many lines' references are looked up without each being made a property name.
	const names = new Map(Object.entries(payeeNames));
	return (line: Line) =>
		names.get(line.externalId) ??
		names.get(line.walletLabel) ??
		names.get(line.reference) ??
		(line.payee || line.reference || line.recordId);
}

/** Bytes of a file written before the next part is begun (1 MiB): a busy day's file is held as bytes, never as texts. */
const CHUNK_BYTES = 1 << 20;

/** A file's bytes, each text written into them as it comes (and let go). */
class FileBytes {
	private readonly chunks: Buffer[] = [];

	private chunk = Buffer.allocUnsafe(CHUNK_BYTES);

	private used = 0;

	constructor(first: string) {
		this.add(first);
	}

	add(text: string): void {
		// UTF-8 takes at most 3 bytes for each UTF-16 unit.
		if (this.used + text.length * 3 > this.chunk.length) {
			this.chunks.push(this.chunk.subarray(0, this.used));
			this.chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, text.length * 3));
			this.used = 0;
		}
		this.used += this.chunk.write(text, this.used, 'utf8');
	}

	done(last: string): Buffer {
		this.add(last);
		this.chunks.push(this.chunk.subarray(0, this.used));
		return this.chunks.length === 1 ? Buffer.from(this.chunks[0]) : Buffer.concat(this.chunks);
	}
}

/** The files of a statement, from its lines in the day's order, one file at a time (docs/statement.md, "Speed"). */
export class StatementFiles {
	private readonly row: (line: Line) => string;

	constructor(readonly options: FileOptions) {
		const { format } = options;
		const payee = payeeOf(options.payeeNames);
		const csvOptions = { dateFormat: options.dateFormat, payee };
		this.row =
			format === 'ofx'
				? (line) => ofxTransaction(line, payee)
				: (line) => CSV_FORMATS[format].row(line, csvOptions);
	}

	/** Whether a line of the day is a row of a file: it moved money, in a currency wanted. */
	wants(line: Pick<Line, 'amount' | 'currency'>): boolean {
		const { currency } = this.options;
		return line.amount !== 0 && line.currency !== '' && (!currency || line.currency === currency);
	}

	/** The file(s) of one currency from its lines in the day's order, each its name and bytes (a Xero file of more than 1,000 lines is in parts); an OFX file needs its LEDGERBAL (summary.ts, closingBalanceOf) and its ACCTID. */
	*filesOf(currency: string, order: DayOrder, accountId: string, closingBalance?: number) {
		const { day, format } = this.options;
		const rows = order.rowsOf(currency);
		const lines = order.linesOf(currency);
		const base = `statement-${day.day}-${currency}`;
		if (format === 'ofx') {
			if (closingBalance === undefined)
				throw new Error(`The OFX file of ${currency} needs its closing balance`);
			const { head, tail } = statementOfx({
				currency,
				accountId,
				from: new Date(day.start).toISOString(),
				to: new Date(day.end).toISOString(),
				closingBalance,
			});
			const bytes = new FileBytes(head);
			for (const line of lines) bytes.add(`\r\n${this.row(line)}`);
			yield {
				fileName: `${base}.ofx`,
				mimeType: 'application/x-ofx',
				data: bytes.done(tail),
				rows,
			};
			return;
		}
		// A CSV file: its header, each row (csv.ts) after a line break, a last line break; its name says its format.
		const { header, perFile, name } = CSV_FORMATS[format];
		let part: FileBytes | undefined;
		let inPart = 0;
		let number = 0;
		const file = (bytes: FileBytes) => {
			number++;
			const named = `${base}-${name}`;
			const fileName = rows > perFile ? `${named}-part${number}.csv` : `${named}.csv`;
			return { fileName, mimeType: 'text/csv', data: bytes.done('\r\n'), rows: inPart };
		};
		for (const line of lines) {
			part ??= new FileBytes(header);
			part.add(`\r\n${this.row(line)}`);
			if (++inPart < perFile) continue;
			yield file(part);
			part = undefined;
			inPart = 0;
		}
		if (part) yield file(part);
	}
}
