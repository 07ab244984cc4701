// What the bench runs: this node's workflows, the HTTP Request node's (loaded from the local n8n
// install, never a dependency), a minimal declarative node, and plain fetch.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

/** n8n's HTTP Request node (a VersionedNodeType) from the local n8n install. */
export async function loadHttpRequestNode() {
	const { cacheDir, ensureN8n, LINES } = await import(
		path.join(ROOT, 'tooling', 'n8n-install.mjs')
	);
	const candidates = [LINES[2], LINES[1]]
		.map(({ version }) => `n8n-${version}`)
		.map((dir) =>
			path.join(
				cacheDir(),
				dir,
				'node_modules',
				'n8n-nodes-base',
				'dist',
				'nodes',
				'HttpRequest',
				'HttpRequest.node.js',
			),
		);
	let file = candidates.find((candidate) => fs.existsSync(candidate));
	if (!file) {
		console.log(
			'bench: n8n-nodes-base not installed yet; installing the local n8n once (several minutes)',
		);
		ensureN8n('2');
		file = candidates[0];
	}
	const version = require(path.join(file, '../../../../package.json')).version;
	return { HttpRequest: require(file).HttpRequest, version };
}

export function compileHarness() {
	const harness = path.join(ROOT, '.build', 'test', 'helpers', 'index.js');
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes')))
		throw new Error('dist/ is missing: run npm run build');
	if (!fs.existsSync(harness))
		throw new Error(
			'the harness is not compiled: run npm run bench (it runs tsc -p bench/tsconfig.json)',
		);
	return require(harness);
}

export const CREDENTIALS = {
	appId: 'bench-app',
	appSecret: 'bench-secret',
	environment: 'sandbox',
};

export function ourWorkflow(harness) {
	return harness.actionWorkflow({
		resource: 'wallet',
		operation: 'get',
		walletId: { __rl: true, mode: 'id', value: '={{ $json.walletId }}' },
	});
}

/**
 * The smallest declarative node that can do the same request, written the lean way (function
 * authenticate from our credential, URL built in a preSend, no expressions of its own): what n8n's
 * routing engine costs per item before any node-specific work.
 */
export const MINIMAL_TYPE = 'bench.minimalDeclarative';
export const minimalDeclarativeNode = {
	description: {
		displayName: 'Minimal Declarative',
		name: 'minimalDeclarative',
		group: ['transform'],
		version: 1,
		description: 'Benchmark reference',
		defaults: { name: 'Minimal Declarative' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'cryptoSettlementApi', required: true }],
		requestDefaults: { json: true },
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'get',
				options: [
					{
						name: 'Get',
						value: 'get',
						routing: {
							request: { method: 'GET' },
							send: {
								preSend: [
									async function (options) {
										const walletId = this.getNodeParameter('walletId', undefined, {
											extractValue: true,
										});
										return { ...options, url: `/trades/wallets/${encodeURIComponent(walletId)}` };
									},
								],
							},
						},
					},
				],
			},
			{
				displayName: 'Wallet',
				name: 'walletId',
				type: 'resourceLocator',
				default: { mode: 'id', value: '' },
				modes: [{ displayName: 'By ID', name: 'id', type: 'string' }],
			},
		],
	},
};

export function httpWorkflow(port) {
	return {
		nodes: [
			{
				id: 'node-1',
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [0, 0],
				parameters: {
					url: `=http://127.0.0.1:${port}/trades/wallets/{{ $json.walletId }}`,
					sendHeaders: true,
					headerParameters: {
						parameters: [
							{ name: 'x-app-id', value: CREDENTIALS.appId },
							{ name: 'x-app-secret', value: CREDENTIALS.appSecret },
							{ name: 'X-Service-Env', value: CREDENTIALS.environment },
						],
					},
					options: {},
				},
			},
		],
		connections: {},
	};
}

export async function fetchAll(port, items) {
	const headers = {
		'x-app-id': CREDENTIALS.appId,
		'x-app-secret': CREDENTIALS.appSecret,
		'X-Service-Env': 'sandbox',
	};
	const bodies = await Promise.all(
		items.map(async ({ json }) => {
			const res = await fetch(
				`http://127.0.0.1:${port}/trades/wallets/${encodeURIComponent(json.walletId)}`,
				{ headers },
			);
			return (await res.json()).data;
		}),
	);
	return bodies.map((data) => ({ json: data }));
}

/** The HTTP Request node's own pagination: page/size until meta.hasNextPage is false (sequential). */
export function httpPagedWorkflow(port) {
	const workflow = httpWorkflow(port);
	workflow.nodes[0].parameters = {
		...workflow.nodes[0].parameters,
		url: `http://127.0.0.1:${port}/trades/wallets`,
		sendQuery: true,
		queryParameters: { parameters: [{ name: 'size', value: '100' }] },
		options: {
			pagination: {
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: {
						parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
					},
					paginationCompleteWhen: 'other',
					completeExpression: '={{ !$response.body.meta.hasNextPage }}',
				},
			},
		},
	};
	return workflow;
}

/**
 * This node with its description cut to the entries Wallet → Get shows (resource, operation,
 * wallet): the same code and pipeline, so the difference to the full node is what n8n's routing
 * engine spends walking the other entries of the description for every item.
 */
export const ONE_OPERATION_TYPE = 'bench.cryptoSettlementOneOperation';

/** The built node, as n8n loads it. */
export function fullNode() {
	const { CryptoSettlement } = require(
		path.join(ROOT, 'dist', 'nodes', 'CryptoSettlement', 'CryptoSettlement.node.js'),
	);
	return new CryptoSettlement();
}

export function oneOperationNode() {
	const { NodeHelpers } = require('n8n-workflow');
	const full = fullNode();
	const values = { resource: 'wallet', operation: 'get' };
	const properties = full.description.properties.filter((entry) =>
		NodeHelpers.displayParameter(values, entry, { typeVersion: 1 }, full.description, values),
	);
	return { description: { ...full.description, properties }, methods: full.methods };
}
