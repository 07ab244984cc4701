// Issue #35, issue 50 point 2 and issue 70 points 1 and 2, in a real n8n (2.41 and 1.123): an agent's
// payments, each approved by a person who reads the Dry Run's figures, and the requester answered in
// words, then emailed when it is paid or declined. The template templates/agent-payouts-review.json
// (a webhook starts n8n's AI Agent; its OpenAI Chat Model, model gpt-4o-mini as shipped, is bound to
// the scripted local model, fake-llm.mjs, which relays its tool's words) gives the agent one tool,
// Pay Supplier, a Call n8n Workflow Tool that starts the same workflow: Dry Run the Payout → Refused?
// → Already Paid? → Find a Pending Approval (a Data Table) → Ask for Approval, Without Waiting (the
// same workflow once more, in a run of its own: Ask for Approval, a Send Email send-and-wait to a
// local SMTP server, smtp-server.mjs → Forget the Pending Approval → Approved? → Pay the Supplier →
// Tell the Requester). The webhook responds with the agent's answer (Respond to Webhook).
// The template's Crypto Settlement credential has Allow Sub-Workflow Payments on (the runs the tool
// starts are started by another workflow), Max per Withdrawal 100 USD and Allow Agent Payments off;
// the test adds an ungated Crypto Settlement tool, straight into the agent, with that credential.
//
//   approve: answered at once "waiting for approval", who was asked, the figures, that the requester
//            (the request's replyTo) gets an email; the approval email names the supplier and the Dry
//            Run's figures (what leaves the balance, the fee, what the supplier receives, as the fake
//            API quotes them); the same request again while it waits → answered "already waiting for
//            approval" (who was asked), no second email (issue 70: the pending approvals Data Table,
//            made by npm start's set-up); approved → paid once, and the requester's "Paid" email
//            states the figures, the External ID last; asked again → answered already paid with the
//            figures, no email, nothing sent
//   reuse, limit: the same External ID with another amount, 150 USD over Max per Withdrawal →
//            answered refused with the reason, no email, nothing sent
//   deny:    declined → nothing sent, Settings' requester (no replyTo) gets a "Declined" email; the
//            same request again → asked again (the decline removed the pending row)
//   replyTo: a request whose replyTo is not an email address → answered so in words before the
//            agent; no approval email, nothing sent
//   unfunded: approved while the fake API's USD balance is 0 (PUT /_sandbox/balances), so the payment
//            is refused → the requester's "Not confirmed" email quotes the node's error, says not to
//            send it again, the External ID last; nothing paid; the approval's run ends in error
//   ungated: the Crypto Settlement tool given straight to the agent → refused, nothing sent
import {
	loadTemplate,
	nameTemplateTables,
	sandboxApi,
	sandboxCredential,
	setUpTemplateTables,
} from '../../tooling/setup.mjs';
import { httpJson, waitFor } from '../../tooling/util.mjs';
import { errorIn, toolName } from './agent-checks.mjs';
import { toolResults } from './fake-llm.mjs';
import { approvalLinks, followApprovalLink, mailText } from './smtp-server.mjs';
import { assert, check } from './report.mjs';
import { setBalances } from './templates/pay-vendors.mjs';

/** The template as the test runs it (its own id: the template itself is imported as npm start does, for its picture). */
export const REVIEW_WORKFLOW = 'csE2eAgentReview';
const PAY = 'Pay Supplier';
const UNGATED = 'Pay Supplier Directly (no approval)';
/** The template's credential: payments in the run its tool starts allowed, agents' own payments not. */
const CREDENTIAL = {
	id: 'csE2eAgentTpl001',
	name: 'Crypto Settlement Sandbox (max 100 USD per withdrawal; sub-workflow payments on; agents may not pay)',
};
/** Agent payments on, human review left on: e2e-first-hour.json's gated tool. */
const REVIEW_CREDENTIAL = {
	id: 'csE2eAgentRev001',
	name: 'Crypto Settlement Sandbox (agent payments on, human review)',
};
const SMTP = { id: 'csE2eSmtp0000001', name: 'Approvals mailbox (SMTP)' };
/** The template's credential placeholders bound to the e2e's: the scripted model (agent-checks.mjs), the local mailbox, the sandbox. */
export const REVIEW_BINDINGS = {
	cryptoSettlementApi: CREDENTIAL,
	smtp: SMTP,
	openAiApi: { id: 'csE2eFakeLlm0001', name: 'Scripted chat model (e2e)' },
};
const template = () => loadTemplate('agentReview', REVIEW_BINDINGS);

/** Pay Supplier's arguments: the `$fromAI` keys of its workflow inputs. */
const pay = (amountUsd, externalId) => ({ tool: toolName(PAY), args: { amountUsd, externalId } });
const APPROVED = { amountUsd: 40, externalId: 'review-approve-1' };
const DECLINED = { amountUsd: 35, externalId: 'review-deny-1' };
const OVER_LIMIT = { amountUsd: 150, externalId: 'review-limit-1' };
/** Approved while the fake API's USD balance is 0: the payment is refused after the approval. */
const UNFUNDED = { amountUsd: 25, externalId: 'review-unfunded-1' };
const UNREVIEWED = { Amount__USD_: '30', External_ID: 'review-ungated-1' };
/** Who the approve scenario's request asks to be told (its `replyTo`); the deny scenario's has none. */
const REQUESTER = 'finance-lead@example.com';
export const REVIEW_SCENARIOS = {
	'review-approve': [pay(APPROVED.amountUsd, APPROVED.externalId)],
	'review-pending': [pay(APPROVED.amountUsd, APPROVED.externalId)],
	'review-again': [pay(APPROVED.amountUsd, APPROVED.externalId)],
	'review-reuse': [pay(45, APPROVED.externalId)],
	'review-limit': [pay(OVER_LIMIT.amountUsd, OVER_LIMIT.externalId)],
	'review-deny': [pay(DECLINED.amountUsd, DECLINED.externalId)],
	'review-deny-again': [pay(DECLINED.amountUsd, DECLINED.externalId)],
	'review-ungated': [{ tool: toolName(UNGATED), args: UNREVIEWED }],
	'review-unfunded': [pay(UNFUNDED.amountUsd, UNFUNDED.externalId)],
};
const BAD_REPLY_TO =
	'replyTo must be an email address such as finance@example.com; nothing was sent';
const AGENT_REFUSAL =
	'This tool may not move money: the owner of the credential has not allowed AI agents to make payments. Ask a person to make this payment.';
const MONEY_ROUTES = /\/payments\/(withdraw\/|swap-currency)/;

/**
 * The template with the e2e credentials and an ungated Crypto Settlement tool given straight to the
 * agent; on n8n 1.x that tool is set to On Error → Continue, as 1.x users must for an agent to read a
 * tool's refusal (agent-checks.mjs, agentWorkflow).
 */
export function reviewWorkflow(line) {
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
			externalId:
				"={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('External_ID', ``, 'string') }}",
		},
		id: `${tool.id}-ungated`,
		name: UNGATED,
		type: 'n8n-nodes-crypto-settlement.cryptoSettlementTool',
		typeVersion: 1,
		position: [tool.position[0] + 260, tool.position[1] - 220],
		credentials: payment.credentials,
		...(line === '1' ? { onError: 'continueRegularOutput' } : {}),
	});
	workflow.connections[UNGATED] = { ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] };
	return workflow;
}

/** The template's credential (sub-workflow payments on), the gated tool's of e2e-first-hour.json, and the SMTP credential. */
export function reviewCredentials(sandbox, smtp) {
	const base = sandboxCredential(sandbox);
	return [
		{
			...base,
			...CREDENTIAL,
			data: { ...base.data, allowSubWorkflowPayments: true, maxPerWithdrawalUsd: 100 },
		},
		{ ...base, ...REVIEW_CREDENTIAL, data: { ...base.data, allowAgentPayments: true } },
		{ ...SMTP, ...localSmtpCredential(smtp) },
	];
}

/** An SMTP credential for the local mailbox (smtp-server.mjs): no user, no TLS. */
export function localSmtpCredential(smtp) {
	return {
		type: 'smtp',
		data: {
			user: '',
			password: '',
			host: '127.0.0.1',
			port: smtp.port,
			secure: false,
			disableStartTls: true,
		},
	};
}

/** What the fake API quotes for a payout of `amount` USD to `walletAddress`: leaves the balance, the fee, what `supplier` receives. */
async function quotedFigures(sandbox, walletAddress, amount, supplier) {
	const { withdrawalFeeBearer } = await sandboxApi(sandbox, 'GET', '/users/fetch-integration');
	const quote = await sandboxApi(sandbox, 'POST', '/payments/estimate-network-fee', {
		token: 'USDT',
		network: 'TRC20',
		walletAddress,
		amount,
	});
	const fee = Number(quote.fee);
	const usd = (value) => `${value.toFixed(2)} USD`;
	const business = withdrawalFeeBearer === 'business';
	return {
		// the requester's Paid email: the amount, and what left the balance when the business bore the fee
		amountLine: `Amount: ${usd(amount)}${business ? `; ${usd(amount + fee)} left your balance` : ' - Fee'}`,
		feeLine: `Fee: ${usd(fee)}, borne by the ${business ? 'business' : 'recipient'}`,
		leaves: `${usd(business ? amount + fee : amount)} leaves your balance`,
		fee: `the fee is ${usd(fee)}`,
		bearer: `the fee is ${usd(fee)}, borne by the ${business ? 'business' : 'recipient'}`,
		receives: `${supplier} receives ${usd(business ? amount : amount - fee)} in USDT on TRC20 at ${walletAddress}`,
	};
}

/** `seeded`: the statement's seeded day, for the sample payees of the tables npm start's set-up makes. */
export async function reviewChecks({ n8n, sandbox, model, smtp, seeded }) {
	const workflow = template();
	const hook = `${n8n.baseUrl}/webhook/${workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook').parameters.path}`;
	const settings = Object.fromEntries(
		workflow.nodes
			.find((node) => node.name === 'Settings')
			.parameters.assignments.assignments.map((a) => [a.name, a.value]),
	);
	const sent = (externalId) =>
		sandbox.requests.filter(
			(r) => r.method === 'POST' && MONEY_ROUTES.test(r.path) && r.body?.externalId === externalId,
		);
	/** Approval emails (Ask for Approval) and the requester's outcome emails (Tell the Requester). */
	const isApproval = (externalId) => (m) =>
		m.subject.startsWith('Approve ') && m.subject.includes(externalId);
	const isOutcome = (outcome, externalId) => (m) =>
		m.subject.startsWith(`${outcome}: `) && m.subject.includes(`order ${externalId},`);
	const emailsAbout = (externalId) => smtp.messages.filter(isApproval(externalId));
	/** The requester's request; its response is the agent's answer, in words. */
	const ask = async (scenario, request, replyTo) => {
		const res = await httpJson('POST', hook, {
			body: { request: `[e2e:${scenario}] ${request}`, ...(replyTo ? { replyTo } : {}) },
			timeoutMs: 90000,
		});
		assert(
			res.status === 200 && /^text\/plain/.test(res.headers?.['content-type'] ?? 'text/plain'),
			`the webhook answered ${res.status}: ${res.text.slice(0, 200)}`,
		);
		return res.text;
	};
	const says = (answer, shown) =>
		assert(answer.includes(shown), `the answer does not say "${shown}": ${answer.slice(0, 600)}`);
	const email = (externalId, after) =>
		smtp.next(isApproval(externalId), { after, timeoutMs: 60000 });
	const outcomeEmail = (outcome, externalId, after) =>
		smtp.next(isOutcome(outcome, externalId), { after, timeoutMs: 60000 });
	const to = (message, address) =>
		assert(
			message.to.some((recipient) => recipient.includes(address)),
			`"${message.subject}" went to ${message.to.join(', ')}, not ${address}`,
		);

	// the pending approvals Data Table, made and wired as npm start does, and named in the test copy
	await check(
		"agent template: its pending approvals Data Table made and its id written into its Settings by npm start's set-up (and the test copy's)",
		async () => {
			const ids = await setUpTemplateTables(n8n, { seeded });
			await nameTemplateTables(n8n, 'agentReview', REVIEW_WORKFLOW, ids);
			const saved = await n8n.rest('GET', `/workflows/${REVIEW_WORKFLOW}`);
			const value = saved.nodes
				.find((node) => node.name === 'Settings')
				.parameters.assignments.assignments.find((a) => a.name === 'pendingTableId').value;
			assert(
				value === ids.crypto_pending_approvals,
				`pendingTableId ${value}, table ${ids.crypto_pending_approvals}`,
			);
			return `crypto_pending_approvals ${value}`;
		},
	);
	/** The approval runs have ended (approved and paid, or declined). */
	const approvalsEnded = () =>
		waitFor(
			async () =>
				(await n8n.executions(REVIEW_WORKFLOW)).every(
					(e) => !['new', 'running', 'waiting'].includes(e.status),
				),
			{ timeoutMs: 90000, what: 'the approval runs to end' },
		);

	await check(
		'agent template: the request is answered at once in words (waiting for approval, who was asked, the figures, an email to follow); the email names the supplier and the figures; asked again while it waits, answered already waiting, no second email; approved, paid once, and the requester emailed "Paid" with the figures; asked again, answered already paid with the figures, without an email',
		async () => {
			const before = smtp.messages.length;
			const figures = await quotedFigures(
				sandbox,
				settings.supplierAddress,
				APPROVED.amountUsd,
				settings.supplierName,
			);
			const waiting = await ask(
				'review-approve',
				`Pay supplier order ${APPROVED.externalId}: 40 USD.`,
				REQUESTER,
			);
			for (const shown of [
				'Waiting for approval: nothing has been sent yet.',
				`${settings.approverEmail} was asked`,
				`order ${APPROVED.externalId}`,
				figures.leaves,
				figures.fee,
				figures.receives,
				`${REQUESTER} gets an email when it is paid, or declined`,
			])
				says(waiting, shown);
			const first = await email(APPROVED.externalId, before);
			const { approve, decline, text } = approvalLinks(first);
			assert(
				first.subject.includes(settings.supplierName),
				`the approval email's subject: "${first.subject}"`,
			);
			assert(!/my form/i.test(text), `the approval email reads "My form": ${text.slice(0, 200)}`);
			for (const shown of [
				`pay ${settings.supplierName} for order ${APPROVED.externalId}`,
				figures.leaves,
				figures.bearer,
				figures.receives,
				`Order ${APPROVED.externalId} has not been paid before`,
			]) {
				assert(
					text.includes(shown),
					`the approval email does not say "${shown}": ${text.slice(0, 600)}`,
				);
			}
			assert(approve && decline, `approve/decline links: ${JSON.stringify({ approve, decline })}`);
			const offered = (model.of('review-approve')[0].body.tools ?? []).find(
				(t) => t.function.name === toolName(PAY),
			)?.function.parameters;
			assert(
				offered?.properties?.amountUsd &&
					offered?.properties?.externalId &&
					!offered.properties.step,
				`the tool as offered: ${JSON.stringify(offered).slice(0, 300)}`,
			);
			assert(!sent(APPROVED.externalId).length, 'a payment was sent before the approval');
			const pending = await ask(
				'review-pending',
				`Pay supplier order ${APPROVED.externalId}: 40 USD.`,
				REQUESTER,
			);
			for (const shown of [
				`Already waiting for approval (asked ${settings.approverEmail}`,
				`order ${APPROVED.externalId}, 40.00 USD`,
				'nobody was asked again',
				`${REQUESTER} gets an email when it is approved and paid, or declined`,
			])
				says(pending, shown);
			assert(
				emailsAbout(APPROVED.externalId).length === 1,
				`${emailsAbout(APPROVED.externalId).length} approval emails for ${APPROVED.externalId} while one was pending`,
			);
			const beforePaid = smtp.messages.length;
			await followApprovalLink(approve);
			await waitFor(() => sent(APPROVED.externalId).length > 0, {
				timeoutMs: 60000,
				what: 'the approved payment',
			});
			await approvalsEnded();
			const paid = sandbox.state.withdrawals.find((w) => w.externalId === APPROVED.externalId);
			const told = await outcomeEmail('Paid', APPROVED.externalId, beforePaid);
			to(told, REQUESTER);
			const toldText = mailText(told);
			for (const shown of [
				`Paid: ${settings.approverEmail} approved it and it was paid once.`,
				`Vendor: ${settings.supplierName}, order ${APPROVED.externalId}`,
				figures.amountLine,
				figures.feeLine,
				figures.receives,
				`Withdrawal ${paid.id}`,
			])
				assert(
					toldText.includes(shown),
					`the requester's email does not say "${shown}": ${toldText.slice(0, 600)}`,
				);
			assert(
				toldText.endsWith(`External ID: ${APPROVED.externalId}`) &&
					!/pay (it )?again/i.test(toldText),
				`the requester's email: ${toldText}`,
			);
			const again = await ask('review-again', `Pay supplier order ${APPROVED.externalId}: 40 USD.`);
			for (const shown of [
				'Already paid',
				`order ${APPROVED.externalId} went to ${settings.supplierName}`,
				`withdrawal ${paid.id}`,
				'40.00 USD',
				'Nothing was sent again and nobody was asked.',
			])
				says(again, shown);
			assert(
				emailsAbout(APPROVED.externalId).length === 1,
				`${emailsAbout(APPROVED.externalId).length} approval emails for ${APPROVED.externalId}`,
			);
			const requests = sent(APPROVED.externalId);
			assert(
				requests.length === 1 &&
					Number(requests[0].body.amount) === 40 &&
					requests[0].body.walletAddress === settings.supplierAddress,
				`payments sent: ${JSON.stringify(requests.map((r) => r.body))}`,
			);
			assert(
				smtp.messages.filter(isOutcome('Paid', APPROVED.externalId)).length === 1,
				'the requester was told more than once',
			);
			return `answered "${waiting}"; "${first.subject}": "${text.trim().slice(0, 300)}"; asked while pending: "${pending}"; withdrawal ${paid.id}, once; the requester's "${told.subject}": "${toldText}"; asked again: "${again}"`;
		},
	);

	await check(
		'agent template: the same External ID with another amount, and a payout over Max per Withdrawal, are answered refused with the reason; nothing is sent, nobody is asked',
		async () => {
			const emails = smtp.messages.length;
			const reused = await ask(
				'review-reuse',
				`Pay supplier order ${APPROVED.externalId}: 45 USD.`,
			);
			for (const shown of [
				'Refused, nothing was sent and nobody was asked',
				'already used for a different withdrawal',
			])
				says(reused, shown);
			const over = await ask(
				'review-limit',
				`Pay supplier order ${OVER_LIMIT.externalId}: 150 USD.`,
			);
			for (const shown of [
				'Refused, nothing was sent and nobody was asked',
				'Max per withdrawal is 100.00 USD; this item is 150.00 USD',
			])
				says(over, shown);
			await approvalsEnded();
			assert(
				smtp.messages.length === emails,
				`${smtp.messages.length - emails} email(s) sent: ${smtp.messages
					.slice(emails)
					.map((m) => m.subject)
					.join(' | ')}`,
			);
			assert(
				sent(APPROVED.externalId).length === 1 && !sent(OVER_LIMIT.externalId).length,
				`payments sent: ${sent(APPROVED.externalId).length}, ${sent(OVER_LIMIT.externalId).length}`,
			);
			return `"${reused}"; "${over}"`;
		},
	);

	await check(
		'agent template: declined, nothing is sent and Settings\' requester (the request had no replyTo) is emailed "Declined"; the same request again asks again',
		async () => {
			const before = smtp.messages.length;
			const request = `Pay supplier order ${DECLINED.externalId}: 35 USD.`;
			const waiting = await ask('review-deny', request);
			says(waiting, 'Waiting for approval');
			says(waiting, `${settings.requesterEmail} gets an email`);
			await followApprovalLink(approvalLinks(await email(DECLINED.externalId, before)).decline);
			const told = await outcomeEmail('Declined', DECLINED.externalId, before);
			to(told, settings.requesterEmail);
			const toldText = mailText(told);
			for (const shown of [
				`${settings.approverEmail} declined paying ${settings.supplierName} 35.00 USD for order ${DECLINED.externalId}. Nothing was sent.`,
				`External ID: ${DECLINED.externalId}`,
			])
				assert(toldText.includes(shown), `the requester's email: ${toldText}`);
			await approvalsEnded();
			assert(
				!sent(DECLINED.externalId).length,
				`${sent(DECLINED.externalId).length} payment(s) sent after the decline`,
			);
			const second = smtp.messages.length;
			const asked = await ask('review-deny-again', request);
			says(asked, 'Waiting for approval');
			await followApprovalLink(approvalLinks(await email(DECLINED.externalId, second)).decline);
			await outcomeEmail('Declined', DECLINED.externalId, second);
			await approvalsEnded();
			assert(
				emailsAbout(DECLINED.externalId).length === 2 && !sent(DECLINED.externalId).length,
				`${emailsAbout(DECLINED.externalId).length} approval emails, ${sent(DECLINED.externalId).length} payment(s)`,
			);
			return `"${waiting}"; declined, nothing sent; the requester's "${told.subject}": "${toldText}"; asked again: "${asked}"`;
		},
	);

	await check(
		'agent template: a replyTo that is not an email address is answered so in words, before the agent; no approval email, nothing sent',
		async () => {
			const emails = smtp.messages.length;
			const externalId = 'review-replyto-1';
			const answer = await ask(
				'review-replyto',
				`Pay supplier order ${externalId}: 20 USD.`,
				'finance at example',
			);
			assert(answer.trim() === BAD_REPLY_TO, `the answer: ${answer.slice(0, 300)}`);
			assert(!model.of('review-replyto').length, 'the agent was asked');
			await approvalsEnded();
			assert(
				smtp.messages.length === emails && !sent(externalId).length,
				`${smtp.messages.length - emails} email(s), ${sent(externalId).length} payment(s)`,
			);
			return `"${answer}"`;
		},
	);

	await check(
		'agent template: approved while the balance is 0, the payment fails: the requester is emailed "Not confirmed" quoting the node\'s error, not to send it again, the External ID last; nothing paid; the run ends in error',
		async () => {
			const before = smtp.messages.length;
			const waiting = await ask(
				'review-unfunded',
				`Pay supplier order ${UNFUNDED.externalId}: 25 USD.`,
				REQUESTER,
			);
			says(waiting, 'Waiting for approval');
			const { approve } = approvalLinks(await email(UNFUNDED.externalId, before));
			const errors = async () =>
				(await n8n.executions(REVIEW_WORKFLOW)).filter((e) => e.status === 'error').length;
			const failedBefore = await errors();
			const { usd } = await setBalances(sandbox, { usd: 0 });
			let told;
			try {
				await followApprovalLink(approve);
				told = await outcomeEmail('Not confirmed', UNFUNDED.externalId, before);
				await approvalsEnded();
			} finally {
				await setBalances(sandbox, { usd });
			}
			to(told, REQUESTER);
			const toldText = mailText(told);
			for (const shown of [
				`Not confirmed: ${settings.approverEmail} approved paying ${settings.supplierName} 25.00 USD for order ${UNFUNDED.externalId}, but the payment could not be confirmed.`,
				'The payment node said: ',
				'it will be looked up under its External ID. Do not send it again.',
			])
				assert(toldText.includes(shown), `the requester's email: ${toldText}`);
			assert(
				toldText.endsWith(`External ID: ${UNFUNDED.externalId}`) &&
					!/(pay|send|try)( it)? again|resend|retry/i.test(
						toldText.replace('Do not send it again', ''),
					),
				`the requester's email: ${toldText}`,
			);
			assert(
				!sandbox.state.withdrawals.some((w) => w.externalId === UNFUNDED.externalId),
				'a withdrawal was recorded',
			);
			assert((await errors()) > failedBefore, 'the approval run did not end in error');
			return `"${waiting}"; the requester's "${told.subject}": "${toldText}"`;
		},
	);

	await check(
		'agent template: a Crypto Settlement tool given straight to the agent (no Dry Run, no approval) is refused, nothing is sent',
		async () => {
			const answer = await ask(
				'review-ungated',
				`Pay supplier order ${UNREVIEWED.External_ID}: 30 USD.`,
			);
			const [result] = toolResults(model.of('review-ungated').at(-1).body.messages);
			assert(errorIn(result) === AGENT_REFUSAL, `the model got back: ${result?.slice(0, 300)}`);
			says(answer, AGENT_REFUSAL);
			assert(!sent(UNREVIEWED.External_ID).length, 'the unreviewed payment was sent');
			return `"${answer}"`;
		},
	);
}
