// Issue #35 and issue 50, point 2, in a real n8n 2.x: an agent's payments, each approved by a person
// who reads the Dry Run's figures. The template templates/agent-payouts-review.json (a webhook starts
// n8n's AI Agent; its OpenAI Chat Model, model gpt-4o-mini as shipped, is bound to the scripted local
// model, fake-llm.mjs) gives the agent one tool, Pay Supplier, a Call n8n Workflow Tool that starts
// the same workflow: Dry Run the Payout → Already Paid? → Ask for Approval (Send Email, send and
// wait, to a local SMTP server, smtp-server.mjs) → Approved? → Pay the Supplier, each path ending in
// the answer the agent gets. "The agent prepares, the workflow dry-runs, asks, pays."
// The template's Crypto Settlement credential has Allow Sub-Workflow Payments on (the run the tool
// starts is one started by another workflow) and Allow Agent Payments off; the test adds an ungated
// Crypto Settlement tool, straight into the agent, with that credential.
//
//   approve: the approval email names the payment and carries the Dry Run's figures (what leaves
//            the balance, the fee, what the supplier receives, as the fake API quotes them);
//            approved → paid once; the agent asks again with the same External ID → answered
//            already paid, no email, nothing sent
//   again:   a new request for the same order → already paid without an email; the same External
//            ID with another amount → refused, no email, nothing sent
//   deny:    declined → nothing sent, the agent is told
//   ungated: the Crypto Settlement tool given straight to the agent → refused, nothing sent
import { loadTemplate, sandboxApi, sandboxCredential } from '../../tooling/setup.mjs';
import { httpJson, waitFor } from '../../tooling/util.mjs';
import { errorIn, toolName } from './agent-checks.mjs';
import { toolResults } from './fake-llm.mjs';
import { approvalLinks, followApprovalLink } from './smtp-server.mjs';
import { assert, check } from './report.mjs';

/** The template as the test runs it (its own id: the template itself is imported as npm start does, for its picture). */
export const REVIEW_WORKFLOW = 'csE2eAgentReview';
const PAY = 'Pay Supplier';
const UNGATED = 'Pay Supplier Directly (no approval)';
/** The template's credential: payments in the run its tool starts allowed, agents' own payments not. */
const CREDENTIAL = { id: 'csE2eAgentTpl001', name: 'Crypto Settlement Sandbox (sub-workflow payments on; agents may not pay)' };
/** Agent payments on, human review left on: e2e-first-hour.json's gated tool. */
const REVIEW_CREDENTIAL = { id: 'csE2eAgentRev001', name: 'Crypto Settlement Sandbox (agent payments on, human review)' };
const SMTP = { id: 'csE2eSmtp0000001', name: 'Approvals mailbox (SMTP)' };
/** The template's credential placeholders bound to the e2e's: the scripted model (agent-checks.mjs), the local mailbox, the sandbox. */
export const REVIEW_BINDINGS = { cryptoSettlementApi: CREDENTIAL, smtp: SMTP, openAiApi: { id: 'csE2eFakeLlm0001', name: 'Scripted chat model (e2e)' } };
const template = () => loadTemplate('agentReview', REVIEW_BINDINGS);

/** Pay Supplier's arguments: the `$fromAI` keys of its workflow inputs. */
const pay = (amountUsd, externalId) => ({ tool: toolName(PAY), args: { amountUsd, externalId } });
const APPROVED = { amountUsd: 40, externalId: 'review-approve-1' };
const DECLINED = { amountUsd: 35, externalId: 'review-deny-1' };
const UNREVIEWED = { Amount__USD_: '30', External_ID: 'review-ungated-1' };
export const REVIEW_SCENARIOS = {
	'review-approve': [pay(APPROVED.amountUsd, APPROVED.externalId), pay(APPROVED.amountUsd, APPROVED.externalId)],
	'review-again': [pay(APPROVED.amountUsd, APPROVED.externalId)],
	'review-reuse': [pay(45, APPROVED.externalId)],
	'review-deny': [pay(DECLINED.amountUsd, DECLINED.externalId)],
	'review-ungated': [{ tool: toolName(UNGATED), args: UNREVIEWED }],
};
const AGENT_REFUSAL = 'This tool may not move money: the owner of the credential has not allowed AI agents to make payments. Ask a person to make this payment.';
const MONEY_ROUTES = /\/payments\/(withdraw\/|swap-currency)/;

/** The template with the e2e credentials and an ungated Crypto Settlement tool given straight to the agent. */
export function reviewWorkflow() {
	const workflow = { ...template(), id: REVIEW_WORKFLOW };
	workflow.name = `e2e: ${workflow.name}`;
	const tool = workflow.nodes.find((node) => node.name === PAY);
	const agent = workflow.connections[PAY].ai_tool[0][0].node;
	const payment = workflow.nodes.find((node) => node.name === 'Pay the Supplier');
	workflow.nodes.push({
		parameters: {
			...payment.parameters,
			dryRun: undefined,
			amount: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('Amount__USD_', ``, 'string') }}",
			externalId: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('External_ID', ``, 'string') }}",
		},
		id: `${tool.id}-ungated`,
		name: UNGATED,
		type: 'n8n-nodes-crypto-settlement.cryptoSettlementTool',
		typeVersion: 1,
		position: [tool.position[0] + 260, tool.position[1] - 220],
		credentials: payment.credentials,
	});
	workflow.connections[UNGATED] = { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] };
	return workflow;
}

/** The template's credential (sub-workflow payments on), the gated tool's of e2e-first-hour.json, and the SMTP credential. */
export function reviewCredentials(sandbox, smtp) {
	const base = sandboxCredential(sandbox);
	return [
		{ ...base, ...CREDENTIAL, data: { ...base.data, allowSubWorkflowPayments: true } },
		{ ...base, ...REVIEW_CREDENTIAL, data: { ...base.data, allowAgentPayments: true } },
		{ ...SMTP, ...localSmtpCredential(smtp) },
	];
}

/** An SMTP credential for the local mailbox (smtp-server.mjs): no user, no TLS. */
export function localSmtpCredential(smtp) {
	return { type: 'smtp', data: { user: '', password: '', host: '127.0.0.1', port: smtp.port, secure: false, disableStartTls: true } };
}

/** What a tool answered the agent: the first item of a JSON list, or the object. */
function answerOf(text) {
	try {
		const json = JSON.parse(text);
		const first = Array.isArray(json) ? json[0] : json;
		return first?.response && typeof first.response === 'object' ? first.response : first;
	} catch {
		return { text };
	}
}

/** What the fake API quotes for a payout of `amount` USD to `walletAddress`: leaves the balance, the fee, the supplier receives. */
async function quotedFigures(sandbox, walletAddress, amount) {
	const { withdrawalFeeBearer } = await sandboxApi(sandbox, 'GET', '/users/fetch-integration');
	const quote = await sandboxApi(sandbox, 'POST', '/payments/estimate-network-fee', { token: 'USDT', network: 'TRC20', walletAddress, amount });
	const fee = Number(quote.fee);
	const usd = (value) => `${value.toFixed(2)} USD`;
	const business = withdrawalFeeBearer === 'business';
	return {
		leaves: `${usd(business ? amount + fee : amount)} leaves your balance`,
		fee: `the fee is ${usd(fee)}, borne by the ${business ? 'business' : 'recipient'}`,
		receives: `the supplier receives ${usd(business ? amount : amount - fee)} in USDT on TRC20 at ${walletAddress}`,
	};
}

export async function reviewChecks({ n8n, sandbox, model, smtp }) {
	const workflow = template();
	const hook = `${n8n.baseUrl}/webhook/${workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook').parameters.path}`;
	const settings = Object.fromEntries(workflow.nodes.find((node) => node.name === 'Settings').parameters.assignments.assignments.map((a) => [a.name, a.value]));
	const sent = (externalId) => sandbox.requests.filter((r) => r.method === 'POST' && MONEY_ROUTES.test(r.path) && r.body?.externalId === externalId);
	const emailsAbout = (externalId) => smtp.messages.filter((m) => m.subject.includes(externalId));
	const ask = async (scenario, request) => {
		const res = await httpJson('POST', hook, { body: { request: `[e2e:${scenario}] ${request}` } });
		assert(res.status === 200, `the webhook answered ${res.status}: ${res.text.slice(0, 200)}`);
	};
	const finished = (scenario) =>
		waitFor(() => model.of(scenario).length === REVIEW_SCENARIOS[scenario].length + 1, { timeoutMs: 90000, what: `the agent's answer in ${scenario}` });
	const answers = (scenario) => toolResults(model.of(scenario).at(-1).body.messages);
	const email = (externalId, after) => smtp.next((m) => m.subject.includes(externalId), { after, timeoutMs: 60000 });

	await check("agent template: the approval email carries the Dry Run's figures; approved, it is paid once; asked again, answered already paid without an email", async () => {
		const before = smtp.messages.length;
		const figures = await quotedFigures(sandbox, settings.supplierAddress, APPROVED.amountUsd);
		await ask('review-approve', `Pay supplier order ${APPROVED.externalId}: 40 USD.`);
		const first = await email(APPROVED.externalId, before);
		const { approve, decline, text } = approvalLinks(first);
		for (const shown of [`supplier order ${APPROVED.externalId}`, figures.leaves, figures.fee, figures.receives, `External ID ${APPROVED.externalId} has not been paid before`]) {
			assert(text.includes(shown), `the approval email does not say "${shown}": ${text.slice(0, 600)}`);
		}
		assert(approve && decline, `approve/decline links: ${JSON.stringify({ approve, decline })}`);
		const offered = (model.of('review-approve')[0].body.tools ?? []).find((t) => t.function.name === toolName(PAY))?.function.parameters;
		assert(offered?.properties?.amountUsd && offered?.properties?.externalId, `the tool as offered: ${JSON.stringify(offered).slice(0, 300)}`);
		assert(!sent(APPROVED.externalId).length, 'a payment was sent before the approval');
		await followApprovalLink(approve);
		// Asked again, the agent must be answered without a second email: one arriving first fails the check at once.
		const askedAgain = email(APPROVED.externalId, smtp.messages.indexOf(first) + 1).then((again) => {
			throw new Error(`the order already paid was asked about again: "${again.subject}"`);
		}, () => new Promise(() => {}));
		await Promise.race([finished('review-approve'), askedAgain]);
		const [paid, again] = answers('review-approve').map(answerOf);
		assert(paid?.result === 'paid' && paid.externalId === APPROVED.externalId && paid.withdrawalId, `first call gave back ${JSON.stringify(paid).slice(0, 300)}`);
		assert(again?.result === 'already paid' && again.withdrawalId === paid.withdrawalId, `second call gave back ${JSON.stringify(again).slice(0, 300)}`);
		assert(emailsAbout(APPROVED.externalId).length === 1, `${emailsAbout(APPROVED.externalId).length} approval emails for ${APPROVED.externalId}`);
		const requests = sent(APPROVED.externalId);
		assert(requests.length === 1 && Number(requests[0].body.amount) === 40 && requests[0].body.walletAddress === settings.supplierAddress, `payments sent: ${JSON.stringify(requests.map((r) => r.body))}`);
		return `"${first.subject}": "${text.trim().slice(0, 300)}"; withdrawal ${paid.withdrawalId}, once; asked again: "${again.message}"`;
	});

	await check('agent template: a new request for an order already paid is answered already paid without an email; the same External ID with another amount is refused', async () => {
		const emails = smtp.messages.length;
		await ask('review-again', `Pay supplier order ${APPROVED.externalId}: 40 USD.`);
		await finished('review-again');
		const [again] = answers('review-again').map(answerOf);
		assert(again?.result === 'already paid', `asked again, the agent got back ${JSON.stringify(again).slice(0, 300)}`);
		await ask('review-reuse', `Pay supplier order ${APPROVED.externalId}: 45 USD.`);
		await finished('review-reuse');
		const [reused] = answers('review-reuse');
		assert(/already used for a different withdrawal/.test(reused ?? ''), `another amount under the same External ID: the agent got back ${reused?.slice(0, 300)}`);
		assert(smtp.messages.length === emails, `${smtp.messages.length - emails} email(s) sent: ${smtp.messages.slice(emails).map((m) => m.subject).join(' | ')}`);
		assert(sent(APPROVED.externalId).length === 1, `${sent(APPROVED.externalId).length} payments sent for ${APPROVED.externalId}`);
		return `"${again.message}"; another amount: "${reused.slice(0, 200)}"`;
	});

	await check('agent template: declined, nothing is sent and the agent is told', async () => {
		const before = smtp.messages.length;
		await ask('review-deny', `Pay supplier order ${DECLINED.externalId}: 35 USD.`);
		await followApprovalLink(approvalLinks(await email(DECLINED.externalId, before)).decline);
		await finished('review-deny');
		const [answer] = answers('review-deny').map(answerOf);
		assert(answer?.result === 'declined' && /nothing was sent/.test(answer.message ?? ''), `the agent was told: ${JSON.stringify(answer).slice(0, 300)}`);
		assert(!sent(DECLINED.externalId).length, `${sent(DECLINED.externalId).length} payment(s) sent after the decline`);
		return `"${answer.message}"`;
	});

	await check('agent template: a Crypto Settlement tool given straight to the agent (no Dry Run, no approval) is refused, nothing is sent', async () => {
		await ask('review-ungated', `Pay supplier order ${UNREVIEWED.External_ID}: 30 USD.`);
		await finished('review-ungated');
		const [answer] = answers('review-ungated');
		assert(errorIn(answer) === AGENT_REFUSAL, `the model got back: ${answer?.slice(0, 300)}`);
		assert(!sent(UNREVIEWED.External_ID).length, 'the unreviewed payment was sent');
		return `"${errorIn(answer)}"`;
	});
}
