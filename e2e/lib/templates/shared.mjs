// What the template checks share (e2e/lib/template-checks.mjs runs them): the credentials bound to the
// templates' placeholders, changing a template into its test copy, starting a run as the editor's
// Execute workflow button does, reading an execution back, and a published copy of a template.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { START_CREDENTIALS } from '../../../tooling/setup.mjs';
import { handOffNode } from '../../../tooling/verify-delivery.mjs';
import { httpJson, sleep, waitFor } from '../../../tooling/util.mjs';
import { assert } from '../report.mjs';
import { closeChecklist, withEditor } from '../browser.mjs';

/**
 * The e2e's credentials by type, bound to the templates' placeholders as `npm start` binds them:
 * the safest Crypto Settlement credential (sandbox, 100 USD per withdrawal, 500 USD a day, agents
 * off), and the local mailbox (review-checks.mjs's).
 */
export const SAFEST = { id: START_CREDENTIALS.safest.id, name: START_CREDENTIALS.safest.name };
export const MAX_PER_WITHDRAWAL_USD = START_CREDENTIALS.safest.guardrails.maxPerWithdrawalUsd;
export const SMTP = { id: 'csE2eSmtp0000001', name: 'Approvals mailbox (SMTP)' };
export const TEMPLATE_BINDINGS = { cryptoSettlementApi: SAFEST, smtp: SMTP };

export const uuid = (seed) => {
	const h = crypto.createHash('sha256').update(seed).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** Replaces a node by a stand-in of the same name and place (connections and `$('name')` keep working). */
export function standIn(workflow, name, replacement) {
	const at = workflow.nodes.findIndex((node) => node.name === name);
	if (at < 0) throw new Error(`template ${workflow.name} has no node "${name}"`);
	const { id, position } = workflow.nodes[at];
	workflow.nodes[at] = { id, name, position, ...replacement };
}

/** Changes one value of a template's Settings node (as a user fills it in). */
export function setting(workflow, name, value) {
	const assignment = workflow.nodes
		.find((node) => node.name === 'Settings')
		.parameters.assignments.assignments.find((a) => a.name === name);
	if (!assignment) throw new Error(`template ${workflow.name}: no setting ${name}`);
	assignment.value = value;
}

/** Connects the credit template's copy to "your app" (a local receiver), as its set-up step 3 says: the URL, and Credit the Customer enabled. */
export function connectApp(workflow, url) {
	setting(workflow, 'creditUrl', url);
	delete workflow.nodes.find((node) => node.name === 'Credit the Customer').disabled;
}

/** The rows a template's Sample Payout Rows step gives (its Code node run on its own). */
export function sampleRows(workflow) {
	const node = workflow.nodes.find((candidate) => candidate.name === 'Sample Payout Rows');
	return new Function(node.parameters.jsCode)().map((item) => item.json);
}

export const webhookTrigger = (path) => ({
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	parameters: { httpMethod: 'POST', path, options: {} },
	webhookId: uuid(path),
});
/** n8n's Webhook node (Respond Immediately) → Execute Workflow of the checks (docs/trigger.md). */
export function handOffWorkflow(path, checksId) {
	const webhook = {
		id: uuid(`${path}-webhook`),
		name: 'Webhook',
		position: [0, 0],
		...webhookTrigger(path),
	};
	const handOff = { id: uuid(`${path}-hand-off`), position: [220, 0], ...handOffNode(checksId) };
	return {
		name: `e2e: hand a delivery to the checks (${path})`,
		nodes: [webhook, handOff],
		connections: { Webhook: { main: [[{ node: handOff.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}
export const localRows = (rows) => ({
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` },
});
export const postEach = (url) => ({
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: {
		method: 'POST',
		url,
		sendBody: true,
		specifyBody: 'json',
		jsonBody: '={{ JSON.stringify($json) }}',
		options: {},
	},
});

/** n8n's execution data is flatted JSON (objects and strings by index into one array). */
export function unflatted(text) {
	const input = typeof text === 'string' ? JSON.parse(text) : text;
	const done = new Map();
	const revive = (index) => {
		const value = input[index];
		if (typeof value !== 'object' || value === null) return value;
		if (done.has(index)) return done.get(index);
		const out = Array.isArray(value) ? [] : {};
		done.set(index, out);
		for (const [key, entry] of Object.entries(value))
			out[key] = typeof entry === 'string' ? revive(Number(entry)) : entry;
		return out;
	};
	return revive(0);
}

/**
 * Starts a workflow as the editor's Execute workflow button does (POST /rest/workflows/:id/run
 * with the saved workflow and the trigger to start from); resolves the execution's id.
 */
export async function runFromEditor(n8n, workflowId, trigger) {
	const workflowData = await n8n.rest('GET', `/workflows/${workflowId}`);
	const started = await n8n.rest('POST', `/workflows/${workflowId}/run`, {
		workflowData,
		triggerToStartFrom: { name: trigger },
	});
	const id = started?.executionId;
	assert(id, `Execute workflow answered ${JSON.stringify(started).slice(0, 300)}`);
	return String(id);
}

/**
 * Publishes a saved workflow (its `savedVersionId`, else its latest) through the REST call the
 * editor makes (n8n 1.x: activates it).
 */
export async function publishByRest(n8n, workflowId, savedVersionId) {
	const versionId = savedVersionId ?? (await n8n.rest('GET', `/workflows/${workflowId}`)).versionId;
	if (n8n.line === '1')
		await n8n.rest('PATCH', `/workflows/${workflowId}`, { active: true, versionId });
	else await n8n.rest('POST', `/workflows/${workflowId}/activate`, { versionId });
}

/** Unpublishes a workflow through the editor's REST call (n8n 1.x: deactivates it). */
export async function unpublishByRest(n8n, workflowId) {
	if (n8n.line === '1') {
		const { versionId } = await n8n.rest('GET', `/workflows/${workflowId}`);
		await n8n.rest('PATCH', `/workflows/${workflowId}`, { active: false, versionId });
	} else await n8n.rest('POST', `/workflows/${workflowId}/deactivate`, {});
}

/** Whether n8n runs the workflow's published version (n8n 1.x: whether it is active). */
export async function isPublished(n8n, workflowId) {
	const workflow = await n8n.rest('GET', `/workflows/${workflowId}`);
	return n8n.line === '1' ? workflow.active === true : Boolean(workflow.activeVersionId);
}

/**
 * How a check starts a template: in a browser, from the canvas, as a newcomer does (its Execute
 * workflow button; `shot(name)` photographs the canvas into `artifacts`, and with `imagesDir` into
 * templates/images/ too), or without one through the same REST call the button makes. `publish(id)`
 * publishes a workflow the same way: the editor's control, or its REST call.
 */
export async function withRunner(n8n, browser, work) {
	if (!browser)
		return await work({
			start: (workflowId, trigger) => runFromEditor(n8n, workflowId, trigger),
			publish: async (workflowId) => {
				await publishByRest(n8n, workflowId);
				return n8n.line === '1' ? 'activated (REST)' : 'published (REST)';
			},
			shot: async () => undefined,
			how: 'Execute workflow (REST)',
		});
	return await withEditor(n8n, async (page) => {
		const open = async (workflowId) => {
			await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
			await page
				.locator('[data-test-id="execute-workflow-button"]')
				.first()
				.waitFor({ timeout: 60000 });
			await sleep(1500);
			// a workflow another session ran lately opens read-only until this one takes over
			const editHere = page.getByRole('button', { name: 'Edit here' });
			if (await editHere.isVisible().catch(() => false)) {
				await editHere.click();
				await sleep(1000);
			}
		};
		const start = async (workflowId, trigger) => {
			await open(workflowId);
			// the button a newcomer clicks: with several triggers it says which one it starts from
			const label = await page
				.locator('[data-test-id="execute-workflow-button"]')
				.first()
				.innerText();
			assert(
				!/\bfrom\b/.test(label) || label.includes(trigger),
				`the canvas's Execute workflow starts ${label.replace(/\s+/g, ' ')}, not from ${trigger}`,
			);
			const answered = page.waitForResponse(
				(res) =>
					res.request().method() === 'POST' &&
					new URL(res.url()).pathname === `/rest/workflows/${workflowId}/run`,
				{ timeout: 60000 },
			);
			await page.locator('[data-test-id="execute-workflow-button"]').first().click();
			const res = await answered;
			const id = (await res.json().catch(() => ({})))?.data?.executionId;
			assert(res.ok() && id, `the canvas's Execute workflow answered ${res.status()}`);
			return String(id);
		};
		const shot = async (file) => {
			await sleep(2000);
			const at = path.join(browser.artifacts, file);
			await page.screenshot({ path: at });
			if (browser.imagesDir) fs.copyFileSync(at, path.join(browser.imagesDir, file));
			return at;
		};
		const publish = (workflowId) => publishInEditor(n8n, page, workflowId, () => open(workflowId));
		return await work({ start, publish, shot, how: 'the canvas (browser)' });
	});
}

/**
 * A newcomer publishes the open workflow: on n8n 2.x the header's Publish button, then Publish in
 * the dialog it opens (its version name prefilled); on n8n 1.x the header's Inactive/Active switch.
 * Then Got it in the dialog n8n opens ("Workflow published", 1.x: "Workflow activated"), and n8n
 * 2.x's Production Checklist closed. Waits for the editor's REST call to succeed and the header to
 * say so; resolves what was clicked.
 */
async function publishInEditor(n8n, page, workflowId, open) {
	await open();
	const at = `/rest/workflows/${workflowId}`;
	const answered = page.waitForResponse(
		(res) => {
			const { pathname } = new URL(res.url());
			const method = res.request().method();
			return (
				(method === 'POST' && pathname === `${at}/activate`) ||
				(n8n.line === '1' && method === 'PATCH' && pathname === at)
			);
		},
		{ timeout: 90000 },
	);
	let clicked;
	if (n8n.line === '1') {
		await page.locator('[data-test-id="workflow-activate-switch"]').first().click();
		clicked = "the header's Inactive/Active switch";
	} else {
		await page.locator('[data-test-id="workflow-open-publish-modal-button"]').first().click();
		const confirm = page.locator('[data-test-id="workflow-publish-button"]').first();
		await confirm.waitFor({ timeout: 30000 });
		await confirm.click();
		clicked = "the header's Publish, then the dialog's Publish";
	}
	const res = await answered;
	assert(res.ok(), `${clicked}: n8n answered ${res.status()} ${(await res.text()).slice(0, 300)}`);
	// then n8n says what it did, in a dialog closed by its Got it
	const said = n8n.line === '1' ? 'Workflow activated' : 'Workflow published';
	await page.getByText(said, { exact: true }).first().waitFor({ timeout: 30000 });
	const gotIt = page.getByRole('button', { name: 'Got it' }).first();
	await gotIt.click();
	await gotIt.waitFor({ state: 'hidden', timeout: 10000 });
	clicked += `, then Got it in "${said}"`;
	await sleep(1000);
	await closeChecklist(page);
	const header =
		n8n.line === '1'
			? page.locator('[data-test-id="workflow-activator-status"]').first()
			: page.locator('[data-test-id="workflow-open-publish-modal-button"]').first();
	const wanted = n8n.line === '1' ? 'Active' : 'Published';
	await waitFor(async () => (await header.innerText()).trim() === wanted || undefined, {
		timeoutMs: 30000,
		intervalMs: 500,
		what: `the header to say ${wanted}`,
	});
	assert(await isPublished(n8n, workflowId), `${clicked}: n8n does not run it`);
	return `${clicked} (the header says ${wanted})`;
}

/** An execution once it has ended (or waits, with `waiting`): { status, runData, error }. */
export async function executionOf(n8n, id, { waiting = false, timeoutMs = 90000 } = {}) {
	const ended = (status) => !['new', 'running', ...(waiting ? [] : ['waiting'])].includes(status);
	const execution = await waitFor(
		async () => {
			const found = await n8n.rest('GET', `/executions/${id}`).catch(() => undefined);
			return found && ended(found.status) ? found : undefined;
		},
		{ timeoutMs, intervalMs: 500, what: `execution ${id} ${waiting ? 'waiting or ' : ''}ended` },
	);
	const data = unflatted(execution.data);
	return {
		status: execution.status,
		runData: data?.resultData?.runData ?? {},
		error: data?.resultData?.error,
	};
}

/** The items a node output in an execution (every run, first output). */
export const outputOf = (execution, node) =>
	(execution.runData[node] ?? []).flatMap((run) =>
		(run.data?.main?.[0] ?? []).map((item) => item.json),
	);

/** The ledger's columns, as the template's set-up step 1 (and `npm start`) creates them. */
export { LEDGER_COLUMNS } from '../../../tooling/setup.mjs';

/** The personal project's id (Data Tables live in a project). */
export async function personalProject(n8n) {
	return (await n8n.rest('GET', '/projects/personal')).id;
}

/**
 * A template copy started by a Webhook node of its trigger's name (so the running n8n runs it, with
 * its Data Tables: a copy is created after its table), saved and published through REST as the
 * editor does; returns { id, run(): POSTs to it, finished(n): waits for n finished executions }.
 */
export async function publishCopy(n8n, copy, trigger) {
	const hook = `e2e-template-${uuid(copy.name).slice(0, 8)}`;
	standIn(copy, trigger, webhookTrigger(hook));
	const saved = await n8n.rest('POST', '/workflows', { ...copy, id: undefined, active: false });
	await publishByRest(n8n, saved.id, saved.versionId);
	const url = `${n8n.baseUrl}/webhook/${hook}`;
	const run = async () => {
		let res;
		await waitFor(async () => (res = await httpJson('POST', url, { body: {} })).status !== 404, {
			timeoutMs: 30000,
			intervalMs: 500,
			what: `the copy's webhook ${url}`,
		});
		assert(res.status === 200, `${url} answered ${res.status}: ${res.text.slice(0, 200)}`);
	};
	const done = () => n8n.endedExecutions(saved.id);
	const finished = async (count) => {
		const runs = await waitFor(
			async () => ((await done()).length >= count ? await done() : undefined),
			{ timeoutMs: 90000, what: `${count} finished execution(s) of ${copy.name}` },
		);
		const failed = runs.filter((e) => e.status !== 'success');
		if (failed.length) {
			const details = await Promise.all(
				failed.map((e) => n8n.rest('GET', `/executions/${e.id}`).catch(() => ({}))),
			);
			throw new Error(
				`${failed.length} execution(s) of ${copy.name} failed: ${details.map((d) => errorOf(d)).join(' | ')}`,
			);
		}
		return runs;
	};
	return { id: saved.id, run, finished };
}

/** The error of an execution as n8n's REST API gives it (its data is flatted JSON: the message is found by search). */
export function errorOf(execution) {
	const text =
		typeof execution?.data === 'string' ? execution.data : JSON.stringify(execution ?? {});
	return (/"(?:message|description)":"([^"]{4,300})"/.exec(text)?.[1] ?? text.slice(0, 300)).trim();
}
