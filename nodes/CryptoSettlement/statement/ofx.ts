import { moneyFigures } from '../../service/money';
import type { FileLine, LineKind } from './lines';

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

/**
 * Each line's TRNTYPE, by what the line is (OFX 1.02, 11.4.2.3: the fees FEE, what came in CREDIT,
 * what went out DEBIT), so an accounting import can type and rule them apart from the sign alone.
 */
const OFX_TRNTYPE: Readonly<Record<LineKind, 'CREDIT' | 'DEBIT' | 'FEE'>> = {
	deposit: 'CREDIT',
	depositFee: 'FEE',
	autoSettlement: 'DEBIT',
	cryptoWithdrawal: 'DEBIT',
	bankWithdrawal: 'DEBIT',
	withdrawalFee: 'FEE',
	refund: 'CREDIT',
};

/** The most characters of an ACCTID (OFX 1.02: A-22). */
export const OFX_ACCTID_MAX = 22;

/**
 * The ACCTID of one currency's statement (docs/statement.md, "The files"): the service account and the
 * currency, `<account>-<CURRENCY>`, stable from run to run and never a secret. `account` is the
 * integration's id the service answers (`GET /users/fetch-integration`, its `id`), else the
 * credential's environment (`SANDBOX`, `PRODUCTION`); only letters and digits are kept, and its last
 * characters when the whole would pass OFX's 22.
 */
export function ofxAccountIdOf(account: string, currency: string): string {
	const room = OFX_ACCTID_MAX - currency.length - 1;
	const kept = account.replace(/[^A-Za-z0-9]/g, '') || 'ACCOUNT';
	return `${kept.length > room ? kept.slice(kept.length - room) : kept}-${currency}`;
}

interface OfxStatement {
	currency: string;
	/** The account's ACCTID (ofxAccountIdOf, or the workflow's Ofx Account ID). */
	accountId: string;
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
		element('TRNTYPE', OFX_TRNTYPE[line.kind] ?? (line.amount < 0 ? 'DEBIT' : 'CREDIT')),
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
		element('ACCTID', ofxText(statement.accountId, OFX_ACCTID_MAX)),
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
