// Template 5, Check a payout sheet, in a real n8n (e2e/lib/template-checks.mjs runs it): as imported,
// on its sample rows, after Pay vendors paid its own.
import { TEMPLATES } from '../../../tooling/setup.mjs';
import { assert, check } from '../report.mjs';
import { executionOf, outputOf, withRunner } from './shared.mjs';

/**
 * Template 5 exactly as imported, on its sample rows, after Pay vendors paid its own: the rows it
 * paid read paid, the one with another amount different, the one never paid missing; the summary
 * gives each mark in words (rows, amount, what to do), the External IDs last.
 */
export async function checkSheetCheck({ n8n, sandbox, browser }) {
	await check(
		`template "Check a payout sheet …" as imported, on its sample rows, from ${browser ? 'the canvas' : 'Execute workflow'}: paid, different and missing, and a summary`,
		async () =>
			withRunner(n8n, browser, async ({ start, shot, how }) => {
				await sandbox.settle(); // Pay vendors' payouts completed, as a second later in npm start
				const run = await executionOf(
					n8n,
					await start(TEMPLATES.checkPayouts.id, 'Check the Sheet'),
				);
				await shot('check-payout-sheet-run.png');
				assert(
					run.status === 'success',
					`the run ended ${run.status}: ${JSON.stringify(run.error ?? {}).slice(0, 300)}`,
				);
				const marks = Object.fromEntries(
					outputOf(run, 'Mark').map((row) => [row['External ID'], row.Check]),
				);
				const want = {
					'SAMPLE-INV-1001': 'paid',
					'SAMPLE-INV-1002': 'paid',
					'SAMPLE-INV-1003': 'different',
					'SAMPLE-INV-1004': 'missing',
				};
				for (const [id, mark] of Object.entries(want))
					assert(
						marks[id] === mark,
						`${id} marked ${marks[id]}, want ${mark}: ${JSON.stringify(marks)}`,
					);
				// The summary a person reads: one row per mark, what, how many rows, how much, what to do, the External IDs last.
				const summary = outputOf(run, 'Summary');
				const counted = Object.fromEntries(summary.map((row) => [row.Check, row.Rows]));
				assert(
					counted.paid === 2 && counted.different === 1 && counted.missing === 1,
					`the summary: ${JSON.stringify(summary)}`,
				);
				for (const row of summary) {
					assert(
						JSON.stringify(Object.keys(row)) ===
							JSON.stringify([
								'Check',
								'Rows',
								'Amount in the Sheet',
								'What to Do',
								'External IDs',
							]),
						`a summary row's columns: ${Object.keys(row)}`,
					);
					assert(
						/^\d+\.\d\d USD$/.test(row['Amount in the Sheet']) && row['What to Do'],
						`a summary row: ${JSON.stringify(row)}`,
					);
				}
				assert(
					summary[0].Check === 'missing' &&
						summary.find((row) => row.Check === 'missing')['External IDs'] === 'SAMPLE-INV-1004',
					`missing first, naming its row: ${JSON.stringify(summary)}`,
				);
				assert(!run.runData['Write Marks to the Sheet'], 'the sample rows were written to a sheet');
				return `from ${how}: marks ${JSON.stringify(marks)}; summary ${JSON.stringify(counted)}`;
			}),
	);
}
