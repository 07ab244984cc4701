// Issue #35 in a real n8n 2.x: an agent's payment approved through n8n's human review for tools, the
// node's Agent Payments Need Human Review guardrail (docs/guardrails.md, "AI agents: a person approves
// each payment"). e2e-agent-review.json: a webhook starts n8n's AI Agent (its OpenAI Chat Model bound
// to the scripted model, fake-llm.mjs); its Pay Supplier tool (the Crypto Settlement tool) reaches it
// through Send Email's human review for tools (`emailSendHitlTool`), which mails a local SMTP server
// (smtp-server.mjs); Pay Supplier (no review) is a copy straight into the agent. The credential allows
// agent payments and leaves Agent Payments Need Human Review at its default (on). (The agent template,
// which asks with a Dry Run's figures, is review-checks.mjs.)
//
//   approve: the approval email names the payment; approved → paid once; the agent asks again with
//            the same External ID, approved again → answered as already submitted (no second payment)
//   deny:    declined → nothing sent, the agent is told
//   ungated: the copy without review → refused, nothing sent
import { loadWorkflow } from '../../tooling/setup.mjs';
import { httpJson, waitFor } from '../../tooling/util.mjs';
import { errorIn, toolName } from './agent-checks.mjs';
import { toolResults } from './fake-llm.mjs';
import { approvalLinks, followApprovalLink } from './smtp-server.mjs';
import { assert, check } from './report.mjs';

export const HITL_WORKFLOW = 'csE2eAgentHitl01';
const FILE = 'e2e-agent-review';
const PAY = 'Pay Supplier';
const UNGATED = 'Pay Supplier (no review)';
const REVIEW = 'Approve by Email';

const pay = (amount, externalId) => ({ Amount__USD_: String(amount), External_ID: externalId });
/** A gated tool takes the tool's own arguments and the review node's ($fromAI in it: none here). */
const gated = (args) => ({
	tool: toolName(PAY),
	args: { toolParameters: args, hitlParameters: {} },
});
const APPROVED = pay(40, 'hitl-approve-1');
const DECLINED = pay(35, 'hitl-deny-1');
const UNREVIEWED = pay(30, 'hitl-ungated-1');
export const HITL_SCENARIOS = {
	'hitl-approve': [gated(APPROVED), gated(APPROVED)],
	'hitl-deny': [gated(DECLINED)],
	'hitl-ungated': [{ tool: toolName(UNGATED), args: UNREVIEWED }],
};
const REVIEW_REFUSAL =
	'A person must approve payments: add a human review step between this tool and the agent. Nothing was sent.';
const MONEY_ROUTES = /\/payments\/(withdraw\/|swap-currency)/;

/** e2e-agent-review.json with an ungated copy of the tool. */
export function hitlWorkflow() {
	const workflow = loadWorkflow(FILE);
	const tool = workflow.nodes.find((node) => node.name === PAY);
	const agent = workflow.connections[REVIEW].ai_tool[0][0].node;
	workflow.nodes.push({
		...tool,
		id: `${tool.id}-ungated`,
		name: UNGATED,
		position: [tool.position[0] + 260, tool.position[1] - 220],
	});
	workflow.connections[UNGATED] = { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] };
	return workflow;
}

export async function hitlChecks({ n8n, sandbox, model, smtp }) {
	const workflow = loadWorkflow(FILE);
	const hook = `${n8n.baseUrl}/webhook/${workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook').parameters.path}`;
	const settings = Object.fromEntries(
		workflow.nodes
			.find((node) => node.name === 'Settings')
			.parameters.assignments.assignments.map((a) => [a.name, a.value]),
	);
	const payNode = {
		...workflow.nodes.find((node) => node.name === PAY).parameters,
		walletAddress: settings.supplierAddress,
	};
	const sent = (externalId) =>
		sandbox.requests.filter(
			(r) => r.method === 'POST' && MONEY_ROUTES.test(r.path) && r.body?.externalId === externalId,
		);
	const ask = async (scenario, request) => {
		const res = await httpJson('POST', hook, { body: { request: `[e2e:${scenario}] ${request}` } });
		assert(res.status === 200, `the webhook answered ${res.status}: ${res.text.slice(0, 200)}`);
	};
	const finished = (scenario) =>
		waitFor(() => model.of(scenario).length === HITL_SCENARIOS[scenario].length + 1, {
			timeoutMs: 90000,
			what: `the agent's answer in ${scenario}`,
		});
	const email = (externalId, after) =>
		smtp.next((m) => m.subject.includes(externalId), { after, timeoutMs: 60000 });

	await check(
		'agent with human review for tools: the approval email names the payment; approved, it is paid once; asked again, answered as already submitted',
		async () => {
			const before = smtp.messages.length;
			await ask('hitl-approve', `Pay supplier order ${APPROVED.External_ID}: 40 USD.`);
			const first = await email(APPROVED.External_ID, before);
			const { approve, decline, text } = approvalLinks(first);
			for (const shown of [
				`${APPROVED.Amount__USD_} USD`,
				`${payNode.token} on ${payNode.network}`,
				payNode.walletAddress,
				`External ID ${APPROVED.External_ID}`,
			]) {
				assert(
					text.includes(shown),
					`the approval email does not say "${shown}": ${text.slice(0, 400)}`,
				);
			}
			assert(approve && decline, `approve/decline links: ${JSON.stringify({ approve, decline })}`);
			// The offered tool: the gated tool's own arguments, under toolParameters
			const offered = (model.of('hitl-approve')[0].body.tools ?? []).find(
				(t) => t.function.name === toolName(PAY),
			)?.function.parameters;
			assert(
				offered?.properties?.toolParameters,
				`the gated tool as offered: ${JSON.stringify(offered).slice(0, 300)}`,
			);
			assert(!sent(APPROVED.External_ID).length, 'a payment was sent before the approval');
			await followApprovalLink(approve);
			const second = await email(APPROVED.External_ID, smtp.messages.indexOf(first) + 1);
			await followApprovalLink(approvalLinks(second).approve);
			await finished('hitl-approve');
			const [paid, again] = toolResults(model.of('hitl-approve').at(-1).body.messages).map(
				(answer) => JSON.parse(answer)[0],
			);
			assert(
				paid?.externalId === APPROVED.External_ID && paid.alreadySubmitted === false,
				`first approved call gave back ${JSON.stringify(paid).slice(0, 300)}`,
			);
			assert(
				again?.id === paid.id && again.alreadySubmitted === true,
				`second approved call gave back ${JSON.stringify(again).slice(0, 300)}`,
			);
			const requests = sent(APPROVED.External_ID);
			assert(
				requests.length === 1 &&
					Number(requests[0].body.amount) === 40 &&
					requests[0].body.walletAddress === payNode.walletAddress,
				`payments sent: ${JSON.stringify(requests.map((r) => r.body))}`,
			);
			return `"${first.subject}": "${text.trim().slice(0, 200)}"; withdrawal ${paid.id}, once`;
		},
	);

	await check(
		'agent with human review for tools: declined, nothing is sent and the agent is told',
		async () => {
			const before = smtp.messages.length;
			await ask('hitl-deny', `Pay supplier order ${DECLINED.External_ID}: 35 USD.`);
			await followApprovalLink(approvalLinks(await email(DECLINED.External_ID, before)).decline);
			await finished('hitl-deny');
			const [answer] = toolResults(model.of('hitl-deny').at(-1).body.messages);
			assert(/rejected/i.test(answer ?? ''), `the agent was told: ${answer?.slice(0, 300)}`);
			assert(
				!sent(DECLINED.External_ID).length,
				`${sent(DECLINED.External_ID).length} payment(s) sent after the decline`,
			);
			return `"${answer}"`;
		},
	);

	await check(
		'agent with human review for tools: the ungated copy of the tool in the same workflow is refused, nothing is sent',
		async () => {
			await ask('hitl-ungated', `Pay supplier order ${UNREVIEWED.External_ID}: 30 USD.`);
			await finished('hitl-ungated');
			const [answer] = toolResults(model.of('hitl-ungated').at(-1).body.messages);
			assert(errorIn(answer) === REVIEW_REFUSAL, `the model got back: ${answer?.slice(0, 300)}`);
			assert(!sent(UNREVIEWED.External_ID).length, 'the unreviewed payment was sent');
			return `"${errorIn(answer)}"`;
		},
	);
}
