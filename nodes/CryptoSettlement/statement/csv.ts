import type { Line } from './lines';

/**
 * The statement as a bank-statement CSV file (docs/statement.md, "The CSV file"): one row per line
 * that moved money, in the column layout accounting software imports (Date, Amount, Payee,
 * Description, Reference), plus the line's Currency. Pure.
 */

export const CSV_COLUMNS = ['Date', 'Amount', 'Payee', 'Description', 'Reference', 'Currency'] as const;

/**
 * One cell: quoted when it holds a comma, quote or line break; text that a spreadsheet would run as
 * a formula (= + - @, tab, carriage return first) gets a leading apostrophe. Service data (labels,
 * reasons) is not trusted.
 */
export function cell(value: string): string {
	const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
	return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The lines that moved money (amount not 0), optionally of one currency, as CSV text (CRLF rows, header first). */
export function statementCsv(lines: Line[], currency?: string): string {
	const rows = [CSV_COLUMNS.join(',')];
	for (const line of lines) {
		if (line.amount === 0 || (currency && line.currency !== currency)) continue;
		rows.push(
			[
				line.time.slice(0, 10),
				line.amount.toFixed(2),
				cell(line.reference || line.recordId),
				cell(line.description),
				cell(line.lineKey),
				line.currency,
			].join(','),
		);
	}
	return `${rows.join('\r\n')}\r\n`;
}
