#!/usr/bin/env node
// What one Max per Day check costs for an account with 20,000 withdrawals (issue #42, point 1;
// docs/guardrails.md, "Max per Day"): one withdrawal item with Max per Day set, through n8n-core's
// WorkflowExecute, against a local keep-alive server answering the withdrawal list from pages
// serialized once (so the node's side is what is measured). Two services: one that ignores the
// date range the node asks for (the whole list is read: 200 pages of 100) and one that honours it
// (today's 50 withdrawals: one page). Prints the median of the rounds, the requests, and the floor
// a real service's answer time sets (pages × its answer time).
//
// Usage: npm run bench (last rows), or alone after it compiled: node bench/daily-limit.mjs [--total 20000 --rounds 5]

import http from 'node:http';

import { compileHarness, CREDENTIALS } from './lib/workflows.mjs';

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

const SIZE = 100;
const DAY = 86_400_000;

/** `total` withdrawals of the last 400 days, newest first, the last 50 of them today's. */
function withdrawals(total, now) {
	const dayStart = now - (now % DAY);
	return Array.from({ length: total }, (_, i) => ({
		id: `w-${i}`,
		externalId: `order-${i}`,
		status: i % 7 === 0 ? 'rejected' : 'completed',
		type: 'crypto',
		amount: 10,
		currency: 'usd',
		cryptoAmount: 10,
		token: 'USDT',
		network: 'TRC20',
		walletAddress: 'TQ4o1bH2mM3nN4pP5qQ6rR7sS8tT9uU0vV',
		trade: null,
		createdAt: new Date(
			i < 50 ? now - i * 60_000 : dayStart - 1 - Math.floor(((i - 50) * 400 * DAY) / total),
		).toISOString(),
	}));
}

/** Pages of `records`, serialized once: page number → body. */
function pages(records) {
	const out = new Map();
	for (let page = 1; (page - 1) * SIZE < records.length || page === 1; page++) {
		const data = records.slice((page - 1) * SIZE, page * SIZE);
		const meta = {
			page,
			hasNextPage: page * SIZE < records.length,
			totalDocs: records.length,
			pages: Math.ceil(records.length / SIZE),
		};
		out.set(
			page,
			JSON.stringify({ message: 'withdrawals retrieved successfully', success: true, data, meta }),
		);
	}
	return out;
}

async function startListServer(total, now) {
	const all = withdrawals(total, now);
	const whole = pages(all);
	const today = pages(all.filter((record) => Date.parse(record.createdAt) >= now - (now % DAY)));
	const stats = { lists: 0 };
	const server = http.createServer({ keepAlive: true }, (req, res) => {
		const url = new URL(req.url, 'http://bench');
		const send = (status, body) => {
			res.writeHead(status, {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(body),
				date: new Date(now).toUTCString(),
			});
			res.end(body);
		};
		if (url.pathname === '/payments/withdrawals') {
			stats.lists++;
			const source = server.honoursRange && url.searchParams.has('startDate') ? today : whole;
			return send(200, source.get(Number(url.searchParams.get('page'))) ?? source.get(1));
		}
		if (url.pathname.startsWith('/payments/withdrawal/'))
			return send(
				404,
				JSON.stringify({ success: false, message: 'withdrawal not found', data: {} }),
			);
		if (req.method === 'POST' && url.pathname === '/payments/withdraw/address')
			return send(
				200,
				JSON.stringify({
					success: true,
					message: 'withdrawal initiated successfully',
					data: { id: 'new' },
				}),
			);
		return send(
			404,
			JSON.stringify({ success: false, message: `no route ${url.pathname}`, data: {} }),
		);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, stats, port: server.address().port };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function dailyLimitRows({
	total = option('total', 20_000),
	rounds = option('rounds', 5),
} = {}) {
	const harness = compileHarness();
	const now = Date.now();
	const { server, stats, port } = await startListServer(total, now);
	const parameters = {
		resource: 'withdrawal',
		operation: 'createCrypto',
		token: 'USDT',
		network: 'TRC20',
		walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
		amountType: 'usd',
		amount: 10,
		externalId: '={{ $json.ref }}',
		additionalFields: { pin: '1234' },
	};
	const lines = [
		`\nMax per Day, one check for an account with ${total} withdrawals (median of ${rounds} rounds, the server answering at once)`,
	];
	try {
		for (const [label, honours] of [
			['service ignores the date range (whole list read)', false],
			['service honours the date range (today only)', true],
		]) {
			server.honoursRange = honours;
			const times = [];
			let requests = 0;
			for (let round = 0; round <= rounds; round++) {
				const before = stats.lists;
				const started = process.hrtime.bigint();
				const result = await harness.runWorkflow({
					workflow: harness.actionWorkflow(parameters),
					items: [{ json: { ref: `bench-day-${honours}-${round}` } }],
					credentials: {
						cryptoSettlementApi: {
							...CREDENTIALS,
							baseUrl: `http://127.0.0.1:${port}`,
							maxPerDayUsd: 1_000_000,
						},
					},
				});
				if (result.error) throw result.error;
				if (round > 0) times.push(Number(process.hrtime.bigint() - started) / 1e6);
				requests = stats.lists - before;
			}
			const ms = median(times);
			lines.push(
				`  ${label.padEnd(50)} ${String(requests).padStart(4)} list pages  ${ms.toFixed(0).padStart(6)} ms  (+ ${requests} × the service's answer time: ${((requests * 150) / 1000).toFixed(1)} s at 150 ms)`,
			);
		}
	} finally {
		server.closeAllConnections();
		server.close();
	}
	return lines.join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()))
	console.log(await dailyLimitRows());
