/**
 * Statement → Get, output `file` (docs/statement.md, "The files"), through n8n-core's engine against
 * the fake API: one item per currency that moved, each file named for its currency, in the three
 * formats. Each file is read back by an independent parser (csv-parse for the CSVs, node-ofx-parser
 * for the OFX) and every row compared with the day's lines, the currency and the closing balance.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import { parse as parseCsv } from 'csv-parse/sync';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { parse as parseOfx } from 'node-ofx-parser';
import { startFakeApi, type FakeApi, type SeededDay } from '../../../fake-api/src/server';
import { runNode } from '../../helpers/node';

const DAY = '2026-03-10';

let fakeApi: FakeApi;
let credentials: IDataObject;
let seeded: SeededDay;

async function get(parameters: IDataObject) {
	const result = await runNode(
		{ resource: 'statement', operation: 'get', day: DAY, ...parameters },
		{ credentials },
	);
	if (result.error) throw new Error(`${result.error.message} — ${result.error.description ?? ''}`);
	return result.items;
}

const fileText = (item: INodeExecutionData, property = 'data') =>
	Buffer.from(String(item.binary?.[property]?.data), 'base64').toString('utf8');
const upper = (balances: Record<string, number>) =>
	Object.fromEntries(Object.entries(balances).map(([c, v]) => [c.toUpperCase(), v]));

/** The day's lines that moved money, per currency, as Output `lines` gives them. */
async function movedLines() {
	const lines = (await get({ output: 'lines' }))
		.map((item) => item.json)
		.filter((line) => line.amount !== 0);
	const byCurrency: Record<string, IDataObject[]> = {};
	for (const line of lines) (byCurrency[String(line.currency)] ??= []).push(line);
	return byCurrency;
}

/** A fake API of its own for the describe block, with a seeded day of `records` records. */
function seededDay(records: number) {
	beforeAll(async () => {
		fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000 });
		credentials = sandboxCredentials(fakeApi);
		fakeApi.seedDay({ day: DAY, records });
	});
	afterAll(async () => await fakeApi.close());
}

describe('Statement → Get, output file: one file per currency, in the format accounting software imports', () => {
	let byCurrency: Record<string, IDataObject[]>;
	let payeeNames: Record<string, string>;

	beforeAll(async () => {
		fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000, requestLogLimit: 100_000 });
		credentials = sandboxCredentials(fakeApi);
		seeded = fakeApi.seedDay({ day: DAY, records: 60 });
		byCurrency = await movedLines();
		// The vendor of one External ID and the customer of one wallet label, as a payout sheet and a CRM know them.
		const payout = Object.values(byCurrency)
			.flat()
			.find((line) => line.externalId) as IDataObject;
		payeeNames = {
			[String(payout.externalId)]: 'Acme Supplies, Ltd',
			[`${DAY}-customer-1`]: 'Ada "the customer" Obi',
		};
	});
	afterAll(async () => await fakeApi.close());

	const payeeOf = (line: IDataObject) =>
		payeeNames[String(line.externalId)] ??
		payeeNames[String(line.walletLabel)] ??
		String(line.reference);

	it('Xero CSV: one item per currency that moved, each file named for it, every row the line (Date, Amount, Payee, Description, Reference)', async () => {
		const items = await get({ output: 'file', options: { dateFormat: 'DD/MM/YYYY', payeeNames } });
		expect(items.map((item) => item.json.currency)).toEqual(Object.keys(byCurrency).sort());
		expect(items.length).toBeGreaterThanOrEqual(2);
		for (const item of items) {
			const currency = String(item.json.currency);
			expect(item.binary?.data).toMatchObject({
				fileName: `statement-${DAY}-${currency}-xero.csv`,
				mimeType: 'text/csv',
			});
			const rows = parseCsv(fileText(item), { columns: true }) as Array<Record<string, string>>;
			expect(Object.keys(rows[0])).toEqual(['Date', 'Amount', 'Payee', 'Description', 'Reference']);
			expect(rows).toEqual(
				byCurrency[currency].map((line) => ({
					Date: '10/03/2026',
					Amount: Number(line.amount).toFixed(2),
					Payee: payeeOf(line),
					Description: line.description,
					Reference: line.lineKey,
				})),
			);
			expect(item.json.fileRows).toBe(rows.length);
		}
		const all = items.map((item) => fileText(item)).join('');
		expect(all).toContain('Acme Supplies, Ltd');
		expect(all).toContain('Ada ""the customer"" Obi');
	});

	it('QuickBooks CSV: Date, Description, Amount in that order, one date format', async () => {
		const items = await get({
			output: 'file',
			options: { fileFormat: 'quickbooksCsv', dateFormat: 'MM/DD/YYYY', payeeNames },
		});
		for (const item of items) {
			const currency = String(item.json.currency);
			const rows = parseCsv(fileText(item)) as string[][];
			expect(rows[0]).toEqual(['Date', 'Description', 'Amount']);
			expect(rows.slice(1)).toEqual(
				byCurrency[currency].map((line) => [
					'03/10/2026',
					`${payeeOf(line)}: ${String(line.description)} [${String(line.lineKey)}]`,
					Number(line.amount).toFixed(2),
				]),
			);
		}
	});

	it('OFX: per currency, FITID the lineKey, every transaction, the currency and the closing balance', async () => {
		const items = await get({
			output: 'file',
			options: { fileFormat: 'ofx', openingBalances: upper(seeded.openingBalances), payeeNames },
		});
		for (const item of items) {
			const currency = String(item.json.currency);
			expect(item.binary?.data).toMatchObject({ fileName: `statement-${DAY}-${currency}.ofx` });
			const ofx = parseOfx(fileText(item)) as { OFX: IDataObject };
			const statement = ((ofx.OFX.BANKMSGSRSV1 as IDataObject).STMTTRNRS as IDataObject)
				.STMTRS as IDataObject;
			expect(statement.CURDEF).toBe(currency);
			const list = (statement.BANKTRANLIST as IDataObject).STMTTRN;
			const transactions = (Array.isArray(list) ? list : [list]) as Array<Record<string, string>>;
			expect(
				transactions.map((t) => ({
					FITID: t.FITID,
					TRNAMT: t.TRNAMT,
					NAME: t.NAME,
					MEMO: t.MEMO,
					DTPOSTED: t.DTPOSTED.slice(0, 8),
				})),
			).toEqual(
				byCurrency[currency].map((line) => ({
					FITID: line.lineKey,
					TRNAMT: Number(line.amount).toFixed(2),
					NAME: payeeOf(line).slice(0, 32),
					MEMO: line.description,
					DTPOSTED: '20260310',
				})),
			);
			const closing = (item.json.closingBalances as Record<string, number>)[currency];
			expect(closing).toBeCloseTo(seeded.closingBalances[currency.toLowerCase() as 'ngn'], 2);
			expect(Number((statement.LEDGERBAL as IDataObject).BALAMT)).toBeCloseTo(closing, 2);
		}
	});

	it("File Currency gives that currency's file only; an unknown format or bad Payee Names is refused naming the field", async () => {
		const items = await get({ output: 'file', options: { fileCurrency: 'USD' } });
		expect(items.map((item) => item.json.currency)).toEqual(['USD']);
		const format = await runNode(
			{
				resource: 'statement',
				operation: 'get',
				day: DAY,
				output: 'file',
				options: { fileFormat: 'pdf' },
			},
			{ credentials },
		);
		expect(format.error?.message).toMatch(/fileFormat|File Format/);
		const names = await runNode(
			{
				resource: 'statement',
				operation: 'get',
				day: DAY,
				output: 'file',
				options: { payeeNames: '["x"]' },
			},
			{ credentials },
		);
		expect(names.error?.message).toMatch(/payeeNames|Payee Names/);
	});
});

describe('a reference that is also a name every JavaScript object has', () => {
	seededDay(40);

	it('is its own Payee when Payee Names does not name it (External IDs "constructor" and "toString")', async () => {
		const payouts = fakeApi.state.withdrawals.filter(
			(withdrawal) => withdrawal.externalId && String(withdrawal.createdAt).startsWith(DAY),
		);
		expect(payouts.length).toBeGreaterThanOrEqual(2);
		payouts[0].externalId = 'constructor';
		payouts[1].externalId = 'toString';
		const rows = (
			await get({ output: 'file', options: { payeeNames: { 'someone-else': 'Acme' } } })
		).flatMap(
			(item) => parseCsv(fileText(item), { columns: true }) as Array<Record<string, string>>,
		);
		for (const externalId of ['constructor', 'toString'])
			expect(rows.filter((row) => row.Payee === externalId).length).toBeGreaterThan(0);
		expect(rows.some((row) => row.Payee.includes('function'))).toBe(false);
	});
});

describe('Xero CSV beyond 1,000 lines', () => {
	seededDay(1_500);

	it('goes on in further files of at most 1,000 lines each (data, data2, …), every line once', async () => {
		const byCurrency = await movedLines();
		const [currency, lines] = Object.entries(byCurrency).sort(
			([, a], [, b]) => b.length - a.length,
		)[0];
		expect(lines.length).toBeGreaterThan(1000);
		const [item] = await get({ output: 'file', options: { fileCurrency: currency } });
		const properties = Object.keys(item.binary ?? {});
		expect(properties).toEqual(['data', 'data2'].slice(0, Math.ceil(lines.length / 1000)));
		const rows = properties.flatMap((property) => {
			const parsed = parseCsv(fileText(item, property), { columns: true }) as Array<
				Record<string, string>
			>;
			expect(parsed.length).toBeLessThanOrEqual(1000);
			return parsed;
		});
		expect(rows.map((row) => row.Reference)).toEqual(lines.map((line) => line.lineKey));
		expect(item.json.fileNames).toEqual(
			properties.map((_, index) => `statement-${DAY}-${currency}-xero-part${index + 1}.csv`),
		);
	});
});

describe('lines of several records at the same millisecond', () => {
	seededDay(60);

	it('are in the file in the order of their lineKeys, as Output Lines gives them, whatever order the list read them in', async () => {
		// Every deposit of the day created at the same instant: their lines tie on time, so only their keys order them.
		const instant = `${DAY}T12:00:00.000Z`;
		const { trades } = fakeApi.state;
		const onTheDay = trades.filter((trade) => String(trade.createdAt).startsWith(DAY)).reverse();
		for (const trade of onTheDay) {
			if (trade.updatedAt === trade.createdAt) trade.updatedAt = instant;
			trade.createdAt = instant;
		}
		// Listed (and read) in the reverse order of their ids, so the read order is not the keys' order.
		trades.splice(
			0,
			trades.length,
			...trades.filter((trade) => !onTheDay.includes(trade)),
			...onTheDay,
		);
		const byCurrency = await movedLines();
		for (const item of await get({ output: 'file' })) {
			const lines = byCurrency[String(item.json.currency)];
			const rows = parseCsv(fileText(item), { columns: true }) as Array<Record<string, string>>;
			expect(rows.map((row) => row.Reference)).toEqual(lines.map((line) => line.lineKey));
		}
		// The tie is real: lines of several records at that instant, listed in an order that is not their keys'.
		const tied = Object.values(byCurrency)
			.flat()
			.filter((line) => line.time === instant);
		const readOrder = onTheDay
			.map((trade) => `deposit:${String(trade.id)}`)
			.filter((key) => tied.some((line) => line.lineKey === key));
		expect(readOrder.length).toBeGreaterThan(2);
		expect(readOrder).not.toEqual([...readOrder].sort());
	});
});
