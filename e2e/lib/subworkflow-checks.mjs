// Issue #42, points 3 and 4, in a real n8n 2.41.1 (docs/guardrails.md):
//
//   AI Agent → Call n8n Workflow Tool → a sub-workflow with the plain Crypto Settlement node
//     (e2e-subworkflow-agent.json, e2e-subworkflow-pays.json): with the credential's defaults the
//     payment is refused (Allow Sub-Workflow Payments off), nothing sent; through a sub-workflow whose
//     credential has Allow Sub-Workflow Payments on (agent payments still off) it is paid once.
//   MCP Server Trigger with the tool node (e2e-mcp.json), called by an outside MCP client over
//     Streamable HTTP: a read works; a payment with agent payments off is refused; with agent
//     payments on and a person's review required it is refused too (no person reviews an MCP call).
import {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	loadWorkflow,
	sandboxCredential,
} from '../../tooling/setup.mjs';
import { secs, waitFor } from '../../tooling/util.mjs';
import { errorIn, toolName } from './agent-checks.mjs';
import { toolResults } from './fake-llm.mjs';
import { assert, check } from './report.mjs';
import { describeFailure } from './run-data.mjs';

export const SUB_AGENT_WORKFLOW = 'csE2eSubAgent001';
export const MCP_WORKFLOW = 'csE2eMcpServer01';
export const SUB_WORKFLOWS = { defaults: 'csE2eSubPayDef01', allowed: 'csE2eSubPayOn001' };

const SUB_ON = {
	id: 'csE2eSubWfOn0001',
	name: 'Crypto Settlement Sandbox (sub-workflow payments on)',
};
const MCP_REVIEW = {
	id: 'csE2eMcpReview01',
	name: 'Crypto Settlement Sandbox (agent payments on, review required)',
};

const REFUSED_IN_SUB_WORKFLOW =
	/This payment is refused: this workflow was started by another workflow/;
const AGENT_REFUSAL =
	/This tool may not move money: the owner of the credential has not allowed AI agents to make payments/;
const REVIEW_REFUSAL =
	/A person must approve payments: add a human review step between this tool and the agent/;

const THROUGH_DEFAULTS = { amount: 30, externalId: 'sub-off-1' };
const THROUGH_ALLOWED = { amount: 25, externalId: 'sub-on-1' };

/** What the scripted model does (fake-llm.mjs): one tool call a turn, then its answer. */
export const SUB_WORKFLOW_SCENARIOS = {
	'sub-workflows': [
		{ tool: toolName('Pay via Subworkflow'), args: THROUGH_DEFAULTS },
		{ tool: toolName('Pay via Allowed Subworkflow'), args: THROUGH_ALLOWED },
	],
};

/** The agent, its two sub-workflows (credential defaults; sub-workflow payments on) and the MCP server workflow. */
export function subWorkflowWorkflows() {
	const sub = (id, name, credential) =>
		loadWorkflow('e2e-subworkflow-pays', {
			ID: id,
			NAME: name,
			CREDENTIAL_ID: credential.id,
			CREDENTIAL_NAME: credential.name,
		});
	return {
		subAgent: loadWorkflow('e2e-subworkflow-agent'),
		subDefaults: sub(SUB_WORKFLOWS.defaults, 'e2e: a sub-workflow pays (credential defaults)', {
			id: CREDENTIAL_ID,
			name: CREDENTIAL_NAME,
		}),
		subAllowed: sub(
			SUB_WORKFLOWS.allowed,
			'e2e: a sub-workflow pays (sub-workflow payments on)',
			SUB_ON,
		),
		mcp: loadWorkflow('e2e-mcp', {
			DEFAULT_ID: CREDENTIAL_ID,
			DEFAULT_NAME: CREDENTIAL_NAME,
			REVIEW_ID: MCP_REVIEW.id,
			REVIEW_NAME: MCP_REVIEW.name,
		}),
	};
}

/** Sub-workflow payments on (agent payments off); agent payments on with a review required (for MCP). */
export function subWorkflowCredentials(sandbox) {
	const base = sandboxCredential(sandbox);
	return [
		{ ...base, ...SUB_ON, data: { ...base.data, allowSubWorkflowPayments: true } },
		{
			...base,
			...MCP_REVIEW,
			data: { ...base.data, allowAgentPayments: true, agentPaymentsNeedHumanReview: true },
		},
	];
}

const moneyRequests = (sandbox, from) =>
	sandbox.requests
		.slice(from)
		.filter((r) => r.method === 'POST' && /\/payments\/(withdraw\/|swap-currency)/.test(r.path));

/**
 * Phase 2 (`n8n execute` while `n8n start` runs: n8n 2.x calls a sub-workflow's published version,
 * which the server records when it activates the workflow): the agent pays through its two Call n8n
 * Workflow Tools.
 */
export async function subWorkflowAgentChecks({ n8n, sandbox, model }) {
	const before = sandbox.requests.length;
	let exec;
	const ran = await check(
		"AI Agent with Call n8n Workflow Tools whose sub-workflows pay ran (n8n's sub-workflows, mode integrated)",
		async () => {
			exec = await n8n.execute(SUB_AGENT_WORKFLOW);
			// `n8n execute` writes to the SQLite file the running server writes to, and n8n sets no busy
			// timeout: a write that meets one of the server's fails at once (SQLITE_BUSY). A run that
			// failed so before reaching the model or the sandbox did nothing, and is run once more; one
			// that failed after the agent's three turns is judged by them (the model's messages and the
			// sandbox's requests, read below), not by the run data n8n could not write.
			const busy = !exec.run && /SQLITE_BUSY/.test(`${exec.stdout}\n${exec.stderr}`);
			let note = '';
			if (
				busy &&
				model.of('sub-workflows').length === 0 &&
				moneyRequests(sandbox, before).length === 0
			) {
				exec = await n8n.execute(SUB_AGENT_WORKFLOW);
				note =
					'; run again after n8n failed to write its first start (SQLITE_BUSY, nothing of it ran)';
			} else if (busy && model.of('sub-workflows').length === 3) {
				note = "; n8n could not write the run data (SQLITE_BUSY) after the agent's three turns";
			}
			assert(exec.run || note.startsWith('; n8n could not'), describeFailure(exec));
			const chats = model.of('sub-workflows');
			assert(
				chats.length === 3,
				`${chats.length} chat requests, expected 3 (two tool calls, then the answer)`,
			);
			return `${chats.length} chat requests, ${secs(exec.ms)}${note}`;
		},
	);
	if (!ran) return;
	const [refused, paid] = toolResults(model.of('sub-workflows').at(-1).body.messages);
	const sent = moneyRequests(sandbox, before);

	await check(
		'default guardrails: the payment in the sub-workflow an agent called is refused (Allow Sub-Workflow Payments off), nothing sent',
		async () => {
			assert(
				REFUSED_IN_SUB_WORKFLOW.test(refused ?? ''),
				`the model got back: ${refused?.slice(0, 400)}`,
			);
			const leaked = sent.filter((r) => r.body?.externalId === THROUGH_DEFAULTS.externalId);
			assert(
				!leaked.length,
				`${leaked.length} withdrawal request(s) for ${THROUGH_DEFAULTS.externalId} reached the sandbox`,
			);
			return `"${(errorIn(refused) ?? refused).slice(0, 160)}…"`;
		},
	);

	await check(
		"Allow Sub-Workflow Payments on (agent payments off): the agent's payment through the sub-workflow is sent once",
		async () => {
			const record = sandbox.state.withdrawals.find(
				(w) => w.externalId === THROUGH_ALLOWED.externalId,
			);
			assert(
				record && record.amount === THROUGH_ALLOWED.amount,
				`sandbox withdrawal: ${JSON.stringify(record)}; the model got back ${paid?.slice(0, 300)}`,
			);
			assert(
				sent.length === 1 && sent[0].body.externalId === THROUGH_ALLOWED.externalId,
				`money requests: ${JSON.stringify(sent.map((r) => [r.path, r.body?.externalId]))}`,
			);
			return `withdrawal ${record.id}`;
		},
	);
}

/**
 * A minimal MCP client over Streamable HTTP: JSON-RPC posts, answers as JSON or as server-sent events.
 * `headers`: sent with every post (the instance MCP server's `Authorization: Bearer <key>`).
 */
export function mcpClient(url, { headers = {}, timeoutMs = 60_000 } = {}) {
	let session;
	let id = 0;
	const post = async (method, params, notification = false) => {
		const res = await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				...headers,
				...(session ? { 'mcp-session-id': session } : {}),
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				method,
				params,
				...(notification ? {} : { id: ++id }),
			}),
			signal: AbortSignal.timeout(timeoutMs),
		});
		session ??= res.headers.get('mcp-session-id') ?? undefined;
		const text = await res.text();
		if (notification) return undefined;
		const json = (res.headers.get('content-type') ?? '').includes('text/event-stream')
			? text
					.split('\n')
					.filter((line) => line.startsWith('data:'))
					.map((line) => JSON.parse(line.slice(5)))
					.find((message) => message.id === id)
			: JSON.parse(text);
		if (!json || json.error)
			throw new Error(`MCP ${method}: HTTP ${res.status} ${text.slice(0, 300)}`);
		return json.result;
	};
	return {
		async connect() {
			// n8n registers an active workflow's webhooks shortly after /healthz answers: until then, 404
			await waitFor(
				async () =>
					(
						await fetch(url, {
							method: 'POST',
							headers: { 'content-type': 'application/json', ...headers },
							body: '{}',
						})
					).status !== 404,
				{
					timeoutMs: 60_000,
					what: `the MCP Server Trigger at ${url}`,
				},
			);
			await post('initialize', {
				protocolVersion: '2025-03-26',
				capabilities: {},
				clientInfo: { name: 'e2e', version: '1' },
			});
			await post('notifications/initialized', {}, true);
		},
		tools: async () => (await post('tools/list', {})).tools,
		call: async (name, args) => await post('tools/call', { name, arguments: args }),
	};
}

export const textOf = (result) => (result?.content ?? []).map((part) => part.text ?? '').join('');

/** Phase 2 (n8n running, the MCP workflow active): an outside MCP client calls the tools. */
export async function mcpChecks({ n8n, sandbox }) {
	const url = `${n8n.baseUrl}/mcp/e2e-crypto-settlement`;
	const client = mcpClient(url);
	const before = sandbox.requests.length;
	const connected = await check(
		"MCP Server Trigger: an outside MCP client lists this node's tools",
		async () => {
			await client.connect();
			const names = (await client.tools()).map((tool) => tool.name).sort();
			assert(
				names.join() === 'Pay_Supplier,Pay_Supplier_Reviewed,Read_Account',
				`tools: ${JSON.stringify(names)}`,
			);
			return names.join(', ');
		},
	);
	if (!connected) return;
	await check('MCP: a read works (Account → Get)', async () => {
		const text = textOf(await client.call('Read_Account', {}));
		assert(text.includes(sandbox.state.account.id), `Read_Account answered: ${text.slice(0, 300)}`);
		return `account ${sandbox.state.account.id}`;
	});
	await check(
		'MCP: agent payments off (credential defaults): the payment is refused, nothing sent',
		async () => {
			const text = textOf(
				await client.call('Pay_Supplier', { Amount__USD_: '15', External_ID: 'mcp-off-1' }),
			);
			assert(AGENT_REFUSAL.test(text), `Pay_Supplier answered: ${text.slice(0, 300)}`);
			return `"${text.slice(0, 120)}…"`;
		},
	);
	await check(
		'MCP: agent payments on with a review required: refused, since no person reviews an MCP call; nothing sent',
		async () => {
			const text = textOf(
				await client.call('Pay_Supplier_Reviewed', {
					Amount__USD_: '15',
					External_ID: 'mcp-review-1',
				}),
			);
			assert(REVIEW_REFUSAL.test(text), `Pay_Supplier_Reviewed answered: ${text.slice(0, 300)}`);
			const sent = moneyRequests(sandbox, before);
			assert(
				!sent.length,
				`money requests: ${JSON.stringify(sent.map((r) => [r.path, r.body?.externalId]))}`,
			);
			return `"${text.slice(0, 120)}…"`;
		},
	);
}
