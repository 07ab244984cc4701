import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { requestingNode, workflowNodeType } from '../engine/engine';

/**
 * Whether a person approved this very tool call: the run's source is an enabled human review node (`…HitlTool`)
 * this tool is connected into (`ai_tool`); any other shape, n8n 1.x included, is not reviewed and the payment
 * is refused (docs/guardrails.md, "AI agents: a person approves each payment").
 */
export function reviewedByPerson(ctx: IExecuteSingleFunctions): boolean {
	const gate = requestingNode(ctx);
	if (gate === undefined || !isHumanReviewType(workflowNodeType(ctx, gate))) return false;
	const self = ctx.getNode().name;
	return ctx
		.getParentNodes(gate, { connectionType: 'ai_tool', depth: 1 })
		.some((tool) => tool.name === self);
}

/** n8n's own test for a human review node type (n8n-workflow's `isHitlToolType`, 2.x only). */
function isHumanReviewType(type: string | undefined): boolean {
	return type !== undefined && type.endsWith('HitlTool');
}

/**
 * The enabled human review nodes this tool is connected into (`tool → review node`, `ai_tool`):
 * its review step. Read from the run's Workflow as workflowNodeType reads it; none when it cannot be.
 */
function reviewStepsOf(ctx: IExecuteSingleFunctions): string[] {
	const workflow = (ctx as unknown as { workflow?: { getChildNodes?: unknown } }).workflow;
	if (typeof workflow?.getChildNodes !== 'function') return [];
	const children = (
		workflow.getChildNodes as (name: string, type: string, depth: number) => unknown
	).call(workflow, ctx.getNode().name, 'ai_tool', 1);
	return Array.isArray(children)
		? children.filter(
				(name): name is string =>
					typeof name === 'string' && isHumanReviewType(workflowNodeType(ctx, name)),
			)
		: [];
}

/**
 * Why an agent's payment that no person approved is refused. A tool with a review step was run
 * another way (a manual run of the tool, Execute step, never passes through the review step), so
 * it is told that this call was not approved, never to add the step it has; a tool without one is
 * told to add it.
 */
export function reviewRefusal(
	ctx: IExecuteSingleFunctions,
): Record<'message' | 'description', string> {
	const [step] = reviewStepsOf(ctx);
	if (step !== undefined) {
		return {
			message: `This call was not approved by a person, so nothing was sent: a payment by this tool goes only when a person approved that very call in its review step ('${step}'), and a manual run of the tool never is.`,
			description: `Agent Payments Need Human Review is on in the Crypto Settlement API credential (Guardrails). To try a payment, ask the agent (for example in the chat), then approve the call when '${step}' asks you.`,
		};
	}
	return {
		message:
			'A person must approve payments: add a human review step between this tool and the agent. Nothing was sent.',
		description:
			"Agent Payments Need Human Review is on in the Crypto Settlement API credential (Guardrails): an AI agent's payment goes only when this tool reaches the agent through one of n8n's human review steps for tools (n8n 2.x: on the agent's Tool connector, a service under Human review, such as Send Email), so that a person approved that call. n8n 1.x has no human review for tools.",
	};
}
