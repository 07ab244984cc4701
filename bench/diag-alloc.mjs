#!/usr/bin/env node
// Statement → Get over a day of 20,000 records (200 pages of 100), and over a busy merchant's day of
// 200,000 (about 100,000 deposits and 100,000 withdrawals: 1,000 pages of 100 per list), its summary
// and its file, against the local fake API in a child process, each list page answered 40 ms late (--page-delay-ms): the time from the run's start
// to the summary, and the node process's heap (the peak above the heap before the run, sampled every
// 5 ms, after a GC), against docs/statement.md's targets (< 10 s, < 150 MB). The fake API runs in its
// own process, so its memory is not counted.
//
// Usage: npm run bench (last rows), or alone after it compiled: node --expose-gc bench/statement.mjs [--records 20000] [--output summary|file]

import { spawn } from 'node:child_process';
import inspector from 'node:inspector/promises';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileHarness, ROOT } from './lib/workflows.mjs';

const require = createRequire(import.meta.url);
const TARGET_MS = 10_000;
const TARGET_HEAP = 150 * 1024 * 1024;
const DAY = '2026-03-10';

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/** The fake API (compiled by tsc -p bench/tsconfig.json) in a child process; resolves with its base URL. */
async function startFakeApi(pageDelayMs) {
	const child = spawn(process.execPath, [path.join(ROOT, '.build', 'fake-api', 'src', 'cli.js'), '--port', '0', '--page-delay-ms', String(pageDelayMs)], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const url = await new Promise((resolve, reject) => {
		let text = '';
		child.stdout.on('data', (chunk) => {
			text += chunk;
			const match = /Base URL\s+(\S+)/.exec(text);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) => reject(new Error(`the fake API exited (${code})`)));
	});
	return { url, stop: () => child.kill('SIGTERM') };
}

/**
 * Binary data kept as n8n 2.x keeps it by default: in files (N8N_DEFAULT_BINARY_DATA_MODE is
 * `filesystem`, `database` in queue mode; n8n-core's BinaryDataConfig), not as base64 in the heap as
 * the test harness and n8n 1.x's `default` mode keep it. Returns the folder's removal.
 */
async function storeBinaryDataAsN8nDoes() {
	const { BinaryDataService } = require('n8n-core');
	// n8n-core's own container (its @n8n/di), which its binary helpers read.
	const { Container } = createRequire(require.resolve('n8n-core'))('@n8n/di');
	const storagePath = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-bench-binary-'));
	const quiet = { error() {}, info() {}, warn() {}, debug() {} };
	const service = new BinaryDataService({ mode: 'filesystem', localStoragePath: storagePath, signingSecret: 'bench' }, quiet, quiet);
	await service.init();
	Container.set(BinaryDataService, service);
	return () => fs.rmSync(storagePath, { recursive: true, force: true });
}

async function measure(records, pageDelayMs, output) {
	const harness = compileHarness();
	const fakeApi = await startFakeApi(pageDelayMs);
	const removeBinaryData = await storeBinaryDataAsN8nDoes();
	try {
		const origin = fakeApi.url.replace(/\/v1$/, '');
		const seeded = await (await fetch(`${origin}/_sandbox/seed-day`, { method: 'POST', body: JSON.stringify({ day: DAY, records }) })).json();
		if (!seeded.ok) throw new Error(seeded.message);
		const credentials = { appId: 'demo-app-id', appSecret: 'demo-app-secret', environment: 'sandbox', baseUrl: fakeApi.url };
		const opening = Object.fromEntries(Object.entries(seeded.data.openingBalances).map(([c, v]) => [c.toUpperCase(), v]));
		const run = async () =>
			await harness.runWorkflow({
				workflow: harness.actionWorkflow({ resource: 'statement', operation: 'get', day: DAY, output, options: { openingBalances: opening } }),
				items: [{ json: {} }],
				credentials: { [harness.CREDENTIAL_TYPE]: credentials },
			});
		await run(); // warm: modules loaded, connections open
		globalThis.gc?.();
		const before = process.memoryUsage().heapUsed;
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
		const session = new inspector.Session(); session.connect(); await session.post('HeapProfiler.enable');
		await session.post('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
		const started = performance.now();
		const result = await run();
		const { profile } = await session.post('HeapProfiler.stopSampling');
		const agg = new Map(); const visit = (n, stack) => { const k = `${n.callFrame.functionName} ${n.callFrame.url.replace(/.*\/(node_modules|dist)\//, '$1/')}:${n.callFrame.lineNumber}`; agg.set(k, (agg.get(k) ?? 0) + n.selfSize); for (const c of n.children) visit(c); }; visit(profile.head);
		console.error([...agg].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${(v / 1048576).toFixed(1).padStart(6)} MB ${k}`).join('\n'));
		const ms = performance.now() - started;
		clearInterval(sampler);
		peak = Math.max(peak, process.memoryUsage().heapUsed);
		if (result.error) throw result.error;
		const items = result.output('Crypto Settlement');
		const inHeap = items.flatMap((item) => Object.values(item.binary ?? {})).filter((binary) => !binary.id);
		if (inHeap.length > 0) throw new Error(`${inHeap.length} files were kept in the heap, not in n8n's binary data store`);
		const summary = items[0].json;
		const pages = Object.entries(summary.pagesRead)
			.filter(([list]) => list !== 'wallets')
			.reduce((sum, [, n]) => sum + n, 0);
		return { ms, heap: peak - before, summary, pages };
	} finally {
		fakeApi.stop();
		removeBinaryData();
	}
}

async function row(records, pageDelayMs, output) {
	const { ms, heap, summary, pages } = await measure(records, pageDelayMs, output);
	const mb = heap / 1024 / 1024;
	const met = ms < TARGET_MS && heap < TARGET_HEAP && summary.balanceCheck.result === 'balanced';
	return [
		`\nstatement → get (${output}), a day of ${records} records, ${pages} pages of transactions and withdrawals at ${pageDelayMs} ms a page`,
		`${(ms / 1000).toFixed(2)} s, heap ${mb.toFixed(0)} MB above the start, ${summary.lines} lines, ${summary.exceptionCount} exceptions, balance check ${summary.balanceCheck.result}`,
		`bench: statement (${output}) of ${records} records = ${(ms / 1000).toFixed(2)} s (target < ${TARGET_MS / 1000} s), heap ${mb.toFixed(0)} MB (target < ${TARGET_HEAP / 1024 / 1024} MB): ${met ? 'met' : 'NOT met'}`,
	].join('\n');
}

/** Today's 20,000-record row, then a busy merchant's day of 200,000: its summary and its file. */
export async function statementRows({ pageDelayMs = 40 } = {}) {
	if (process.argv.includes('--records')) return await row(option('records', 20_000), pageDelayMs, process.argv.includes('--output') ? process.argv[process.argv.indexOf('--output') + 1] : 'summary');
	const rows = [await row(20_000, pageDelayMs, 'summary')];
	for (const output of ['summary', 'file']) rows.push(await row(200_000, pageDelayMs, output));
	return rows.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await statementRows());
