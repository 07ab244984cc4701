// The statement example (e2e/workflows/statement.json) run by `n8n execute`: Statement → Get
// (summary, exceptions, the CSV file) over the seeded day and Statement → Match on a payout sheet,
// judged from the fake API's own records (docs/statement.md).
import { EXAMPLES } from '../../tooling/setup.mjs';
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
	return await check(`statement example: yesterday (${seeded.day}) summarized, its exceptions, the CSV file, and a payout sheet matched`, async () => {
		const exec = await n8n.execute(EXAMPLES.statement);
		assert(exec.ok, describeFailure(exec));
		for (const name of ['Statement Summary', 'Exceptions', 'Statement File (NGN)', 'Match Payouts']) {
			const error = nodeError(exec, name);
			assert(!error, error);
		}
		const [summary] = itemsOf(exec, 'Statement Summary');
		const ofDay = (record) => record.createdAt.startsWith(seeded.day);
		const trades = sandbox.state.trades.filter(ofDay);
		const withdrawals = sandbox.state.withdrawals.filter(ofDay);
		assert(summary.day === seeded.day, `summary of ${summary.day}, not ${seeded.day}`);
		assert(summary.counts.deposit === trades.length, `${summary.counts.deposit} deposit lines for ${trades.length} deposits`);
		assert(
			summary.counts.cryptoWithdrawal + summary.counts.bankWithdrawal + summary.counts.autoSettlement === withdrawals.length,
			`withdrawal lines ${JSON.stringify(summary.counts)} for ${withdrawals.length} withdrawals`,
		);
		assert(summary.counts.refund === withdrawals.filter((w) => REFUNDED.has(w.status)).length, `refund lines: ${summary.counts.refund}`);
		for (const kind of Object.keys(summary.counts)) assert(summary.counts[kind] > 0, `no ${kind} line`);
		const closing = Object.fromEntries(Object.entries(seeded.closingBalances).map(([c, v]) => [c.toUpperCase(), v]));
		assert(JSON.stringify(summary.closingBalances) === JSON.stringify(closing), `closing ${JSON.stringify(summary.closingBalances)}, the fake API's ${JSON.stringify(closing)}`);
		assert(summary.balanceCheck?.result === 'balanced', `balance check: ${JSON.stringify(summary.balanceCheck)}`);
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
		assert(!JSON.stringify(exec.runData).includes(sandbox.appSecret), 'the app secret appears in the run data');
		const exceptions = itemsOf(exec, 'Exceptions');
		assert(exceptions.length === summary.exceptionCount && exceptions.every((line) => line.exception), `Exceptions output ${exceptions.length} of ${summary.exceptionCount}`);
		const fileItem = exec.runData['Statement File (NGN)'][0].data.main[0][0];
		const binary = fileItem.binary?.data;
		assert(binary?.mimeType === 'text/csv' && binary.fileName === `statement-${seeded.day}-NGN-xero.csv`, `file: ${JSON.stringify(binary ?? fileItem.json).slice(0, 300)}`);
		if (binary.data && binary.data !== 'filesystem-v2' && !binary.id) {
			const header = Buffer.from(binary.data, 'base64').toString('utf8').split('\r\n')[0];
			assert(header === 'Date,Amount,Payee,Description,Reference', `CSV header: ${header}`);
		}
		const matched = itemsOf(exec, 'Match Payouts');
		const wrong = matched.filter((row) => row.match !== expectedMatch(sandbox, row));
		assert(matched.length === 6 && !wrong.length, `Match: ${JSON.stringify(wrong.map((row) => [row.payoutId, row.match, expectedMatch(sandbox, row)]))}`);
		const matches = [...new Set(matched.map((row) => row.match))].sort().join(', ');
		return `${summary.lines} lines, ${summary.exceptionCount} exceptions, balance ${summary.balanceCheck.result}; ${fileItem.json.fileRows} CSV rows; Match: ${matches}`;
	});
}
