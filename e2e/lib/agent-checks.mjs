// Issue #26 in a real n8n: n8n's own AI Agent, with its OpenAI Chat Model pointed at a scripted
// local model (fake-llm.mjs), uses this package's generated tool node (`cryptoSettlementTool`)
// against the sandbox. The model fills the amount and the External ID ($fromAI, "Defined
// automatically by the model"); everything else is fixed in e2e/workflows/e2e-agent.json.
//
//   Agent (payments off): Read Account, then Pay Supplier 30 USD → refused, nothing sent; then
//     Save Payout Address and Update Wallet Bank → refused (an agent never changes where money goes)
//   Agent (payments on, human review off, Max per Withdrawal 100 USD): 250 USD → refused; 40 USD →
//     sent once; then Save Payout Address and Update Wallet Bank → still refused
//   (with a human review required: review-checks.mjs)
import { loadWorkflow, sandboxCredential } from '../../tooling/setup.mjs';
import { secs } from '../../tooling/util.mjs';
import { startFakeLlm, toolResults } from './fake-llm.mjs';
import { assert, check } from './report.mjs';
import { describeFailure, itemsOf } from './run-data.mjs';

export const AGENT_WORKFLOW = 'csE2eAgent000001';

/** Where the agent pays, as its tool node fixes it: the only destination the "on" credential allows. */
const SUPPLIER = (({ token, network, walletAddress }) => ({
	token,
	network,
	address: walletAddress,
}))(
	loadWorkflow('e2e-agent').nodes.find((node) => node.name === 'Pay Supplier (capped)').parameters,
);
const MAX_PER_WITHDRAWAL_USD = 100;

/**
 * The credential the agent may pay with, and its guardrails (the browser check shows this
 * credential's Guardrails section: credential-screenshot.mjs).
 */
export const GUARDED_CREDENTIAL = {
	id: 'csE2eAgentOn0001',
	name: 'Crypto Settlement Sandbox (agent payments on, max 100 USD)',
	guardrails: {
		maxPerWithdrawalUsd: MAX_PER_WITHDRAWAL_USD,
		// far above the day's sandbox payouts: checked (the day's list is read), never reached
		maxPerDayUsd: 5000,
		destinations: 'allowList',
		allowedAddresses: `${SUPPLIER.token}:${SUPPLIER.network}:${SUPPLIER.address}`,
		requireExternalId: true,
		allowAgentPayments: true,
		// the agent pays without a human review (review-checks.mjs: with one)
		agentPaymentsNeedHumanReview: false,
	},
};

/** The workflow's other credentials (ids as in e2e-agent.json). */
const CREDENTIALS = {
	off: { id: 'csE2eAgentOff001', name: 'Crypto Settlement Sandbox (agent payments off)' },
	model: { id: 'csE2eFakeLlm0001', name: 'Scripted chat model (e2e)' },
};

/** A tool's name as n8n makes it from the node's name (n8n-workflow's nodeNameToToolName). */
export const toolName = (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

/** What the model asks for; the argument names are the $fromAI keys the editor makes from the fields' labels. */
const pay = (amount, externalId) => ({ Amount__USD_: String(amount), External_ID: externalId });
const UNALLOWED = pay(30, 'agent-off-1');
const OVER_LIMIT = pay(250, 'agent-on-250');
const WITHIN_LIMIT = pay(40, 'agent-on-40');
/** A destination the model chose: a payout address to save, a bank account for a wallet's settlement. */
const AGENT_ADDRESS = { Address: 'TAgentChosenAddr111111111111111111' };
const AGENT_BANK = { Account_Number: '0123456789' };
/** The tools that would change where money goes, per agent (node names as in e2e-agent.json). */
const DESTINATION_TOOLS = {
	'payments-off': [
		{
			tool: toolName('Save Payout Address'),
			args: AGENT_ADDRESS,
			operation: 'Payout Address → Create',
		},
		{ tool: toolName('Update Wallet Bank'), args: AGENT_BANK, operation: 'Wallet → Update Bank' },
	],
	'payments-on': [
		{
			tool: toolName('Save Payout Address (payments on)'),
			args: AGENT_ADDRESS,
			operation: 'Payout Address → Create',
		},
		{
			tool: toolName('Update Wallet Bank (payments on)'),
			args: AGENT_BANK,
			operation: 'Wallet → Update Bank',
		},
	],
};
const SCENARIOS = {
	'payments-off': [
		{ tool: toolName('Read Account'), args: {} },
		{ tool: toolName('Pay Supplier'), args: UNALLOWED },
		...DESTINATION_TOOLS['payments-off'],
	],
	'payments-on': [
		{ tool: toolName('Pay Supplier (capped)'), args: OVER_LIMIT },
		{ tool: toolName('Pay Supplier (capped)'), args: WITHIN_LIMIT },
		...DESTINATION_TOOLS['payments-on'],
	],
};
const usd = (value) => `${Number(value).toFixed(2)} USD`;

/** The refusal the node gives an agent when the credential does not allow agent payments. */
const AGENT_REFUSAL =
	/This tool may not move money: the owner of the credential has not allowed AI agents to make payments/;

/** The scripted model, started before the credentials are imported (their Base URL points at it). */
export async function startAgentModel(more = {}) {
	return await startFakeLlm({ ...SCENARIOS, ...more });
}

/**
 * e2e-agent.json for a line: the AI Agent at the newest version the line has (3.1 on 2.x, 3 on
 * 1.x). n8n 2.x hands a failed tool run to the agent as the tool's answer; n8n 1.x stops the whole
 * execution instead, so there the tools are set to On Error → Continue, as 1.x users must do for an
 * agent to read a tool's refusal.
 */
export function agentWorkflow(line) {
	const workflow = loadWorkflow('e2e-agent');
	for (const node of workflow.nodes) {
		if (node.type === '@n8n/n8n-nodes-langchain.agent') node.typeVersion = line === '2' ? 3.1 : 3;
		if (line === '1' && node.type.endsWith('.cryptoSettlementTool'))
			node.onError = 'continueRegularOutput';
	}
	return workflow;
}

/** Two sandbox credentials differing in their guardrails, and the OpenAI credential of the scripted model. */
export function agentCredentials(sandbox, model) {
	const base = sandboxCredential(sandbox);
	return [
		{ ...base, ...CREDENTIALS.off, data: { ...base.data, allowAgentPayments: false } },
		{
			...base,
			id: GUARDED_CREDENTIAL.id,
			name: GUARDED_CREDENTIAL.name,
			data: { ...base.data, ...GUARDED_CREDENTIAL.guardrails },
		},
		{
			...CREDENTIALS.model,
			type: 'openAiApi',
			data: { apiKey: 'sk-e2e-scripted', url: `${model.url}/v1` },
		},
	];
}

const MONEY_ROUTES = /\/payments\/(withdraw\/|swap-currency)/;
/** Requests that would change where money goes: payout addresses, bank accounts, a wallet's settlement. */
const DESTINATION_ROUTES =
	/\/payments\/wallet-addresses\/?$|\/payments\/wallet-addresses\/[^/]+$|\/payments\/banks\/add|\/payments\/integration-banks\/|\/trades\/wallets\/[^/]+\/(bank|auto-settlement)/;

/** The error a tool result carries: n8n answers a failed tool run with `{ error }` (in a list of items). */
export function errorIn(text) {
	try {
		const json = JSON.parse(text);
		return (Array.isArray(json) ? json[0] : json)?.error;
	} catch {
		return undefined;
	}
}

export async function agentChecks({ n8n, sandbox, model }) {
	const before = sandbox.requests.length;
	const asked = model.requests.length;
	let exec;
	const ran = await check(
		'AI Agent with this node as its tools ran (OpenAI Chat Model on a scripted local model)',
		async () => {
			exec = await n8n.execute(AGENT_WORKFLOW);
			assert(exec.run, describeFailure(exec));
			for (const agent of ['Agent (payments off)', 'Agent (payments on)']) {
				const run = exec.runData[agent]?.at(-1);
				assert(run && !run.error, `${agent}: ${run?.error?.message ?? 'did not run'}`);
				assert(
					typeof itemsOf(exec, agent)?.at(-1)?.output === 'string',
					`${agent} gave no answer: ${JSON.stringify(itemsOf(exec, agent)).slice(0, 300)}`,
				);
			}
			for (const [scenario, steps] of Object.entries(SCENARIOS)) {
				const chats = model.of(scenario);
				assert(
					chats.length === steps.length + 1,
					`${scenario}: ${chats.length} chat requests, expected ${steps.length + 1} (one per tool call, then the answer)`,
				);
			}
			// The tools as n8n offers them to the model: the generated tool node, the $fromAI fields as arguments
			const offered = Object.fromEntries(
				(model.of('payments-off')[0].body.tools ?? []).map((t) => [
					t.function.name,
					t.function.parameters,
				]),
			);
			assert(
				offered.Read_Account && offered.Pay_Supplier,
				`tools offered: ${JSON.stringify(Object.keys(offered))}`,
			);
			const args = Object.keys(offered.Pay_Supplier.properties ?? {}).sort();
			assert(
				args.join() === 'Amount__USD_,External_ID',
				`Pay_Supplier's arguments: ${JSON.stringify(offered.Pay_Supplier)}`,
			);
			return `${model.requests.length - asked} chat requests, tools ${Object.keys(offered).join(', ')} (arguments ${args.join(', ')}), ${secs(exec.ms)}`;
		},
	);
	if (!ran) return;
	const sent = sandbox.requests
		.slice(before)
		.filter((r) => r.method === 'POST' && MONEY_ROUTES.test(r.path));
	const redirected = sandbox.requests
		.slice(before)
		.filter((r) => r.method !== 'GET' && DESTINATION_ROUTES.test(r.path));
	/** What the model got back from its tool calls, in order. */
	const answers = (scenario) => toolResults(model.of(scenario).at(-1).body.messages);

	await check(
		'agent read: Account → Get through the tool gives the model the sandbox account',
		async () => {
			const [account] = answers('payments-off');
			assert(
				account?.includes(sandbox.state.account.id),
				`Read_Account answered: ${account?.slice(0, 300)}`,
			);
			return `account ${sandbox.state.account.id}`;
		},
	);

	await check(
		'agent payments off: the withdrawal tool call is refused with the reason, nothing reaches the sandbox',
		async () => {
			const refusal = answers('payments-off')[1];
			assert(
				AGENT_REFUSAL.test(errorIn(refusal) ?? ''),
				`the model got back: ${refusal?.slice(0, 300)}`,
			);
			// In n8n's run data: the tool run's error (2.x), or its error item (1.x, On Error → Continue)
			const run = exec.runData['Pay Supplier']?.at(-1);
			const failure = run?.error?.message ?? run?.data?.ai_tool?.[0]?.[0]?.json?.error;
			assert(
				AGENT_REFUSAL.test(failure ?? ''),
				`Pay Supplier run: ${JSON.stringify(run?.error ?? run?.data).slice(0, 300)}`,
			);
			const output = itemsOf(exec, 'Agent (payments off)').at(-1).output;
			assert(AGENT_REFUSAL.test(output), `the agent's answer: ${output.slice(0, 300)}`);
			const leaked = sent.filter((r) => r.body?.externalId === UNALLOWED.External_ID);
			assert(
				!leaked.length,
				`${leaked.length} withdrawal request(s) for ${UNALLOWED.External_ID} reached the sandbox`,
			);
			return `"${errorIn(refusal)}"`;
		},
	);

	const [over, within] = [OVER_LIMIT, WITHIN_LIMIT].map((args) => usd(args.Amount__USD_));
	await check(
		`agent payments on, human review off: ${usd(MAX_PER_WITHDRAWAL_USD)} max per withdrawal refuses ${over}, ${within} is sent once, without a review`,
		async () => {
			const [overAnswer, withinAnswer] = answers('payments-on');
			const limit = `Max per withdrawal is ${usd(MAX_PER_WITHDRAWAL_USD)}; this item is ${over}`;
			assert(
				errorIn(overAnswer)?.includes(limit),
				`${over}: the model got back ${overAnswer?.slice(0, 300)}`,
			);
			const paid = JSON.parse(withinAnswer ?? '[]')[0];
			assert(
				paid?.externalId === WITHIN_LIMIT.External_ID && paid.id,
				`${within}: the model got back ${withinAnswer?.slice(0, 300)}`,
			);
			const record = sandbox.state.withdrawals.find((w) => w.id === paid.id);
			assert(
				record?.amount === Number(WITHIN_LIMIT.Amount__USD_) &&
					record.token === SUPPLIER.token &&
					record.network === SUPPLIER.network &&
					record.walletAddress === SUPPLIER.address,
				`sandbox withdrawal: ${JSON.stringify(record)}`,
			);
			// The only money request of the whole run (both agents): that one, once
			assert(
				sent.length === 1 && sent[0].body.externalId === WITHIN_LIMIT.External_ID,
				`money requests: ${JSON.stringify(sent.map((r) => [r.path, r.body?.externalId, r.body?.amount]))}`,
			);
			return `${over}: "${errorIn(overAnswer)}"; ${within}: withdrawal ${paid.id}`;
		},
	);

	for (const [scenario, title] of [
		['payments-off', 'agent, default settings'],
		['payments-on', 'agent payments on'],
	]) {
		const tools = DESTINATION_TOOLS[scenario];
		await check(
			`${title}: saving a payout address and changing a wallet's bank are refused (an agent never changes where money goes), nothing reaches the sandbox`,
			async () => {
				const results = answers(scenario).slice(-tools.length);
				tools.forEach(({ tool, operation }, index) => {
					const refusal = new RegExp(
						`^This tool may not change where money goes \\(${operation}\\): AI agents never may`,
					);
					assert(
						refusal.test(errorIn(results[index]) ?? ''),
						`${tool}: the model got back ${results[index]?.slice(0, 300)}`,
					);
				});
				assert(
					!redirected.length,
					`destination requests reached the sandbox: ${JSON.stringify(redirected.map((r) => [r.method, r.path]))}`,
				);
				return tools.map(({ tool }, index) => `${tool}: "${errorIn(results[index])}"`).join('; ');
			},
		);
	}
}
