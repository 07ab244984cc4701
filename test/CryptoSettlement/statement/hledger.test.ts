/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- test code, outside the scanned folders: it runs hledger and says when it is absent */
/**
 * The CSV files as an accountant's own tool reads them (docs/statement.md, "The files"; issue #71):
 * Debian's hledger (package `hledger`, which .ci/run installs) imports each Xero and QuickBooks file
 * with a rules file written from Xero's and QuickBooks' documented layouts, not from this node's code.
 * Through n8n-core's engine against the fake API, three seeded days taken as one range and day by
 * day: hledger's total of each file's movements is its closing minus its opening balance to the
 * cent; read with the opening balance, hledger's balance at the end of each day of the range is that
 * day's closing balance in the summary's `days`, each day opening with the day before's closing (the
 * days chain); and the three day files add up to the range's file.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { startFakeApi, type FakeApi, type SeededDay } from '../../../fake-api/src/server';
import { runNode } from '../../helpers/node';

const DAYS = ['2026-03-09', '2026-03-10', '2026-03-11'];
const AFTER = '2026-03-12';
const HAS_HLEDGER = spawnSync('sh', ['-c', 'command -v hledger']).status === 0;
if (!HAS_HLEDGER)
	console.warn(
		'hledger.test.ts: SKIPPED, hledger is not installed here (Debian: apt-get install -y hledger); .ci/run installs it, so CI imports the files',
	);
const withHledger = HAS_HLEDGER ? describe : describe.skip;

/**
 * hledger CSV rules from each package's import layout. Xero's precoded statement CSV: Date, Amount,
 * Payee, Description, Reference (Xero's help, "Import a bank statement in CSV format"); QuickBooks
 * Online's three-column upload: Date, Description, Amount (Intuit, "Format CSV files in Excel to get
 * bank transactions into QuickBooks"). Dates in the format the file was asked in.
 */
const RULES = {
	xeroCsv: (dateFormat: string) => [
		'skip 1',
		'fields date, amount, payee, description, reference',
		`date-format ${dateFormat}`,
		'description %payee | %description',
		'code %reference',
	],
	quickbooksCsv: (dateFormat: string) => [
		'skip 1',
		'fields date, description, amount',
		`date-format ${dateFormat}`,
	],
} as const;
const DATE_FORMATS = {
	'YYYY-MM-DD': '%Y-%m-%d',
	'DD/MM/YYYY': '%d/%m/%Y',
	'MM/DD/YYYY': '%m/%d/%Y',
} as const;
const ACCOUNT = 'assets:crypto-settlement';

let fakeApi: FakeApi;
let credentials: IDataObject;
const seeded: Record<string, SeededDay> = {};
const upper = (balances: Record<string, number>) =>
	Object.fromEntries(Object.entries(balances).map(([c, v]) => [c.toUpperCase(), v]));
const fileText = (item: INodeExecutionData) =>
	Buffer.from(String(item.binary?.data?.data), 'base64').toString('utf8');
/** Cents, so sums compare exactly. */
const cents = (amount: unknown) => Math.round(Number(amount) * 100);

async function get(parameters: IDataObject) {
	const result = await runNode(
		{ resource: 'statement', operation: 'get', ...parameters },
		{ credentials },
	);
	if (result.error) throw new Error(`${result.error.message} — ${result.error.description ?? ''}`);
	return result.items;
}

/** hledger's `balance` of the account as CSV rows, the file imported with `rules` (and `journal` before it, when given). */
function hledger(
	csv: string,
	rules: string[],
	currency: string,
	args: string[],
	journal?: string,
): string[][] {
	const dir = mkdtempSync(join(tmpdir(), 'hledger-'));
	try {
		writeFileSync(join(dir, 'statement.csv'), csv);
		writeFileSync(
			join(dir, 'statement.csv.rules'),
			[
				...rules,
				`currency ${currency}`,
				`account1 ${ACCOUNT}`,
				'account2 equity:unreconciled',
				'',
			].join('\n'),
		);
		const files = ['-f', join(dir, 'statement.csv')];
		if (journal !== undefined) {
			writeFileSync(join(dir, 'opening.journal'), journal);
			files.unshift('-f', join(dir, 'opening.journal'));
		}
		const run = spawnSync('hledger', [...files, 'balance', ACCOUNT, '-O', 'csv', ...args], {
			encoding: 'utf8',
		});
		if (run.status !== 0) throw new Error(`hledger failed: ${run.stderr}`);
		return run.stdout
			.trim()
			.split('\n')
			.map((row) => row.split(',').map((cell) => cell.replace(/^"|"$/g, '')));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** An hledger amount (`NGN-35950.00`, `0`) in cents. */
const amountCents = (text: string) => cents(text.replace(/^[A-Z]+/, '') || 0);

/** The file's total movement, by hledger. */
const movedCents = (csv: string, rules: string[], currency: string) =>
	amountCents(hledger(csv, rules, currency, []).find((row) => row[0] === ACCOUNT)?.[1] ?? '0');

/** hledger's balance at the end of each day (`--daily --historical`), the file read after an opening entry. */
function endOfDayCents(
	csv: string,
	rules: string[],
	currency: string,
	opening: number,
): Record<string, number> {
	const journal = `${DAYS[0]} opening balance\n    ${ACCOUNT}    ${currency}${opening.toFixed(2)}\n    equity:opening\n`;
	const [header, row] = hledger(
		csv,
		rules,
		currency,
		['--daily', '--historical', '-b', DAYS[0], '-e', AFTER],
		journal,
	);
	return Object.fromEntries(
		header.slice(1).map((column, index) => [column, amountCents(row[index + 1])]),
	);
}

withHledger(
	"the CSV files imported by hledger with rules from Xero's and QuickBooks' layouts",
	() => {
		let range: IDataObject;
		let opening: Record<string, number>;

		beforeAll(async () => {
			fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000, requestLogLimit: 100_000 });
			credentials = sandboxCredentials(fakeApi);
			for (const day of ['2026-03-08', ...DAYS, AFTER])
				seeded[day] = fakeApi.seedDay({ day, records: 40 });
			// A payout of the 9th refunded on the 10th: a movement of one day from a record of the day before.
			const reversed = fakeApi.state.withdrawals.find(
				(w) => w.createdAt.startsWith(DAYS[0]) && w.status === 'reversed',
			);
			if (!reversed) throw new Error('no reversed payout seeded on the 9th');
			reversed.updatedAt = `${DAYS[1]}T01:00:00.000Z`;
			opening = upper(seeded[DAYS[0]].openingBalances);
			[range] = (
				await get({
					period: 'range',
					from: DAYS[0],
					to: DAYS[2],
					output: 'summary',
					options: { openingBalances: opening },
				})
			).map((item) => item.json);
			expect((range.balanceCheck as IDataObject).result).toBe('balanced');
		});
		afterAll(async () => await fakeApi.close());

		it.each([
			['xeroCsv', 'YYYY-MM-DD'],
			['xeroCsv', 'DD/MM/YYYY'],
			['quickbooksCsv', 'MM/DD/YYYY'],
		] as const)(
			"%s (%s), the range: each file moves its closing minus its opening to the cent, and hledger's end of each day is that day's closing",
			async (format, dateFormat) => {
				const items = await get({
					period: 'range',
					from: DAYS[0],
					to: DAYS[2],
					output: 'file',
					options: { fileFormat: format, dateFormat, openingBalances: opening },
				});
				const rules = [...RULES[format](DATE_FORMATS[dateFormat])];
				const days = range.days as Array<{
					day: string;
					openingBalances: Record<string, number>;
					closingBalances: Record<string, number>;
				}>;
				expect(items.map((item) => item.json.currency).sort()).toEqual(
					Object.keys(range.net as IDataObject).sort(),
				);
				for (const item of items) {
					const currency = String(item.json.currency);
					const csv = fileText(item);
					const closing = (range.closingBalances as Record<string, number>)[currency];
					expect([currency, movedCents(csv, rules, currency)]).toEqual([
						currency,
						cents(closing) - cents(opening[currency]),
					]);
					// The days chain: each opens with the day before's closing, and hledger's running balance ends each day on it.
					for (const [index, day] of days.entries()) {
						expect(day.openingBalances[currency]).toBe(
							index === 0 ? opening[currency] : days[index - 1].closingBalances[currency],
						);
					}
					const ends = endOfDayCents(csv, rules, currency, opening[currency]);
					expect(Object.values(ends)).toEqual(
						days.map((day) => cents(day.closingBalances[currency])),
					);
				}
			},
		);

		it.each(['xeroCsv', 'quickbooksCsv'] as const)(
			"%s, day by day: each day's file moves its closing minus its opening, the next day opens on it, and the days add up to the range",
			async (format) => {
				const rules = [...RULES[format]('%Y-%m-%d')];
				const rangeFiles = await get({
					period: 'range',
					from: DAYS[0],
					to: DAYS[2],
					output: 'file',
					options: { fileFormat: format },
				});
				for (const currency of Object.keys(range.net as IDataObject)) {
					let total = 0;
					let balances = opening;
					for (const day of DAYS) {
						const items = await get({
							day,
							output: 'file',
							options: { fileFormat: format, fileCurrency: currency, openingBalances: balances },
						});
						const summary = (items[0]?.json ??
							(await get({ day, output: 'summary', options: { openingBalances: balances } }))[0]
								.json) as IDataObject;
						const closing = (summary.closingBalances as Record<string, number>)[currency];
						const moved = items.length === 0 ? 0 : movedCents(fileText(items[0]), rules, currency);
						expect([day, currency, moved]).toEqual([
							day,
							currency,
							cents(closing) - cents(balances[currency]),
						]);
						total += moved;
						balances = summary.closingBalances as Record<string, number>;
					}
					const rangeFile = rangeFiles.find(
						(item) => item.json.currency === currency,
					) as INodeExecutionData;
					expect([currency, total]).toEqual([
						currency,
						movedCents(fileText(rangeFile), rules, currency),
					]);
				}
			},
		);
	},
);
