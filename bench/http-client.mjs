#!/usr/bin/env node
// CPU per request of the HTTP client a node gets from n8n (`this.helpers.httpRequest`: OutboundHttp
// of @n8n/backend-network, as n8n-core loads it) beside Node's own `http`, with a new connection per
// request and kept alive, against a local server in another process (docs/speed.md, "Where the rest
// of the gap is"). Confirm With API makes one such request per delivery.
//
// Usage: node --expose-gc bench/http-client.mjs [--requests 1000] [--at-once 20] [--rounds 3]
import { fork } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const option = (name, fallback) =>
	argv.includes(`--${name}`) ? Number(argv[argv.indexOf(`--${name}`) + 1]) : fallback;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function serve() {
	const body = JSON.stringify({
		success: true,
		message: 'transaction retrieved',
		data: { id: 'x', status: 'completed', amount: 18750 },
	});
	const server = http.createServer({ keepAlive: true }, (req, res) => {
		req.resume();
		req.on('end', () => {
			res.writeHead(200, {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(body),
			});
			res.end(body);
		});
	});
	server.listen(0, '127.0.0.1', () => process.send(server.address().port));
	process.on('disconnect', () => process.exit(0));
}

async function measure() {
	require('reflect-metadata');
	const { Container } = require('@n8n/di');
	const { OutboundHttp } = require('@n8n/backend-network');
	const REQUESTS = option('requests', 1000);
	const AT_ONCE = option('at-once', 20);
	const ROUNDS = option('rounds', 3);
	const server = fork(fileURLToPath(import.meta.url), ['serve']);
	const port = await new Promise((resolve) => server.once('message', resolve));
	const url = `http://127.0.0.1:${port}/v1/trades/transactions/x`;
	const n8nClient = Container.get(OutboundHttp).requests();
	const keepAliveAgent = new http.Agent({ keepAlive: true });
	const nodeGet = (agent) =>
		new Promise((resolve, reject) => {
			http
				.get(url, { agent }, (res) => {
					let text = '';
					res.on('data', (chunk) => (text += chunk));
					res.on('end', () => resolve(JSON.parse(text)));
				})
				.on('error', reject);
		});
	const clients = {
		"n8n's client (this.helpers.httpRequest)": () =>
			n8nClient.request({ url, method: 'GET', json: true }),
		"Node's http, a new connection each": () => nodeGet(new http.Agent({ keepAlive: false })),
		"Node's http, kept alive": () => nodeGet(keepAliveAgent),
	};
	const results = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
	for (let round = 0; round < ROUNDS; round++) {
		for (const [name, get] of Object.entries(clients)) {
			await Promise.all(Array.from({ length: AT_ONCE }, get));
			globalThis.gc?.();
			const before = process.cpuUsage();
			let sent = 0;
			await Promise.all(
				Array.from({ length: AT_ONCE }, async () => {
					while (sent++ < REQUESTS) await get();
				}),
			);
			const cpu = process.cpuUsage(before);
			results[name].push((cpu.user + cpu.system) / 1000 / REQUESTS);
		}
	}
	server.disconnect();
	console.log(
		`CPU of this process per request, ${REQUESTS} requests ${AT_ONCE} at a time, ${ROUNDS} rounds (the server runs in another process):`,
	);
	const keptAlive = median(results["Node's http, kept alive"]);
	for (const [name, perRound] of Object.entries(results)) {
		console.log(
			`${name.padEnd(42)} ${perRound.map((ms) => ms.toFixed(2)).join(' / ')} ms  median ${(median(perRound) / keptAlive).toFixed(2)}× kept alive`,
		);
	}
}

if (process.argv[2] === 'serve') serve();
else await measure();
