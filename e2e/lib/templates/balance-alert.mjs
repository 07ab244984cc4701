// Template 6, the balance alert, in a real n8n (e2e/lib/template-checks.mjs runs it): as imported
// and connected to the local mailbox, published while n8n runs as the README's offline step says, by
// a click in the editor (n8n 2.x: Publish; 1.x: the Inactive/Active switch; without a browser, the
// same REST call), its first poll finding the balance above the threshold; then the fake API's USD
// balance set below the threshold and back, as that step does with the curl command npm start prints.
import { TEMPLATES } from '../../../tooling/setup.mjs';
import { sleep, waitFor } from '../../../tooling/util.mjs';
import { assert, check } from '../report.mjs';
import { unpublishByRest, withRunner } from './shared.mjs';

/** A poll every minute: what a poll would do has been done after this long. */
const POLL_MS = 75_000;

/** The route Account → Get reads, each poll of Source Account Balances (nodes/service/routes.ts). */
const ACCOUNT = '/v1/users/fetch-integration';

/** `browser`: { artifacts } to publish it in the editor (its picture, published, in artifacts only). */
export async function balanceAlertCheck({ n8n, sandbox, smtp, browser }) {
	const id = TEMPLATES.balanceAlert.id;
	const verb = n8n.line === '1' ? 'activated' : 'published';
	await check(
		`template "Notify the finance lead … balance runs low" as imported, ${verb} ${browser ? 'in the editor' : 'through REST'}: one Low balance email, one Balance restored, none per poll`,
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
			const polls = () =>
				sandbox.requests.filter((r) => r.method === 'GET' && r.path === ACCOUNT).length;
			const polled = polls();
			try {
				const how = await withRunner(
					n8n,
					browser && { artifacts: browser.artifacts },
					async ({ publish, shot }) => {
						const clicked = await publish(id);
						await shot('balance-alert-published.png');
						return clicked;
					},
				);
				// the poll n8n runs at publishing: the balance above the threshold, nothing emitted
				await waitFor(() => polls() > polled, {
					timeoutMs: 90_000,
					intervalMs: 500,
					what: 'the first poll after publishing',
				});
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
				const runs = (await n8n.executions(id)).filter((run) => run.mode === 'trigger');
				assert(
					runs.length === 2 && runs.every((run) => run.status === 'success'),
					`executions: ${JSON.stringify(runs.map((run) => [run.status, run.mode]))}`,
				);
				return `${how}; ${all.join('; ')}; ${runs.length} executions`;
			} finally {
				// Cleanup, not what a newcomer does: unpublished through REST as the other checks clean
				// up, so that it polls no more while the later checks set balances.
				sandbox.setBalances({ usd: before });
				await unpublishByRest(n8n, id).catch(() => {});
			}
		},
	);
}
