// What `npm start` and the e2e tests both load into n8n: the sandbox credential and the workflows.
import fs from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from './util.mjs';

export const WORKFLOWS_DIR = path.join(REPO_ROOT, 'e2e', 'workflows');

export const CREDENTIAL_ID = 'csSandboxCred0001';
export const CREDENTIAL_NAME = 'Crypto Settlement Sandbox';
export const WEBHOOK_SECRET = 'demo-webhook-secret';

/** Example workflows imported by `npm start` (and used by the e2e tests). */
export const EXAMPLES = {
	tour: 'csExTour00000001',
	withdrawals: 'csExWithdraw0001',
	batch: 'csExBatchPay0001',
	trigger: 'csExTrigger00001',
	/** Imported inactive. */
	pollTrigger: 'csExPollTrig0001',
	/** Yesterday's statement and a payout sheet matched: needs the day seeded (seedStatementDay). */
	statement: 'csExStatement001',
};

export const TEMPLATES_DIR = path.join(REPO_ROOT, 'templates');

/**
 * The templates (templates/README.md), imported inactive by `npm start` and the e2e under these
 * ids (a template file has none), on both n8n lines.
 */
export const TEMPLATES = {
	payVendors: { file: 'pay-vendors-from-a-sheet', id: 'csTplPayVendors1' },
	creditDeposits: { file: 'credit-deposits-once', id: 'csTplCreditDep01' },
	dailyStatement: { file: 'daily-statement', id: 'csTplStatement01' },
	agentReview: { file: 'agent-payouts-review', id: 'csExAgentReview1' },
	checkPayouts: { file: 'check-payout-sheet', id: 'csTplCheckSheet1' },
	balanceAlert: { file: 'balance-alert', id: 'csTplBalanceAl01' },
};

/**
 * A template as `npm start` and the e2e import it: its id, and each credential placeholder
 * (`{ id: '', name: 'Crypto Settlement account' }`) bound to a credential of that type in
 * `credentials` (type → { id, name }); a type not given keeps its placeholder.
 */
export function loadTemplate(key, credentials = {}) {
	const { file, id } = TEMPLATES[key];
	const workflow = JSON.parse(fs.readFileSync(path.join(TEMPLATES_DIR, `${file}.json`), 'utf8'));
	for (const node of workflow.nodes) {
		for (const type of Object.keys(node.credentials ?? {}))
			if (credentials[type]) node.credentials[type] = { ...credentials[type] };
	}
	return { ...workflow, id };
}

/** The ledger's text columns (templates/credit-deposits-once.json, set-up step 1). */
export const LEDGER_COLUMNS = [
	'eventKey',
	'tradeId',
	'customer',
	'token',
	'amountUsd',
	'localAmount',
	'outcome',
	'detail',
];

/**
 * The Data Tables the templates need (issue 70: each template runs offline as imported), each made
 * by `npm start` and the e2e through n8n's REST API once n8n is up (n8n 1.123's Data Table node has
 * no table operations, so a template cannot make its own), found again by name on a restart, and its
 * id written into its template's Settings.
 */
export const TEMPLATE_TABLES = [
	{
		template: 'dailyStatement',
		setting: 'balancesTableId',
		name: 'crypto_statement_balances',
		columns: ['day', 'closingBalances'],
	},
	{
		template: 'dailyStatement',
		setting: 'payeesTableId',
		name: 'crypto_payee_names',
		columns: ['reference', 'payee'],
		sample: true,
	},
	{
		template: 'creditDeposits',
		setting: 'ledgerTableId',
		name: 'crypto_deposit_ledger',
		columns: LEDGER_COLUMNS,
	},
	{
		template: 'agentReview',
		setting: 'pendingTableId',
		name: 'crypto_pending_approvals',
		columns: ['externalId', 'amountUsd', 'approver', 'requester', 'askedAt'],
	},
];

/**
 * The payee names a new `crypto_payee_names` table starts with: the vendor of each sample payout
 * row of Pay vendors (its Sample Payout Rows step, run on its own), and a customer for each wallet
 * label of the seeded day (docs/fake-api.md, "A seeded day": labels `<day>-customer-1` to `-3`).
 */
export function samplePayees(seeded) {
	const template = JSON.parse(
		fs.readFileSync(path.join(TEMPLATES_DIR, `${TEMPLATES.payVendors.file}.json`), 'utf8'),
	);
	const code = template.nodes.find((node) => node.name === 'Sample Payout Rows')?.parameters.jsCode;
	const vendors = code
		? new Function(code)().map(({ json }) => ({
				reference: json['External ID'],
				payee: json.Vendor,
			}))
		: [];
	const customers = seeded
		? ['Ada Obi', 'Bolu Ade', 'Chidi Eze'].map((payee, index) => ({
				reference: `${seeded.day}-customer-${index + 1}`,
				payee,
			}))
		: [];
	return [...vendors, ...customers].filter((row) => row.reference && row.payee);
}

/**
 * Makes the templates' Data Tables (n8n running, logged in) unless tables of their names exist,
 * and writes their ids into the imported templates' Settings (PATCH, as the editor saves).
 * Returns { [table name]: id }.
 */
export async function setUpTemplateTables(n8n, { seeded, log = () => {} } = {}) {
	const project = (await n8n.rest('GET', '/projects/personal')).id;
	const listed = await n8n.rest('GET', `/projects/${project}/data-tables`);
	const existing = Array.isArray(listed) ? listed : (listed?.data ?? []);
	const ids = {};
	for (const table of TEMPLATE_TABLES) {
		let found = existing.find((candidate) => candidate.name === table.name);
		if (!found) {
			found = await n8n.rest('POST', `/projects/${project}/data-tables`, {
				name: table.name,
				columns: table.columns.map((name) => ({ name, type: 'string' })),
			});
			const rows = table.sample ? samplePayees(seeded) : [];
			if (rows.length)
				await n8n.rest('POST', `/projects/${project}/data-tables/${found.id}/insert`, {
					data: rows,
					returnType: 'id',
				});
			log(
				`Data Table "${table.name}" created${rows.length ? ` with ${rows.length} sample rows` : ''}`,
			);
		}
		ids[table.name] = found.id;
	}
	for (const key of new Set(TEMPLATE_TABLES.map((table) => table.template))) {
		const name = await nameTemplateTables(n8n, key, TEMPLATES[key].id, ids);
		if (name) log(`"${name}": its Settings name its Data Tables`);
	}
	return ids;
}

/**
 * Writes the Data Table ids `ids` ({ [table name]: id }) into the Settings of workflow `id`, an
 * imported copy of template `key`, unless they are there already; a published workflow (n8n 2.x
 * runs its published version, and the agent template's tool starts it) is published again.
 * Returns the workflow's name when it changed it; nothing when the workflow is not there.
 */
export async function nameTemplateTables(n8n, key, id, ids) {
	const workflow = await n8n.rest('GET', `/workflows/${id}`).catch(() => undefined);
	if (!workflow) return undefined;
	const settings = workflow.nodes.find((node) => node.name === 'Settings').parameters.assignments
		.assignments;
	let changed = false;
	for (const table of TEMPLATE_TABLES.filter((candidate) => candidate.template === key)) {
		const assignment = settings.find((candidate) => candidate.name === table.setting);
		if (assignment.value === ids[table.name]) continue;
		assignment.value = ids[table.name];
		changed = true;
	}
	if (!changed) return undefined;
	const saved = await n8n.rest('PATCH', `/workflows/${workflow.id}`, {
		nodes: workflow.nodes,
		connections: workflow.connections,
		versionId: workflow.versionId,
	});
	if (n8n.line === '2' && workflow.activeVersionId)
		await n8n.rest('POST', `/workflows/${workflow.id}/activate`, { versionId: saved.versionId });
	return workflow.name;
}

/** Workflows only the e2e tests import. */
export const E2E = {
	pagination: 'csE2ePaging00001',
	fieldRule: 'csE2eFieldRule01',
	trigger: 'csE2eTrigger0001',
	pollTrigger: 'csE2ePollTrig001',
	/** The poll trigger published under n8n 2.x's durable scheduler (e2e/lib/trigger-checks.mjs). */
	pollScheduler: 'csE2ePollSched01',
	/** What only the editor shows (e2e/lib/browser.mjs, editorCheck). */
	editor: 'csE2eEditor00001',
	/** Errors and an empty list as the editor shows them (e2e/lib/error-checks.mjs). */
	errors: 'csE2eErrors00001',
	/** Issue 45 in the editor: addresses checked first, a gated tool run by hand, a list without a credential (e2e/lib/first-hour-checks.mjs). */
	firstHour: 'csE2eFirstHour01',
};

/** Records of the seeded day behind the statement example (every kind of line twice). */
export const STATEMENT_RECORDS = 40;

/**
 * Yesterday (UTC) in the fake API, seeded once (docs/fake-api.md, "A seeded day"): the statement
 * example's day. Returns the seeded day (its balances before and after); a fake API that already
 * holds it (a restart, a kept state file) is not seeded again.
 */
export function seedStatementDay(sandbox, now = Date.now()) {
	const day = new Date(now - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
	return (
		sandbox.state.seededDays.find((seeded) => seeded.day === day) ??
		sandbox.seedDay({ day, records: STATEMENT_RECORDS })
	);
}

/** The statement example's placeholders: the seeded day, and its opening balances (JSON within a JSON string). */
export function statementVars(seeded) {
	const opening = Object.fromEntries(
		Object.entries(seeded.openingBalances).map(([currency, amount]) => [
			currency.toUpperCase(),
			amount,
		]),
	);
	return {
		STATEMENT_DAY: seeded.day,
		OPENING_BALANCES: JSON.stringify(JSON.stringify(opening)).slice(1, -1),
	};
}

/** Reads e2e/workflows/<file>.json, replacing __KEY__ placeholders with `vars`. */
export function loadWorkflow(file, vars = {}) {
	let text = fs.readFileSync(path.join(WORKFLOWS_DIR, `${file}.json`), 'utf8');
	for (const [key, value] of Object.entries(vars)) text = text.split(`__${key}__`).join(value);
	return JSON.parse(text);
}

/** The credential pointing at a running sandbox (plain data: n8n encrypts it on import). */
export function sandboxCredential(sandbox, { webhookSecret = WEBHOOK_SECRET } = {}) {
	return {
		id: CREDENTIAL_ID,
		name: CREDENTIAL_NAME,
		type: 'cryptoSettlementApi',
		data: {
			appId: sandbox.appId,
			appSecret: sandbox.appSecret,
			environment: 'sandbox',
			baseUrl: sandbox.url,
			pin: sandbox.pin,
			webhookSecret,
		},
	};
}

/** Production webhook URL of a workflow's Crypto Settlement Trigger (path "webhook" under its webhookId). */
export function triggerUrl(n8nBaseUrl, workflow) {
	const node = workflow.nodes.find((candidate) =>
		candidate.type.endsWith('.cryptoSettlementTrigger'),
	);
	if (!node?.webhookId) throw new Error(`workflow ${workflow.id} has no trigger with a webhookId`);
	return `${n8nBaseUrl}/webhook/${node.webhookId}/webhook`;
}

/**
 * The Crypto Settlement credentials `npm start` imports, each named by what it allows (issue 50).
 * n8n's editor gives a node placed on the canvas (and a node opened without a credential) the
 * credential of its type updated last (n8n 2.41's useCanvasOperations and NodeCredentials.vue), so
 * the safest one, a sandbox with limits and agents off, is given the latest `updatedAt`. The templates use it too;
 * the examples keep the sandbox without limits, the agent template one that allows payments in a
 * sub-workflow (its tool's run), agents' own payments off.
 */
export const START_CREDENTIALS = {
	safest: {
		id: 'csStartSafest001',
		name: 'Crypto Settlement Sandbox (max 100 USD per withdrawal, 500 USD a day; agents may not pay)',
		guardrails: { maxPerWithdrawalUsd: 100, maxPerDayUsd: 500 },
	},
	examples: {
		id: CREDENTIAL_ID,
		name: 'Crypto Settlement Sandbox (no limits; agents may not pay)',
		guardrails: {},
	},
	// the agent template pays in the run its Pay Supplier tool starts, after a Dry Run and an approval by
	// email; on a sandbox account of its own (npm start), so its limits count only its own payments
	agentTemplate: {
		id: 'csStartAgentPay1',
		name: "Crypto Settlement Sandbox, the agent template's own account (max 100 USD per withdrawal, 500 USD a day; sub-workflow payments on; agents may not pay)",
		guardrails: { maxPerWithdrawalUsd: 100, maxPerDayUsd: 500, allowSubWorkflowPayments: true },
	},
};

/**
 * START_CREDENTIALS pointing at a running sandbox (or, per key, at the sandbox `accounts` names, e.g.
 * the agent template's own), oldest first and the safest updated last (`now`).
 */
export function startCredentials(sandbox, now = Date.now(), accounts = {}) {
	const order = ['agentTemplate', 'examples', 'safest'];
	return order.map((key, index) => {
		const base = sandboxCredential(accounts[key] ?? sandbox);
		const { id, name, guardrails } = START_CREDENTIALS[key];
		const at = new Date(now - (order.length - 1 - index) * 60000).toISOString();
		return {
			...base,
			id,
			name,
			data: { ...base.data, ...guardrails },
			createdAt: at,
			updatedAt: at,
		};
	});
}

/** Calls the sandbox API directly (test setup and the trigger checks), with the demo credentials. */
export async function sandboxApi(sandbox, method, urlPath, body) {
	const res = await fetch(`${sandbox.url}${urlPath}`, {
		method,
		headers: {
			'content-type': 'application/json',
			'x-app-id': sandbox.appId,
			'x-app-secret': sandbox.appSecret,
			'X-Service-Env': 'sandbox',
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = await res.json().catch(() => undefined);
	if (!res.ok)
		throw new Error(`sandbox ${method} ${urlPath}: ${res.status} ${JSON.stringify(json)}`);
	return json?.data;
}
