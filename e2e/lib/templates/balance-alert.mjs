// Template 6, the balance alert, in a real n8n (e2e/lib/template-checks.mjs runs it): as imported
// and connected to the local mailbox, published before n8n starts (its first poll finds the
// balance above the threshold), then the fake API's USD balance set below the threshold and back,
// as the README's offline step does with the curl command npm start prints.
import { TEMPLATES } from '../../../tooling/setup.mjs';
import { sleep, waitFor } from '../../../tooling/util.mjs';
import { assert, check } from '../report.mjs';

/** A poll every minute: what a poll would do has been done after this long. */
const POLL_MS = 75_000;

export async function balanceAlertCheck({ n8n, sandbox, smtp }) {
	await check(
		'template "Notify the finance lead … balance runs low" as imported and published: one Low balance email, one Balance restored, none per poll',
		async () => {
			const alerts = () =>
				smtp.messages.filter((email) =>
					/^(Low balance|Balance restored):/.test(String(email.subject ?? '')),
				);
			const before = sandbox.state.account.fiatWallets.usd;
			assert(
				before >= 1000 && alerts().length === 0,
				`before: USD ${before}, ${alerts().length} alert email(s)`,
			);
			sandbox.setBalances({ usd: 500 });
			await waitFor(() => alerts().length > 0, {
				timeoutMs: 150_000,
				intervalMs: 1000,
				what: 'the Low balance email',
			});
			await sleep(POLL_MS); // polls while it stays low: no second email
			const low = alerts();
			assert(
				low.length === 1 && low[0].subject === 'Low balance: USD 500',
				`emails: ${JSON.stringify(low.map((e) => e.subject))}`,
			);
			sandbox.setBalances({ usd: before });
			await waitFor(() => alerts().length > 1, {
				timeoutMs: 150_000,
				intervalMs: 1000,
				what: 'the Balance restored email',
			});
			await sleep(POLL_MS);
			const all = alerts().map((email) => email.subject);
			assert(
				all.length === 2 && all[1] === `Balance restored: USD ${before}`,
				`emails: ${JSON.stringify(all)}`,
			);
			const runs = (await n8n.executions(TEMPLATES.balanceAlert.id)).filter(
				(run) => run.mode === 'trigger',
			);
			assert(
				runs.length === 2 && runs.every((run) => run.status === 'success'),
				`executions: ${JSON.stringify(runs.map((run) => [run.status, run.mode]))}`,
			);
			return `${all.join('; ')}; ${runs.length} executions`;
		},
	);
}
