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
// argv: serve <latency ms> <records in the wallet list>. Answers wallet get, the paged wallet list,
// the withdrawal lookup (never found) and crypto withdrawals under 200 per rolling minute.
function serve() {
	const latencyMs = Number(process.argv[3] ?? 0);
	const listTotal = Number(process.argv[4] ?? 5000);
	const sent = [];
	let refused = 0;
	const wallet = (id) => ({ id, label: `wallet ${id}`, address: 'TQ4o1bH2mM3nN4pP5qQ6rR7sS8tT9uU0vV', asset: 'USDT', network: 'TRC20' });
	const answer = (res, status, payload, headers = {}) => {
		const body = JSON.stringify(payload);
		const send = () => {
			res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
			res.end(body);
		};
		if (latencyMs) setTimeout(send, latencyMs);
		else send();
	};
	const server = http.createServer({ keepAlive: true, keepAliveTimeout: 60_000 }, (req, res) => {
		const url = new URL(req.url, 'http://bench');
		const parts = url.pathname.split('/').filter(Boolean);
		req.resume();
		if (url.pathname === '/stats') return answer(res, 200, { refused, sent: sent.length });
		if (req.method === 'POST' && url.pathname === '/payments/withdraw/address') {
			const now = Date.now();
			while (sent.length && sent[0] <= now - 60_000) sent.shift();
			if (sent.length >= 200) {
				refused++;
				return answer(res, 429, { message: 'too many requests' }, { 'retry-after': String(Math.ceil((sent[0] + 60_000 - now) / 1000)) });
			}
			sent.push(now);
			return answer(res, 200, { success: true, message: 'withdrawal initiated successfully', data: { id: `wd-${now}-${sent.length}` } });
		}
		if (parts[0] === 'payments' && parts[1] === 'withdrawal') return answer(res, 404, { success: false, message: 'withdrawal not found', errors: [], meta: {}, data: {} });
		if (parts.length === 2 && parts[1] === 'wallets') {
			const page = Number(url.searchParams.get('page') ?? 1);
			const size = Number(url.searchParams.get('size') ?? 10);
			const pages = Math.ceil(listTotal / size);
			const data = Array.from({ length: Math.max(0, Math.min(size, listTotal - (page - 1) * size)) }, (_, i) => wallet(`w-${(page - 1) * size + i}`));
			return answer(res, 200, { success: true, message: 'wallets retrieved successfully', data, meta: { page, pages, totalDocs: listTotal, hasNextPage: page < pages } });
		}
		return answer(res, 200, { success: true, message: 'Wallet retrieved successfully', data: wallet(decodeURIComponent(parts.pop() ?? '')) });
	});
	server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
	process.on('disconnect', () => process.exit(0));
}

async function startServer(latencyMs = 0, listTotal = 5000) {
	const child = fork(fileURLToPath(import.meta.url), ['serve', String(latencyMs), String(listTotal)], { stdio: 'inherit' });
	const { port } = await new Promise((resolve, reject) => {
		child.once('message', resolve);
		child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
	});
	return { port, stop: () => child.kill() };
}

/** n8n's HTTP Request node (a VersionedNodeType) from the local n8n install. */
async function loadHttpRequestNode() {
	const { cacheDir, ensureN8n } = await import(path.join(ROOT, 'tooling', 'n8n-install.mjs'));
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
	console.log(`\nbench: CPU per item, ours / HTTP Request node = ${ratio.toFixed(2)}× (target ≤ 1.50×): ${ratio <= 1.5 ? 'met' : 'NOT met'}`);
	await bulkRows(harness, HttpRequest, rounds);
}

/** Wall time of one run, in ms. */
async function timed(run) {
	global.gc?.();
	const started = process.hrtime.bigint();
	const out = await run();
	return { ms: Number(process.hrtime.bigint() - started) / 1e6, out };
}

/** The HTTP Request node's own pagination: page/size until meta.hasNextPage is false (sequential). */
function httpPagedWorkflow(port) {
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
					parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
					paginationCompleteWhen: 'other',
					completeExpression: '={{ !$response.body.meta.hasNextPage }}',
				},
			},
		},
	};
	return workflow;
}

/** The bulk rows: latency-bound reads, Return All, memory, and (with --withdrawals) paced withdrawals. */
async function bulkRows(harness, HttpRequest, rounds) {
	const lines = [];
	const report = (label, ours, http, target) => {
		const ratio = ours / http;
		lines.push(`${label.padEnd(58)} ${(http / 1000).toFixed(2).padStart(7)} s ${(ours / 1000).toFixed(2).padStart(7)} s ${ratio.toFixed(2).padStart(6)}×  target ≤ ${target.toFixed(2)}×: ${ratio <= target ? 'met' : 'NOT met'}`);
	};
	const runOurs = async (baseUrl, parameters, items) => {
		const result = await harness.runWorkflow({
			workflow: harness.actionWorkflow(parameters),
			items,
			credentials: { cryptoSettlementApi: { ...CREDENTIALS, baseUrl } },
		});
		if (result.error) throw result.error;
		return result.output('Crypto Settlement');
	};
	const runHttp = async (workflow, items) => {
		const result = await harness.runWorkflow({ workflow, items, nodeTypes: { 'n8n-nodes-base.httpRequest': new HttpRequest() } });
		if (result.error) throw result.error;
		return result.output('HTTP Request');
	};

	const slow = await startServer(40, 5000);
	try {
		const baseUrl = `http://127.0.0.1:${slow.port}`;
		const items = Array.from({ length: 2000 }, (_, i) => ({ json: { walletId: `w-${i}` } }));
		const gets = { ours: [], http: [] };
		const pages = { ours: [], http: [] };
		for (let round = 0; round < Math.min(rounds, 3); round++) {
			gets.http.push((await timed(() => runHttp(httpWorkflow(slow.port), items))).ms);
			gets.ours.push((await timed(() => runOurs(baseUrl, { resource: 'wallet', operation: 'get', walletId: { __rl: true, mode: 'id', value: '={{ $json.walletId }}' } }, items))).ms);
			const httpPages = await timed(() => runHttp(httpPagedWorkflow(slow.port), [{ json: {} }]));
			if (httpPages.out.length !== 50) throw new Error(`HTTP node pagination: ${httpPages.out.length} pages`);
			pages.http.push(httpPages.ms);
			const ourPages = await timed(() => runOurs(baseUrl, { resource: 'wallet', operation: 'getAll', returnAll: true }, [{ json: {} }]));
			if (ourPages.out.length !== 5000) throw new Error(`Return All: ${ourPages.out.length} records`);
			pages.ours.push(ourPages.ms);
		}
		lines.push(`\nbulk work, 40 ms server latency, median of ${gets.ours.length} rounds   HTTP node    ours   ratio`);
		report('2000 × wallet → get', median(gets.ours), median(gets.http), 1);
		report('Return All, 50 pages of 100 (HTTP node: its own pagination)', median(pages.ours), median(pages.http), 0.5);
	} finally {
		slow.stop();
	}

	const big = await startServer(0, 100_000);
	try {
		global.gc?.();
		const before = process.memoryUsage().heapUsed;
		const { out, ms } = await timed(() => runOurs(`http://127.0.0.1:${big.port}`, { resource: 'wallet', operation: 'getAll', returnAll: true }, [{ json: {} }]));
		global.gc?.();
		const after = process.memoryUsage().heapUsed;
		lines.push(`Return All over ${out.length} records: ${(ms / 1000).toFixed(2)} s, ${((after - before) / out.length).toFixed(0)} bytes of heap per output item`);
	} finally {
		big.stop();
	}

	if (process.argv.includes('--withdrawals')) {
		const limited = await startServer(0, 10);
		try {
			const items = Array.from({ length: 600 }, (_, i) => ({ json: { ref: `bench-${Date.now()}-${i}` } }));
			const parameters = { resource: 'withdrawal', operation: 'createCrypto', token: 'USDT', network: 'TRC20', walletAddress: 'TXyz', amountType: 'usd', amount: 10, externalId: '={{ $json.ref }}', additionalFields: { pin: '1234' } };
			const { ms, out } = await timed(() => runOurs(`http://127.0.0.1:${limited.port}`, parameters, items));
			const stats = await (await fetch(`http://127.0.0.1:${limited.port}/stats`)).json();
			lines.push(`600 withdrawals at 200 per rolling minute: ${(ms / 1000).toFixed(1)} s = ${(ms / 120_000).toFixed(3)}× the 120 s floor (target ≤ 1.03×), ${out.length} of 600 created, ${stats.refused} answered 429`);
		} finally {
			limited.stop();
		}
	} else {
		lines.push('600 withdrawals at 200 per rolling minute: not run (about 2 minutes; add --withdrawals)');
	}
	console.log(lines.join('\n'));
}

if (process.argv[2] === 'serve') serve();
else await main();
