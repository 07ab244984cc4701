// The webhook bench's workflows: n8n's own Webhook node (POST, respond immediately) and this
// package's trigger, each followed by one HTTP Request node posting the delivery id to the sink.

export const CREDENTIAL = { id: 'csBenchCred00001', name: 'Crypto Settlement Bench' };
/** Fixture secrets of the bench's throwaway n8n (built at runtime: not real secrets). */
export const WEBHOOK_SECRET = ['bench', 'webhook', 'secret', '7f3a'].join('-');
const APP_SECRET = ['bench', 'app', 'secret', '91c2'].join('-');

export function benchCredential(apiUrl) {
	return {
		...CREDENTIAL,
		type: 'cryptoSettlementApi',
		data: { appId: 'bench-app', appSecret: APP_SECRET, environment: 'sandbox', baseUrl: apiUrl, pin: '', webhookSecret: WEBHOOK_SECRET },
	};
}

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
		position: [220, 0],
	};
}

function workflow(id, name, trigger, sink) {
	return {
		id,
		name,
		active: false,
		nodes: [trigger, sink],
		connections: { [trigger.name]: { main: [[{ node: sink.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * The rows the bench compares. `url(base)` is where deliveries go; `expectsExecution` tells whether
 * an answered delivery must run the workflow once.
 */
export function benchRows(sinkUrl) {
	const webhookPath = 'bench-webhook-node';
	const triggerRow = (key, id, label, webhookId, parameters, typeVersion = 1.1) => {
		const trigger = {
			parameters: { events: ['*'], ...parameters, options: {} },
			id: `bench-${key}`,
			name: 'Crypto Settlement Trigger',
			type: 'n8n-nodes-crypto-settlement.cryptoSettlementTrigger',
			typeVersion,
			position: [0, 0],
			credentials: { cryptoSettlementApi: CREDENTIAL },
			webhookId,
		};
		return {
			key,
			label,
			dedupes: parameters.ignoreDuplicates !== false,
			workflow: workflow(id, `bench: ${label}`, trigger, sinkNode(sinkUrl, '$json.id')),
			url: (base) => `${base}/webhook/${webhookId}/webhook`,
		};
	};
	const webhookNode = {
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
		id: 'bench-webhook-node',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		position: [0, 0],
		webhookId: '0b3e6f5c-1d2a-4c8e-9a7b-00000b000001',
	};
	return {
		webhook: {
			key: 'webhook',
			label: 'n8n Webhook node (POST, respond immediately)',
			workflow: workflow('csBenchWebhook01', 'bench: n8n Webhook node', webhookNode, sinkNode(sinkUrl, '$json.body.id')),
			url: (base) => `${base}/webhook/${webhookPath}`,
		},
		trigger: triggerRow('trigger', 'csBenchTrigger01', 'this trigger, default options (secret, Confirm With API, Ignore Duplicates)', '0b3e6f5c-1d2a-4c8e-9a7b-00000b000002', {}),
		noConfirm: triggerRow('noConfirm', 'csBenchNoConfm01', 'this trigger, Confirm With API off', '0b3e6f5c-1d2a-4c8e-9a7b-00000b000003', { confirmWithApi: false }),
		version1: triggerRow('version1', 'csBenchVersion01', 'this trigger, default options, node version 1 (existing workflows)', '0b3e6f5c-1d2a-4c8e-9a7b-00000b000005', {}, 1),
		noChecks: triggerRow('noChecks', 'csBenchNoCheck01', 'this trigger, Confirm With API and Ignore Duplicates off', '0b3e6f5c-1d2a-4c8e-9a7b-00000b000004', {
			confirmWithApi: false,
			ignoreDuplicates: false,
		}),
	};
}
