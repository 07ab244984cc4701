// The statement example (e2e/workflows/statement.json) run by `n8n execute`: Statement → Get
// (summary, exceptions, the CSV file) over the seeded day and Statement → Match on a payout sheet,
// judged from the fake API's own records (docs/statement.md); then a range of days against a fake API
// of its own, its three files parsed back (statementRangeCheck).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeApi } from '../../tooling/fake-api.mjs';
import { EXAMPLES, loadWorkflow, sandboxCredential } from '../../tooling/setup.mjs';
import { assert, check } from './report.mjs';
import { describeFailure, itemsOf, nodeError } from './run-data.mjs';

const REFUNDED = new Set(['rejected', 'reversed', 'cancelled']);

/** What Match must say of each row of the example's sheet, from the fake API's records. */
function expectedMatch(sandbox, row) {
	const found = sandbox.state.withdrawals.filter((w) => w.externalId === row.payoutId);
	if (found.length === 0) return 'notFound';
	if (found.length > 1) return 'several';
	const [w] = found;
	if (REFUNDED.has(w.status)) return 'refunded';
	if (w.status !== 'completed') return 'pending';
	return Math.abs(w.amount - Number(row.expectedUsd)) > 0.01 ? 'amountDiffers' : 'paid';
}

export async function statementCheck({ n8n, sandbox, seeded }) {
	return await check(
		`statement example: yesterday (${seeded.day}) summarized, its exceptions, the CSV file, and a payout sheet matched`,
		async () => {
			const exec = await n8n.execute(EXAMPLES.statement);
			assert(exec.ok, describeFailure(exec));
			for (const name of [
				'Statement Summary',
				'Exceptions',
				'Statement File (NGN)',
				'Match Payouts',
			]) {
				const error = nodeError(exec, name);
				assert(!error, error);
			}
			const [summary] = itemsOf(exec, 'Statement Summary');
			const ofDay = (record) => record.createdAt.startsWith(seeded.day);
			const trades = sandbox.state.trades.filter(ofDay);
			const withdrawals = sandbox.state.withdrawals.filter(ofDay);
			assert(summary.day === seeded.day, `summary of ${summary.day}, not ${seeded.day}`);
			assert(
				summary.counts.deposit === trades.length,
				`${summary.counts.deposit} deposit lines for ${trades.length} deposits`,
			);
			assert(
				summary.counts.cryptoWithdrawal +
					summary.counts.bankWithdrawal +
					summary.counts.autoSettlement ===
					withdrawals.length,
				`withdrawal lines ${JSON.stringify(summary.counts)} for ${withdrawals.length} withdrawals`,
			);
			assert(
				summary.counts.refund === withdrawals.filter((w) => REFUNDED.has(w.status)).length,
				`refund lines: ${summary.counts.refund}`,
			);
			for (const kind of Object.keys(summary.counts))
				assert(summary.counts[kind] > 0, `no ${kind} line`);
			const closing = Object.fromEntries(
				Object.entries(seeded.closingBalances).map(([c, v]) => [c.toUpperCase(), v]),
			);
			assert(
				JSON.stringify(summary.closingBalances) === JSON.stringify(closing),
				`closing ${JSON.stringify(summary.closingBalances)}, the fake API's ${JSON.stringify(closing)}`,
			);
			assert(
				summary.balanceCheck?.result === 'balanced',
				`balance check: ${JSON.stringify(summary.balanceCheck)}`,
			);
			const said = summary.exceptions.map((entry) => entry.exception).join('\n');
			for (const [what, pattern] of [
				['stuck', /Not final after/],
				['refunded', /Refunded \(status/],
				['no External ID', /No External ID/],
				['unlabelled wallet', /wallet without a label/],
				['flagged', /Flagged/],
			]) {
				assert(pattern.test(said), `no ${what} exception in ${said.slice(0, 300)}`);
			}
			assert(
				!JSON.stringify(exec.runData).includes(sandbox.appSecret),
				'the app secret appears in the run data',
			);
			const exceptions = itemsOf(exec, 'Exceptions');
			assert(
				exceptions.length === summary.exceptionCount && exceptions.every((line) => line.exception),
				`Exceptions output ${exceptions.length} of ${summary.exceptionCount}`,
			);
			const fileItem = exec.runData['Statement File (NGN)'][0].data.main[0][0];
			const binary = fileItem.binary?.data;
			assert(
				binary?.mimeType === 'text/csv' &&
					binary.fileName === `statement-${seeded.day}-NGN-xero.csv`,
				`file: ${JSON.stringify(binary ?? fileItem.json).slice(0, 300)}`,
			);
			if (binary.data && binary.data !== 'filesystem-v2' && !binary.id) {
				const header = Buffer.from(binary.data, 'base64').toString('utf8').split('\r\n')[0];
				assert(header === 'Date,Amount,Payee,Description,Reference', `CSV header: ${header}`);
			}
			const matched = itemsOf(exec, 'Match Payouts');
			const wrong = matched.filter((row) => row.match !== expectedMatch(sandbox, row));
			assert(
				matched.length === 6 && !wrong.length,
				`Match: ${JSON.stringify(wrong.map((row) => [row.payoutId, row.match, expectedMatch(sandbox, row)]))}`,
			);
			const matches = [...new Set(matched.map((row) => row.match))].sort().join(', ');
			return `${summary.lines} lines, ${summary.exceptionCount} exceptions, balance ${summary.balanceCheck.result}; ${fileItem.json.fileRows} CSV rows; Match: ${matches}`;
		},
	);
}

const DAY_MS = 86_400_000;
const plusDays = (day, n) =>
	new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const upper = (balances) =>
	Object.fromEntries(Object.entries(balances).map(([c, v]) => [c.toUpperCase(), v]));
const centsOf = (value) => Math.round(Number(value) * 100);
const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** A file node's binary as text: base64 in the run data (n8n 1.x's `default` mode), else n8n 2.x's file (`filesystem-v2:<path>` under <n8nFolder>/storage). */
function binaryText(n8n, binary) {
	if (binary.data && !binary.id) return Buffer.from(binary.data, 'base64').toString('utf8');
	const relative = String(binary.id).replace(/^[a-z0-9-]+:/, '');
	const file = ['storage', 'binaryData']
		.map((dir) => path.join(n8n.userFolder, '.n8n', dir, relative))
		.find((candidate) => fs.existsSync(candidate));
	assert(file, `the file ${binary.fileName} (${binary.id}) is not in n8n's binary data folder`);
	return fs.readFileSync(file, 'utf8');
}

/** hledger's balance of the imported file's account (`--daily --historical` after an opening entry: the end of each day), as [[column, cents]]. */
function hledgerEnds(dir, csv, rules, currency, opening, from, end) {
	fs.writeFileSync(path.join(dir, 'import.csv'), csv);
	fs.writeFileSync(
		path.join(dir, 'import.csv.rules'),
		[
			...rules,
			`currency ${currency}`,
			'account1 assets:crypto-settlement',
			'account2 equity:unreconciled',
			'',
		].join('\n'),
	);
	fs.writeFileSync(
		path.join(dir, 'opening.journal'),
		`${from} opening balance\n    assets:crypto-settlement    ${currency}${Number(opening).toFixed(2)}\n    equity:opening\n`,
	);
	const run = spawnSync(
		'hledger',
		[
			'-f',
			path.join(dir, 'opening.journal'),
			'-f',
			path.join(dir, 'import.csv'),
			'balance',
			'assets:crypto-settlement',
			'--daily',
			'--historical',
			'-b',
			from,
			'-e',
			end,
			'-O',
			'csv',
		],
		{ encoding: 'utf8' },
	);
	assert(run.status === 0, `hledger: ${run.stderr}`);
	const [header, row] = run.stdout
		.trim()
		.split('\n')
		.map((line) => line.split(',').map((cell) => cell.replace(/^"|"$/g, '')));
	return header
		.slice(1)
		.map((column, index) => [column, centsOf(row[index + 1].replace(/^[A-Z]+/, '') || 0)]);
}

/** The OFX file by libofx's ofxdump: its DTD errors, and the sum of its transactions in cents. */
function ofxdumpRead(dir, text) {
	const file = path.join(dir, 'import.ofx');
	fs.writeFileSync(file, text);
	const run = spawnSync('ofxdump', [file], { encoding: 'utf8' });
	const errors = `${run.stdout}\n${run.stderr}`
		.split('\n')
		.filter((line) => /LibOFX ERROR|:E:/.test(line));
	const cents = [...run.stdout.matchAll(/Total money amount: (\S+)/g)].reduce(
		(sum, match) => sum + centsOf(match[1]),
		0,
	);
	return { errors: run.status === 0 ? errors : [...errors, `ofxdump exited ${run.status}`], cents };
}

/** Xero's and QuickBooks' CSV layouts as hledger rules (docs/statement.md, "The files"). */
const HLEDGER_RULES = {
	'Range Xero CSV': [
		'skip 1',
		'fields date, amount, payee, description, reference',
		'date-format %Y-%m-%d',
	],
	'Range QuickBooks CSV': ['skip 1', 'fields date, description, amount', 'date-format %m/%d/%Y'],
};

/**
 * Period Range in a real n8n (issue #71): three consecutive days against a fake API of its own whose
 * clock stands at the first day's midnight and moves on (a payout of day 1 refunded at 00:03 on day 2),
 * one run of e2e/workflows/e2e-statement-range.json by `n8n execute`: the summary's range and days
 * (each opening on the day before's closing, the last closing on the service's balances), the three
 * files per currency named for the range, parsed back: the OFX by ofxdump, the CSVs by hledger with
 * rules from Xero's and QuickBooks' layouts (each only where installed), each file's movement closing
 * minus opening to the cent, hledger's end of each day that day's closing.
 */
export async function statementRangeCheck({ n8n, artifacts }) {
	return await check(
		"statement range: a month, 30 days (the fake API's clock moved across them, a refund the day after its payout) in one run, the summary's days chained, the Xero, QuickBooks and OFX files parsed back by hledger and ofxdump",
		async () => {
			const first = new Date(Date.now() - 34 * DAY_MS).toISOString().slice(0, 10);
			const days = Array.from({ length: 30 }, (_, index) => plusDays(first, index));
			const service = await startFakeApi({
				port: 0,
				lifecycleDelayMs: 4 * 60_000,
				clock: Date.parse(`${first}T00:00:00Z`),
			});
			const dir = fs.mkdtempSync(path.join(artifacts ?? os.tmpdir(), 'statement-range-'));
			try {
				const opening = upper(service.state.account.fiatWallets);
				service.seedDay({ day: days[0], records: 40, prefix: `e2e-range-${days[0]}` });
				const stuck = service.state.withdrawals.find(
					(w) => w.status === 'pending' && w.createdAt.startsWith(days[0]),
				);
				assert(stuck, 'no pending payout seeded on day 1');
				await service.setClock(Date.parse(`${days[1]}T00:03:00Z`));
				service.reverseWithdrawal(stuck.id);
				for (const day of days.slice(1))
					service.seedDay({ day, records: 20, prefix: `e2e-range-${day}` });
				await service.setClock(Date.parse(`${plusDays(days.at(-1), 1)}T06:00:00Z`));
				await n8n.importCredentials([
					{
						...sandboxCredential(service),
						id: 'csRangeCred00001',
						name: 'Crypto Settlement Range Sandbox',
					},
				]);
				await n8n.importWorkflows([
					loadWorkflow('e2e-statement-range', {
						RANGE_FROM: days[0],
						RANGE_TO: days.at(-1),
						OPENING_BALANCES: JSON.stringify(JSON.stringify(opening)).slice(1, -1),
					}),
				]);
				const exec = await n8n.execute('csE2eStmtRange01');
				assert(exec.ok, describeFailure(exec));
				for (const name of ['Range Summary', ...Object.keys(HLEDGER_RULES), 'Range OFX'])
					assert(!nodeError(exec, name), nodeError(exec, name));
				const [summary] = itemsOf(exec, 'Range Summary');
				const range = `${days[0]}_${days.at(-1)}`;
				assert(
					summary.day === range && summary.days?.map((d) => d.day).join() === days.join(),
					`summary of ${summary.day}, days ${JSON.stringify(summary.days?.map((d) => d.day))}`,
				);
				summary.days.forEach((day, index) => {
					const before = index === 0 ? opening : summary.days[index - 1].closingBalances;
					assert(
						JSON.stringify(upper(day.openingBalances)) === JSON.stringify(upper(before)),
						`${day.day} opens ${JSON.stringify(day.openingBalances)}, not ${JSON.stringify(before)}`,
					);
				});
				assert(
					JSON.stringify(summary.closingBalances) ===
						JSON.stringify(upper(service.state.account.fiatWallets)),
					`closing ${JSON.stringify(summary.closingBalances)}, the service's ${JSON.stringify(service.state.account.fiatWallets)}`,
				);
				assert(
					summary.balanceCheck?.result === 'balanced',
					`balance check: ${JSON.stringify(summary.balanceCheck)}`,
				);
				assert(
					Object.values(summary.days[1].totals.refund ?? {}).some((total) => total.count > 0),
					`no refund on ${days[1]}: ${JSON.stringify(summary.days[1].totals.refund)}`,
				);
				const said = [];
				const tools = { hledger: has('hledger'), ofxdump: has('ofxdump') };
				for (const [name, suffix] of [
					['Range Xero CSV', '-xero.csv'],
					['Range QuickBooks CSV', '-quickbooks.csv'],
					['Range OFX', '.ofx'],
				]) {
					const items = exec.runData[name][0].data.main[0];
					assert(
						items.length === Object.keys(summary.net).length,
						`${name}: ${items.length} files for ${Object.keys(summary.net).join(', ')}`,
					);
					for (const item of items) {
						const { currency } = item.json;
						const binary = item.binary?.data;
						assert(
							binary?.fileName === `statement-${range}-${currency}${suffix}`,
							`${name}: ${binary?.fileName}`,
						);
						const text = binaryText(n8n, binary);
						fs.writeFileSync(path.join(dir, binary.fileName), text);
						const want = centsOf(summary.closingBalances[currency]) - centsOf(opening[currency]);
						if (suffix === '.ofx' && tools.ofxdump) {
							const { errors, cents } = ofxdumpRead(dir, text);
							assert(
								!errors.length && cents === want,
								`${binary.fileName}: ofxdump ${errors.join('; ')}, moved ${cents / 100}, closing less opening ${want / 100}`,
							);
						}
						if (suffix !== '.ofx' && tools.hledger) {
							const ends = hledgerEnds(
								dir,
								text,
								HLEDGER_RULES[name],
								currency,
								opening[currency],
								days[0],
								plusDays(days.at(-1), 1),
							);
							const closings = summary.days.map((day) => centsOf(day.closingBalances[currency]));
							assert(
								JSON.stringify(ends.map(([, cents]) => cents)) === JSON.stringify(closings),
								`${binary.fileName}: hledger's end of each day ${JSON.stringify(ends)}, the days' closing ${JSON.stringify(closings)}`,
							);
						}
					}
					said.push(`${items.map((item) => item.binary.data.fileName).join(' + ')}`);
				}
				const parsers = Object.entries(tools)
					.map(([tool, here]) => `${tool} ${here ? 'parsed' : 'NOT INSTALLED, skipped'}`)
					.join(', ');
				return `${summary.lines} lines over ${days.length} days, balance ${summary.balanceCheck.result}; ${said.join('; ')}; ${parsers}`;
			} finally {
				await service.close();
			}
		},
	);
}
