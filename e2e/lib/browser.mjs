// Browser check: headless Chromium (Debian's `chromium`) driven by playwright-core opens the n8n
// editor, opens the withdrawal nodes' parameter panels and screenshots them.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { REPO_ROOT, runCommand, sleep } from '../../tooling/util.mjs';
import { GUARDED_CREDENTIAL } from './agent-checks.mjs';
import { credentialGuardrailsCheck } from './credential-screenshot.mjs';

export const CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
];

/**
 * Makes sure /usr/bin/chromium exists: installs Debian's package with apt-get when missing
 * (idempotent). Resolves { ok, reason }.
 */
export async function ensureChromium({ log = () => {} } = {}) {
	if (fs.existsSync(CHROMIUM)) return { ok: true, installed: false };
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const aptGet = '/usr/bin/apt-get';
	if (!fs.existsSync(aptGet))
		return { ok: false, impossible: true, reason: `${CHROMIUM} missing and apt-get not available` };
	if (!isRoot && !fs.existsSync('/usr/bin/sudo')) {
		return {
			ok: false,
			impossible: true,
			reason: `${CHROMIUM} missing; not root and no sudo to run apt-get install chromium`,
		};
	}
	const sudo = isRoot ? [] : ['sudo', '-n'];
	const run = (args) =>
		runCommand(sudo[0] || aptGet, [...sudo.slice(1), ...(sudo.length ? [aptGet] : []), ...args], {
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
			timeoutMs: 900000,
		});
	log('installing Debian package chromium (apt-get) for the browser check');
	const t0 = Date.now();
	let res = await run(['install', '-y', '-qq', 'chromium']);
	if (res.code !== 0) {
		const upd = await run(['update', '-qq']);
		if (upd.code !== 0)
			return { ok: false, reason: `apt-get update failed: ${upd.stderr.slice(-500)}` };
		res = await run(['install', '-y', '-qq', 'chromium']);
	}
	if (res.code !== 0 || !fs.existsSync(CHROMIUM)) {
		return {
			ok: false,
			reason: `apt-get install chromium failed: ${(res.stderr || res.stdout).slice(-800)}`,
		};
	}
	log(`chromium installed in ${Math.round((Date.now() - t0) / 1000)}s`);
	return { ok: true, installed: true };
}

function loadPlaywright() {
	const require = createRequire(path.join(REPO_ROOT, 'package.json'));
	return require('playwright-core');
}

/** Parameter names shown in the open node details view. */
async function shownParameters(page) {
	return await page.evaluate(() =>
		[...document.querySelectorAll('[data-test-id^="parameter-input-"]')]
			.map((el) => el.getAttribute('data-test-id').replace(/^parameter-input-/, ''))
			.filter(
				(name) =>
					!/^(field|hint|item|list-wrapper|issues-container|options-container|persistent-options-container)$/.test(
						name,
					),
			),
	);
}

export async function openNode(
	page,
	baseUrl,
	workflow,
	nodeName,
	ready = '[data-test-id="parameter-input-resource"], [data-test-id="parameter-input-operation"]',
) {
	const node = workflow.nodes.find((n) => n.name === nodeName);
	if (!node) throw new Error(`node ${nodeName} not in workflow ${workflow.id}`);
	const ndv = page.locator('[data-test-id="ndv"]');
	// The editor route /workflow/:id/:nodeId opens the node's details view directly.
	await page.goto(`${baseUrl}/workflow/${workflow.id}/${node.id}`, {
		waitUntil: 'domcontentloaded',
	});
	try {
		await page.locator(ready).first().waitFor({ timeout: 20000 });
		return 'url';
	} catch {
		/* fall back to the canvas */
	}
	await page.goto(`${baseUrl}/workflow/${workflow.id}`, { waitUntil: 'domcontentloaded' });
	const onCanvas = page.locator(`[data-node-name="${nodeName}"]`).first();
	await onCanvas.waitFor({ timeout: 30000 });
	await onCanvas.dblclick();
	await ndv.first().waitFor({ timeout: 20000 });
	await page.locator(ready).first().waitFor({ timeout: 20000 });
	return 'canvas';
}

/** A page of the n8n editor, logged in, for `work(page)`; the browser is closed afterwards. */
export async function withEditor(n8n, work) {
	const { chromium } = loadPlaywright();
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
		timeout: 60000,
	});
	try {
		const context = await browser.newContext({
			viewport: { width: 1440, height: 1000 },
			deviceScaleFactor: 1,
		});
		await context.addCookies(
			n8n.cookies().map(({ name, value }) => ({ name, value, url: n8n.baseUrl })),
		);
		const page = await context.newPage();
		page.setDefaultTimeout(30000);
		// Leaving a workflow changed by a check (an operation switched) must not stop the next one.
		page.on('dialog', (dialog) => dialog.accept().catch(() => {}));
		return await work(page);
	} finally {
		await browser.close().catch(() => {});
	}
}

/** The README's picture of that warning, in docs/images/. */
const EMPTY_EXTERNAL_ID_PICTURE = 'empty-external-id-warning.png';

/** The start of the warning shown while a withdrawal's External ID is empty (operations/withdrawal.ts). */
const EMPTY_EXTERNAL_ID = 'External ID is empty, so each run derives a new one';

/**
 * What only the editor shows (issue 27), in the e2e-editor workflow: a node placed with every
 * default (and the node as an AI Agent's tool, on n8n 2.x) opens on Account → Get; the warning
 * about an empty External ID shows while it is empty and goes once a value is typed, and stays
 * away from a mapped External ID the editor cannot resolve yet; Status offers the known statuses;
 * the canvas subtitle is the action.
 */
export async function editorCheck({
	n8n,
	workflowId,
	mappedWorkflowId,
	artifacts,
	docsScreenshot,
}) {
	const workflow = await n8n.rest('GET', `/workflows/${workflowId}`);
	const mapped = await n8n.rest('GET', `/workflows/${mappedWorkflowId}`);
	return await withEditor(n8n, async (page) => {
		const notes = [];
		const panelText = async () => await page.locator('[data-test-id="ndv"]').first().innerText();
		const valueOf = async (name) =>
			await page.locator(`[data-test-id="parameter-input-${name}"] input`).first().inputValue();
		const shot = async (file) => {
			await page.screenshot({ path: path.join(artifacts, file) });
			return path.join(artifacts, file);
		};

		const placed = n8n.line === '2' ? ['Placed Node', 'Placed Tool'] : ['Placed Node'];
		for (const name of placed) {
			await openNode(page, n8n.baseUrl, workflow, name);
			await sleep(1000);
			const chosen = [await valueOf('resource'), await valueOf('operation')];
			const file = await shot(`${name.toLowerCase().replace(/ /g, '-')}.png`);
			if (chosen.join(' → ') !== 'Account → Get')
				throw new Error(
					`${name} opens on ${chosen.join(' → ')}, not Account → Get (screenshot ${file})`,
				);
		}
		notes.push(`${placed.join(' and ')} open on Account → Get`);

		await openNode(
			page,
			n8n.baseUrl,
			workflow,
			'Empty External ID',
			'[data-test-id="parameter-input-externalId"]',
		);
		await sleep(1500);
		let file = await shot('external-id-empty.png');
		if (!(await panelText()).includes(EMPTY_EXTERNAL_ID))
			throw new Error(`no warning while External ID is empty (screenshot ${file})`);
		// The README shows it (docs/images/, beside DOCS_SCREENSHOT).
		if (docsScreenshot)
			fs.copyFileSync(file, path.join(path.dirname(docsScreenshot), EMPTY_EXTERNAL_ID_PICTURE));
		const input = page.locator('[data-test-id="parameter-input-externalId"] input').first();
		await input.click();
		await input.fill('order-1042');
		await sleep(1500);
		file = await shot('external-id-typed.png');
		if ((await panelText()).includes(EMPTY_EXTERNAL_ID))
			throw new Error(`the warning stays once External ID is typed (screenshot ${file})`);
		await openNode(
			page,
			n8n.baseUrl,
			mapped,
			'BTC Withdrawal',
			'[data-test-id="parameter-input-externalId"]',
		);
		await sleep(2000);
		file = await shot('external-id-mapped.png');
		if ((await panelText()).includes(EMPTY_EXTERNAL_ID))
			throw new Error(`the warning shows for a mapped External ID (screenshot ${file})`);
		notes.push('External ID warning shown while empty, gone once typed, absent when mapped');

		await openNode(
			page,
			n8n.baseUrl,
			workflow,
			'Withdrawals by Status',
			'[data-test-id="parameter-input-status"]',
		);
		await sleep(1000);
		await page.locator('[data-test-id="parameter-input-status"]').first().click();
		await sleep(800);
		const statuses = await page.evaluate(() =>
			[...document.querySelectorAll('.el-select-dropdown__item')]
				.filter((el) => el.offsetParent !== null)
				.map((el) => el.innerText.split('\n')[0].trim()),
		);
		file = await shot('status-options.png');
		// The choices the records give (every withdrawal status), as the built node has them.
		const expected = createRequire(path.join(REPO_ROOT, 'package.json'))(
			path.join(REPO_ROOT, 'dist/nodes/service/catalog.js'),
		)
			.statusesOf('withdrawal')
			.map((status) => status[0].toUpperCase() + status.slice(1));
		if (statuses.join() !== expected.join())
			throw new Error(
				`Status offers ${JSON.stringify(statuses)}, not ${JSON.stringify(expected)} (screenshot ${file})`,
			);
		notes.push(`Status offers ${statuses.join(', ')}`);

		await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
		const onCanvas = page.locator('[data-node-name="Withdrawals by Status"]').first();
		await onCanvas.waitFor({ timeout: 30000 });
		await sleep(1000);
		const canvasText = await onCanvas.innerText();
		file = await shot('canvas-subtitles.png');
		if (!canvasText.includes('Get many withdrawals'))
			throw new Error(
				`the canvas subtitle reads ${JSON.stringify(canvasText)} (screenshot ${file})`,
			);
		notes.push('subtitle "Get many withdrawals"');

		notes.push(await beforePayingCheck({ page, n8n, workflow, shot, panelText, docsScreenshot }));
		return notes.join('; ');
	});
}

/** README pictures of issue 36 (docs/images/, beside DOCS_SCREENSHOT). */
const DRY_RUN_PICTURE = 'dry-run-output.png';
const AGENT_TOOL_PICTURE = 'agent-tool-panel.png';

/** The start of the hint an agent's tool shows instead of the External ID warning (operations/withdrawal.ts). */
const AGENT_TOOL =
	"As an AI agent's tool, this node moves money only if the owner of its credential turned on Allow Agent Payments";

/** The start of the hint that points a person to Dry Run while it is off (operations/withdrawal.ts). */
const GUARDRAILS = 'This step pays. Run a Dry Run first';

/** README picture of the guardrails a money-moving node's panel shows (docs/images/). */
const GUARDRAILS_FIELD_PICTURE = 'node-guardrails-field.png';

/** What the Credential Guardrails field shows for these guardrails, as the built node words it. */
function guardrailsShown(credential, options) {
	const { guardrailsInShort } = createRequire(path.join(REPO_ROOT, 'package.json'))(
		path.join(REPO_ROOT, 'dist/nodes/CryptoSettlement/money/guardrailSummary.js'),
	);
	return guardrailsInShort(
		{ environment: 'sandbox', ...credential.guardrails },
		credential.name,
		options,
	).name;
}

/** The text the Credential Guardrails field shows once the editor has loaded it ('' if it never does). */
async function fieldShown(page, expected) {
	const input = page.locator('[data-test-id="parameter-input-credentialGuardrails"] input').first();
	let text = '';
	for (let waited = 0; waited < 30000; waited += 500) {
		text = await input.inputValue().catch(() => '');
		if (text === expected) break;
		await sleep(500);
	}
	return text;
}

/**
 * The panel of a money-moving node shows its credential's guardrails before any run (issue 36):
 * the sandbox credential (the defaults) reads ⚠ with "no limit" for each guardrail; switching the
 * node to a configured credential (GUARDED_CREDENTIAL) changes the field to its limits; a read
 * does not show the field; the node as an agent's tool first says whether agents may pay.
 */
async function guardrailsFieldCheck({ page, n8n, workflow, shot, toDocs }) {
	const notes = [];
	const defaults = guardrailsShown({ name: 'Crypto Settlement Sandbox', guardrails: {} });
	const configured = guardrailsShown(GUARDED_CREDENTIAL);
	await openNode(
		page,
		n8n.baseUrl,
		workflow,
		'Empty External ID',
		'[data-test-id="parameter-input-credentialGuardrails"]',
	);
	let shown = await fieldShown(page, defaults);
	let file = await shot('guardrails-field-defaults.png');
	if (shown !== defaults)
		throw new Error(
			`Credential Guardrails shows ${JSON.stringify(shown)} for the defaults, not ${JSON.stringify(defaults)} (screenshot ${file})`,
		);
	notes.push(`the defaults credential's panel reads "${shown}"`);

	await page.locator('[data-test-id="node-credentials-select"]').first().click();
	await sleep(800);
	await page
		.locator(
			`[data-test-id="node-credentials-select-item-${GUARDED_CREDENTIAL.id}"], .el-select-dropdown__item:has-text("${GUARDED_CREDENTIAL.name}")`,
		)
		.first()
		.click();
	shown = await fieldShown(page, configured);
	file = await shot('guardrails-field-configured.png');
	if (shown !== configured)
		throw new Error(
			`after switching to ${GUARDED_CREDENTIAL.name}, Credential Guardrails shows ${JSON.stringify(shown)}, not ${JSON.stringify(configured)} (screenshot ${file})`,
		);
	if (
		await page
			.locator(
				'[data-test-id="parameter-input-credentialGuardrails"] [data-test-id="parameter-issues"]',
			)
			.count()
	) {
		throw new Error(`Credential Guardrails is flagged as an issue (screenshot ${file})`);
	}
	// The list open: its one entry shows the name whole (the field may cut it short) and what agents may do.
	await page.locator('[data-test-id="parameter-input-credentialGuardrails"]').first().click();
	await sleep(1000);
	file = await shot(GUARDRAILS_FIELD_PICTURE);
	const entry = await page
		.locator('.el-select-dropdown__item')
		.filter({ hasText: configured })
		.first()
		.innerText()
		.catch(() => '');
	if (!entry.includes('AI agents may pay, without review'))
		throw new Error(
			`the open list shows ${JSON.stringify(entry)}, not what agents may do (screenshot ${file})`,
		);
	await page.keyboard.press('Escape');
	toDocs(file, GUARDRAILS_FIELD_PICTURE);
	notes.push(
		`switched to the configured credential it reads "${shown}", its open list adding what agents may do`,
	);

	await openNode(
		page,
		n8n.baseUrl,
		workflow,
		'Withdrawals by Status',
		'[data-test-id="parameter-input-status"]',
	);
	await sleep(1000);
	if ((await shownParameters(page)).includes('credentialGuardrails'))
		throw new Error(
			`a read (Withdrawals by Status) shows Credential Guardrails (screenshot ${await shot('guardrails-field-read.png')})`,
		);
	notes.push('a read shows no guardrails');

	if (n8n.line === '2') {
		const asTool = guardrailsShown(
			{ name: 'Crypto Settlement Sandbox', guardrails: {} },
			{ asTool: true },
		);
		await openNode(
			page,
			n8n.baseUrl,
			workflow,
			'Pay Supplier Tool',
			'[data-test-id="parameter-input-credentialGuardrails"]',
		);
		shown = await fieldShown(page, asTool);
		if (shown !== asTool)
			throw new Error(
				`the agent's tool shows ${JSON.stringify(shown)}, not ${JSON.stringify(asTool)} (screenshot ${await shot('guardrails-field-tool.png')})`,
			);
		notes.push(`the agent's tool reads "${shown}"`);
	}
	return notes.join('; ');
}

/**
 * What a person sees before paying (issue 36), in the e2e-editor workflow: the credential's
 * guardrails (guardrailsFieldCheck); Dry Run at the top of the payment; while it is off, a hint
 * points to it; Execute step on a Dry Run names the credential's guardrails ("no limit" for the
 * sandbox credential) and states what leaves the balance, the fee and what the recipient
 * receives, each with its unit (10 USD of USDT on TRC20, whose fee is 1.50 USD in the fake API,
 * borne by the recipient: 8.50 USD arrives), and nothing is paid; Dry Run stays on when the
 * operation changes to Create Bank; the node as an agent's tool says what an agent may do
 * instead of the manual-run warning.
 */
async function beforePayingCheck({ page, n8n, workflow, shot, panelText, docsScreenshot }) {
	const notes = [];
	const toDocs = (file, picture) =>
		docsScreenshot && fs.copyFileSync(file, path.join(path.dirname(docsScreenshot), picture));
	notes.push(await guardrailsFieldCheck({ page, n8n, workflow, shot, toDocs }));
	const switchedOn = async (name) =>
		(await page
			.locator(`[data-test-id="parameter-input-${name}"] [role="switch"]`)
			.first()
			.getAttribute('aria-checked')) === 'true';

	// While Dry Run is off (Empty External ID), the node points to it; on (Dry Run Payout), it does not.
	await openNode(
		page,
		n8n.baseUrl,
		workflow,
		'Empty External ID',
		'[data-test-id="parameter-input-dryRun"]',
	);
	await sleep(1500);
	let file = await shot('guardrails-hint.png');
	const order = await shownParameters(page);
	if (order.indexOf('dryRun') < 0 || order.indexOf('dryRun') > order.indexOf('token'))
		throw new Error(
			`Dry Run is not above the payment's fields: ${JSON.stringify(order)} (screenshot ${file})`,
		);
	if (!(await panelText()).includes(GUARDRAILS))
		throw new Error(`no hint points to Dry Run while it is off (screenshot ${file})`);
	await openNode(
		page,
		n8n.baseUrl,
		workflow,
		'Dry Run Payout',
		'[data-test-id="parameter-input-dryRun"]',
	);
	await sleep(1500);
	file = await shot('dry-run-on.png');
	if ((await panelText()).includes(GUARDRAILS))
		throw new Error(`the hint pointing to Dry Run stays while it is on (screenshot ${file})`);
	notes.push('Dry Run above the payment; a hint points to it while it is off');

	await page.locator('[data-test-id="node-execute-button"]').first().click();
	await page
		.getByText('Node executed successfully')
		.first()
		.waitFor({ timeout: 60000 })
		.catch(() => {});
	// The output as JSON, where the payout (first after the message) reads as one block.
	await page
		.getByText('JSON', { exact: true })
		.last()
		.click()
		.catch(() => {});
	await page
		.getByText('recipientReceives')
		.first()
		.waitFor({ timeout: 30000 })
		.catch(() => {});
	await sleep(1500);
	file = await shot(DRY_RUN_PICTURE);
	const output = await panelText();
	for (const text of [
		'10.00 USD',
		'1.5',
		'8.50 USD in USDT on TRC20',
		'no limit',
		'where crypto goes',
	]) {
		if (!output.includes(text))
			throw new Error(`the Dry Run's output lacks ${JSON.stringify(text)} (screenshot ${file})`);
	}
	toDocs(file, DRY_RUN_PICTURE);
	notes.push(
		'Execute step on a Dry Run names the guardrails ("no limit") and shows 10.00 USD leaving, the 1.50 USD fee and 8.50 USD arriving',
	);

	await page.locator('[data-test-id="parameter-input-operation"]').first().click();
	await sleep(800);
	await page
		.locator('.el-select-dropdown__item')
		.filter({ hasText: /^Create Bank/ })
		.first()
		.click();
	await page
		.locator('[data-test-id="parameter-input-bankAccountId"]')
		.first()
		.waitFor({ timeout: 20000 });
	await sleep(800);
	file = await shot('dry-run-kept.png');
	if (!(await switchedOn('dryRun')))
		throw new Error(
			`Dry Run went off when the operation changed to Create Bank (screenshot ${file})`,
		);
	notes.push('Dry Run stays on from Create Crypto to Create Bank');

	if (n8n.line === '2') {
		await openNode(
			page,
			n8n.baseUrl,
			workflow,
			'Pay Supplier Tool',
			'[data-test-id="parameter-input-dryRun"]',
		);
		await sleep(2500);
		file = await shot(AGENT_TOOL_PICTURE);
		const text = await panelText();
		if (!text.includes(AGENT_TOOL))
			throw new Error(`the agent's tool does not say what an agent may do (screenshot ${file})`);
		if (text.includes(EMPTY_EXTERNAL_ID) || text.includes(GUARDRAILS))
			throw new Error(`the agent's tool shows a hint about manual runs (screenshot ${file})`);
		toDocs(file, AGENT_TOOL_PICTURE);
		notes.push(
			"the agent's tool says what an agent may do with its credential, no External ID warning",
		);
	}
	return notes.join('; ');
}

/** The README's picture of the node in the editor (docs/images/), taken by the browser check. */
export const DOCS_SCREENSHOT = path.join(REPO_ROOT, 'docs', 'images', 'crypto-settlement-node.png');

/**
 * More panels the README shows (saved beside DOCS_SCREENSHOT): each is opened, checked for the
 * texts users must see (the amount's unit, the full-record option, the trigger's events), and
 * screenshotted.
 */
export const DOCS_PANELS = [
	{
		workflow: 'tour',
		node: 'Bank Withdrawal',
		ready: 'bankAccountId',
		texts: ['Amount (USD)', 'External ID', 'Return Full Record'],
		file: 'create-bank-panel.png',
	},
	{
		workflow: 'trigger',
		node: 'Crypto Settlement Trigger',
		ready: 'events',
		texts: ['Events'],
		file: 'trigger-panel.png',
	},
	// Executed in the editor (Execute step), its output as JSON: the statement's summary (docs/statement.md).
	{
		workflow: 'statement',
		node: 'Statement Summary',
		ready: 'output',
		execute: 'balanceCheck',
		texts: ['balanceCheck', 'serviceBalancesAtEnd', 'closingBalances'],
		file: 'statement-summary.png',
	},
];

/**
 * Opens the withdrawals workflow, checks the BTC node (fee level shown, network hidden) and the
 * USDT node (network shown, fee level hidden), and keeps screenshots in `artifacts`. Also
 * screenshots the USDT Withdrawal node's panel (`node-panel.png`); with `docsScreenshot` (a
 * path, normally DOCS_SCREENSHOT) that picture is also saved there for the README.
 */
/**
 * n8n 2.x opens a "Production Checklist" over a published workflow's canvas: a click on an empty
 * spot of the canvas closes it, so a template's picture shows its notes.
 */
export async function closeChecklist(page) {
	const heading = page.getByText('Production Checklist', { exact: true }).first();
	if (!(await heading.isVisible().catch(() => false))) return;
	const { width, height } = page.viewportSize() ?? { width: 1440, height: 1000 };
	await page.mouse.click(width - 200, height - 250);
	await heading.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
	if (await heading.isVisible().catch(() => false))
		throw new Error('the Production Checklist stays over the canvas');
	await sleep(500);
}

export async function browserCheck({
	n8n,
	workflowId,
	artifacts,
	log = () => {},
	docsScreenshot,
	panels = [],
	canvases = [],
}) {
	const workflow = await n8n.rest('GET', `/workflows/${workflowId}`);
	const notes = [];
	return await withEditor(n8n, async (page) => {
		const cases = [
			{
				node: 'BTC Withdrawal',
				shown: ['feeLevel', 'token', 'walletAddress', 'cryptoAmount'],
				hidden: ['network', 'amount'],
				file: 'btc-withdrawal-parameters.png',
			},
			{
				node: 'USDT Withdrawal',
				shown: ['network', 'token', 'walletAddress', 'amount'],
				hidden: ['feeLevel', 'cryptoAmount'],
				file: 'usdt-withdrawal-parameters.png',
			},
		];
		// the canvas with the node first (also proves the node icon/type renders)
		await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
		await page
			.locator('[data-node-name="USDT Withdrawal"], [data-name="USDT Withdrawal"]')
			.first()
			.waitFor({ timeout: 60000 });
		await sleep(1000);
		await page.screenshot({ path: path.join(artifacts, 'canvas-withdrawals.png') });
		for (const c of cases) {
			const how = await openNode(page, n8n.baseUrl, workflow, c.node);
			await sleep(800);
			const shown = await shownParameters(page);
			await page.screenshot({ path: path.join(artifacts, c.file) });
			const missing = c.shown.filter((p) => !shown.includes(p));
			const unexpected = c.hidden.filter((p) => shown.includes(p));
			if (missing.length || unexpected.length) {
				throw new Error(
					`${c.node}: parameters shown ${JSON.stringify(shown)}; missing ${JSON.stringify(missing)}; should be hidden ${JSON.stringify(unexpected)} (screenshot ${path.join(artifacts, c.file)})`,
				);
			}
			notes.push(`${c.node}: ${c.shown[0]} shown, ${c.hidden[0]} hidden (opened via ${how})`);
		}
		// The node's panel as users see it (credential, resource, operation, fields), for the README
		await openNode(page, n8n.baseUrl, workflow, 'USDT Withdrawal');
		await page
			.locator('[data-test-id="parameter-input-network"]')
			.first()
			.waitFor({ timeout: 20000 });
		await sleep(1000);
		const panel = path.join(artifacts, 'node-panel.png');
		await page.screenshot({ path: panel });
		if (docsScreenshot) {
			fs.mkdirSync(path.dirname(docsScreenshot), { recursive: true });
			fs.copyFileSync(panel, docsScreenshot);
			notes.push(`node panel saved to ${path.relative(REPO_ROOT, docsScreenshot)}`);
		}
		const panelText = async () =>
			await page
				.locator('[data-test-id="ndv"]')
				.first()
				.innerText()
				.catch(async () => await page.locator('body').innerText());
		const usdtText = await panelText();
		for (const text of ['Amount (USD)', 'Network', 'Return Full Record']) {
			if (!usdtText.includes(text))
				throw new Error(`USDT Withdrawal panel lacks "${text}" (screenshot ${panel})`);
		}
		notes.push('USDT panel shows Amount (USD), Network and Return Full Record');
		// The other panels the README shows
		for (const p of panels) {
			const wf = await n8n.rest('GET', `/workflows/${p.workflowId}`);
			await openNode(page, n8n.baseUrl, wf, p.node, `[data-test-id="parameter-input-${p.ready}"]`);
			await sleep(1000);
			if (p.execute) {
				await page.locator('[data-test-id="node-execute-button"]').first().click();
				await page
					.getByText('Node executed successfully')
					.first()
					.waitFor({ timeout: 60000 })
					.catch(() => {});
				await page
					.getByText('JSON', { exact: true })
					.last()
					.click()
					.catch(() => {});
				await page
					.getByText(p.execute)
					.first()
					.waitFor({ timeout: 30000 })
					.catch(() => {});
				await sleep(1500);
			}
			const file = path.join(artifacts, p.file);
			await page.screenshot({ path: file });
			const text = await panelText();
			const missing = p.texts.filter((t) => !text.includes(t));
			if (missing.length)
				throw new Error(`${p.node} panel lacks ${JSON.stringify(missing)} (screenshot ${file})`);
			if (docsScreenshot) fs.copyFileSync(file, path.join(path.dirname(docsScreenshot), p.file));
			notes.push(
				`${p.node} panel checked${docsScreenshot ? ` and saved to docs/images/${p.file}` : ''}`,
			);
		}
		// Whole example workflows the README shows (its nodes and sticky notes)
		for (const c of canvases) {
			await page.goto(`${n8n.baseUrl}/workflow/${c.workflowId}`, { waitUntil: 'domcontentloaded' });
			await page
				.locator(`[data-node-name="${c.node}"], [data-name="${c.node}"]`)
				.first()
				.waitFor({ timeout: 60000 });
			await sleep(1500);
			await closeChecklist(page);
			const file = path.join(artifacts, c.file);
			await page.screenshot({ path: file });
			if (docsScreenshot)
				fs.copyFileSync(file, path.join(c.dir ?? path.dirname(docsScreenshot), c.file));
			notes.push(
				`canvas of ${c.node}'s workflow${docsScreenshot ? ` saved to ${path.relative(REPO_ROOT, path.join(c.dir ?? path.dirname(docsScreenshot), c.file))}` : ''}`,
			);
		}
		// The credential's Guardrails section, screenshotted with the other README pictures
		notes.push(
			await credentialGuardrailsCheck({
				page,
				n8n,
				artifacts,
				docsDir: docsScreenshot && path.dirname(docsScreenshot),
			}),
		);
		// Settings → Community nodes lists the package like one installed from the panel
		await page.goto(`${n8n.baseUrl}/settings/community-nodes`, { waitUntil: 'domcontentloaded' });
		await page.getByText('n8n-nodes-crypto-settlement').first().waitFor({ timeout: 30000 });
		await sleep(500);
		await page.screenshot({ path: path.join(artifacts, 'settings-community-nodes.png') });
		notes.push('listed under Settings → Community nodes');
		log(`     screenshots: ${artifacts}`);
		return notes.join('; ');
	});
}
