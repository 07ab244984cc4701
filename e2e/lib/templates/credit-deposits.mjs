// Template 2, Credit each deposit once, in a real n8n (e2e/lib/template-checks.mjs runs it): its
// Data Table ledger, the template behind n8n's Webhook node and Verify Delivery (also handed over
// to a workflow of its own, and recovering when that one was unpublished), and the template as
// shipped with its own trigger.
import { createRequire } from 'node:module';
import path from 'node:path';

import {
	loadTemplate,
	sandboxApi,
	TEMPLATES,
	triggerUrl,
	WEBHOOK_SECRET,
} from '../../../tooling/setup.mjs';
import { REPO_ROOT } from '../../../tooling/util.mjs';
import { tableRows } from './daily-statement.mjs';
import { HANDED_OVER_TRIGGER, verifyRetryNodes } from '../../../tooling/verify-delivery.mjs';
import { httpJson, sleep, waitFor } from '../../../tooling/util.mjs';
import { assert, check, skip } from '../report.mjs';
import {
	connectApp,
	executionOf,
	handOffWorkflow,
	LEDGER_COLUMNS,
	outputOf,
	withRunner,
	localRows,
	personalProject,
	publishByRest,
	publishCopy,
	setting,
	standIn,
	TEMPLATE_BINDINGS,
	uuid,
	webhookTrigger,
} from './shared.mjs';

/**
 * Template 2's ledger on its own, whatever the trigger: its trigger replaced by a Code node giving one
 * deposit event (with an eventKey, as the triggers give it), started twice at the same moment and then
 * once more. Two executions of one event at once: credited once.
 */
export async function ledgerCheck({ n8n, smtp, collector }) {
	await check(
		'template "Credit each deposit …": its Data Table ledger credits one event once, the same event run twice at the same moment and then again',
		async () => {
			const project = await personalProject(n8n);
			const columns = LEDGER_COLUMNS.map((name) => ({ name, type: 'string' }));
			const table = await n8n.rest('POST', `/projects/${project}/data-tables`, {
				name: 'crypto_deposit_ledger_processes',
				columns,
			});
			const event = {
				event: 'trade.completed',
				id: 'ledger-trade-1',
				status: 'completed',
				eventKey: 'trade.completed:ledger-trade-1:completed',
				walletLabel: 'customer-7',
				amountInUSD: 25,
				token: 'USDT',
				amount: 37305,
				currency: 'ngn',
			};
			const copy = loadTemplate('creditDeposits', TEMPLATE_BINDINGS);
			copy.name = `e2e: ${copy.name} (ledger)`;
			setting(copy, 'ledgerTableId', table.id);
			connectApp(copy, `${collector.url}/credit-ledger`);
			standIn(copy, 'On a Completed Deposit', localRows([event]));
			copy.nodes = copy.nodes.filter((node) => node.name !== 'Or Poll for Deposits');
			delete copy.connections['Or Poll for Deposits'];
			copy.nodes.push({
				id: uuid('ledger-start'),
				name: 'Delivery',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [-280, 0],
				parameters: {},
			});
			copy.connections.Delivery = {
				main: [[{ node: 'On a Completed Deposit', type: 'main', index: 0 }]],
			};
			const started = await publishCopy(n8n, copy, 'Delivery');
			const before = smtp.messages.length;
			await Promise.all([started.run(), started.run()]);
			await started.finished(2);
			await started.run();
			await started.finished(3);
			const credited = collector.on('/credit-ledger');
			const emails = smtp.messages.slice(before).filter((m) => /Deposit credited/.test(m.subject));
			const rows = await n8n.rest('GET', `/projects/${project}/data-tables/${table.id}/rows`);
			const ledger = rows?.data ?? rows ?? [];
			assert(
				credited.length === 1 &&
					credited[0].body.customer === 'customer-7' &&
					credited[0].headers['idempotency-key'] === event.eventKey,
				`credited ${credited.length} times: ${JSON.stringify(credited.map((h) => h.body))}`,
			);
			assert(emails.length === 1, `notifications: ${JSON.stringify(emails.map((m) => m.subject))}`);
			assert(
				ledger.length === 1 && ledger[0].outcome === 'credited',
				`ledger rows: ${JSON.stringify(ledger)}`,
			);
			return `3 runs (2 at once): credited once, "${emails[0].subject}"; one ledger row, credited (the run that lost dropped its own)`;
		},
	);
}

/**
 * docs/trigger.md, "n8n's Webhook node and Verify Delivery": the credit template with its trigger
 * replaced by n8n's Webhook node (Respond Immediately) and Webhook Event → Verify Delivery, whose error
 * output goes through the IF and n8n's Wait node of the docs back into it. The service's
 * trade.completed delivery is sent twice at once while the API fails its next two lookups of a trade,
 * then once more, and once with a wrong secret. With `handOff`, the same in two workflows (docs/trigger.md,
 * "Bursts under n8n's defaults: hand the delivery over"): n8n's Webhook node → Execute Workflow, and the
 * copy started by n8n's Execute Workflow Trigger.
 */
export async function verifyDeliveryCheck({
	n8n,
	sandbox,
	smtp,
	collector,
	line,
	handOff = false,
}) {
	const variant = handOff
		? {
				title: 'Webhook node → Execute Workflow → Verify Delivery',
				table: 'crypto_deposit_ledger_hand_off',
				credit: '/credit-hand-off',
				hook: 'e2e-verify-hand-off',
				label: 'customer-hand-off-1',
				reference: 'e2e-verify-hand-off',
				txHash: 'e2everifyhandoff1',
			}
		: {
				title: 'Webhook node → Verify Delivery',
				table: 'crypto_deposit_ledger_verify',
				credit: '/credit-verify',
				hook: 'e2e-verify-delivery',
				label: 'customer-verify-1',
				reference: 'e2e-verify-delivery',
				txHash: 'e2everifydelivery1',
			};
	await check(
		`${variant.title}: answered at once; lookups that fail are tried again after n8n's Wait node; two copies at once and a third later credit once; a wrong secret stops its execution with the error`,
		async () => {
			const { project, table, saved } = await saveVerifyDeliveryCopy({
				n8n,
				collector,
				variant,
				handOff,
			});
			const hook = variant.hook;
			if (handOff) {
				// n8n 2.x runs a sub-workflow's published version: the checks are published first (n8n 1.x runs
				// the saved one, and has nothing to activate in a workflow only another one starts).
				if (line !== '1')
					await n8n.rest('POST', `/workflows/${saved.id}/activate`, { versionId: saved.versionId });
				const handing = await n8n.rest('POST', '/workflows', handOffWorkflow(hook, saved.id));
				if (line === '1')
					await n8n.rest('PATCH', `/workflows/${handing.id}`, {
						active: true,
						versionId: handing.versionId,
					});
				else
					await n8n.rest('POST', `/workflows/${handing.id}/activate`, {
						versionId: handing.versionId,
					});
			} else if (line === '1')
				await n8n.rest('PATCH', `/workflows/${saved.id}`, {
					active: true,
					versionId: saved.versionId,
				});
			else
				await n8n.rest('POST', `/workflows/${saved.id}/activate`, { versionId: saved.versionId });
			const url = `${n8n.baseUrl}/webhook/${hook}`;
			// Registered once it answers (a probe without the secret runs once and stops with the error).
			await waitFor(
				async () => (await httpJson('POST', url, { body: { event: 'probe' } })).status !== 404,
				{ timeoutMs: 30000, intervalMs: 500, what: `the copy's webhook ${url}` },
			);
			const finishedRuns = () => n8n.endedExecutions(saved.id);
			const probes = new Set(
				(
					await waitFor(
						async () => ((await finishedRuns()).length ? await finishedRuns() : undefined),
						{ timeoutMs: 30000, what: 'the probe ran' },
					)
				).map((e) => e.id),
			);
			const previous = sandbox.webhookUrl;
			try {
				sandbox.setWebhook(`${collector.url}/deliveries`, WEBHOOK_SECRET);
				const { label } = variant;
				const wallet = await sandboxApi(
					sandbox,
					'POST',
					'/trades/sell/assets/64f1a2b3c4d5e6f7a8b9c0d2/generate-address',
					{ label },
				);
				const before = smtp.messages.length;
				const trade = await sandboxApi(sandbox, 'POST', '/trades/sell/mock-trade', {
					walletAddress: wallet.address,
					asset: 'TRX_TEST',
					amountInUSD: 31,
					cryptoReceived: '258.3',
					reference: variant.reference,
					txHash: variant.txHash,
				});
				const delivery = await waitFor(
					() =>
						collector
							.on('/deliveries')
							.find((hit) => hit.body?.event === 'trade.completed' && hit.body?.id === trade.id),
					{ timeoutMs: 30000, what: 'the trade.completed delivery' },
				);
				const send = (secret = delivery.headers['x-webhook-secret']) =>
					httpJson('POST', url, { body: delivery.body, headers: { 'x-webhook-secret': secret } });
				const runs = async () => (await finishedRuns()).filter((e) => !probes.has(e.id));
				const lookups = () =>
					sandbox.requests.filter(
						(r) => r.method === 'GET' && r.path === `/v1/trades/transactions/${trade.id}`,
					);
				// The API fails the next two lookups of a trade: each copy's first check fails.
				sandbox.setFaults({ 'GET /trades/transactions/{id}': { nextN: { '5xx': 2 } } });
				const answers = await Promise.all([send(), send()]);
				assert(
					answers.every((res) => res.status === 200),
					`the two copies were answered ${answers.map((res) => res.status).join(', ')}`,
				);
				await waitFor(async () => (await runs()).length >= 2, {
					timeoutMs: 90000,
					intervalMs: 1000,
					what: 'both executions finished',
				});
				const third = await send();
				await waitFor(async () => (await runs()).length >= 3, {
					timeoutMs: 60000,
					intervalMs: 1000,
					what: 'the third execution finished',
				});
				const lookedUp = lookups().length;
				const forged = await send('not-the-secret');
				await waitFor(async () => (await runs()).length >= 4, {
					timeoutMs: 60000,
					intervalMs: 1000,
					what: "the wrong secret's execution finished",
				});
				await sleep(1500);
				const finished = await runs();
				const credited = collector
					.on(variant.credit)
					.filter((hit) => hit.body?.tradeId === trade.id);
				const emails = smtp.messages
					.slice(before)
					.filter((m) => /Deposit credited/.test(m.subject));
				const ledger = (
					(await n8n.rest('GET', `/projects/${project}/data-tables/${table.id}/rows`))?.data ?? []
				).filter((row) => row.tradeId === trade.id);
				const detail = `executions ${JSON.stringify(finished.map((e) => [e.id, e.status]))}, ${lookedUp} lookups, ledger ${JSON.stringify(ledger)}`;
				assert(
					third.status === 200 && forged.status === 200,
					`the third copy answered ${third.status}, the wrong secret ${forged.status}`,
				);
				const statuses = finished.map((e) => e.status).sort();
				assert(
					JSON.stringify(statuses) === JSON.stringify(['error', 'success', 'success', 'success']),
					`three successful executions and the wrong secret's in error: ${detail}`,
				);
				assert(
					lookedUp === 5 && lookups().length === 5,
					`two failed lookups, then three that confirmed, none for the wrong secret: ${detail}`,
				);
				const stopped = await n8n.rest(
					'GET',
					`/executions/${finished.find((e) => e.status === 'error').id}`,
				);
				assert(
					/x-webhook-secret header is missing or wrong/.test(JSON.stringify(stopped)),
					`the wrong secret's execution: ${JSON.stringify(stopped).slice(0, 400)}`,
				);
				assert(
					credited.length === 1 && credited[0].body.customer === label && credited[0].body.eventKey,
					`credited ${credited.length} times: ${JSON.stringify(credited.map((h) => h.body))}; ${detail}`,
				);
				assert(
					emails.length === 1,
					`notifications: ${JSON.stringify(emails.map((m) => m.subject))}`,
				);
				assert(
					ledger.length === 1 &&
						ledger[0].outcome === 'credited' &&
						ledger[0].eventKey === credited[0].body.eventKey,
					`ledger: ${detail}`,
				);
				return `trade ${trade.id}: 4 deliveries answered 200 at once; 2 lookups failed and were tried again after the Wait node; credited once to ${label} (eventKey ${credited[0].body.eventKey}); the wrong secret's execution stopped with the error, no lookup`;
			} finally {
				sandbox.setFaults({});
				sandbox.setWebhook(previous ?? null, WEBHOOK_SECRET);
			}
		},
	);
}

/**
 * The credit template as docs/trigger.md wires Verify Delivery into it, saved (not published) with a
 * Data Table of its own: its trigger replaced by n8n's Webhook node on `variant.hook`, or, with
 * `handOff`, by n8n's Execute Workflow Trigger; Verify Delivery's error output through the IF and
 * n8n's Wait node of the docs back into it.
 */
export async function saveVerifyDeliveryCopy({ n8n, collector, variant, handOff }) {
	const project = await personalProject(n8n);
	const columns = LEDGER_COLUMNS.map((name) => ({ name, type: 'string' }));
	const table = await n8n.rest('POST', `/projects/${project}/data-tables`, {
		name: variant.table,
		columns,
	});
	const copy = loadTemplate('creditDeposits', TEMPLATE_BINDINGS);
	copy.name = `e2e: ${variant.title}: ${copy.name}`.slice(0, 128); // n8n's longest name
	delete copy.id;
	setting(copy, 'ledgerTableId', table.id);
	connectApp(copy, `${collector.url}${variant.credit}`);
	const trigger = copy.nodes.find((node) => node.name === 'On a Completed Deposit');
	standIn(
		copy,
		'On a Completed Deposit',
		handOff ? HANDED_OVER_TRIGGER : webhookTrigger(variant.hook),
	);
	const retry = verifyRetryNodes('e2e-verify', 2);
	retry.nodes.forEach(
		(node, i) => (node.position = [trigger.position[0] + 220 * (i + 1), trigger.position[1] + 220]),
	);
	copy.nodes.push(
		{
			id: uuid('verify-node'),
			name: 'Verify Delivery',
			type: 'n8n-nodes-crypto-settlement.cryptoSettlement',
			typeVersion: 1,
			position: [trigger.position[0] + 220, trigger.position[1]],
			parameters: { resource: 'webhookEvent', operation: 'verifyDelivery' },
			credentials: trigger.credentials,
			onError: 'continueErrorOutput',
		},
		...retry.nodes,
	);
	copy.nodes = copy.nodes.filter((node) => node.name !== 'Or Poll for Deposits');
	delete copy.connections['Or Poll for Deposits'];
	copy.connections['On a Completed Deposit'] = {
		main: [[{ node: 'Verify Delivery', type: 'main', index: 0 }]],
	};
	copy.connections['Verify Delivery'] = {
		main: [
			[{ node: 'Settings', type: 'main', index: 0 }],
			[{ node: retry.entry, type: 'main', index: 0 }],
		],
	};
	Object.assign(copy.connections, retry.connections('Verify Delivery'));
	const saved = await n8n.rest('POST', '/workflows', { ...copy, active: false });
	return { project, table, saved };
}

/**
 * docs/trigger.md, "Bursts under n8n's defaults: hand the delivery over": n8n 2.41 refuses to publish
 * the Webhook node's workflow before the checks, but lets an operator unpublish the checks later.
 * A delivery is then answered 200 and its hand-off fails with n8n's error, nothing credited; once the
 * checks are published again, the failed execution retried from n8n's executions list credits it once,
 * and the same delivery sent again stops at the ledger. n8n 2.x only: n8n 1.x runs a sub-workflow's
 * saved version, published or not.
 */
/** n8n 2.41's error for a sub-workflow that is not published. */
export const NOT_PUBLISHED = /is not active and cannot be executed/;

export async function handOffRecoveryCheck({ n8n, sandbox, smtp, collector, line }) {
	const title =
		"Webhook node → Execute Workflow: n8n refuses to publish it before the checks; the checks unpublished later: answered 200, the hand-off fails with n8n's error and credits nothing; the checks published again, the failed execution retried from the executions list credits once; the delivery sent again stops at the ledger";
	if (line === '1')
		return skip(title, 'n8n 1.x runs a sub-workflow whether it is published or not');
	await check(title, async () => {
		const variant = {
			title: 'checks published late',
			table: 'crypto_deposit_ledger_late',
			credit: '/credit-late',
			hook: 'e2e-hand-off-late',
			label: 'customer-late-1',
			reference: 'e2e-hand-off-late',
			txHash: 'e2ehandofflate1',
		};
		const { project, table, saved } = await saveVerifyDeliveryCopy({
			n8n,
			collector,
			variant,
			handOff: true,
		});
		const handing = await n8n.rest('POST', '/workflows', handOffWorkflow(variant.hook, saved.id));
		const early = await n8n.restResponse('POST', `/workflows/${handing.id}/activate`, {
			versionId: handing.versionId,
		});
		assert(
			early.status === 400 && /which is not published/.test(early.text),
			`publishing the hand-off before the checks: ${early.status} ${early.text.slice(0, 300)}`,
		);
		await n8n.rest('POST', `/workflows/${saved.id}/activate`, { versionId: saved.versionId });
		await n8n.rest('POST', `/workflows/${handing.id}/activate`, { versionId: handing.versionId });
		const url = `${n8n.baseUrl}/webhook/${variant.hook}`;
		await waitFor(
			async () => (await httpJson('POST', url, { body: { event: 'probe' } })).status !== 404,
			{ timeoutMs: 30000, intervalMs: 500, what: `the hand-off's webhook ${url}` },
		);
		// n8n 2.41 publishes and unpublishes through an outbox, drained just after the REST call answers:
		// what a hand-off meets is seen by a probe (no secret) through it, whose execution fails with
		// n8n's error while the checks are unpublished and with Verify Delivery's once they run.
		const probes = new Set();
		const probe = async () => {
			const known = new Set((await n8n.executions(handing.id)).map((e) => e.id));
			await httpJson('POST', url, { body: { event: 'probe' } });
			const [run] = await waitFor(
				async () => {
					const fresh = (await n8n.endedExecutions(handing.id)).filter((e) => !known.has(e.id));
					return fresh.length ? fresh : undefined;
				},
				{ timeoutMs: 30000, intervalMs: 500, what: 'the probe ran' },
			);
			probes.add(run.id);
			return NOT_PUBLISHED.test(JSON.stringify(await n8n.rest('GET', `/executions/${run.id}`)))
				? 'unpublished'
				: 'published';
		};
		const checksAre = (state) =>
			waitFor(async () => (await probe()) === state || undefined, {
				timeoutMs: 60000,
				intervalMs: 500,
				what: `n8n to run the hand-off with the checks ${state}`,
			});
		await checksAre('published');
		const previous = sandbox.webhookUrl;
		try {
			sandbox.setWebhook(`${collector.url}/deliveries`, WEBHOOK_SECRET);
			const wallet = await sandboxApi(
				sandbox,
				'POST',
				'/trades/sell/assets/64f1a2b3c4d5e6f7a8b9c0d2/generate-address',
				{ label: variant.label },
			);
			const before = smtp.messages.length;
			const trade = await sandboxApi(sandbox, 'POST', '/trades/sell/mock-trade', {
				walletAddress: wallet.address,
				asset: 'TRX_TEST',
				amountInUSD: 27,
				cryptoReceived: '225.0',
				reference: variant.reference,
				txHash: variant.txHash,
			});
			const delivery = await waitFor(
				() =>
					collector
						.on('/deliveries')
						.find((hit) => hit.body?.event === 'trade.completed' && hit.body?.id === trade.id),
				{ timeoutMs: 30000, what: 'the trade.completed delivery' },
			);
			const send = () =>
				httpJson('POST', url, {
					body: delivery.body,
					headers: { 'x-webhook-secret': delivery.headers['x-webhook-secret'] },
				});
			const credited = () =>
				collector.on(variant.credit).filter((hit) => hit.body?.tradeId === trade.id);
			const lookups = () =>
				sandbox.requests.filter(
					(r) => r.method === 'GET' && r.path === `/v1/trades/transactions/${trade.id}`,
				);
			const ledger = async () =>
				(
					(await n8n.rest('GET', `/projects/${project}/data-tables/${table.id}/rows`))?.data ?? []
				).filter((row) => row.tradeId === trade.id);

			await n8n.rest('POST', `/workflows/${saved.id}/deactivate`, {});
			await checksAre('unpublished');
			const earlier = new Set((await n8n.executions(handing.id)).map((e) => e.id));
			const handOffs = async () =>
				(await n8n.endedExecutions(handing.id)).filter(
					(e) => !earlier.has(e.id) && !probes.has(e.id),
				);
			const first = await send();
			assert(first.status === 200, `the delivery was answered ${first.status}`);
			const [failed] = await waitFor(
				async () => ((await handOffs()).length ? await handOffs() : undefined),
				{ timeoutMs: 60000, intervalMs: 1000, what: 'the hand-off ran' },
			);
			const stored = await n8n.rest('GET', `/executions/${failed.id}`);
			assert(
				failed.status === 'error' && NOT_PUBLISHED.test(JSON.stringify(stored)),
				`the hand-off to unpublished checks: ${failed.status}, ${JSON.stringify(stored).slice(0, 400)}`,
			);
			assert(
				credited().length === 0 && lookups().length === 0 && (await ledger()).length === 0,
				`nothing checked or credited while the checks were unpublished: ${credited().length} credited, ${lookups().length} lookups`,
			);

			await n8n.rest('POST', `/workflows/${saved.id}/activate`, { versionId: saved.versionId });
			await checksAre('published');
			// n8n answers the retry once the retried execution has ended.
			const retried = await n8n.rest('POST', `/executions/${failed.id}/retry`, {
				loadWorkflow: false,
			});
			const retriedRun = retried?.id
				? await n8n.rest('GET', `/executions/${retried.id}`)
				: undefined;
			assert(
				retried?.status === 'success',
				`the retried hand-off: ${JSON.stringify(retried)?.slice(0, 300)}; ${JSON.stringify(retriedRun)?.slice(0, 1200)}; checks ${JSON.stringify((await n8n.endedExecutions(saved.id)).map((e) => [e.id, e.status, e.mode]))}`,
			);
			await waitFor(() => credited().length >= 1 || undefined, {
				timeoutMs: 30000,
				what: 'the retried delivery credited',
			});

			const again = await send();
			assert(again.status === 200, `the delivery sent again was answered ${again.status}`);
			await waitFor(
				async () => (await handOffs()).filter((e) => e.status === 'success').length >= 2,
				{ timeoutMs: 60000, intervalMs: 1000, what: 'the second hand-off finished' },
			);
			await sleep(1500);
			const rows = await ledger();
			const emails = smtp.messages.slice(before).filter((m) => /Deposit credited/.test(m.subject));
			const detail = `hand-offs ${JSON.stringify((await handOffs()).map((e) => [e.id, e.status, e.mode]))}, ${lookups().length} lookups, ledger ${JSON.stringify(rows)}`;
			assert(
				credited().length === 1 && credited()[0].body.customer === variant.label,
				`credited ${credited().length} times: ${detail}`,
			);
			assert(emails.length === 1, `notifications: ${JSON.stringify(emails.map((m) => m.subject))}`);
			assert(
				rows.length === 1 &&
					rows[0].outcome === 'credited' &&
					rows[0].eventKey === credited()[0].body.eventKey,
				`ledger: ${detail}`,
			);
			assert(
				lookups().length === 2,
				`one lookup by the retried checks and one by the copy the ledger stopped: ${detail}`,
			);
			return `publishing the hand-off first refused (${early.status}); trade ${trade.id}: answered 200; the hand-off failed (checks unpublished) and credited nothing; published again, the failed execution retried credited it once (eventKey ${credited()[0].body.eventKey}); sent again, stopped at the ledger`;
		} finally {
			sandbox.setWebhook(previous ?? null, WEBHOOK_SECRET);
		}
	});
}

let creditRuns = 0;

/** Template 2: a deposit delivered, then delivered again; credited once, one notification, one ledger row. */
export async function creditOnceCheck({ n8n, sandbox, smtp, collector }) {
	// a run after the first (a loop hunting a race) gets its own table, customer and trade
	const suffix = creditRuns++ ? `-${creditRuns}` : '';
	await check(
		'template "Credit each deposit …": the customer from the wallet\'s label; the same delivery twice at once while the credit endpoint fails once, then resent twice: the failure is marked in the ledger and retried, credited and notified once',
		async () => {
			// Its Data Table first (the template's set-up step 1), then the copy with the table's ID in
			// Settings (set-up step 2), created and published through n8n's REST API as the editor does.
			const project = await personalProject(n8n);
			const columns = LEDGER_COLUMNS.map((name) => ({ name, type: 'string' }));
			const table = await n8n.rest('POST', `/projects/${project}/data-tables`, {
				name: `crypto_deposit_ledger_once${suffix}`,
				columns,
			});
			const copy = loadTemplate('creditDeposits', TEMPLATE_BINDINGS);
			copy.name = `e2e: ${copy.name}`;
			delete copy.id;
			setting(copy, 'ledgerTableId', table.id);
			connectApp(copy, `${collector.url}/credit`);
			const trigger = copy.nodes.find((node) => node.name === 'On a Completed Deposit');
			assert(
				trigger.parameters.ignoreDuplicates === false,
				'the template turns Ignore Duplicates off (a resend of a failed credit must reach the ledger)',
			);
			delete trigger.disabled; // set-up step 5: the trigger enabled once the service can reach n8n
			trigger.webhookId = uuid(`e2e-credit-deposits${suffix}`);
			const saved = await n8n.rest('POST', '/workflows', { ...copy, active: false });
			await publishByRest(n8n, saved.id, saved.versionId);
			const url = triggerUrl(n8n.baseUrl, copy);
			await waitFor(
				async () =>
					(
						await httpJson('POST', url, {
							body: { event: 'probe' },
							headers: { 'x-webhook-secret': 'probe' },
						})
					).status === 401,
				{ timeoutMs: 30000, intervalMs: 500, what: `the copy's webhook ${url}` },
			);
			const previous = sandbox.webhookUrl;
			try {
				// The service's delivery of a completed deposit, caught on its way (the sandbox posts to the
				// local receiver), then handed to the workflow twice at the same moment: two n8n processes
				// handling the same delivery (queue mode, or a retry while the first call still runs).
				sandbox.setWebhook(`${collector.url}/deliveries`, WEBHOOK_SECRET);
				const label = `customer-42${suffix}`;
				const wallet = await sandboxApi(
					sandbox,
					'POST',
					'/trades/sell/assets/64f1a2b3c4d5e6f7a8b9c0d2/generate-address',
					{ label },
				);
				const before = smtp.messages.length;
				const trade = await sandboxApi(sandbox, 'POST', '/trades/sell/mock-trade', {
					walletAddress: wallet.address,
					asset: 'TRX_TEST',
					amountInUSD: 25,
					cryptoReceived: '208.3',
					reference: `e2e-template-credit${suffix}`,
					txHash: `e2etemplatecredit1${suffix.replace('-', '')}`,
				});
				const delivery = await waitFor(
					() =>
						collector
							.on('/deliveries')
							.find((hit) => hit.body?.event === 'trade.completed' && hit.body?.id === trade.id),
					{ timeoutMs: 30000, what: 'the trade.completed delivery' },
				);
				const send = () =>
					httpJson('POST', url, {
						body: delivery.body,
						headers: { 'x-webhook-secret': delivery.headers['x-webhook-secret'] },
					});
				// your app fails the first credit (a timeout, a 500): the ledger must let the event through again
				collector.failNext('/credit', 1);
				const answers = await Promise.all([send(), send()]);
				assert(
					answers.every((res) => res.status === 200),
					`the two deliveries were answered ${answers.map((res) => res.status).join(', ')}`,
				);
				const runs = () => n8n.endedExecutions(saved.id);
				await waitFor(async () => (await runs()).length >= 2, {
					timeoutMs: 60000,
					what: 'both executions finished',
				});
				// then twice later, through the service's own resend (sequential): the first retries the failed
				// credit if the run that lost the race did not already, the second stops at the ledger
				sandbox.setWebhook(url, WEBHOOK_SECRET);
				for (const count of [3, 4]) {
					const resent = await sandboxApi(
						sandbox,
						'POST',
						`/transactions/webhooks/resend/${trade.id}`,
					);
					assert(
						Array.isArray(resent) && resent.some((r) => r.status === 'delivered'),
						`resend: ${JSON.stringify(resent)}`,
					);
					await sandbox.settle();
					await waitFor(async () => (await runs()).length >= count, {
						timeoutMs: 60000,
						what: 'the resent delivery ran',
					});
				}
				const calls = collector.on('/credit').filter((hit) => hit.body?.tradeId === trade.id);
				const failedCalls = calls.filter((hit) => hit.status === 500);
				const credited = calls.filter((hit) => hit.status === 200);
				const stopped = (await runs()).filter((e) => e.status === 'error');
				assert(
					failedCalls.length === 1 && stopped.length === 1,
					`failed credit calls ${failedCalls.length}, runs ended in error ${stopped.length}`,
				);
				const emails = smtp.messages
					.slice(before)
					.filter((m) => /Deposit credited/.test(m.subject));
				const rows = await n8n.rest('GET', `/projects/${project}/data-tables/${table.id}/rows`);
				const ledger = (rows?.data ?? rows ?? []).filter((row) => row.tradeId === trade.id);
				assert(
					credited.length === 1,
					`credited ${credited.length} times: ${JSON.stringify(credited.map((h) => h.body))}; ledger rows ${JSON.stringify(ledger)}; runs ${JSON.stringify((await runs()).map((e) => [e.id, e.status]))}`,
				);
				const [hit] = credited;
				assert(
					hit.body.customer === label &&
						hit.body.eventKey &&
						hit.headers['idempotency-key'] === hit.body.eventKey,
					`credit request: ${JSON.stringify({ body: hit.body, key: hit.headers['idempotency-key'] })}`,
				);
				assert(
					emails.length === 1 && emails[0].subject.includes(label),
					`notifications: ${JSON.stringify(emails.map((m) => m.subject))}`,
				);
				const outcomes = ledger.map((row) => row.outcome).sort();
				assert(
					JSON.stringify(outcomes) === JSON.stringify(['credited', 'failed']) &&
						ledger.every((row) => row.eventKey === hit.body.eventKey),
					`ledger rows: ${JSON.stringify(ledger)}`,
				);
				const failedRow = ledger.find((row) => row.outcome === 'failed');
				assert(
					/500|fail/i.test(failedRow.detail ?? ''),
					`the failed row's detail: ${JSON.stringify(failedRow)}`,
				);
				return `trade ${trade.id}: delivered twice at once, then resent twice (${(await runs()).length} executions); the first credit failed (ledger: failed, "${String(failedRow.detail).slice(0, 80)}"; the run ended in error), retried and credited once to ${label} (eventKey ${hit.body.eventKey}), "${emails[0].subject}"`;
			} finally {
				sandbox.setWebhook(previous ?? null, WEBHOOK_SECRET);
			}
		},
	);
}

/**
 * Template 2 exactly as `npm start` imports it (its ledger table made and wired by the same set-up,
 * nothing set by the check), run from the canvas from Try It: a Sample Deposit: the sandbox mocks a
 * deposit to a new wallet, it completes, and the run credits it once (Credit the Customer disabled
 * until an app is connected), marks the ledger row credited under the eventKey the trigger gives
 * that event (the package's own recipe, nodes/events/identity.ts), and emails the team.
 */
export async function creditSampleCheck({ n8n, sandbox, smtp, browser }) {
	await check(
		`template "Credit each deposit …" as imported, from ${browser ? 'the canvas' : 'Execute workflow'} (Try It: a Sample Deposit): a mock deposit credited once under the trigger's eventKey, the team emailed`,
		async () =>
			withRunner(n8n, browser, async ({ start, shot, how }) => {
				const before = smtp.messages.length;
				const run = await executionOf(
					n8n,
					await start(TEMPLATES.creditDeposits.id, 'Try It: a Sample Deposit'),
				);
				await shot('credit-deposits-once-run.png');
				assert(
					run.status === 'success',
					`the run ended ${run.status}: ${JSON.stringify(run.error ?? {}).slice(0, 400)}`,
				);
				const [deposit] = outputOf(run, 'Ask the Sandbox for a Deposit');
				const trade = sandbox.state.trades.find((candidate) => candidate.id === deposit?.id);
				assert(
					trade?.status === 'completed',
					`the sample deposit: ${JSON.stringify(trade ?? deposit).slice(0, 300)}`,
				);
				const { eventKey } = createRequire(import.meta.url)(
					path.join(REPO_ROOT, 'dist', 'nodes', 'events', 'identity.js'),
				);
				const key = eventKey('trade.completed', { id: trade.id, status: 'completed' });
				const rows = (await tableRows(n8n, 'crypto_deposit_ledger')).filter(
					(row) => row.tradeId === trade.id,
				);
				assert(
					rows.length === 1 && rows[0].outcome === 'credited' && rows[0].eventKey === key,
					`ledger rows of ${trade.id}: ${JSON.stringify(rows)}, the trigger's eventKey ${key}`,
				);
				const email = await smtp.next((m) => /Deposit credited/.test(m.subject), {
					after: before,
					timeoutMs: 30000,
				});
				const label = rows[0].customer; // the sample wallet's label, as Deposit Entry names the customer
				assert(
					/^sample-customer-/.test(label) &&
						email.subject.includes(label) &&
						email.subject.includes('25 USD'),
					`the team's email: ${email.subject}; the ledger's customer ${label}`,
				);
				return `from ${how}: trade ${trade.id} credited once (ledger: credited, eventKey ${key} as the trigger gives it); "${email.subject}"`;
			}),
	);
}
