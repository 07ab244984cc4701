#!/usr/bin/env node
// `npm start`: a real n8n with this package installed, a credential pointing at the local
// fake API (fake-api/), the example workflows and the templates (templates/) imported, and the
// trigger workflow active. The agent template runs offline: its chat model is a local scripted
// OpenAI-compatible model (e2e/lib/fake-llm.mjs) and its emails (approvals, the requester's paid or
// declined) go to a local mailbox (e2e/lib/smtp-server.mjs) whose approval links are printed here.
//
//   npm start                      n8n 2.41.x on Node 24 (installed once into the cache)
//   npm start -- --fresh           forget the previous n8n data and fake API state first
//   npm start -- --line=1          n8n 1.123.x on Node 20 instead
//   npm start -- --skip-build      use the current dist/ as is
//   npm start -- --port=5678       first port to try for n8n (the next free one is used)
//   npm start -- --clock=2026-03-11T00:05:00Z   the fake API's clock starts there and runs on (with --fresh
//                                  for a day before the kept state's; docs/fake-api.md, "The service's clock")
//   npm start -- --lifecycle-delay-ms=600000   the fake API's pending records end 10 minutes later (default 1000)
//
// Data lives outside the repo: ${N8N_CS_CACHE:-~/.cache/n8n-nodes-crypto-settlement}/start/n8n-<version>/
// Ctrl-C stops n8n and the fake API.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { cacheDir, ensureN8n, LINES } from '../tooling/n8n-install.mjs';
import { N8n, OWNER, tail } from '../tooling/n8n.mjs';
import { buildPackage, packPackage } from '../tooling/pack.mjs';
import { startFakeApi } from '../tooling/fake-api.mjs';
import {
	EXAMPLES,
	loadTemplate,
	loadWorkflow,
	seedStatementDay,
	setUpTemplateTables,
	START_CREDENTIALS,
	startCredentials,
	statementVars,
	TEMPLATES,
	triggerUrl,
	WEBHOOK_SECRET,
} from '../tooling/setup.mjs';
import { startFakeLlm } from '../e2e/lib/fake-llm.mjs';
import { approvalLinks, mailText, startSmtpServer } from '../e2e/lib/smtp-server.mjs';
import { freePort, readJson, secs, writeJson } from '../tooling/util.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const value = (name, fallback) =>
	argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;

const line = value('line', process.env.N8N_LINE || '2');
const fresh = flag('fresh');
const skipBuild = flag('skip-build');
const firstPort = Number(value('port', process.env.N8N_PORT || 5678));
const firstSandboxPort = Number(value('sandbox-port', process.env.SANDBOX_PORT || 5680));
// --clock=<instant> or --clock <instant> (or SANDBOX_CLOCK): where the fake API's clock starts
const lifecycleDelayMs =
	value('lifecycle-delay-ms') === undefined ? undefined : Number(value('lifecycle-delay-ms'));
const clock =
	value('clock') ??
	(argv.includes('--clock') ? argv[argv.indexOf('--clock') + 1] : undefined) ??
	(process.env.SANDBOX_CLOCK || undefined);

const t0 = Date.now();
const step = (msg) => process.stdout.write(`[start ${secs(Date.now() - t0).padStart(6)}] ${msg}\n`);

// poll-trigger is imported inactive (its sticky note explains how to start it).
const EXAMPLE_FILES = {
	tour: 'tour',
	withdrawals: 'withdrawals',
	batch: 'batch-payouts',
	trigger: 'trigger',
	pollTrigger: 'poll-trigger',
};

/** The local stand-ins the templates are connected to (their placeholders bound by type, tooling/setup.mjs). */
const LOCAL = {
	model: { id: 'csStartLocalLlm1', name: 'Local scripted model (npm start)' },
	mailbox: { id: 'csStartMailbox01', name: 'Local mailbox (npm start)' },
};
const ref = ({ id, name }) => ({ id, name });
/**
 * Each template's bindings: the safest credential (sandbox, limits, agents off), except the agent
 * template, whose Dry Run and payment run in the run its tool starts: it gets the same limits with
 * Allow Sub-Workflow Payments on (templates/README.md says why).
 */
const templateBindings = (key) => ({
	cryptoSettlementApi: ref(
		key === 'agentReview' ? START_CREDENTIALS.agentTemplate : START_CREDENTIALS.safest,
	),
	smtp: LOCAL.mailbox,
	openAiApi: LOCAL.model,
});

async function main() {
	if (!LINES[line]) throw new Error(`unknown --line=${line} (use 2 or 1)`);
	const version = LINES[line].version;
	step(`n8n ${version} on Node ${LINES[line].node}; cache ${cacheDir()}`);

	// 1. build + pack, 2. n8n (cached after the first run)
	if (!skipBuild) await buildPackage({ log: step });
	const tarball = await packPackage({ log: step });
	const inst = ensureN8n(line);
	step(`n8n ${inst.version} ${inst.cached ? 'found in the cache' : 'installed'}: ${inst.dir}`);

	// 3. user folder (kept between runs unless --fresh)
	const userFolder = path.join(cacheDir(), 'start', `n8n-${version}`);
	if (fresh) {
		fs.rmSync(userFolder, { recursive: true, force: true });
		step('--fresh: previous n8n data and fake API state removed');
	}
	fs.mkdirSync(userFolder, { recursive: true });

	// 4. ports: n8n on 5678 (or the next free), the fake API on 5680 (or the next free)
	const port = await freePort(firstPort);
	let sandboxPort = await freePort(firstSandboxPort);
	if (sandboxPort === port) sandboxPort = await freePort(port + 1);
	const n8n = new N8n({ line, userFolder, port, logFile: path.join(userFolder, 'n8n.log') });

	// 5. the fake API, posting its webhooks to the example trigger workflow's production URL
	const workflows = {
		...Object.fromEntries(
			Object.entries(EXAMPLE_FILES).map(([key, file]) => [key, loadWorkflow(file)]),
		),
		...Object.fromEntries(
			Object.keys(TEMPLATES).map((key) => [key, loadTemplate(key, templateBindings(key))]),
		),
	};
	const webhookUrl = triggerUrl(n8n.baseUrl, workflows.trigger);
	const sandbox = await startFakeApi(
		{
			port: sandboxPort,
			webhookUrl,
			webhookSecret: WEBHOOK_SECRET,
			stateFile: path.join(userFolder, 'sandbox-state.json'),
			clock,
			lifecycleDelayMs,
		},
		{ log: step },
	);
	step(
		`fake API listening on ${sandbox.url}; its clock: ${new Date(sandbox.now()).toISOString()}${clock ? ' (--clock)' : ''} (move it: POST ${sandbox.url.replace(/\/v1$/, '')}/_sandbox/clock)`,
	);
	// The statement example's day: yesterday (UTC) by the fake API's clock, seeded once with every kind of line.
	const seeded = seedStatementDay(sandbox, sandbox.now());
	// The agent template's own sandbox account, so that its Max per Day counts only its own payments,
	// not the examples' and the other templates' (issue 70); no webhooks.
	const agentAccount = await startFakeApi({
		port: await freePort(sandboxPort + 1 === port ? port + 1 : sandboxPort + 1),
		appId: 'demo-agent-template-app-id',
		stateFile: path.join(userFolder, 'sandbox-agent-state.json'),
		clock,
		lifecycleDelayMs,
	});
	workflows.statement = loadWorkflow('statement', statementVars(seeded));
	step(
		`yesterday (${seeded.day}) seeded in the fake API for the statement example: ${seeded.trades + seeded.withdrawals} records`,
	);

	// the agent template's local model and mailbox; each approval email's links are printed
	const model = await startFakeLlm({}, { demo: true });
	// each email n8n sends, whole: what the approver reads, then the links (open them in a browser:
	// n8n ignores an approval link opened by a client that is not a browser, e.g. curl)
	const mailbox = await startSmtpServer({
		onMessage: (email) => {
			const { approve, decline } = approvalLinks(email);
			const body = mailText(email).replace(/(.{1,100})(\s+|$)/g, '      $1\n');
			process.stdout.write(
				`\n  Email to ${email.to.join(', ')}: "${email.subject}"\n${body}${approve ? `    Approve  ${approve}\n` : ''}${decline ? `    Decline  ${decline}\n` : ''}${approve ? '    (open the links in a browser: n8n ignores them from curl and other non-browser clients)\n' : ''}`,
			);
		},
	});
	step(`local scripted model on ${model.url}/v1, local mailbox on 127.0.0.1:${mailbox.port}`);

	let stopping = false;
	const stop = async (code = 0) => {
		if (stopping) return;
		stopping = true;
		step('stopping n8n and the fake API…');
		await n8n.stop().catch(() => {});
		await sandbox.close().catch(() => {});
		await agentAccount?.close().catch(() => {});
		await model.close().catch(() => {});
		await mailbox.close().catch(() => {});
		step('stopped');
		process.exit(code);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));

	try {
		// 6. the package, installed as n8n's community-package installer does
		const pkg = await n8n.installPackage(tarball);
		step(`installed ${pkg.name}@${pkg.version} into ${n8n.nodesDir}`);

		// 7. the credential (every start: the fake API port may differ) and the example workflows
		// the other types first, then the Crypto Settlement ones, the safest updated last
		const older = new Date(Date.now() - 3600000).toISOString();
		await n8n.importCredentials([
			{
				...LOCAL.model,
				type: 'openAiApi',
				data: { apiKey: 'local-scripted-model', url: `${model.url}/v1` },
				createdAt: older,
				updatedAt: older,
			},
			{
				...LOCAL.mailbox,
				type: 'smtp',
				data: {
					user: '',
					password: '',
					host: '127.0.0.1',
					port: mailbox.port,
					secure: false,
					disableStartTls: true,
				},
				createdAt: older,
				updatedAt: older,
			},
			...startCredentials(sandbox, Date.now(), { agentTemplate: agentAccount }),
		]);
		step(
			`credentials imported (n8n import:credentials): ${[...Object.values(START_CREDENTIALS), ...Object.values(LOCAL)].map((c) => `"${c.name}"`).join(', ')}`,
		);
		await n8n.registerPackage(pkg);
		step('package recorded as an installed community package (Settings → Community nodes)');
		const markerFile = path.join(userFolder, 'examples.json');
		const marker = fs.existsSync(markerFile) ? readJson(markerFile) : {};
		const changed = Object.values(workflows).filter((wf) => marker[wf.id] !== hashOf(wf));
		if (changed.length) {
			await n8n.importWorkflows(changed);
			step(
				`workflows imported (n8n import:workflow): ${changed.map((wf) => `"${wf.name}"`).join(', ')}`,
			);
			if (changed.some((wf) => wf.id === EXAMPLES.trigger)) {
				await n8n.activate(EXAMPLES.trigger);
				step(
					`trigger workflow activated (${line === '1' ? 'n8n update:workflow --active=true' : 'n8n publish:workflow'})`,
				);
			}
			// the agent template answers its webhook, and its tool runs its published version (n8n 2.x)
			if (changed.some((wf) => wf.id === TEMPLATES.agentReview.id)) {
				await n8n.activate(TEMPLATES.agentReview.id);
				step(
					`agent template ${line === '1' ? 'activated' : 'published'}: it answers POST /webhook/payout-request`,
				);
			}
			writeJson(
				markerFile,
				Object.fromEntries(Object.values(workflows).map((wf) => [wf.id, hashOf(wf)])),
			);
		} else {
			step('example workflows already imported (unchanged)');
		}

		// 8. n8n itself
		step(`starting n8n on ${n8n.baseUrl} (log: ${n8n.logFile})`);
		n8n.onExit = ({ code, signal }) => {
			if (stopping) return;
			process.stdout.write(
				`\nn8n exited unexpectedly (${code ?? signal}); last log lines:\n${tail(fs.readFileSync(n8n.logFile, 'utf8'), 30)}\n`,
			);
			stop(1);
		};
		await n8n.start({ timeoutMs: 240000, progress: step });
		const owner = await n8n.setupOwner();
		step(`n8n is up${owner.created ? '; owner account created' : ''}`);
		// the templates' Data Tables (made once, found again by name), their ids in the templates' Settings
		await setUpTemplateTables(n8n, { seeded, log: step });

		const sandboxOrigin = sandbox.url.replace(/\/v1$/, '');
		const names = Object.values(workflows).map(
			(wf) => `    - ${wf.name}  ${n8n.baseUrl}/workflow/${wf.id}`,
		);
		process.stdout.write(
			[
				'',
				`  n8n ${version} is running with ${pkg.name}@${pkg.version}`,
				'',
				`  Editor      ${n8n.baseUrl}`,
				`  Login       ${OWNER.email}  /  ${OWNER.password}`,
				'',
				`  Fake API    ${sandbox.url}`,
				`              app id ${sandbox.appId}   app secret ${sandbox.appSecret}   PIN ${sandbox.pin}   webhook secret ${WEBHOOK_SECRET}`,
				`              (stored in the n8n credentials below; a new Crypto Settlement node gets the first, the safest)`,
				...(agentAccount
					? [
							`              the agent template's own account: ${agentAccount.url}   app id ${agentAccount.appId}`,
						]
					: []),
				...Object.values(START_CREDENTIALS).map((c) => `                "${c.name}"`),
				'',
				'  Workflows',
				...names,
				`  The trigger workflow is ${line === '1' ? 'active' : 'published'}: the fake API posts its webhooks to`,
				`    ${webhookUrl}`,
				"  Run the tour or the withdrawals workflow, then watch the trigger's executions (Overview → Executions).",
				'',
				'  Templates (templates/README.md), connected to the safest credential and the local mailbox:',
				`    Pay vendors: open it, Execute workflow (sample rows), approve from the email printed here; run it again: nobody is asked, every row already paid`,
				`    Check the sheet: Execute workflow after Pay vendors: its sample rows read paid, different and missing`,
				`    Daily statement: Execute workflow: yesterday's files, then its exceptions, by email printed here; balances kept in a Data Table`,
				`    Credit deposits: Execute workflow from "Try It: a Sample Deposit": a mock deposit credited once, the team's email printed here`,
				`    Balance alert: ${line === '1' ? 'switch it from Inactive to Active' : 'Publish it (and Publish in its dialog)'}; curl -X PUT ${sandboxOrigin}/_sandbox/balances -d '{"usd":500}' → one "Low balance" email within a minute; '{"usd":10000}' → one "Balance restored"`,
				'  Try the agent template offline (a local scripted model; its emails are printed here). It answers in words:',
				'  waiting for approval (who was asked); again before the approval: already waiting, no second email; approve from',
				'  the email: the requester (replyTo) gets "Paid" with the figures; send it again: already paid, with the figures',
				`    curl -X POST ${n8n.baseUrl}/webhook/payout-request -H 'content-type: application/json' -d '{"request":"Pay supplier order INV-1001: 40 USD","replyTo":"finance@example.com"}'`,
				'',
				`  Testing a trigger of your own (${line === '1' ? '"Listen for test event"' : '"Execute step"'} on a new Crypto Settlement Trigger)?`,
				"  Send the fake API's webhooks to its Test URL (copy it from the node's Webhook URLs), with one command:",
				`    node fake-api/webhook.mjs ${n8n.baseUrl}/webhook-test/<webhook id>/webhook --fake-api=${sandboxOrigin}`,
				'  and back to the example workflow afterwards:',
				`    node fake-api/webhook.mjs ${webhookUrl} --fake-api=${sandboxOrigin}`,
				`  (or: curl -X PUT ${sandboxOrigin}/_sandbox/webhook -d '{"url":"<url>"}')`,
				'',
				`  Data        ${userFolder}   (npm start -- --fresh resets it)`,
				'',
				'  Press Ctrl-C to stop n8n and the fake API.',
				'',
			].join('\n'),
		);
	} catch (error) {
		process.stdout.write(`\nnpm start failed: ${error?.stack || error}\n`);
		await stop(1);
	}
}

function hashOf(workflow) {
	return crypto.createHash('sha256').update(JSON.stringify(workflow)).digest('hex').slice(0, 16);
}

main().catch((error) => {
	process.stdout.write(`npm start failed: ${error?.stack || error}\n`);
	process.exit(1);
});
