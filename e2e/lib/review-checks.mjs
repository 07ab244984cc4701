// Issue #35 in a real n8n 2.x: agent payments with a person's approval. The template
// templates/agent-payouts-review.json (a webhook starts n8n's AI Agent; its OpenAI Chat Model,
// model gpt-4o-mini as shipped, is bound to the scripted local model, fake-llm.mjs) connects Pay Supplier to the agent through Send Email's
// human review for tools (`emailSendHitlTool`), which mails a local SMTP server (smtp-server.mjs).
// The test adds an ungated copy of Pay Supplier, straight into the agent. The credential allows
// agent payments and leaves Agent Payments Need Human Review at its default (on).
//
//   approve: the approval email names the payment; approved → paid once; the agent asks again with
//            the same External ID, approved again → answered as already submitted (no second payment)
//   deny:    declined → nothing sent, the agent is told
//   ungated: the copy without review → refused, nothing sent
import { loadTemplate, sandboxCredential } from '../../tooling/setup.mjs';
import { httpJson, waitFor } from '../../tooling/util.mjs';
import { errorIn, toolName } from './agent-checks.mjs';
import { toolResults } from './fake-llm.mjs';
import { approvalLinks, followApprovalLink } from './smtp-server.mjs';
import { assert, check } from './report.mjs';

/** The template as the test runs it (its own id: the template itself is imported as npm start does, for its picture). */
export const REVIEW_WORKFLOW = 'csE2eAgentReview';
const PAY = 'Pay Supplier';
const UNGATED = 'Pay Supplier (no review)';
const REVIEW = 'Approve by Email';
const CREDENTIAL = { id: 'csE2eAgentRev001', name: 'Crypto Settlement Sandbox (agent payments on, human review)' };
const SMTP = { id: 'csE2eSmtp0000001', name: 'Approvals mailbox (SMTP)' };
/** The template's credential placeholders bound to the e2e's: the scripted model (agent-checks.mjs), the local mailbox, the sandbox. */
export const REVIEW_BINDINGS = { cryptoSettlementApi: CREDENTIAL, smtp: SMTP, openAiApi: { id: 'csE2eFakeLlm0001', name: 'Scripted chat model (e2e)' } };
const template = () => loadTemplate('agentReview', REVIEW_BINDINGS);

const pay = (amount, externalId) => ({ Amount__USD_: String(amount), External_ID: externalId });
/** A gated tool takes the tool's own arguments and the review node's ($fromAI in it: none here). */
const gated = (args) => ({ tool: toolName(PAY), args: { toolParameters: args, hitlParameters: {} } });
const APPROVED = pay(40, 'review-approve-1');
const DECLINED = pay(35, 'review-deny-1');
const UNREVIEWED = pay(30, 'review-ungated-1');
export const REVIEW_SCENARIOS = {
	'review-approve': [gated(APPROVED), gated(APPROVED)],
	'review-deny': [gated(DECLINED)],
	'review-ungated': [{ tool: toolName(UNGATED), args: UNREVIEWED }],
};
const REVIEW_REFUSAL = 'A person must approve payments: add a human review step between this tool and the agent. Nothing was sent.';
const MONEY_ROUTES = /\/payments\/(withdraw\/|swap-currency)/;

/** The template with the e2e credentials and an ungated copy of the tool. */
export function reviewWorkflow() {
	const workflow = { ...template(), id: REVIEW_WORKFLOW };
	workflow.name = `e2e: ${workflow.name}`;
	const tool = workflow.nodes.find((node) => node.name === PAY);
	const agent = workflow.connections[REVIEW].ai_tool[0][0].node;
	workflow.nodes.push({ ...tool, id: `${tool.id}-ungated`, name: UNGATED, position: [tool.position[0] + 260, tool.position[1] - 220] });
	workflow.connections[UNGATED] = { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] };
	return workflow;
}

/** The sandbox credential allowing agent payments (review left at its default), and the SMTP credential. */
export function reviewCredentials(sandbox, smtp) {
	const base = sandboxCredential(sandbox);
	return [{ ...base, ...CREDENTIAL, data: { ...base.data, allowAgentPayments: true } }, { ...SMTP, ...localSmtpCredential(smtp) }];
}


/** An SMTP credential for the local mailbox (smtp-server.mjs): no user, no TLS. */
export function localSmtpCredential(smtp) {
	return { type: 'smtp', data: { user: '', password: '', host: '127.0.0.1', port: smtp.port, secure: false, disableStartTls: true } };
}

export async function reviewChecks({ n8n, sandbox, model, smtp }) {
	const workflow = template();
	const hook = `${n8n.baseUrl}/webhook/${workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook').parameters.path}`;
	const settings = Object.fromEntries(workflow.nodes.find((node) => node.name === 'Settings').parameters.assignments.assignments.map((a) => [a.name, a.value]));
	const payNode = { ...workflow.nodes.find((node) => node.name === PAY).parameters, walletAddress: settings.supplierAddress };
	const sent = (externalId) => sandbox.requests.filter((r) => r.method === 'POST' && MONEY_ROUTES.test(r.path) && r.body?.externalId === externalId);
	const ask = async (scenario, request) => {
		const res = await httpJson('POST', hook, { body: { request: `[e2e:${scenario}] ${request}` } });
		assert(res.status === 200, `the webhook answered ${res.status}: ${res.text.slice(0, 200)}`);
	};
	const finished = (scenario) =>
		waitFor(() => model.of(scenario).length === REVIEW_SCENARIOS[scenario].length + 1, { timeoutMs: 90000, what: `the agent's answer in ${scenario}` });
	const email = (externalId, after) => smtp.next((m) => m.subject.includes(externalId), { after, timeoutMs: 60000 });
	// The email leaves before n8n has put the execution to wait: until then the link answers 409.
	const follow = followApprovalLink;

	await check('agent with human review: the approval email names the payment; approved, it is paid once; asked again, answered as already submitted', async () => {
		const before = smtp.messages.length;
		await ask('review-approve', `Pay supplier order ${APPROVED.External_ID}: 40 USD.`);
		const first = await email(APPROVED.External_ID, before);
		const { approve, decline, text } = approvalLinks(first);
		for (const shown of [`${APPROVED.Amount__USD_} USD`, `${payNode.token} on ${payNode.network}`, payNode.walletAddress, `External ID ${APPROVED.External_ID}`]) {
			assert(text.includes(shown), `the approval email does not say "${shown}": ${text.slice(0, 400)}`);
		}
		assert(approve && decline, `approve/decline links: ${JSON.stringify({ approve, decline })}`);
		// The offered tool: the gated tool's own arguments, under toolParameters
		const offered = (model.of('review-approve')[0].body.tools ?? []).find((t) => t.function.name === toolName(PAY))?.function.parameters;
		assert(offered?.properties?.toolParameters, `the gated tool as offered: ${JSON.stringify(offered).slice(0, 300)}`);
		assert(!sent(APPROVED.External_ID).length, 'a payment was sent before the approval');
		await follow(approve);
		const second = await email(APPROVED.External_ID, smtp.messages.indexOf(first) + 1);
		await follow(approvalLinks(second).approve);
		await finished('review-approve');
		const [paid, again] = toolResults(model.of('review-approve').at(-1).body.messages).map((answer) => JSON.parse(answer)[0]);
		assert(paid?.externalId === APPROVED.External_ID && paid.alreadySubmitted === false, `first approved call gave back ${JSON.stringify(paid).slice(0, 300)}`);
		assert(again?.id === paid.id && again.alreadySubmitted === true, `second approved call gave back ${JSON.stringify(again).slice(0, 300)}`);
		const requests = sent(APPROVED.External_ID);
		assert(requests.length === 1 && Number(requests[0].body.amount) === 40 && requests[0].body.walletAddress === payNode.walletAddress, `payments sent: ${JSON.stringify(requests.map((r) => r.body))}`);
		return `"${first.subject}": "${text.trim().slice(0, 200)}"; withdrawal ${paid.id}, once`;
	});

	await check('agent with human review: declined, nothing is sent and the agent is told', async () => {
		const before = smtp.messages.length;
		await ask('review-deny', `Pay supplier order ${DECLINED.External_ID}: 35 USD.`);
		await follow(approvalLinks(await email(DECLINED.External_ID, before)).decline);
		await finished('review-deny');
		const [answer] = toolResults(model.of('review-deny').at(-1).body.messages);
		assert(/rejected/i.test(answer ?? ''), `the agent was told: ${answer?.slice(0, 300)}`);
		assert(!sent(DECLINED.External_ID).length, `${sent(DECLINED.External_ID).length} payment(s) sent after the decline`);
		return `"${answer}"`;
	});

	await check('agent with human review: the ungated copy of the tool in the same workflow is refused, nothing is sent', async () => {
		await ask('review-ungated', `Pay supplier order ${UNREVIEWED.External_ID}: 30 USD.`);
		await finished('review-ungated');
		const [answer] = toolResults(model.of('review-ungated').at(-1).body.messages);
		assert(errorIn(answer) === REVIEW_REFUSAL, `the model got back: ${answer?.slice(0, 300)}`);
		assert(!sent(UNREVIEWED.External_ID).length, 'the unreviewed payment was sent');
		return `"${errorIn(answer)}"`;
	});
}
