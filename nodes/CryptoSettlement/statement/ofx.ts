import { moneyFigures } from '../../service/money';
import type { Line, LineKind } from './lines';

/** One currency's statement as an OFX 1.02 bank statement, written with no library (docs/statement.md, "The files"). Pure. */

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

/** Each line's TRNTYPE by what the line is (OFX 1.02, 11.4.2.3; docs/statement.md, "The files"). */
const OFX_TRNTYPE: Readonly<Record<LineKind, 'CREDIT' | 'DEBIT' | 'FEE'>> = {
	deposit: 'CREDIT',
	depositFee: 'FEE',
	autoSettlement: 'DEBIT',
	cryptoWithdrawal: 'DEBIT',
	bankWithdrawal: 'DEBIT',
	withdrawalFee: 'FEE',
	refund: 'CREDIT',
};

/**
 * The BANKID of every file: OFX 1.02 allows 9 characters, so the service's name is cut to its
 * first nine, the same in every file and every release (docs/statement.md, "The files").
 */
const OFX_BANKID = 'CRYPTOSET';

/** The most characters of an ACCTID (OFX 1.02: A-22). */
export const OFX_ACCTID_MAX = 22;

/** The ACCTID `<account>-<CURRENCY>` (docs/statement.md, "The files"): letters and digits, its last ones when past OFX's 22. */
export function ofxAccountIdOf(account: string, currency: string): string {
	const room = OFX_ACCTID_MAX - currency.length - 1;
	const kept = account.replace(/[^A-Za-z0-9]/g, '') || 'ACCOUNT';
	return `${kept.length > room ? kept.slice(kept.length - room) : kept}-${currency}`;
}

interface OfxStatement {
	currency: string;
	accountId: string;
	/** The statement's first instant and the next day's (ISO, UTC). */
	from: string;
	to: string;
	closingBalance: number;
}

const element = (name: string, value: string) => `<${name}>${value}</${name}>`;
const STATUS_OK = ['<STATUS>', element('CODE', '0'), element('SEVERITY', 'INFO'), '</STATUS>'];

/** One line as an OFX transaction (STMTTRN); `payee` names it. */
export function ofxTransaction(line: Line, payee: (line: Line) => string): string {
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

/** The OFX text around the transactions, which files.ts writes between `head` and `tail` as they come, each after a line break. */
export function statementOfx(statement: OfxStatement): { head: string; tail: string } {
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
		...STATUS_OK,
		element('DTSERVER', ofxTime(statement.to)),
		element('LANGUAGE', 'ENG'),
		'</SONRS>',
		'</SIGNONMSGSRSV1>',
		'<BANKMSGSRSV1>',
		'<STMTTRNRS>',
		element('TRNUID', '0'),
		...STATUS_OK,
		'<STMTRS>',
		element('CURDEF', statement.currency),
		'<BANKACCTFROM>',
		element('BANKID', OFX_BANKID),
		element('ACCTID', ofxText(statement.accountId, OFX_ACCTID_MAX)),
		element('ACCTTYPE', 'CHECKING'),
		'</BANKACCTFROM>',
		'<BANKTRANLIST>',
		element('DTSTART', ofxTime(statement.from)),
		element('DTEND', ofxTime(statement.to)),
	].join('\r\n');
	const tail = [
		'</BANKTRANLIST>',
		'<LEDGERBAL>',
		element('BALAMT', moneyFigures(statement.closingBalance, statement.currency)),
		element('DTASOF', ofxTime(statement.to)),
		'</LEDGERBAL>',
		'</STMTRS>',
		'</STMTTRNRS>',
		'</BANKMSGSRSV1>',
		'</OFX>',
	].join('\r\n');
	return { head, tail: `\r\n${tail}\r\n` };
}
