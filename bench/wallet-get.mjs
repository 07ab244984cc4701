#!/usr/bin/env node
// Per-item cost of `wallet → get`, measured in one run against three references:
//   ours    : N items through our declarative node, run by n8n-core's real WorkflowExecute
//   http    : the same N requests from n8n's HTTP Request node (v4, headers set by hand), same engine
//   minimal : a one-field declarative node written the lean way (the declarative engine's own floor)
//   fetch   : the same N requests with plain fetch, all at once (the floor)
// The server is a keep-alive HTTP server in a child process that answers at once, so the client
// side (the part we own) is what is measured. Prints ms per item (median of the rounds) and ratios.
//
// Usage: npm run bench [-- --items 2000 --rounds 5]
// The HTTP Request node comes from n8n-nodes-base of the local n8n install used by `npm start`
// (~/.cache/n8n-nodes-crypto-settlement, installed on first use; never a dependency of the package).

import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

// ---- the server (child process) ---------------------------------------------------------------
function serve() {
	const server = http.createServer({ keepAlive: true, keepAliveTimeout: 60_000 }, (req, res) => {
		const id = decodeURIComponent(req.url.split('?')[0].split('/').pop());
		const body = JSON.stringify({
			success: true,
			message: 'Wallet retrieved successfully',
			data: { id, label: `wallet ${id}`, address: 'TQ4o1bH2mM3nN4pP5qQ6rR7sS8tT9uU0vV', asset: 'USDT', network: 'TRC20' },
		});
		res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
		res.end(body);
	});
	server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
	process.on('disconnect', () => process.exit(0));
}

async function startServer() {
	const child = fork(fileURLToPath(import.meta.url), ['serve'], { stdio: 'inherit' });
	const { port } = await new Promise((resolve, reject) => {
		child.once('message', resolve);
		child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
	});
	return { port, stop: () => child.kill() };
}

/** n8n's HTTP Request node (a VersionedNodeType) from the local n8n install. */
async function loadHttpRequestNode() {
	const { cacheDir, ensureN8n } = await import(path.join(ROOT, 'scripts', 'n8n-install.mjs'));
	const candidates = ['n8n-2.41.1', 'n8n-1.123.81'].map((dir) =>
		path.join(cacheDir(), dir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js'),
	);
	let file = candidates.find((candidate) => fs.existsSync(candidate));
	if (!file) {
		console.log('bench: n8n-nodes-base not installed yet; installing the local n8n once (several minutes)');
		ensureN8n('2');
		file = candidates[0];
	}
	const version = require(path.join(file, '../../../../package.json')).version;
	return { HttpRequest: require(file).HttpRequest, version };
}

function compileHarness() {
	const harness = path.join(ROOT, '.build', 'test', 'harness', 'index.js');
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes'))) throw new Error('dist/ is missing: run npm run build');
	if (!fs.existsSync(harness)) throw new Error("the harness is not compiled: run npm run bench (it runs tsc -p bench/tsconfig.json)");
	return require(harness);
}

const CREDENTIALS = { appId: 'bench-app', appSecret: 'bench-secret', environment: 'sandbox' };

function ourWorkflow(harness) {
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
const MINIMAL_TYPE = 'bench.minimalDeclarative';
const minimalDeclarativeNode = {
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
										const walletId = this.getNodeParameter('walletId', undefined, { extractValue: true });
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

function httpWorkflow(port) {
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

async function fetchAll(port, items) {
	const headers = { 'x-app-id': CREDENTIALS.appId, 'x-app-secret': CREDENTIALS.appSecret, 'X-Service-Env': 'sandbox' };
	const bodies = await Promise.all(
		items.map(async ({ json }) => {
			const res = await fetch(`http://127.0.0.1:${port}/trades/wallets/${encodeURIComponent(json.walletId)}`, { headers });
			return (await res.json()).data;
		}),
	);
	return bodies.map((data) => ({ json: data }));
}

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
	const itemCount = option('items', 2000);
	const rounds = option('rounds', 5);
	// --only ours|http|fetch: time one variant (for a CPU profile: node --cpu-prof bench/wallet-get.mjs --only ours)
	const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
	const harness = compileHarness();
	const { HttpRequest, version } = await loadHttpRequestNode();
	const server = await startServer();
	const baseUrl = `http://127.0.0.1:${server.port}`;

	const variants = {
		ours: async (items) => {
			const result = await harness.runWorkflow({
				workflow: ourWorkflow(harness),
				items,
				credentials: { cryptoSettlementApi: { ...CREDENTIALS, baseUrl } },
			});
			if (result.error) throw result.error;
			return result.output('Crypto Settlement');
		},
		http: async (items) => {
			const result = await harness.runWorkflow({
				workflow: httpWorkflow(server.port),
				items,
				nodeTypes: { 'n8n-nodes-base.httpRequest': new HttpRequest() },
			});
			if (result.error) throw result.error;
			return result.output('HTTP Request').map((item) => ({ json: item.json.data ?? item.json }));
		},
		minimal: async (items) => {
			const result = await harness.runWorkflow({
				workflow: harness.actionWorkflow(
					{ operation: 'get', walletId: { __rl: true, mode: 'id', value: '={{ $json.walletId }}' } },
					{ type: MINIMAL_TYPE, name: 'Minimal Declarative' },
				),
				items,
				credentials: { cryptoSettlementApi: { ...CREDENTIALS, baseUrl } },
				nodeTypes: { [MINIMAL_TYPE]: minimalDeclarativeNode },
			});
			if (result.error) throw result.error;
			return result.output('Minimal Declarative').map((item) => ({ json: item.json.data }));
		},
		fetch: async (items) => await fetchAll(server.port, items),
	};

	const makeItems = (count) => Array.from({ length: count }, (_, i) => ({ json: { walletId: `w-${i}` } }));
	const timings = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
	try {
		// Warm-up (JIT, keep-alive sockets), and a check that every variant returns the same records.
		for (const [name, run] of Object.entries(variants)) {
			const out = await run(makeItems(200));
			const ids = out.map((item) => item.json.id).join();
			if (out.length !== 200 || ids !== makeItems(200).map((item) => item.json.walletId).join()) {
				throw new Error(`${name}: expected 200 wallets in input order, got ${out.length}`);
			}
		}
		for (let round = 0; round < rounds; round++) {
			// Rotate the order so no variant always runs first (or last) in a round.
			const names = Object.keys(variants).filter((name) => !only || name === only);
			const order = names.slice(round % names.length).concat(names.slice(0, round % names.length));
			for (const name of order) {
				const items = makeItems(itemCount);
				global.gc?.();
				const started = process.hrtime.bigint();
				const out = await variants[name](items);
				const ms = Number(process.hrtime.bigint() - started) / 1e6;
				if (out.length !== itemCount) throw new Error(`${name}: ${out.length} of ${itemCount} items`);
				timings[name].push(ms / itemCount);
			}
		}
	} finally {
		server.stop();
	}

	if (only) {
		console.log(`${only}: ${median(timings[only]).toFixed(3)} ms per item (median of ${rounds} rounds of ${itemCount})`);
		return;
	}
	const perItem = Object.fromEntries(Object.entries(timings).map(([name, list]) => [name, median(list)]));
	const row = (label, name) =>
		`${label.padEnd(52)} ${perItem[name].toFixed(3).padStart(7)}  ${(perItem[name] / perItem.fetch).toFixed(2).padStart(6)}×  ${(perItem[name] / perItem.http).toFixed(2).padStart(6)}×`;
	console.log(`\nwallet → get, ${itemCount} items, median of ${rounds} rounds, Node ${process.versions.node}`);
	console.log(`${'what ran'.padEnd(52)} ${'ms/item'.padStart(7)}  ${'fetch'.padStart(7)}  ${'HTTP node'.padStart(7)}`);
	console.log(row('plain fetch, all at once (the floor)', 'fetch'));
	console.log(row(`n8n HTTP Request node v4.2 (n8n-nodes-base ${version})`, 'http'));
	console.log(row('minimal declarative node (1 operation, 1 field)', 'minimal'));
	console.log(row('Crypto Settlement node, wallet → get', 'ours'));
	const ratio = perItem.ours / perItem.http;
	console.log(`\nbench: ours / HTTP Request node = ${ratio.toFixed(2)}× (target ≤ 1.00×): ${ratio <= 1 ? 'met' : 'NOT met'}`);
}

if (process.argv[2] === 'serve') serve();
else await main();
