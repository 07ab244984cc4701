import { moneyFigures } from '../../service/money';
import type { FileLine } from './lines';

/**
 * The statement of one currency as an OFX 1.02 bank statement (docs/statement.md, "The files"),
 * written here, with no library: the format Xero, QuickBooks Online, Sage and Zoho Books import
 * without mapping columns. Each transaction's FITID is its lineKey, so a re-import skips what it
 * already has; the statement carries its currency (CURDEF) and the closing balance (LEDGERBAL), which
 * the OFX 1.02 DTD requires of every statement (STMTRS): a file is never written without it
 * (docs/statement.md, "The files"). Pure.
 */

/** Text inside an element: the SGML specials written as entities, line breaks as spaces. */
function ofxText(value: string, max?: number): string {
	const flat = value.replace(/[\r\n\t]+/g, ' ').trim();
	const cut = max !== undefined && flat.length > max ? flat.slice(0, max) : flat;
	return cut.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An OFX date-time in UTC: YYYYMMDDHHMMSS.XXX[0:GMT]. */
function ofxTime(iso: string): string {
	const digits = iso.replace(/[-:T]/g, '').slice(0, 14);
	return `${digits}.${iso.slice(20, 23) || '000'}[0:GMT]`;
}

interface OfxStatement {
	currency: string;
	/** The statement's first instant and the next day's (ISO, UTC). */
	from: string;
	to: string;
	/** The closing balance of the currency (LEDGERBAL, required: summary.ts, closingBalanceOf). */
	closingBalance: number;
}

const element = (name: string, value: string) => `<${name}>${value}</${name}>`;

/** One line as an OFX transaction (STMTTRN); `payee` names it. */
export function ofxTransaction(line: FileLine, payee: (line: FileLine) => string): string {
	return [
		'<STMTTRN>',
		element('TRNTYPE', line.amount < 0 ? 'DEBIT' : 'CREDIT'),
		element('DTPOSTED', ofxTime(line.time)),
		element('TRNAMT', moneyFigures(line.amount, line.currency)),
		element('FITID', ofxText(line.lineKey)),
		// OFX 1.02 allows 32 characters of NAME and 255 of MEMO.
		element('NAME', ofxText(payee(line) || line.reference || line.recordId, 32)),
		element('MEMO', ofxText(line.description, 255)),
		'</STMTTRN>',
	].join('\r\n');
}

/**
 * The OFX text of one currency's statement around its transactions: `head`, then each transaction
 * (ofxTransaction) after a line break, then `tail`; the transactions are written between them as they
 * come (files.ts), never all held as text.
 */
export function statementOfx(statement: OfxStatement): { head: string; tail: string } {
	const balance = ['<LEDGERBAL>', element('BALAMT', moneyFigures(statement.closingBalance, statement.currency)), element('DTASOF', ofxTime(statement.to)), '</LEDGERBAL>'];
	const head = [
		'OFXHEADER:100',
		'DATA:OFXSGML',
		'VERSION:102',
		'SECURITY:NONE',
		'ENCODING:UTF-8',
		'CHARSET:NONE',
		'COMPRESSION:NONE',
		'OLDFILEUID:NONE',
		'NEWFILEUID:NONE',
		'',
		'<OFX>',
		'<SIGNONMSGSRSV1>',
		'<SONRS>',
		'<STATUS>',
		element('CODE', '0'),
		element('SEVERITY', 'INFO'),
		'</STATUS>',
		element('DTSERVER', ofxTime(statement.to)),
		element('LANGUAGE', 'ENG'),
		'</SONRS>',
		'</SIGNONMSGSRSV1>',
		'<BANKMSGSRSV1>',
		'<STMTTRNRS>',
		element('TRNUID', '0'),
		'<STATUS>',
		element('CODE', '0'),
		element('SEVERITY', 'INFO'),
		'</STATUS>',
		'<STMTRS>',
		element('CURDEF', statement.currency),
		'<BANKACCTFROM>',
		element('BANKID', 'CRYPTOSETTLEMENT'),
		element('ACCTID', statement.currency),
		element('ACCTTYPE', 'CHECKING'),
		'</BANKACCTFROM>',
		'<BANKTRANLIST>',
		element('DTSTART', ofxTime(statement.from)),
		element('DTEND', ofxTime(statement.to)),
	].join('\r\n');
	const tail = [
		'</BANKTRANLIST>',
		...balance,
		'</STMTRS>',
		'</STMTTRNRS>',
		'</BANKMSGSRSV1>',
		'</OFX>',
	].join('\r\n');
	return { head, tail: `\r\n${tail}\r\n` };
}
