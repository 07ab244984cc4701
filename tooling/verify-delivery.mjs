// n8n's nodes that bring a delivery back to Webhook Event → Verify Delivery (docs/trigger.md, "n8n's
// Webhook node and Verify Delivery"), and those of its hand-off form, as the bench and the e2e wire them.

/** The start of the error text of a delivery whose record is not confirmed yet (nodes/events/webhookNodeDelivery.ts). */
export const NOT_CONFIRMED_YET = 'The delivery could not be confirmed yet';

/**
 * Verify Delivery's error output as docs/trigger.md wires it: an IF lets through a delivery whose
 * record is not confirmed yet, for 288 tries (a day at 5 minutes), to n8n's Wait node and back;
 * anything else (a wrong secret, a body that is not a delivery, a day without confirmation) stops
 * the execution with the error. `waitSeconds`: the Wait node's time (300 in the docs).
 */
export function verifyRetryNodes(id, waitSeconds = 300) {
	const retryable = {
		parameters: {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
				conditions: [
					{
						id: `${id}-yet`,
						leftValue: '={{ $json.error }}',
						rightValue: NOT_CONFIRMED_YET,
						operator: { type: 'string', operation: 'startsWith' },
					},
					{
						id: `${id}-day`,
						leftValue: '={{ $runIndex }}',
						rightValue: 288,
						operator: { type: 'number', operation: 'lt' },
					},
				],
				combinator: 'and',
			},
			looseTypeValidation: true,
			options: {},
		},
		id: `${id}-retryable`,
		name: 'Not Confirmed Yet?',
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
	};
	const wait = {
		parameters: { amount: waitSeconds, unit: 'seconds' },
		id: `${id}-wait`,
		name: 'Wait',
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		webhookId: `0b3e6f5c-1d2a-4c8e-9a7c-${id.slice(-12).padStart(12, '0')}`,
	};
	const stop = {
		parameters: { errorMessage: '={{ $json.error }}' },
		id: `${id}-stop`,
		name: 'Stop With the Error',
		type: 'n8n-nodes-base.stopAndError',
		typeVersion: 1,
	};
	const link = (node) => [{ node, type: 'main', index: 0 }];
	return {
		entry: retryable.name,
		nodes: [retryable, wait, stop],
		connections: (verifyName) => ({
			[retryable.name]: { main: [link(wait.name), link(stop.name)] },
			[wait.name]: { main: [link(verifyName)] },
		}),
	};
}

/**
 * The pattern's hand-off form (docs/trigger.md, "Bursts under n8n's defaults: hand the delivery
 * over"): the checks workflow starts with n8n's Execute Workflow Trigger, accepting all data (the
 * Webhook node's item comes through unchanged) ...
 */
export const HANDED_OVER_TRIGGER = {
	type: 'n8n-nodes-base.executeWorkflowTrigger',
	typeVersion: 1.1,
	parameters: { inputSource: 'passthrough' },
};

/**
 * ... and the Webhook node's workflow hands each delivery to it with Execute Workflow, waiting for the
 * checks (the hand-off's execution lasts as long as they do, so a worker shutting down waits for them).
 */
export function handOffNode(checksWorkflowId) {
	return {
		name: 'Hand to the Checks',
		type: 'n8n-nodes-base.executeWorkflow',
		typeVersion: 1.2,
		parameters: {
			source: 'database',
			workflowId: { __rl: true, mode: 'id', value: checksWorkflowId },
			mode: 'once',
			options: { waitForSubWorkflow: true },
		},
	};
}
