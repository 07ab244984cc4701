#!/usr/bin/env node
// Statement → Get over a day of 20,000 records (200 pages of 100), and over a busy merchant's day of
// 200,000 (about 100,000 deposits and 100,000 withdrawals: 1,000 pages of 100 per list), its summary
// and its file, against the local fake API in a child process, each list page answered 40 ms late (--page-delay-ms): the time from the run's start
// to the summary, and the node process's heap (the peak above the heap before the run, sampled every
// 5 ms, after a GC), against docs/statement.md's targets (< 10 s, < 150 MB). The fake API runs in its
// own process, so its memory is not counted.
//
// Then a busy merchant's month (30 days × 20,000 records, Period Range) against its own targets (< 30 s, < 300 MB).
//
// Usage: npm run bench (last rows), npm run bench -- --only month (the month alone), or alone after it
// compiled: node --expose-gc bench/statement.mjs [--records 20000] [--days 30] [--output summary|file]

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileHarness, ROOT } from './lib/workflows.mjs';

const require = createRequire(import.meta.url);
const TARGET_MS = 10_000;
const TARGET_HEAP = 150 * 1024 * 1024;
/** A month's targets (docs/statement.md, "Speed": a month of a busy merchant, from the single-day figures). */
const MONTH_TARGET_MS = 30_000;
const MONTH_TARGET_HEAP = 300 * 1024 * 1024;
const DAY = '2026-03-10';
/** The month's first day (Period Range). */
const MONTH_FROM = '2026-03-01';

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/** The fake API (compiled by tsc -p bench/tsconfig.json) in a child process; resolves with its base URL. */
async function startFakeApi(pageDelayMs) {
	const child = spawn(
		process.execPath,
		[
			path.join(ROOT, '.build', 'fake-api', 'src', 'cli.js'),
			'--port',
			'0',
			'--page-delay-ms',
			String(pageDelayMs),
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
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
	const service = new BinaryDataService(
		{ mode: 'filesystem', localStoragePath: storagePath, signingSecret: 'bench' },
		quiet,
		quiet,
	);
	await service.init();
	Container.set(BinaryDataService, service);
	return () => fs.rmSync(storagePath, { recursive: true, force: true });
}

/** The days from `first`, `count` of them, YYYY-MM-DD. */
const daysFrom = (first, count) =>
	Array.from({ length: count }, (_, index) =>
		new Date(Date.parse(`${first}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10),
	);

/** Seeds `records` records on each of `days` (in order, so the first day's opening balances open them all); the first day's answer. */
async function seedDays(origin, days, records) {
	let first;
	for (const day of days) {
		const seeded = await (
			await fetch(`${origin}/_sandbox/seed-day`, {
				method: 'POST',
				body: JSON.stringify({ day, records }),
			})
		).json();
		if (!seeded.ok) throw new Error(seeded.message);
		first ??= seeded.data;
	}
	return first;
}

/** Statement → Get over `days` (one day: Period Day; more: Period Range) of `records` records each. */
async function measure(records, pageDelayMs, output, dayCount = 1) {
	const harness = compileHarness();
	const fakeApi = await startFakeApi(pageDelayMs);
	const removeBinaryData = await storeBinaryDataAsN8nDoes();
	try {
		const origin = fakeApi.url.replace(/\/v1$/, '');
		const days = dayCount === 1 ? [DAY] : daysFrom(MONTH_FROM, dayCount);
		const seeded = await seedDays(origin, days, records);
		const credentials = {
			appId: 'demo-app-id',
			appSecret: 'demo-app-secret',
			environment: 'sandbox',
			baseUrl: fakeApi.url,
		};
		const opening = Object.fromEntries(
			Object.entries(seeded.openingBalances).map(([c, v]) => [c.toUpperCase(), v]),
		);
		const period =
			dayCount === 1 ? { day: DAY } : { period: 'range', from: days[0], to: days.at(-1) };
		const run = async () =>
			await harness.runWorkflow({
				workflow: harness.actionWorkflow({
					resource: 'statement',
					operation: 'get',
					...period,
					output,
					options: { openingBalances: opening },
				}),
				items: [{ json: {} }],
				credentials: { [harness.CREDENTIAL_TYPE]: credentials },
			});
		await run(); // warm: modules loaded, connections open
		globalThis.gc?.();
		const before = process.memoryUsage().heapUsed;
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
		const started = performance.now();
		const result = await run();
		const ms = performance.now() - started;
		clearInterval(sampler);
		peak = Math.max(peak, process.memoryUsage().heapUsed);
		if (result.error) throw result.error;
		const items = result.output('Crypto Settlement');
		const inHeap = items
			.flatMap((item) => Object.values(item.binary ?? {}))
			.filter((binary) => !binary.id);
		if (inHeap.length > 0)
			throw new Error(
				`${inHeap.length} files were kept in the heap, not in n8n's binary data store`,
			);
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

async function row(records, pageDelayMs, output, dayCount = 1) {
	const { ms, heap, summary, pages } = await measure(records, pageDelayMs, output, dayCount);
	const mb = heap / 1024 / 1024;
	const [targetMs, targetHeap] =
		dayCount === 1 ? [TARGET_MS, TARGET_HEAP] : [MONTH_TARGET_MS, MONTH_TARGET_HEAP];
	const met = ms < targetMs && heap < targetHeap && summary.balanceCheck.result === 'balanced';
	const what =
		dayCount === 1
			? `a day of ${records} records`
			: `${dayCount} days of ${records} records (Period Range)`;
	const name =
		dayCount === 1
			? `statement (${output}) of ${records} records`
			: `statement (${output}) of a month, ${dayCount} × ${records} records`;
	return [
		`\nstatement → get (${output}), ${what}, ${pages} pages of transactions and withdrawals at ${pageDelayMs} ms a page`,
		`${(ms / 1000).toFixed(2)} s, heap ${mb.toFixed(0)} MB above the start, ${summary.lines} lines, ${summary.exceptionCount} exceptions, balance check ${summary.balanceCheck.result}`,
		`bench: ${name} = ${(ms / 1000).toFixed(2)} s (target < ${targetMs / 1000} s), heap ${mb.toFixed(0)} MB (target < ${targetHeap / 1024 / 1024} MB): ${met ? 'met' : 'NOT met'}`,
	].join('\n');
}

/** Today's 20,000-record row, a busy merchant's day of 200,000 (its summary and its file), then a month of 30 days of 20,000 in one run (`--only month`: that row alone). */
export async function statementRows({ pageDelayMs = 40 } = {}) {
	if (process.argv.includes('--records') || process.argv.includes('--days'))
		return await row(
			option('records', 20_000),
			pageDelayMs,
			process.argv.includes('--output')
				? process.argv[process.argv.indexOf('--output') + 1]
				: 'summary',
			option('days', 1),
		);
	const rows = [await row(20_000, pageDelayMs, 'summary')];
	for (const output of ['summary', 'file']) rows.push(await row(200_000, pageDelayMs, output));
	rows.push(await monthRow({ pageDelayMs }));
	return rows.join('\n');
}

/** A busy merchant's month: 30 days of 20,000 records, Statement → Get with Period Range, its summary. */
export async function monthRow({ pageDelayMs = 40 } = {}) {
	return await row(20_000, pageDelayMs, 'summary', 30);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await statementRows());
