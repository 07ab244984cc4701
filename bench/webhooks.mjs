#!/usr/bin/env node
// Webhook throughput in n8n's queue mode (issue #29): the real n8n 2.x (tooling/n8n-install.mjs)
// with PostgreSQL and Redis from Debian's packages, one main and two workers (concurrency 5). Bursts
// of deliveries from concurrent senders go to n8n's own Webhook node (POST, respond immediately)
// and to this package's trigger with its default options (webhook secret, Confirm With API against
// a local fake, Ignore Duplicates); every execution posts one small request to a local sink, which
// checks that each delivery ran exactly once (and, sent again, not at all). The rows alternate within
// one run; the ratio is what counts on a shared machine.
//
// Usage: npm run bench -- --webhooks [--deliveries 300] [--senders 20] [--rounds 3]
//        [--rows webhook,trigger,version1,noConfirm,noChecks] [--profile] [--pg-stats] [--keep]
//        [--empty-memory] [--memory 2000] [--n8n-env NAME=value]
// --profile writes a CPU profile of n8n's main (node --cpu-prof) and prints where its time went for
// each row (from its first delivery to its last execution); --pg-stats prints the statements n8n
// sent PostgreSQL for each burst; --empty-memory starts the trigger with an empty duplicate memory,
// --memory N with N deliveries remembered (default 2000; 26000 is a full day at the stated volume).
// Needs apt-get (as root) the first time, and several minutes. Not part of `npm test` or CI.

import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

import { cacheDir } from '../tooling/n8n-install.mjs';
import { N8n } from '../tooling/n8n.mjs';
import { packPackage } from '../tooling/pack.mjs';
import { ensureQueueModePackages, queueModeEnv, startPostgres, startRedis } from '../tooling/queue-mode.mjs';
import { freePort, httpJson, sleep, waitFor } from '../tooling/util.mjs';
import { inclusiveTimes, summarizeProfile } from './lib/cpu-profile.mjs';
import { startWebhookServers } from './lib/webhook-servers.mjs';
import { benchCredential, benchRows, WEBHOOK_SECRET } from './lib/webhook-workflows.mjs';

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback);
const DELIVERIES = Number(option('deliveries', 300));
const SENDERS = Number(option('senders', 20));
const ROUNDS = Number(option('rounds', 3));
const ROW_KEYS = String(option('rows', 'webhook,trigger')).split(',');
const PROFILE = argv.includes('--profile');
/** --pg-stats: the statements n8n sent PostgreSQL during each burst (pg_stat_statements). */
const PG_STATS = argv.includes('--pg-stats');
/**
 * A busy account's duplicate memory holds many deliveries: the trigger rows start with MEMORY of them
 * (2,000: what was the full memory before it was kept by the hour; DEDUPE_CAPACITY: full, a day at
 * the volume docs/trigger.md states), none with --empty-memory.
 */
const MEMORY = argv.includes('--empty-memory') ? 0 : Number(option('memory', 2000));
const KEEP = argv.includes('--keep');
/** --n8n-env NAME=value (repeatable): extra environment for every n8n process, for experiments. */
const EXTRA_ENV = Object.fromEntries(
	argv.flatMap((arg, i) => (arg === '--n8n-env' ? [argv[i + 1].split(/=(.*)/s).slice(0, 2)] : [])),
);

const log = (message) => process.stdout.write(`[bench:webhooks] ${message}\n`);
const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The steps of n8n's webhook handling on its main process, for the profile's breakdown per delivery. */
const STEPS = [
	['this package: the trigger node, all of it', (t) => t.includes('n8n-nodes-crypto-settlement/dist')],
	['this package: Confirm With API (the lookup, with n8n\'s HTTP client)', (t) => /^(confirmDelivery|exchange) .*n8n-nodes-crypto-settlement/.test(t)],
	['this package: the duplicate memory', (t) => /^(duplicateState|markEmitted|touch) .*n8n-nodes-crypto-settlement/.test(t)],
	["n8n: expression isolate for the call (acquire, release; every node but n8n's Webhook node)", (t) => /^(acquireIsolate|releaseIsolate) .*n8n-workflow/.test(t)],
	['n8n: credential reads (getCredentials)', (t) => /^(getDecrypted|getCredentials) /.test(t)],
	['n8n: body parsing and webhook description (parseRequestBody, evaluateResponseOptions)', (t) => /^(parseRequestBody|evaluateResponseOptions|parseBody) /.test(t)],
	['n8n: static data save after the call', (t) => /^saveStaticData(ById)? /.test(t)],
	['n8n: loading the workflow for the call (loadWebhookExecutionData)', (t) => /^(loadWebhookExecutionData|loadFromPublishedVersion|getPublishedWorkflowData) /.test(t)],
	['n8n: execution handed to the queue (WorkflowRunner.run)', (t) => /^(run|enqueueExecution) .*workflow-runner/.test(t)],
	['n8n: the whole webhook call (executeWebhook: all of the above but the isolate\'s asynchronous work)', (t) => /^executeWebhook /.test(t)],
	['garbage collector', (t) => t.startsWith('(garbage collector)')],
];

/** A trade.completed delivery as the service sends it. */
function delivery(id) {
	return JSON.stringify({ event: 'trade.completed', id, status: 'completed', amountInUSD: 12.5, cryptoAmount: 12.5, asset: 'USDT_TRON', txHash: `tx-${id}` });
}

/**
 * Sends `ids.length` deliveries from `senders` concurrent senders (keep-alive connections, as a
 * webhook sender keeps them), each with the webhook secret. Resolves the wall time until the last
 * was answered, and the statuses.
 */
async function burst(url, ids, senders) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: senders });
	const statuses = {};
	let next = 0;
	const started = process.hrtime.bigint();
	const send = (id) =>
		new Promise((resolve) => {
			const body = Buffer.from(delivery(id));
			const req = http.request(url, {
				method: 'POST',
				agent,
				headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-webhook-secret': WEBHOOK_SECRET },
			});
			req.on('response', (res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode));
			});
			req.on('error', (error) => resolve(error.code ?? 'error'));
			req.end(body);
		});
	await Promise.all(
		Array.from({ length: senders }, async () => {
			while (next < ids.length) {
				const status = await send(ids[next++]);
				statuses[status] = (statuses[status] ?? 0) + 1;
			}
		}),
	);
	const ended = process.hrtime.bigint();
	agent.destroy();
	// The window in µs of the monotonic clock, to cut n8n's CPU profile to this burst.
	return { ms: Number(ended - started) / 1e6, statuses, window: [Number(started / 1000n), Number(ended / 1000n)] };
}

/** Waits until the sink saw every delivery of `prefix` (executions drained), then checks "exactly once". */
async function drained(servers, prefix, count) {
	const started = Date.now();
	const last = await waitFor(
		async () => {
			const seen = await servers.count(prefix);
			return seen.distinct >= count ? seen : undefined;
		},
		{ timeoutMs: 600000, intervalMs: 250, what: `${count} executions of ${prefix}*` },
	);
	await sleep(1000);
	const settled = await servers.count(prefix);
	return { ...settled, afterMs: Date.now() - started, firstSeen: last };
}

async function main() {
	log(`${DELIVERIES} deliveries from ${SENDERS} senders per row, ${ROUNDS} rounds, rows ${ROW_KEYS.join(', ')}`);
	const pgBin = await ensureQueueModePackages({ log });
	const root = path.join(cacheDir(), 'bench-webhooks', String(process.pid));
	fs.rmSync(root, { recursive: true, force: true });
	fs.mkdirSync(root, { recursive: true });
	const tarball = await packPackage({ log, dest: path.join(root, 'pack') });

	const stops = [];
	try {
		const postgres = await startPostgres({ log, binDir: pgBin, statementStats: PG_STATS });
		stops.push(() => postgres.stop());
		const redis = await startRedis({ log });
		stops.push(() => redis.stop());
		const servers = await startWebhookServers();
		stops.push(() => servers.stop());

		const port = await freePort(5800);
		const n8n = new N8n({
			line: '2',
			userFolder: path.join(root, 'n8n'),
			port,
			logFile: path.join(root, 'n8n-main.log'),
			extraEnv: {
				...queueModeEnv(postgres, redis),
				N8N_LOG_LEVEL: 'warn',
				// The same for both rows; the bench measures the delivery path, not the editor's history.
				EXECUTIONS_DATA_PRUNE: 'false',
				...EXTRA_ENV,
			},
		});
		const rows = benchRows(servers.sinkUrl);
		const selected = ROW_KEYS.map((key) => {
			if (!rows[key]) throw new Error(`unknown row ${key} (rows: ${Object.keys(rows).join(', ')})`);
			return rows[key];
		});

		const pkg = await n8n.installPackage(tarball);
		log(`installed ${pkg.name}@${pkg.version} as a community package`);
		await n8n.importCredentials([benchCredential(servers.apiUrl)]);
		await n8n.importWorkflows(selected.map((row) => row.workflow));
		for (const row of selected) await n8n.activate(row.workflow.id);
		if (MEMORY > 0) {
			const { remember } = require('../dist/nodes/CryptoSettlementTrigger/dedupe.js');
			const memory = {};
			remember(memory, Array.from({ length: MEMORY }, () => crypto.randomBytes(9).toString('base64url')), Date.now());
			const staticData = JSON.stringify({ 'node:Crypto Settlement Trigger': memory });
			const ids = selected.filter((row) => row.dedupes).map((row) => `'${row.workflow.id}'`);
			if (ids.length) await postgres.sql(`UPDATE workflow_entity SET "staticData" = '${staticData}' WHERE id IN (${ids.join(', ')})`);
			log(`the trigger rows start with a duplicate memory of ${MEMORY} deliveries (${staticData.length} bytes of static data)`);
		}

		const profileDir = path.join(root, 'profile');
		await n8n.start({ nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] });
		stops.unshift(() => n8n.stop());
		for (const index of [1, 2]) {
			const worker = await n8n.startWorker({ concurrency: 5, logFile: path.join(root, `n8n-worker-${index}.log`) });
			stops.unshift(() => worker.stop());
		}
		log(`n8n ${n8n.version} queue mode: main on port ${port}, 2 workers (concurrency 5)`);

		// Each row answers before the bench starts (the trigger refuses a wrong secret with 401).
		for (const row of selected) {
			await waitFor(async () => {
				const res = await httpJson('POST', row.url(n8n.baseUrl), { body: { event: 'probe' }, headers: { 'x-webhook-secret': 'probe' } });
				return res.status !== 404;
			}, { timeoutMs: 60000, intervalMs: 500, what: `${row.key} webhook registered` });
		}

		// Warm-up: JIT, connection pools and the workers' first executions, for every row.
		for (const row of selected) {
			const ids = Array.from({ length: 40 }, (_, i) => `warm-${row.key}-${i}`);
			await burst(row.url(n8n.baseUrl), ids, SENDERS);
			await drained(servers, `warm-${row.key}-`, ids.length);
		}

		const results = Object.fromEntries(selected.map((row) => [row.key, []]));
		for (let round = 1; round <= ROUNDS; round++) {
			// Alternate which row goes first.
			const order = round % 2 ? selected : [...selected].reverse();
			for (const row of order) {
				const prefix = `r${round}-${row.key}-`;
				const ids = Array.from({ length: DELIVERIES }, (_, i) => `${prefix}${i}`);
				if (PG_STATS) await postgres.sql('SELECT pg_stat_statements_reset()');
				const { ms, statuses, window } = await burst(row.url(n8n.baseUrl), ids, SENDERS);
				const sink = await drained(servers, prefix, DELIVERIES);
				// Until the last execution finished: the main's work for the executions counts too.
				const untilDrained = [window[0], window[1] + Math.round((sink.afterMs - 1000) * 1000)];
				if (PG_STATS) {
					// Main and workers together, from the first delivery to the last execution.
					const top = await postgres.sql(
						`SELECT calls, round(total_exec_time)::int, left(regexp_replace(query, '\\s+', ' ', 'g'), 120) FROM pg_stat_statements WHERE calls >= ${DELIVERIES / 2} ORDER BY calls DESC LIMIT 25`,
					);
					const total = await postgres.sql('SELECT sum(calls) FROM pg_stat_statements');
					const saves = await postgres.sql(`SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query ILIKE '%update%workflow_entity%staticdata%'`);
					const wf = await postgres.sql(`SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) FROM pg_stat_statements WHERE query ILIKE '%workflow_entity%' ORDER BY calls DESC LIMIT 8`);
					log(`workflow_entity statements:\n${wf.trim()}`);
					log(`round ${round} ${row.key}: ${(Number(total) / DELIVERIES).toFixed(1)} statements per delivery, ${Number(saves)} static data saves; those run at least ${DELIVERIES / 2} times (calls|total ms|statement):\n${top.trim()}`);
				}
				const once = sink.distinct === DELIVERIES && sink.total === DELIVERIES;
				results[row.key].push({ ms, statuses, once, drainedMs: sink.afterMs, window: untilDrained });
				log(`round ${round} ${row.key.padEnd(9)} answered in ${(ms / 1000).toFixed(1)} s (${((DELIVERIES / ms) * 1000).toFixed(1)}/s), statuses ${JSON.stringify(statuses)}, executions ${sink.total} for ${sink.distinct} deliveries${sink.repeated.length ? ` (repeated: ${sink.repeated.join(', ')})` : ''}, last execution ${(sink.afterMs / 1000).toFixed(1)} s after the last answer`);
			}
		}

		// What n8n saved of each row's duplicate memory (the node's static data in PostgreSQL), before
		// any duplicate is sent (a later call would write back keys a simultaneous save lost).
		const { DEDUPE_STATIC_KEY, wasEmitted } = require('../dist/nodes/CryptoSettlementTrigger/dedupe.js');
		const { deliveryKey } = require('../dist/nodes/events/identity.js');
		const savedKeys = {};
		for (const row of selected.filter((candidate) => candidate.dedupes)) {
			const stored = await postgres.sql(`SELECT ("staticData"::json)->'node:Crypto Settlement Trigger'->>'emittedDeliveries' FROM workflow_entity WHERE id = '${row.workflow.id}'`);
			const saved = { [DEDUPE_STATIC_KEY]: stored.trim() };
			const ids = results[row.key].flatMap((_, r) => Array.from({ length: DELIVERIES }, (__, i) => `r${r + 1}-${row.key}-${i}`));
			const present = ids.filter((id) => wasEmitted(saved, deliveryKey('trade.completed', { id, status: 'completed' }))).length;
			savedKeys[row.key] = { present, total: ids.length };
			log(`${row.key}: ${present} of ${ids.length} emitted deliveries in the duplicate memory n8n saved`);
		}

		// Duplicates run nothing: the first round's deliveries again, to every row that ignores them.
		const duplicates = {};
		for (const row of selected.filter((candidate) => candidate.dedupes)) {
			const prefix = `r1-${row.key}-`;
			const ids = Array.from({ length: Math.min(DELIVERIES, 100) }, (_, i) => `${prefix}${i}`);
			const { statuses } = await burst(row.url(n8n.baseUrl), ids, SENDERS);
			await sleep(3000);
			const sink = await servers.count(prefix);
			duplicates[row.key] = { statuses, ran: sink.total - DELIVERIES };
			log(`${row.key}: ${ids.length} duplicates answered ${JSON.stringify(statuses)}, ${sink.total - DELIVERIES} executions`);
		}

		const base = median(results[selected[0].key].map((r) => r.ms));
		console.log(`\nwebhooks in queue mode (n8n ${n8n.version}, PostgreSQL + Redis, 1 main + 2 workers × 5), ${DELIVERIES} deliveries from ${SENDERS} senders, median of ${ROUNDS} rounds`);
		// "exactly once": every delivery ran once, duplicates ran nothing, every emitted key was saved.
		console.log(`${'row'.padEnd(78)} ${'answered in'.padStart(12)} ${'ratio'.padStart(7)}  exactly once`);
		for (const row of selected) {
			const list = results[row.key];
			const ms = median(list.map((r) => r.ms));
			const perRound = list.map((r, i) => (r.ms / results[selected[0].key][i].ms).toFixed(2)).join(' / ');
			const repeats = duplicates[row.key];
			const memory = savedKeys[row.key];
			const allOk = list.every((r) => r.once && r.statuses[200] === DELIVERIES) && (!repeats || repeats.ran === 0) && (!memory || memory.present === memory.total);
			console.log(`${row.label.padEnd(78)} ${`${(ms / 1000).toFixed(1)} s (${((DELIVERIES / ms) * 1000).toFixed(0)}/s)`.padStart(12)} ${`${(ms / base).toFixed(2)}×`.padStart(7)}  ${allOk ? 'yes' : 'NO'}   rounds: ${perRound}`);
		}
		if (results.trigger && results.webhook) {
			const ratio = median(results.trigger.map((r) => r.ms)) / median(results.webhook.map((r) => r.ms));
			console.log(`\nbench: trigger (default options) / Webhook node = ${ratio.toFixed(2)}× (target ≤ 1.25×): ${ratio <= 1.25 ? 'met' : 'NOT met'}`);
		}

		if (PROFILE) {
			await n8n.stop({ graceMs: 180000 });
			// The main thread's profile (n8n's worker threads write their own, numbered after it).
			const file = fs.existsSync(profileDir) ? fs.readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile')).sort()[0] : undefined;
			if (!file) log(`no CPU profile in ${profileDir}`);
			// The bursts' windows beside the profile, for a closer look (bench/lib/cpu-profile.mjs).
			fs.writeFileSync(path.join(profileDir, 'windows.json'), JSON.stringify(Object.fromEntries(selected.map((row) => [row.key, results[row.key].map((r) => r.window)]))));
			for (const row of selected) {
				const windows = results[row.key].map((r) => r.window);
				if (!file) continue;
				console.log(`\n${summarizeProfile(path.join(profileDir, file), { windows, title: `n8n's main from the first ${row.key} delivery to its last execution` })}`);
				const count = windows.length * DELIVERIES;
				console.log(`steps of the ${row.key} deliveries, CPU ms per delivery (inclusive):`);
				for (const [label, ms] of inclusiveTimes(path.join(profileDir, file), STEPS, { windows })) console.log(`  ${(ms / count).toFixed(1).padStart(6)}  ${label}`);
			}
			if (file) console.log(`profile: ${path.join(profileDir, file)}`);
		}
	} finally {
		for (const stop of stops) await Promise.resolve(stop()).catch(() => {});
		if (!KEEP && !PROFILE) fs.rmSync(root, { recursive: true, force: true });
		else log(`kept ${root}`);
	}
}

await main();
