import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { requestingNode, workflowNodeType } from '../engine/engine';

/**
 * Whether a person approved this very tool call (README, "AI agents"). n8n 2.x gates an AI
 * Agent's tool behind a human review node (`…HitlTool`: Send Email, Slack, Telegram, Chat, … with
 * send and wait) connected `tool → review node → agent` (`ai_tool`). The agent calls the review
 * node; only after a person approved does the engine run the tool, with the review node as the
 * run's source (unreviewed, the source is the agent). So the call was reviewed when the source is
 * an enabled human review node that this tool is connected into. Anything else (another shape,
 * n8n 1.x, which has no human review for tools, an agent running tools in its own process) is
 * not reviewed: the payment is refused.
 */
export function reviewedByPerson(ctx: IExecuteSingleFunctions): boolean {
	const gate = requestingNode(ctx);
	if (gate === undefined || !isHumanReviewType(workflowNodeType(ctx, gate))) return false;
	const self = ctx.getNode().name;
	return ctx.getParentNodes(gate, { connectionType: 'ai_tool', depth: 1 }).some((tool) => tool.name === self);
}

/** n8n's own test for a human review node type (n8n-workflow's `isHitlToolType`, 2.x only). */
function isHumanReviewType(type: string | undefined): boolean {
	return type !== undefined && type.endsWith('HitlTool');
}

export const REVIEW_REFUSAL = {
	message: 'A person must approve payments: add a human review step between this tool and the agent. Nothing was sent.',
	description:
		"Agent Payments Need Human Review is on in the Crypto Settlement API credential (Guardrails): an AI agent's payment goes only when this tool reaches the agent through one of n8n's human review steps for tools (n8n 2.x: on the agent's Tool connector, a service under Human review, such as Send Email), so that a person approved that call. n8n 1.x has no human review for tools. Nothing was sent.",
};
