// One n8n line end to end: a fresh user folder with the packed package installed as n8n's
// community-package installer does, the checks of each phase, then the browser check.
import fs from 'node:fs';
import path from 'node:path';

import { cacheDir, LINES } from '../../tooling/n8n-install.mjs';
import { N8n } from '../../tooling/n8n.mjs';
import { startFakeApi } from '../../tooling/fake-api.mjs';
import {
	E2E,
	EXAMPLES,
	loadTemplate,
	loadWorkflow,
	sandboxCredential,
	seedStatementDay,
	statementVars,
	TEMPLATES,
	triggerUrl,
	WEBHOOK_SECRET,
} from '../../tooling/setup.mjs';
import { freePort, REPO_ROOT, secs } from '../../tooling/util.mjs';
import { builderChecks } from './builder-checks.mjs';
import { agentChecks, agentCredentials, agentWorkflow, startAgentModel } from './agent-checks.mjs';
import { browserCheck, DOCS_PANELS, DOCS_SCREENSHOT, editorCheck } from './browser.mjs';
import { startCollector } from './collector.mjs';
import { errorsCheck } from './error-checks.mjs';
import { firstHourCheck } from './first-hour-checks.mjs';
import { newcomerCredentialCheck } from './newcomer-checks.mjs';
import { executeChecks } from './execute-checks.mjs';
import { assert, check, say, setCurrentLine, skip } from './report.mjs';
import { serverChecks } from './server-checks.mjs';
import { HITL_SCENARIOS, HITL_WORKFLOW, hitlChecks, hitlWorkflow } from './hitl-checks.mjs';
import {
	REVIEW_BINDINGS,
	REVIEW_SCENARIOS,
	REVIEW_WORKFLOW,
	reviewChecks,
	reviewCredentials,
	reviewWorkflow,
} from './review-checks.mjs';
import { startSmtpServer } from './smtp-server.mjs';
import { templateChecks, templateCredentials, templateWorkflows } from './template-checks.mjs';
import {
	MCP_WORKFLOW,
	mcpChecks,
	SUB_WORKFLOW_SCENARIOS,
	SUB_WORKFLOWS,
	subWorkflowAgentChecks,
	subWorkflowCredentials,
	subWorkflowWorkflows,
} from './subworkflow-checks.mjs';
import {
	pollTriggerCheck,
	schedulerPollWorkflow,
	webhookTriggerChecks,
} from './trigger-checks.mjs';

const ARTIFACTS = path.join(REPO_ROOT, 'artifacts', 'e2e');
const TEMPLATES_IMAGES = path.join(REPO_ROOT, 'templates', 'images');

/**
 * The phases a run may be narrowed to (`--only=<phase>[,<phase>]`): install, import and `n8n start`
 * with the owner always run; each phase runs with what it needs activated.
 */
export const PHASES = [
	'execute',
	'agent',
	'trigger',
	'review',
	'hitl',
	'templates',
	'subworkflow',
	'builder',
	'poll',
	'browser',
];

/** `options`: { browserWanted, keep, updateScreenshot, only } from the command line (`only`: phases, or undefined for all). */
export async function runLine(
	line,
	tarball,
	chromium,
	{ browserWanted, keep, updateScreenshot, only },
) {
	const wants = (phase) => !only || only.includes(phase);
	setCurrentLine(`${LINES[line].version}`);
	const lineStart = Date.now();
	say(`\n=== n8n ${LINES[line].version} (Node ${LINES[line].node}) ===`);
	const root = path.join(cacheDir(), 'e2e');
	const userFolder = path.join(root, `n8n-${LINES[line].version}`);
	fs.rmSync(userFolder, { recursive: true, force: true });
	fs.mkdirSync(userFolder, { recursive: true });
	const artifacts = path.join(ARTIFACTS, `n8n-${LINES[line].version}`);
	fs.rmSync(artifacts, { recursive: true, force: true });
	fs.mkdirSync(artifacts, { recursive: true });

	const collector = await startCollector();
	const model = await startAgentModel({
		...REVIEW_SCENARIOS,
		...HITL_SCENARIOS,
		...SUB_WORKFLOW_SCENARIOS,
	});
	const smtp = await startSmtpServer();
	const sandbox = await startFakeApi({
		port: 0,
		maxPageSize: 5,
		lifecycleDelayMs: 300,
		webhookSecret: WEBHOOK_SECRET,
		// phase 1 (n8n execute, no server): the sandbox's webhooks go to the collector's sink
		webhookUrl: `${collector.url}/sink`,
		webhookRetryDelaysMs: [500, 1000],
	});
	// The statement example's day: yesterday (UTC), seeded before anything else moves money.
	const seeded = seedStatementDay(sandbox);
	// E2E_PORT: the first port to try, for a run beside another (the port is taken only when n8n starts).
	const port = await freePort(Number(process.env.E2E_PORT) || 5700 + Number(line) * 10);
	const n8n = new N8n({ line, userFolder, port, logFile: path.join(artifacts, 'n8n-start.log') });
	const templates = templateWorkflows(line);
	const workflows = {
		tour: loadWorkflow('tour'),
		withdrawals: loadWorkflow('withdrawals'),
		batch: loadWorkflow('batch-payouts'),
		trigger: loadWorkflow('trigger'),
		pagination: loadWorkflow('e2e-pagination'),
		fieldRule: loadWorkflow('e2e-field-rule'),
		e2eTrigger: loadWorkflow('e2e-trigger', { COLLECTOR_URL: `${collector.url}/hook` }),
		pollExample: loadWorkflow('poll-trigger'),
		e2ePollTrigger: loadWorkflow('e2e-poll-trigger', { COLLECTOR_URL: `${collector.url}/poll` }),
		// published later, under n8n 2.x's durable scheduler (e2e/lib/trigger-checks.mjs)
		...(line === '2' ? { e2ePollScheduler: schedulerPollWorkflow(collector) } : {}),
		editor: loadWorkflow('e2e-editor'),
		errors: loadWorkflow('e2e-errors'),
		statement: loadWorkflow('statement', statementVars(seeded)),
		// its gated tool uses the review workflow's credentials (n8n 2.x only)
		...(line === '2' ? { firstHour: loadWorkflow('e2e-first-hour') } : {}),
		agent: agentWorkflow(line),
		// the agent template, on both lines (its approval runs on its own, nobody waits for it)
		review: reviewWorkflow(line),
		reviewTemplate: loadTemplate('agentReview', REVIEW_BINDINGS),
		// human review for tools: n8n 2.x only
		...(line === '2' ? { hitl: hitlWorkflow() } : {}),
		...Object.fromEntries(
			[...templates.shipped, ...templates.tests].map((workflow) => [workflow.id, workflow]),
		),
		// sub-workflows an agent calls, and the MCP Server Trigger (issue #42): checked on n8n 2.x
		...(line === '2' ? subWorkflowWorkflows() : {}),
	};
	// e2e only: keep going after a failed node so every operation gets its own PASS/FAIL
	for (const node of workflows.tour.nodes)
		if (node.type.endsWith('.cryptoSettlement')) node.onError = 'continueRegularOutput';

	try {
		let pkg;
		const installed = await check(
			'community package installed into <userFolder>/.n8n/nodes',
			async () => {
				const info = (pkg = await n8n.installPackage(tarball));
				const ledger = JSON.parse(fs.readFileSync(path.join(n8n.nodesDir, 'package.json'), 'utf8'));
				assert(
					ledger.dependencies[info.name] === info.version,
					'nodes/package.json does not list the package',
				);
				assert(
					fs.existsSync(
						path.join(info.dir, 'dist', 'nodes', 'CryptoSettlement', 'CryptoSettlement.node.js'),
					),
					'node file missing',
				);
				return `${info.name}@${info.version}`;
			},
		);
		if (!installed) return;

		const imported = await check('credential + workflows imported with the n8n CLI', async () => {
			await n8n.importCredentials([
				sandboxCredential(sandbox),
				...agentCredentials(sandbox, model),
				...reviewCredentials(sandbox, smtp),
				...templateCredentials(sandbox),
				...subWorkflowCredentials(sandbox),
			]);
			await n8n.importWorkflows(Object.values(workflows));
			return `${Object.keys(workflows).length} workflows`;
		});
		if (!imported) return;

		await check(
			"package recorded in n8n's database as an installed community package",
			async () => {
				const rows = await n8n.registerPackage(pkg);
				assert(rows.nodes.length === 3, `nodes recorded: ${JSON.stringify(rows.nodes)}`);
				return rows.nodes.map((node) => `${node.type} v${node.latestVersion}`).join(', ');
			},
		);

		if (wants('trigger')) {
			await check(
				`trigger workflow activated (${line === '1' ? 'update:workflow --active=true' : 'publish:workflow'})`,
				async () => {
					await n8n.activate(E2E.trigger);
				},
			);
		}

		if (wants('poll')) {
			await check('poll trigger workflow activated (every minute)', async () => {
				await n8n.activate(E2E.pollTrigger);
			});
		}

		if (wants('review') || wants('hitl')) {
			await check(
				`agent template${workflows.hitl ? ' and agent with human review workflows' : ''} activated (their webhooks start the agent; the template's tool runs its ${line === '1' ? 'saved' : 'published'} version)`,
				async () => {
					await n8n.activate(REVIEW_WORKFLOW);
					if (workflows.hitl) await n8n.activate(HITL_WORKFLOW);
				},
			);
		}
		if (line === '2' && wants('subworkflow')) {
			await check(
				'sub-workflows published (n8n 2.x calls their published version) and the MCP Server Trigger workflow activated',
				async () => {
					for (const id of [...Object.values(SUB_WORKFLOWS), MCP_WORKFLOW]) await n8n.activate(id);
				},
			);
		}

		// ---- phase 1: workflows run by `n8n execute` -------------------------------------
		if (wants('execute')) await executeChecks({ n8n, sandbox, seeded, artifacts });
		if (wants('agent')) await agentChecks({ n8n, sandbox, model });

		// ---- phase 2: n8n start with the trigger workflow active ------------------------
		const hookUrl = triggerUrl(n8n.baseUrl, workflows.e2eTrigger);
		sandbox.setWebhook(hookUrl, WEBHOOK_SECRET);
		await sandbox.settle();
		if (!(await serverChecks({ n8n, sandbox, pkg }))) return;
		if (wants('trigger')) await webhookTriggerChecks({ n8n, sandbox, collector, hookUrl });
		if (wants('review')) await reviewChecks({ n8n, sandbox, model, smtp, seeded });
		if (workflows.hitl && wants('hitl')) await hitlChecks({ n8n, sandbox, model, smtp });
		// the sheet templates run from the canvas when a browser is there (their pictures in artifacts,
		// and with --update-screenshot in templates/images/), else through the same REST call
		const templateBrowser =
			browserWanted && chromium.ok
				? { artifacts, imagesDir: updateScreenshot && line === '2' ? TEMPLATES_IMAGES : undefined }
				: undefined;
		if (wants('templates'))
			await templateChecks({
				n8n,
				sandbox,
				smtp,
				collector,
				line,
				seeded,
				browser: templateBrowser,
			});
		if (workflows.mcp && wants('subworkflow')) {
			await subWorkflowAgentChecks({ n8n, sandbox, model });
			await mcpChecks({ n8n, sandbox });
		}
		// an assistant building workflows through n8n's instance MCP server (issue #73): n8n 2.x only
		if (line === '2' && wants('builder')) await builderChecks({ n8n, sandbox, artifacts });
		else if (wants('builder'))
			skip(
				'workflow builder check (instance MCP server)',
				`n8n ${LINES[line].version} has no instance MCP server`,
			);

		// ---- poll trigger: an active workflow polling every minute --------------------------
		if (wants('poll')) await pollTriggerCheck({ n8n, sandbox, collector });

		// ---- browser -------------------------------------------------------------------
		if (!wants('browser')) skip('browser check', `not among --only=${only.join(',')}`);
		else if (!browserWanted) skip('browser check', 'disabled (--no-browser / E2E_BROWSER=0)');
		else if (!chromium.ok && chromium.impossible && process.env.CI !== 'true') {
			skip(
				'browser check',
				`${chromium.reason} (install Debian's chromium to run it; on CI this is a failure)`,
			);
		} else if (!chromium.ok) {
			await check('browser check', async () => {
				throw new Error(`chromium unavailable: ${chromium.reason}`);
			});
		} else {
			await check(
				'browser: withdrawal parameters (BTC: fee level, no network; USDT: network, no fee level)',
				async () => {
					const docsScreenshot = updateScreenshot && line === '2' ? DOCS_SCREENSHOT : undefined;
					const panels = DOCS_PANELS.map((p) => ({ ...p, workflowId: EXAMPLES[p.workflow] }));
					// each template's canvas, its picture in templates/images/ (with --update-screenshot)
					const canvases = Object.values(TEMPLATES)
						.filter(({ id }) => workflows[id] || id === TEMPLATES.agentReview.id)
						.map(({ id, file }) => ({
							workflowId: id,
							node: 'Settings',
							file: `${file}.png`,
							dir: TEMPLATES_IMAGES,
						}));
					const out = await browserCheck({
						n8n,
						workflowId: EXAMPLES.withdrawals,
						artifacts,
						log: say,
						docsScreenshot,
						panels,
						canvases,
					});
					return out;
				},
			);
			await check(
				'browser: a placed node opens on Account → Get, the empty External ID warning, Status choices, the action as subtitle',
				async () => {
					const docsScreenshot = updateScreenshot && line === '2' ? DOCS_SCREENSHOT : undefined;
					return await editorCheck({
						n8n,
						workflowId: E2E.editor,
						mappedWorkflowId: EXAMPLES.withdrawals,
						artifacts,
						docsScreenshot,
					});
				},
			);
			if (line === '2') {
				await check(
					'browser: errors as the editor shows them (row named once, a wrong-chain address refused before sending) and an empty bank account list',
					async () => {
						return await errorsCheck({ n8n, sandbox, workflowId: E2E.errors, artifacts });
					},
				);
				await check(
					'browser: the first hour (issue 45): a batch with a wrong-network address refused before anything is sent, a gated tool run by hand, a list without a credential',
					async () => {
						const docsDir = updateScreenshot ? path.dirname(DOCS_SCREENSHOT) : undefined;
						return await firstHourCheck({
							n8n,
							sandbox,
							workflowId: E2E.firstHour,
							artifacts,
							docsDir,
						});
					},
				);
				// last: it deletes the line's Crypto Settlement credentials
				await check(
					'browser: a node placed by hand gets the safest credential; with no credential at all, its list says to select one (issue 50)',
					async () => {
						return await newcomerCredentialCheck({ n8n, sandbox, artifacts });
					},
				);
			}
		}
	} finally {
		await n8n.stop().catch(() => {});
		await sandbox.close().catch(() => {});
		await collector.close().catch(() => {});
		await model.close().catch(() => {});
		await smtp.close().catch(() => {});
		if (!keep) fs.rmSync(userFolder, { recursive: true, force: true });
		say(
			`--- n8n ${LINES[line].version} done in ${secs(Date.now() - lineStart)}${keep ? ` (kept ${userFolder})` : ''}`,
		);
		setCurrentLine('');
	}
}
