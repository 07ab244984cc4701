/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions, no-console -- test code, outside the scanned folders: it runs libofx's ofxdump and says when it is absent */
/**
 * Every OFX file is valid OFX 1.02 (docs/statement.md, "The files"; issue #69 point 6), checked by an
 * independent parser that validates against the DTD: libofx's ofxdump (Debian package `ofx`, which
 * .ci/run installs). Through n8n-core's engine against a local service: with the service's balances,
 * without them but with Opening Balances (LEDGERBAL = opening + the day's net), and with neither (the
 * currency's file item fails, naming the currency and what is missing; per currency under Continue
 * On Fail). The test first proves ofxdump refuses a file without LEDGERBAL, so it can fail. A range's
 * file (Period Range, three seeded days) is valid too, and what ofxdump reads of it adds up, day by
 * day, to the summary's balances.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { runNode, serversClosedAfterEach } from '../../helpers/node';
import { localService } from '../../helpers/local-service';
import { startFakeApi } from '../../../fake-api/src/server';
import { parse as parseOfx } from 'node-ofx-parser';

const DAY = '2026-03-10';
const at = (minutes: number) =>
	new Date(Date.parse(`${DAY}T00:00:00Z`) + minutes * 60_000).toISOString();
const servers = serversClosedAfterEach();
const HAS_OFXDUMP = spawnSync('sh', ['-c', 'command -v ofxdump']).status === 0;
if (!HAS_OFXDUMP)
	console.warn(
		'ofx-dtd.test.ts: SKIPPED, ofxdump is not installed here (Debian: apt-get install -y ofx); .ci/run installs it, so CI validates',
	);
const withOfxdump = HAS_OFXDUMP ? describe : describe.skip;

/** ofxdump's verdict on an OFX text: its DTD errors (empty when valid). */
function ofxErrors(text: string): string[] {
	const dir = mkdtempSync(join(tmpdir(), 'ofx-'));
	try {
		const file = join(dir, 'statement.ofx');
		writeFileSync(file, text);
		const run = spawnSync('ofxdump', [file], { encoding: 'utf8' });
		const errors = `${run.stdout}\n${run.stderr}`
			.split('\n')
			.filter((line) => /LibOFX ERROR|:E:/.test(line));
		return run.status === 0 ? errors : [...errors, `ofxdump exited ${String(run.status)}`];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** What ofxdump read of a valid file: its ledger balance and each transaction's day (UTC), amount in cents and FITID. */
function ofxdumpRead(text: string): {
	ledgerCents: number;
	transactions: Array<{ day: string; cents: number; fitid: string }>;
} {
	const dir = mkdtempSync(join(tmpdir(), 'ofx-'));
	try {
		const file = join(dir, 'statement.ofx');
		writeFileSync(file, text);
		const out = spawnSync('ofxdump', [file], {
			encoding: 'utf8',
			env: { ...process.env, TZ: 'UTC' },
		}).stdout;
		const cents = (figure: string) => Math.round(Number(figure) * 100);
		const transactions = out
			.split('ofx_proc_transaction():')
			.slice(1)
			.map((block) => ({
				day: new Date(`${/Date posted: (.*)/.exec(block)?.[1]}`.replace(/ UTC$/, ' GMT'))
					.toISOString()
					.slice(0, 10),
				cents: cents(String(/Total money amount: (\S+)/.exec(block)?.[1])),
				fitid: String(/for this transaction: (\S+)/.exec(block)?.[1]),
			}));
		return { ledgerCents: cents(String(/Ledger balance: (\S+)/.exec(out)?.[1])), transactions };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const bank = (id: string, currency: string, payoutAmount: number, fee: number) => ({
	id,
	externalId: `x-${id}`,
	status: 'completed',
	amount: 1,
	payoutAmount,
	fee,
	currency,
	bankName: 'Access Bank',
	accountNumber: '0123456789',
	createdAt: at(60),
});
const WITHDRAWALS = [bank('n1', 'ngn', 5000, 50), bank('u1', 'usd', 20, 1.5)];

async function service(
	account: IDataObject,
	lists: {
		withdrawals?: IDataObject[];
		transactions?: IDataObject[];
		wallets?: IDataObject[];
	} = {},
) {
	const server = await localService((seen) => {
		const listed =
			seen.path === '/v1/payments/withdrawals'
				? (lists.withdrawals ?? WITHDRAWALS)
				: seen.path === '/v1/trades/transactions'
					? (lists.transactions ?? [])
					: seen.path === '/v1/trades/wallets'
						? (lists.wallets ?? [])
						: undefined;
		if (!listed) return { status: 200, body: { success: true, data: account } };
		return {
			status: 200,
			body: {
				success: true,
				message: 'ok',
				data: listed,
				meta: { page: 1, pages: 1, hasNextPage: false, totalDocs: listed.length },
			},
		};
	});
	servers.push(server);
	return { baseUrl: server.baseUrl };
}

const fileText = (item: INodeExecutionData) =>
	Buffer.from(String(item.binary?.data?.data), 'base64').toString('utf8');
const ledgerBalance = (text: string) => /<LEDGERBAL>\r\n<BALAMT>([^<]*)<\/BALAMT>/.exec(text)?.[1];

withOfxdump(
	'every OFX file is valid OFX 1.02, with its LEDGERBAL (#69 point 6), by ofxdump against the DTD',
	() => {
		it('ofxdump refuses the file without LEDGERBAL (the file written before when the service stated no balances)', async () => {
			const run = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx' },
				},
				{ credentials: await service({ fiatWallets: { ngn: 100_000, usd: 500 } }) },
			);
			expect(run.error).toBeUndefined();
			const text = fileText(run.items[0]);
			expect(ofxErrors(text)).toEqual([]);
			const without = text.replace(/<LEDGERBAL>[\s\S]*<\/LEDGERBAL>\r\n/, '');
			expect(without).not.toContain('LEDGERBAL');
			expect(ofxErrors(without).join('\n')).toMatch(/end tag for "STMTRS" which is not finished/);
		});

		it("with the service's balances: each currency's file is valid, LEDGERBAL the closing balance", async () => {
			const run = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx' },
				},
				{ credentials: await service({ fiatWallets: { ngn: 100_000, usd: 500 } }) },
			);
			expect(run.error).toBeUndefined();
			expect(
				run.items.map((item) => [
					item.json.currency,
					ledgerBalance(fileText(item)),
					ofxErrors(fileText(item)),
				]),
			).toEqual([
				['NGN', '100000.00', []],
				['USD', '500.00', []],
			]);
		});

		it("the service states no balances, Opening Balances are given: LEDGERBAL is opening + the day's net, and each file is valid", async () => {
			const credentials = await service({});
			const run = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx', openingBalances: { NGN: 10_000, USD: 100 } },
				},
				{ credentials },
			);
			expect(run.error).toBeUndefined();
			expect(
				run.items.map((item) => [
					item.json.currency,
					ledgerBalance(fileText(item)),
					ofxErrors(fileText(item)),
				]),
			).toEqual([
				['NGN', '4950.00', []],
				['USD', '78.50', []],
			]);
		});

		it('no balance stated and none given: the item fails naming the currency and what is missing; under Continue On Fail only that currency fails', async () => {
			const credentials = await service({});
			const failed = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx' },
				},
				{ credentials },
			);
			expect(failed.error?.message).toBe(
				'The OFX file of NGN cannot be written: OFX requires its closing balance (LEDGERBAL), and the service states no balances and no Opening Balances were given, so the closing balance of NGN is not known',
			);
			const partly = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx', openingBalances: { NGN: 10_000 } },
				},
				{ credentials, continueOnFail: true },
			);
			expect(partly.error).toBeUndefined();
			expect(partly.items).toHaveLength(2);
			const [ngn, usd] = partly.items;
			expect(ngn.json.currency).toBe('NGN');
			expect(ofxErrors(fileText(ngn))).toEqual([]);
			expect(usd.binary).toBeUndefined();
			expect(String(usd.json.error)).toBe(
				'The OFX file of USD cannot be written: OFX requires its closing balance (LEDGERBAL), and no Opening Balance was given for USD (Opening Balances has NGN), so its closing balance is not known',
			);
		});
	},
);

/** Each transaction of an OFX file as node-ofx-parser reads it, and the statement's ACCTID. */
function parsedOfx(text: string) {
	const ofx = parseOfx(text) as { OFX: IDataObject };
	const statement = ((ofx.OFX.BANKMSGSRSV1 as IDataObject).STMTTRNRS as IDataObject)
		.STMTRS as IDataObject;
	const list = (statement.BANKTRANLIST as IDataObject).STMTTRN;
	const transactions = (Array.isArray(list) ? list : [list]) as Array<Record<string, string>>;
	return { accountId: (statement.BANKACCTFROM as IDataObject).ACCTID, transactions, statement };
}

withOfxdump(
	'OFX an accounting import keeps apart and types (#71 point 2), valid by ofxdump',
	() => {
		const ACCOUNT = { id: '650a1b2c3d4e5f6a7b8c9d0e', fiatWallets: { ngn: 100_000, usd: 500 } };
		const WALLET = { id: 'w1', label: 'shop-customer-1', address: 'TAddr1', currency: 'ngn' };
		// A deposit created at 01:00 and credited at 01:30 (its updatedAt), a payout refunded at 09:00, a crypto payout.
		const lists = {
			wallets: [WALLET],
			transactions: [
				{
					id: 't1',
					wallet: 'w1',
					status: 'completed',
					currency: 'ngn',
					amount: 74_625,
					feeAmount: 375,
					amountReceived: 50,
					cryptoReceived: '50',
					rate: 1500,
					createdAt: at(60),
					updatedAt: at(90),
				},
			],
			withdrawals: [
				{
					...bank('n1', 'ngn', 5000, 50),
					status: 'reversed',
					reason: 'account closed',
					updatedAt: at(540),
				},
				{
					id: 'u1',
					externalId: 'x-u1',
					status: 'completed',
					amount: 12.5,
					payoutAmount: 11,
					fee: 1.5,
					cryptoAmount: '12.5',
					token: 'USDT',
					network: 'TRC20',
					currency: 'usd',
					walletAddress: 'TRecipient1',
					createdAt: at(120),
				},
			],
		};

		it('TRNTYPE by what the line is (a fee FEE, money in CREDIT, a payout DEBIT), DTPOSTED when the money moved, ACCTID the service account and currency', async () => {
			const run = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx' },
				},
				{ credentials: await service(ACCOUNT, lists) },
			);
			expect(run.error).toBeUndefined();
			const files = Object.fromEntries(
				run.items.map((item) => [String(item.json.currency), fileText(item)]),
			);
			for (const text of Object.values(files)) expect(ofxErrors(text)).toEqual([]);
			const ngn = parsedOfx(files.NGN);
			const usd = parsedOfx(files.USD);
			expect([ngn.accountId, usd.accountId]).toEqual(
				['1b2c3d4e5f6a7b8c9d0e-NGN', '1b2c3d4e5f6a7b8c9d0e-USD'].map((id) =>
					id.slice(id.length - 22),
				),
			);
			expect(String(ngn.accountId).length).toBeLessThanOrEqual(22);
			// BANKID is A-9 in OFX 1.02 (the DTD does not count characters, so ofxdump would not say): the service's name in 9.
			expect(
				[ngn.statement, usd.statement].map(
					(statement) => (statement.BANKACCTFROM as IDataObject).BANKID,
				),
			).toEqual(['CRYPTOSET', 'CRYPTOSET']);
			expect(ngn.transactions.map((t) => [t.FITID, t.TRNTYPE, t.TRNAMT, t.DTPOSTED])).toEqual(
				[
					['deposit:t1', 'CREDIT', '75000.00', '20260310013000.000[0:GMT]'],
					['depositFee:t1', 'FEE', '-375.00', '20260310013000.000[0:GMT]'],
					['bankWithdrawal:n1', 'DEBIT', '-5000.00', '20260310010000.000[0:GMT]'],
					['withdrawalFee:n1', 'FEE', '-50.00', '20260310010000.000[0:GMT]'],
					['refund:n1', 'CREDIT', '5050.00', '20260310090000.000[0:GMT]'],
				].sort((a, b) => (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : a[0] < b[0] ? -1 : 1)),
			);
			expect(usd.transactions.map((t) => [t.FITID, t.TRNTYPE, t.TRNAMT])).toEqual([
				['cryptoWithdrawal:u1', 'DEBIT', '-11.00'],
				['withdrawalFee:u1', 'FEE', '-1.50'],
			]);
			// The service states no available balance (fiatWallets is one figure per currency): no AVAILBAL, which the DTD allows.
			expect(files.NGN).not.toContain('AVAILBAL');
		});

		it('OFX Account ID overrides ACCTID, {currency} giving each file its own; without it, File Currency all is refused before any request', async () => {
			const credentials = await service(ACCOUNT, lists);
			const run = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx', ofxAccountId: 'ACME-{currency}' },
				},
				{ credentials },
			);
			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => parsedOfx(fileText(item)).accountId)).toEqual([
				'ACME-NGN',
				'ACME-USD',
			]);
			const one = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx', fileCurrency: 'NGN', ofxAccountId: '0123456789' },
				},
				{ credentials },
			);
			expect(
				one.items.map((item) => [
					item.json.currency,
					parsedOfx(fileText(item)).accountId,
					ofxErrors(fileText(item)),
				]),
			).toEqual([['NGN', '0123456789', []]]);
			const refused = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx', ofxAccountId: '0123456789' },
				},
				{ credentials },
			);
			expect(refused.error?.message).toMatch(/ofxAccountId|OFX Account ID/);
			expect(`${refused.error?.message} ${refused.error?.description ?? ''}`).toMatch(
				/\{currency\}/,
			);
			const long = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx', ofxAccountId: 'A-very-long-account-number-{currency}' },
				},
				{ credentials },
			);
			expect(`${long.error?.message} ${long.error?.description ?? ''}`).toMatch(/22/);
		});

		it("without the service account's id, ACCTID is the environment and the currency", async () => {
			const run = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'file',
					options: { fileFormat: 'ofx' },
				},
				{ credentials: await service({ fiatWallets: { ngn: 100_000, usd: 500 } }, lists) },
			);
			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => parsedOfx(fileText(item)).accountId)).toEqual([
				'SANDBOX-NGN',
				'SANDBOX-USD',
			]);
		});
	},
);

withOfxdump("a range's OFX file (Period Range, #71), valid by ofxdump and read back by it", () => {
	it("each currency's file of three days: valid, its transactions on the days they moved, adding up to LEDGERBAL minus the opening balance, each day's to that day's closing minus its opening", async () => {
		const DAYS = ['2026-03-09', '2026-03-10', '2026-03-11'];
		const fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000 });
		try {
			const seeded = ['2026-03-08', ...DAYS, '2026-03-12'].map((day) =>
				fakeApi.seedDay({ day, records: 40 }),
			);
			const opening = Object.fromEntries(
				Object.entries(seeded[1].openingBalances).map(([c, v]) => [c.toUpperCase(), v]),
			);
			const credentials = sandboxCredentials(fakeApi);
			const run = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					period: 'range',
					from: DAYS[0],
					to: DAYS[2],
					output: 'file',
					options: { fileFormat: 'ofx', openingBalances: opening },
				},
				{ credentials },
			);
			expect(run.error).toBeUndefined();
			expect(run.items.length).toBeGreaterThan(0);
			for (const item of run.items) {
				const currency = String(item.json.currency);
				const text = fileText(item);
				expect([currency, ofxErrors(text)]).toEqual([currency, []]);
				const { ledgerCents, transactions } = ofxdumpRead(text);
				const days = item.json.days as Array<{
					day: string;
					openingBalances: Record<string, number>;
					closingBalances: Record<string, number>;
				}>;
				const toCents = (amount: number) => Math.round(amount * 100);
				expect(ledgerCents).toBe(toCents(days[2].closingBalances[currency]));
				expect(transactions.reduce((sum, t) => sum + t.cents, 0)).toBe(
					ledgerCents - toCents(opening[currency]),
				);
				expect(new Set(transactions.map((t) => t.fitid)).size).toBe(transactions.length);
				expect(transactions.length).toBe(item.json.fileRows);
				for (const day of days) {
					const moved = transactions
						.filter((t) => t.day === day.day)
						.reduce((sum, t) => sum + t.cents, 0);
					expect([day.day, currency, moved]).toEqual([
						day.day,
						currency,
						toCents(day.closingBalances[currency]) - toCents(day.openingBalances[currency]),
					]);
				}
				expect(transactions.every((t) => DAYS.includes(t.day))).toBe(true);
			}
		} finally {
			await fakeApi.close();
		}
	});
});
