// The webhook bench's workflows: n8n's own Webhook node (POST, respond immediately), this package's
// trigger, and the trigger's default checks built by hand from n8n's own nodes, each followed by one
// HTTP Request node posting the delivery id to the sink.
import {
	HANDED_OVER_TRIGGER,
	handOffNode,
	verifyRetryNodes,
} from '../../tooling/verify-delivery.mjs';

export const CREDENTIAL = { id: 'csBenchCred00001', name: 'Crypto Settlement Bench' };
/** Fixture secrets of the bench's throwaway n8n (built at runtime: not real secrets). */
export const WEBHOOK_SECRET = ['bench', 'webhook', 'secret', '7f3a'].join('-');
const APP_SECRET = ['bench', 'app', 'secret', '91c2'].join('-');

export function benchCredential(apiUrl) {
	return {
		...CREDENTIAL,
		type: 'cryptoSettlementApi',
		data: {
			appId: 'bench-app',
			appSecret: APP_SECRET,
			environment: 'sandbox',
			baseUrl: apiUrl,
			pin: '',
			webhookSecret: WEBHOOK_SECRET,
		},
	};
}

/** The hand-built row's credentials: the Webhook node's Header Auth (the secret) and the lookup's headers. */
const SECRET_HEADER_CREDENTIAL = { id: 'csBenchHeader001', name: 'Bench webhook secret' };
const API_HEADERS_CREDENTIAL = { id: 'csBenchApiHdrs01', name: 'Bench API headers' };

export function handBuiltCredentials() {
	return [
		{
			...SECRET_HEADER_CREDENTIAL,
			type: 'httpHeaderAuth',
			data: { name: 'x-webhook-secret', value: WEBHOOK_SECRET },
		},
		{
			...API_HEADERS_CREDENTIAL,
			type: 'httpCustomAuth',
			data: {
				json: JSON.stringify({ headers: { 'x-app-id': 'bench-app', 'x-app-secret': APP_SECRET } }),
			},
		},
	];
}

/** The Data Table the hand-built row remembers deliveries in (created through n8n's REST API). */
export const HAND_BUILT_TABLE = {
	name: 'bench_deliveries',
	columns: [{ name: 'deliveryKey', type: 'string' }],
};
/** The ledger of the Verify Delivery row, keyed on the item's eventKey (docs/trigger.md, "Exactly once"). */
export const LEDGER_TABLE = {
	name: 'bench_ledger',
	columns: [{ name: 'eventKey', type: 'string' }],
};

function sinkNode(sinkUrl, idExpression) {
	return {
		parameters: {
			method: 'POST',
			url: sinkUrl,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ id: ${idExpression} }) }}`,
			options: {},
		},
		id: 'bench-sink',
		name: 'Post to Sink',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
	};
}

/** n8n's Respond to Webhook node answering `{ "received": true }`, as the trigger does. */
function respondNode(id) {
	return {
		parameters: { respondWith: 'json', responseBody: '{ "received": true }', options: {} },
		id,
		name: 'Respond',
		type: 'n8n-nodes-base.respondToWebhook',
		typeVersion: 1.1,
	};
}

/** A workflow of nodes connected in a line (an IF's true branch is its first output). */
function workflow(id, name, ...nodes) {
	const connections = {};
	nodes.forEach((node, i) => {
		node.position = [i * 220, 0];
		if (i > 0)
			connections[nodes[i - 1].name] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
	});
	return {
		id,
		name,
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * What a merchant builds by hand for the trigger's default options (docs/speed.md): n8n's Webhook
 * node checking the secret header (Header Auth), an HTTP Request reading the record from the API, an
 * IF that the record has the delivery's status, a Data Table check that the delivery was not seen
 * and an insert of its key, then the answer. Like the trigger, it answers only once it is done with
 * the delivery (Respond: Using 'Respond to Webhook' node), so a lookup that fails answers an error
 * and the service retries; answering at once would lose such a delivery.
 */
function handBuiltWorkflow(apiUrl, sinkUrl, { path: webhookPath, id, respondAtOnce = false }) {
	const delivery = "$('Webhook').item.json.body";
	const webhook = {
		parameters: {
			httpMethod: 'POST',
			path: webhookPath,
			authentication: 'headerAuth',
			responseMode: respondAtOnce ? 'onReceived' : 'responseNode',
			options: {},
		},
		id: `${id}-webhook`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		webhookId: `0b3e6f5c-1d2a-4c8e-9a7b-${id.slice(-12).padStart(12, '0')}`,
		credentials: { httpHeaderAuth: SECRET_HEADER_CREDENTIAL },
	};
	const lookup = {
		parameters: {
			url: `={{ '${apiUrl}/trades/transactions/' + encodeURIComponent($json.body.id) }}`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpCustomAuth',
			options: {},
		},
		id: `${id}-lookup`,
		name: 'Confirm With API',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		credentials: { httpCustomAuth: API_HEADERS_CREDENTIAL },
	};
	const confirmed = {
		parameters: {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
				conditions: [
					{
						id: `${id}-status`,
						leftValue: '={{ $json.data.status }}',
						rightValue: `={{ ${delivery}.status }}`,
						operator: { type: 'string', operation: 'equals' },
					},
				],
				combinator: 'and',
			},
			options: {},
		},
		id: `${id}-if`,
		name: 'Confirmed?',
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
	};
	const table = { __rl: true, mode: 'name', value: HAND_BUILT_TABLE.name };
	const key = `={{ ${delivery}.event + ':' + ${delivery}.id + ':' + ${delivery}.status }}`;
	const notSeen = {
		parameters: {
			resource: 'row',
			operation: 'rowNotExists',
			dataTableId: table,
			matchType: 'allConditions',
			filters: { conditions: [{ keyName: 'deliveryKey', condition: 'eq', keyValue: key }] },
		},
		id: `${id}-seen`,
		name: 'Not Seen Yet?',
		type: 'n8n-nodes-base.dataTable',
		typeVersion: 1,
	};
	const remember = {
		parameters: {
			resource: 'row',
			operation: 'insert',
			dataTableId: table,
			columns: {
				mappingMode: 'defineBelow',
				value: { deliveryKey: key },
				matchingColumns: [],
				schema: [],
			},
			options: {},
		},
		id: `${id}-remember`,
		name: 'Remember Delivery',
		type: 'n8n-nodes-base.dataTable',
		typeVersion: 1,
	};
	const nodes = [
		webhook,
		lookup,
		confirmed,
		notSeen,
		remember,
		...(respondAtOnce ? [] : [respondNode(`${id}-respond`)]),
		sinkNode(sinkUrl, `${delivery}.id`),
	];
	return workflow(
		id,
		`bench: ${respondAtOnce ? 'hand-built, answering at once' : 'hand-built'}`,
		...nodes,
	);
}

/** n8n's Webhook node answering at once (POST); its ids from the workflow's unless given. */
function webhookNode(
	webhookPath,
	id,
	{
		nodeId = `${id}-webhook`,
		webhookId = `0b3e6f5c-1d2a-4c8e-9a7b-${id.slice(-12).padStart(12, '0')}`,
	} = {},
) {
	return {
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
		id: nodeId,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		webhookId,
	};
}

/** Stands for the checking workflow's id in the hand-off row until n8n's REST API gives it one. */
export const SUB_WORKFLOW_ID = '{{subWorkflowId}}';

/**
 * The same pattern split in two: the Webhook node's workflow only hands the item to a workflow that
 * checks it (Execute Workflow), so n8n's main builds two nodes for each call instead of ten; the
 * checking workflow is the pattern's, started by n8n's Execute Workflow Trigger.
 */
function verifyHandOffWorkflows(sinkUrl, { path: webhookPath, id }) {
	const start = { ...HANDED_OVER_TRIGGER, id: `${id}-start`, name: 'When Handed a Delivery' };
	const checks = verifyDeliveryWorkflow(sinkUrl, { path: webhookPath, id: `${id}c`, start });
	checks.name = 'bench: checks of a handed-over delivery (Verify Delivery → ledger)';
	const handOff = { ...handOffNode(SUB_WORKFLOW_ID), id: `${id}-hand-off` };
	return {
		workflow: workflow(
			id,
			'bench: Webhook node → hand-off to the checks',
			webhookNode(webhookPath, id),
			handOff,
		),
		subWorkflow: checks,
	};
}

/**
 * The pattern of docs/trigger.md ("n8n's Webhook node and Verify Delivery") for n8n's default
 * settings: n8n's Webhook node answers at once (no Header Auth: n8n would read its credential, with
 * an expression isolate, for every call); Verify Delivery checks the secret, the body and the record;
 * its error output waits and tries again while the record is not confirmed yet, and stops the
 * execution with the error otherwise (not taken here: the fake API confirms every record); the ledger
 * lets the first row of an eventKey through (the credit template's: a copy, even one running at the
 * same time on another worker, stops there).
 */
function verifyDeliveryWorkflow(
	sinkUrl,
	{ path: webhookPath, id, start = webhookNode(webhookPath, id) },
) {
	const verify = {
		parameters: { resource: 'webhookEvent', operation: 'verifyDelivery' },
		id: `${id}-verify`,
		name: 'Verify Delivery',
		type: 'n8n-nodes-crypto-settlement.cryptoSettlement',
		typeVersion: 1,
		credentials: { cryptoSettlementApi: CREDENTIAL },
		onError: 'continueErrorOutput',
	};
	const retry = verifyRetryNodes(id);
	const table = { __rl: true, mode: 'name', value: LEDGER_TABLE.name };
	const key = {
		keyName: 'eventKey',
		condition: 'eq',
		keyValue: "={{ $('Verify Delivery').item.json.eventKey }}",
	};
	const notSeen = {
		parameters: {
			resource: 'row',
			operation: 'rowNotExists',
			dataTableId: table,
			matchType: 'allConditions',
			filters: { conditions: [key] },
		},
		id: `${id}-seen`,
		name: 'Not in the Ledger?',
		type: 'n8n-nodes-base.dataTable',
		typeVersion: 1,
	};
	const record = {
		parameters: {
			resource: 'row',
			operation: 'insert',
			dataTableId: table,
			columns: {
				mappingMode: 'defineBelow',
				value: { eventKey: key.keyValue },
				matchingColumns: [],
				schema: [],
			},
			options: {},
		},
		id: `${id}-record`,
		name: 'Record in the Ledger',
		type: 'n8n-nodes-base.dataTable',
		typeVersion: 1,
	};
	const first = {
		parameters: {
			resource: 'row',
			operation: 'get',
			dataTableId: table,
			matchType: 'allConditions',
			filters: { conditions: [key] },
			limit: 1,
			orderBy: true,
			orderByColumn: 'id',
			orderByDirection: 'ASC',
		},
		id: `${id}-first`,
		name: 'First Row of It',
		type: 'n8n-nodes-base.dataTable',
		typeVersion: 1,
	};
	const ours = {
		parameters: {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
				conditions: [
					{
						id: `${id}-ours`,
						leftValue: '={{ $json.id }}',
						rightValue: "={{ $('Record in the Ledger').item.json.id }}",
						operator: { type: 'number', operation: 'equals' },
					},
				],
				combinator: 'and',
			},
			looseTypeValidation: true,
			options: {},
		},
		id: `${id}-if`,
		name: 'Ours?',
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
	};
	const built = workflow(
		id,
		'bench: Webhook node → Verify Delivery → ledger',
		start,
		verify,
		notSeen,
		record,
		first,
		ours,
		sinkNode(sinkUrl, "$('Verify Delivery').item.json.id"),
	);
	retry.nodes.forEach((node, i) => (node.position = [220 + i * 220, 200]));
	built.nodes.push(...retry.nodes);
	built.connections[verify.name] = {
		main: [
			[{ node: notSeen.name, type: 'main', index: 0 }],
			[{ node: retry.entry, type: 'main', index: 0 }],
		],
	};
	Object.assign(built.connections, retry.connections(verify.name));
	return built;
}

/**
 * The rows the bench compares. `url(base)` is where deliveries go; `expectsExecution` tells whether
 * an answered delivery must run the workflow once.
 */
export function benchRows(sinkUrl, apiUrl) {
	const webhookPath = 'bench-webhook-node';
	const triggerRow = (key, id, label, webhookId, parameters, typeVersion = 1.1) => {
		const trigger = {
			parameters: { events: ['*'], ...parameters, options: {} },
			id: `bench-${key}`,
			name: 'Crypto Settlement Trigger',
			type: 'n8n-nodes-crypto-settlement.cryptoSettlementTrigger',
			typeVersion,
			credentials: { cryptoSettlementApi: CREDENTIAL },
			webhookId,
		};
		return {
			key,
			label,
			dedupes: parameters.ignoreDuplicates !== false ? 'static data' : undefined,
			workflow: workflow(id, `bench: ${label}`, trigger, sinkNode(sinkUrl, '$json.id')),
			url: (base) => `${base}/webhook/${webhookId}/webhook`,
		};
	};
	const bareWebhook = webhookNode(webhookPath, 'bench', {
		nodeId: 'bench-webhook-node',
		webhookId: '0b3e6f5c-1d2a-4c8e-9a7b-00000b000001',
	});
	return {
		webhook: {
			key: 'webhook',
			label: 'n8n Webhook node (POST, respond immediately)',
			workflow: workflow(
				'csBenchWebhook01',
				'bench: n8n Webhook node',
				bareWebhook,
				sinkNode(sinkUrl, '$json.body.id'),
			),
			url: (base) => `${base}/webhook/${webhookPath}`,
		},
		// The floor of every workflow that answers from a worker (Respond to Webhook after its checks): the
		// Webhook node answering from the execution, with no check at all (docs/speed.md, "Where the rest of the gap is").
		respondFromWorker: {
			key: 'respondFromWorker',
			label: 'n8n Webhook node → Respond to Webhook (answered from the execution, no check)',
			workflow: workflow(
				'csBenchRespond01',
				'bench: n8n Webhook node answered from the execution',
				{
					...bareWebhook,
					parameters: {
						...bareWebhook.parameters,
						path: 'bench-respond-from-worker',
						responseMode: 'responseNode',
					},
					id: 'bench-respond-webhook',
					webhookId: '0b3e6f5c-1d2a-4c8e-9a7b-00000b000006',
				},
				respondNode('bench-respond'),
				sinkNode(sinkUrl, "$('Webhook').item.json.body.id"),
			),
			url: (base) => `${base}/webhook/bench-respond-from-worker`,
		},
		handBuilt: {
			key: 'handBuilt',
			label: 'hand-built: Webhook (secret) → HTTP Request → IF → Data Table → Respond',
			dedupes: 'data table',
			viaRest: true,
			workflow: handBuiltWorkflow(apiUrl, sinkUrl, {
				path: 'bench-hand-built',
				id: 'csBenchHandBlt01',
			}),
			url: (base) => `${base}/webhook/bench-hand-built`,
		},
		handBuiltAtOnce: {
			key: 'handBuiltAtOnce',
			label: 'hand-built, answering at once (loses a delivery whose lookup fails)',
			dedupes: 'data table',
			viaRest: true,
			workflow: handBuiltWorkflow(apiUrl, sinkUrl, {
				path: 'bench-hand-built-at-once',
				id: 'csBenchHandBlt02',
				respondAtOnce: true,
			}),
			url: (base) => `${base}/webhook/bench-hand-built-at-once`,
		},
		verifyDelivery: {
			key: 'verifyDelivery',
			label: 'Webhook node (answers at once) → Verify Delivery (secret, record) → ledger',
			dedupes: 'data table',
			viaRest: true,
			workflow: verifyDeliveryWorkflow(sinkUrl, {
				path: 'bench-verify-delivery',
				id: 'csBenchVerify001',
			}),
			url: (base) => `${base}/webhook/bench-verify-delivery`,
		},
		verifyHandOff: {
			key: 'verifyHandOff',
			label: 'Webhook node (answers at once) → Execute Workflow → Verify Delivery → ledger',
			dedupes: 'data table',
			viaRest: true,
			...verifyHandOffWorkflows(sinkUrl, { path: 'bench-verify-hand-off', id: 'csBenchHandOff01' }),
			url: (base) => `${base}/webhook/bench-verify-hand-off`,
		},
		trigger: triggerRow(
			'trigger',
			'csBenchTrigger01',
			'this trigger, default options (secret, Confirm With API, Ignore Duplicates)',
			'0b3e6f5c-1d2a-4c8e-9a7b-00000b000002',
			{},
		),
		noConfirm: triggerRow(
			'noConfirm',
			'csBenchNoConfm01',
			'this trigger, Confirm With API off',
			'0b3e6f5c-1d2a-4c8e-9a7b-00000b000003',
			{ confirmWithApi: false },
		),
		version1: triggerRow(
			'version1',
			'csBenchVersion01',
			'this trigger, default options, node version 1 (existing workflows)',
			'0b3e6f5c-1d2a-4c8e-9a7b-00000b000005',
			{},
			1,
		),
		noChecks: triggerRow(
			'noChecks',
			'csBenchNoCheck01',
			'this trigger, Confirm With API and Ignore Duplicates off',
			'0b3e6f5c-1d2a-4c8e-9a7b-00000b000004',
			{
				confirmWithApi: false,
				ignoreDuplicates: false,
			},
		),
	};
}
