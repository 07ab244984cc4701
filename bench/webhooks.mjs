#!/usr/bin/env node
// Webhook throughput in n8n's queue mode (issues #29, #52): the real n8n 2.x (tooling/n8n-install.mjs)
// with PostgreSQL and Redis from Debian's packages, one main and two workers (concurrency 5). Bursts
// of deliveries from concurrent senders go to n8n's own Webhook node (POST, respond immediately), to
// this package's trigger with its default options (webhook secret, Confirm With API against a local
// fake, Ignore Duplicates), and to the same checks built by hand from n8n's nodes (Webhook with
// Header Auth, HTTP Request, IF, Data Table, Respond to Webhook); every execution posts one small
// request to a local sink, which checks that each delivery ran exactly once (and, sent again, not at
// all). The rows alternate within one run, once with n8n's default settings and once with lazy
// expression isolates (n8n restarted in between, the same database); the ratios are what counts on a
// shared machine.
//
// Usage: npm run bench -- --webhooks [--deliveries 300] [--senders 20] [--rounds 3]
//        [--rows webhook,trigger,handBuilt,handBuiltAtOnce,respondFromWorker,verifyDelivery,verifyHandOff,version1,noConfirm,noChecks]
//        [--settings default,lazy] [--modes queue,regular] [--profile] [--pg-stats] [--keep]
//        [--empty-memory] [--memory 2000] [--per-hour N] [--n8n-env NAME=value] [--worker-cpus 1]
// --profile writes CPU profiles of n8n's main and of one worker (node --cpu-prof) and prints where
// their time went for each row (from its first delivery to its last execution); --pg-stats prints
// the statements n8n sent PostgreSQL for each burst; --empty-memory starts the trigger with an empty
// duplicate memory, --memory N with N deliveries remembered (default 2000; 26000 is full), all emitted in the current hour unless --per-hour N spreads them over the hours
// before it, N an hour (1000: the volume docs/trigger.md states); --modes regular (or queue,regular) runs the same rows in n8n's regular mode, the main
// alone running every execution (no Redis, no workers), to compare; --worker-cpus 1 keeps the workers
// (and the processes they start) on those CPUs (taskset), as when they run on machines of their own,
// the main, PostgreSQL, Redis, the fake API and the senders free to use every CPU. Needs apt-get (as root) the first time, and about 20 minutes. Not part of `npm test` or CI.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { cacheDir } from '../tooling/n8n-install.mjs';
import { N8n } from '../tooling/n8n.mjs';
import { packPackage } from '../tooling/pack.mjs';
import {
	ensureQueueModePackages,
	postgresEnv,
	queueModeEnv,
	startPostgres,
	startRedis,
} from '../tooling/queue-mode.mjs';
import { freePort, httpJson, sleep, waitFor } from '../tooling/util.mjs';
import { inclusiveTimes, summarizeProfile } from './lib/cpu-profile.mjs';
import { randomKeys, rememberByHour } from './lib/memory.mjs';
import { startWebhookServers } from './lib/webhook-servers.mjs';
import {
	benchCredential,
	benchRows,
	HAND_BUILT_TABLE,
	handBuiltCredentials,
	LEDGER_TABLE,
	SUB_WORKFLOW_ID,
	WEBHOOK_SECRET,
} from './lib/webhook-workflows.mjs';

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const option = (name, fallback) =>
	argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback;
const DELIVERIES = Number(option('deliveries', 300));
const SENDERS = Number(option('senders', 20));
const ROUNDS = Number(option('rounds', 3));
const ROW_KEYS = String(option('rows', 'webhook,trigger,handBuilt')).split(',');
/** n8n's settings each run takes: its defaults, and lazy expression isolates (docs/speed.md). */
const SETTINGS = {
	default: { label: "n8n's default settings", env: {} },
	lazy: {
		label: 'lazy expression isolates (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true)',
		env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	},
};
const SETTING_KEYS = String(option('settings', 'default,lazy')).split(',');
/** How n8n runs the executions: queue mode (a main and two workers, Redis) or its regular mode (the main alone); both on PostgreSQL. */
const MODES = {
	queue: { label: 'queue mode (1 main + 2 workers × 5)' },
	regular: { label: 'regular mode (the main runs every execution)' },
};
const MODE_KEYS = String(option('modes', 'queue')).split(',');
const PROFILE = argv.includes('--profile');
/** --pg-stats: the statements n8n sent PostgreSQL during each burst (pg_stat_statements). */
const PG_STATS = argv.includes('--pg-stats');
/**
 * A busy account's duplicate memory holds many deliveries: the trigger rows start with MEMORY of them
 * (2,000: what was the full memory before it was kept by the hour; DEDUPE_CAPACITY: full; 25,000 at
 * --per-hour 1000: a day at the volume docs/trigger.md states), none with --empty-memory.
 */
const MEMORY = argv.includes('--empty-memory') ? 0 : Number(option('memory', 2000));
/** --per-hour N: the memory's deliveries were emitted N an hour, the newest in the current hour; all in it by default. */
const PER_HOUR = Number(option('per-hour', MEMORY || 1));
const KEEP = argv.includes('--keep');
/** --worker-cpus LIST: the CPUs (taskset's list) n8n's workers may run on; all of them by default. */
const WORKER_CPUS = option('worker-cpus', undefined);
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
	[
		'this package: the trigger node, all of it',
		(t) => t.includes('n8n-nodes-crypto-settlement/dist'),
	],
	[
		"this package: Confirm With API (the lookup, with n8n's HTTP client)",
		(t) => /^(confirmDelivery|exchange) .*n8n-nodes-crypto-settlement/.test(t),
	],
	[
		'this package: the duplicate memory',
		(t) => /^(duplicateState|markEmitted|touch) .*n8n-nodes-crypto-settlement/.test(t),
	],
	[
		"n8n: expression isolate for the call (acquire, release; every node but n8n's Webhook node)",
		(t) => /^(acquireIsolate|releaseIsolate) .*n8n-workflow/.test(t),
	],
	['n8n: credential reads (getCredentials)', (t) => /^(getDecrypted|getCredentials) /.test(t)],
	[
		'n8n: body parsing and webhook description (parseRequestBody, evaluateResponseOptions)',
		(t) => /^(parseRequestBody|evaluateResponseOptions|parseBody) /.test(t),
	],
	['n8n: static data save after the call', (t) => /^saveStaticData(ById)? /.test(t)],
	[
		'n8n: loading the workflow for the call (loadWebhookExecutionData)',
		(t) => /^(loadWebhookExecutionData|loadFromPublishedVersion|getPublishedWorkflowData) /.test(t),
	],
	[
		'n8n: execution handed to the queue (WorkflowRunner.run)',
		(t) => /^(run|enqueueExecution) .*workflow-runner/.test(t),
	],
	[
		"n8n: the whole webhook call (executeWebhook: all of the above but the isolate's asynchronous work)",
		(t) => /^executeWebhook /.test(t),
	],
	['garbage collector', (t) => t.startsWith('(garbage collector)')],
];

/** The same for a worker: the executions of the deliveries (every row's, the sink's request included). */
const WORKER_STEPS = [
	['this package (the action node)', (t) => t.includes('n8n-nodes-crypto-settlement/dist')],
	[
		'n8n: expression isolates (acquire, release)',
		(t) => /^(acquireIsolate|releaseIsolate) .*n8n-workflow/.test(t),
	],
	['n8n: HTTP Request node', (t) => /^execute .*HttpRequest/.test(t)],
	['n8n: Data Table node', (t) => /^execute .*DataTable/.test(t)],
	['n8n: IF node', (t) => /^execute .*nodes\/If\//.test(t)],
	['n8n: the whole execution (processJob)', (t) => /^processJob /.test(t)],
	['garbage collector', (t) => t.startsWith('(garbage collector)')],
];

/** A trade.completed delivery as the service sends it. */
function delivery(id) {
	return JSON.stringify({
		event: 'trade.completed',
		id,
		status: 'completed',
		amountInUSD: 12.5,
		cryptoAmount: 12.5,
		asset: 'USDT_TRON',
		txHash: `tx-${id}`,
	});
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
				headers: {
					'content-type': 'application/json',
					'content-length': body.length,
					'x-webhook-secret': WEBHOOK_SECRET,
				},
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
	return {
		ms: Number(ended - started) / 1e6,
		statuses,
		window: [Number(started / 1000n), Number(ended / 1000n)],
	};
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

/**
 * The rows that n8n's REST API creates once n8n runs (the hand-built rows: their Data Table lives in
 * the owner's project), activated as the editor does.
 */
async function createViaRest(n8n, rows) {
	await n8n.setupOwner();
	const project = (await n8n.rest('GET', '/projects/personal')).id;
	for (const table of [HAND_BUILT_TABLE, LEDGER_TABLE])
		await n8n.rest('POST', `/projects/${project}/data-tables`, table);
	for (const row of rows) {
		let { workflow } = row;
		if (row.subWorkflow) {
			// The checking workflow first (published, as the editor does), then the one that hands over to it.
			const sub = await n8n.rest('POST', '/workflows', {
				...row.subWorkflow,
				id: undefined,
				active: false,
			});
			await n8n.rest('POST', `/workflows/${sub.id}/activate`, { versionId: sub.versionId });
			workflow = JSON.parse(JSON.stringify(workflow).replaceAll(SUB_WORKFLOW_ID, sub.id));
		}
		const saved = await n8n.rest('POST', '/workflows', {
			...workflow,
			id: undefined,
			active: false,
		});
		await n8n.rest('POST', `/workflows/${saved.id}/activate`, { versionId: saved.versionId });
	}
	log(
		`created and activated through n8n's REST API: ${rows.map((row) => row.key).join(', ')} (Data Tables ${HAND_BUILT_TABLE.name}, ${LEDGER_TABLE.name})`,
	);
}

/** Keeps a process, its threads and its descendants on `cpus` (taskset's list); what they start later inherits it. */
function pinProcessTree(pid, cpus) {
	const pinned = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { encoding: 'utf8' });
	if (pinned.status !== 0)
		throw new Error(`taskset -a -p -c ${cpus} ${pid} failed: ${pinned.stderr}`);
	const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
		.stdout.split('\n')
		.filter(Boolean);
	for (const child of children) pinProcessTree(Number(child), cpus);
}

/** Starts n8n's main, and in queue mode two workers, with `setting`'s environment; resolves their stops, main's last. */
async function startN8n(n8n, { root, mode, setting, profileDir }) {
	n8n.extraEnv = { ...n8n.baseEnv, ...n8n.modeEnv[mode], ...SETTINGS[setting].env, ...EXTRA_ENV };
	const profileArgs = (who) =>
		PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, who)}`] : [];
	await n8n.start({ nodeArgs: profileArgs('main') });
	const stops = [({ graceMs } = {}) => n8n.stop({ graceMs })];
	for (const index of mode === 'queue' ? [1, 2] : []) {
		// The first worker's CPU is profiled with --profile (the second does the same work).
		const worker = await n8n.startWorker({
			concurrency: 5,
			logFile: path.join(root, `n8n-worker-${index}.log`),
			nodeArgs: index === 1 ? profileArgs('worker') : [],
		});
		stops.unshift(worker.stop);
		if (WORKER_CPUS !== undefined) pinProcessTree(worker.proc.pid, WORKER_CPUS);
	}
	log(
		`n8n ${n8n.version} ${MODES[mode].label}, ${SETTINGS[setting].label}: main on port ${n8n.port}`,
	);
	return async () => {
		for (const stop of stops) await stop({ graceMs: PROFILE ? 180000 : 20000 });
	};
}

/** The rounds of one setting: each row's burst in turn (alternating which goes first), then the checks. `setting` names its deliveries (mode-setting when several modes run). */
async function measureSetting(n8n, { setting, rows, servers, postgres }) {
	// Each row answers before the bench starts (the trigger refuses a wrong secret with 401, the Webhook node's Header Auth with 403).
	for (const row of rows) {
		await waitFor(
			async () => {
				const res = await httpJson('POST', row.url(n8n.baseUrl), {
					body: { event: 'probe' },
					headers: { 'x-webhook-secret': 'probe' },
				});
				return res.status !== 404;
			},
			{ timeoutMs: 60000, intervalMs: 500, what: `${row.key} webhook registered` },
		);
	}
	// Warm-up: JIT, connection pools and the workers' first executions, for every row.
	for (const row of rows) {
		const ids = Array.from({ length: 40 }, (_, i) => `warm-${setting}-${row.key}-${i}`);
		await burst(row.url(n8n.baseUrl), ids, SENDERS);
		await drained(servers, `warm-${setting}-${row.key}-`, ids.length);
	}

	const results = Object.fromEntries(rows.map((row) => [row.key, []]));
	for (let round = 1; round <= ROUNDS; round++) {
		const order = round % 2 ? rows : [...rows].reverse();
		for (const row of order) {
			const prefix = `${setting}-r${round}-${row.key}-`;
			const ids = Array.from({ length: DELIVERIES }, (_, i) => `${prefix}${i}`);
			if (PG_STATS) await postgres.sql('SELECT pg_stat_statements_reset()');
			const before = await servers.count(prefix);
			const { ms, statuses, window } = await burst(row.url(n8n.baseUrl), ids, SENDERS);
			const sink = await drained(servers, prefix, DELIVERIES);
			// Until the last execution finished: the main's and the workers' work for the executions counts too.
			const untilDrained = [window[0], window[1] + Math.round((sink.afterMs - 1000) * 1000)];
			if (PG_STATS) await logStatements(postgres, `${setting} round ${round} ${row.key}`);
			const once = sink.distinct === DELIVERIES && sink.total === DELIVERIES;
			const lookups = sink.lookups - before.lookups;
			const lookupConnections = sink.lookupConnections - before.lookupConnections;
			results[row.key].push({
				ms,
				doneMs: ms + sink.afterMs - 1000,
				statuses,
				once,
				window: untilDrained,
				lookups,
				lookupConnections,
			});
			log(
				`${setting} round ${round} ${row.key.padEnd(15)} answered in ${(ms / 1000).toFixed(1)} s (${((DELIVERIES / ms) * 1000).toFixed(1)}/s), statuses ${JSON.stringify(statuses)}, executions ${sink.total} for ${sink.distinct} deliveries${sink.repeated.length ? ` (repeated: ${sink.repeated.join(', ')})` : ''}, last execution ${((sink.afterMs - 1000) / 1000).toFixed(1)} s after the last answer; ${lookups} lookups on ${lookupConnections} new connections`,
			);
		}
	}

	// What n8n saved of each trigger row's duplicate memory (the node's static data in PostgreSQL),
	// before any duplicate is sent (a later call would write back keys a simultaneous save lost).
	const {
		DEDUPE_STATIC_KEY,
		wasEmitted,
	} = require('../dist/nodes/CryptoSettlementTrigger/dedupe.js');
	const { deliveryKey, eventIdentity } = require('../dist/nodes/events/identity.js');
	const memory = {};
	for (const row of rows.filter((candidate) => candidate.dedupes === 'static data')) {
		const stored = await postgres.sql(
			`SELECT ("staticData"::json)->'node:Crypto Settlement Trigger'->'emittedDeliveries' FROM workflow_entity WHERE id = '${row.workflow.id}'`,
		);
		const saved = { [DEDUPE_STATIC_KEY]: JSON.parse(stored.trim() || 'null') };
		const ids = results[row.key].flatMap((_, r) =>
			Array.from({ length: DELIVERIES }, (__, i) => `${setting}-r${r + 1}-${row.key}-${i}`),
		);
		const present = ids.filter((id) =>
			wasEmitted(saved, deliveryKey(eventIdentity('trade.completed', { id, status: 'completed' }))),
		).length;
		memory[row.key] = { present, total: ids.length };
		log(
			`${setting} ${row.key}: ${present} of ${ids.length} emitted deliveries in the duplicate memory n8n saved`,
		);
	}

	// Duplicates run nothing: the first round's deliveries again, to every row that drops them.
	const duplicates = {};
	for (const row of rows.filter((candidate) => candidate.dedupes)) {
		const prefix = `${setting}-r1-${row.key}-`;
		const ids = Array.from({ length: Math.min(DELIVERIES, 100) }, (_, i) => `${prefix}${i}`);
		const { statuses } = await burst(row.url(n8n.baseUrl), ids, SENDERS);
		await sleep(3000);
		const sink = await servers.count(prefix);
		duplicates[row.key] = { statuses, ran: sink.total - DELIVERIES };
		log(
			`${setting} ${row.key}: ${ids.length} duplicates answered ${JSON.stringify(statuses)}, ${sink.total - DELIVERIES} executions`,
		);
	}
	return { results, memory, duplicates };
}

/** The statements n8n sent PostgreSQL since the last reset (main and workers together). */
async function logStatements(postgres, what) {
	const top = await postgres.sql(
		`SELECT calls, round(total_exec_time)::int, left(regexp_replace(query, '\\s+', ' ', 'g'), 120) FROM pg_stat_statements WHERE calls >= ${DELIVERIES / 2} ORDER BY calls DESC LIMIT 25`,
	);
	const total = await postgres.sql('SELECT sum(calls) FROM pg_stat_statements');
	const saves = await postgres.sql(
		`SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query ILIKE '%update%workflow_entity%staticdata%'`,
	);
	log(
		`${what}: ${(Number(total) / DELIVERIES).toFixed(1)} statements per delivery, ${Number(saves)} static data saves; those run at least ${DELIVERIES / 2} times (calls|total ms|statement):\n${top.trim()}`,
	);
}

/** One setting's table: each row's median time, its ratio to the first row, and whether every delivery ran once. */
function report(setting, rows, { results, memory, duplicates }, mode = 'queue') {
	const base = rows[0].key;
	const lines = [`\n${MODES[mode].label}, ${SETTINGS[setting].label}`];
	lines.push(
		`${'row'.padEnd(78)} ${'answered in'.padStart(13)} ${'ratio'.padStart(6)} ${'all ran in'.padStart(10)} ${'ratio'.padStart(6)}  once  lookups/connection  rounds (answered)`,
	);
	for (const row of rows) {
		const list = results[row.key];
		const ms = median(list.map((r) => r.ms));
		const done = median(list.map((r) => r.doneMs));
		const perRound = list.map((r, i) => (r.ms / results[base][i].ms).toFixed(2)).join(' / ');
		const repeats = duplicates[row.key];
		const saved = memory[row.key];
		const allOk =
			list.every((r) => r.once && r.statuses[200] === DELIVERIES) &&
			(!repeats || repeats.ran === 0) &&
			(!saved || saved.present === saved.total);
		const lookups = list.reduce((sum, r) => sum + r.lookups, 0);
		const connections = list.reduce((sum, r) => sum + r.lookupConnections, 0);
		const reuse = lookups ? (connections ? (lookups / connections).toFixed(1) : 'all reused') : '—';
		lines.push(
			`${row.label.padEnd(78)} ${`${(ms / 1000).toFixed(1)} s (${((DELIVERIES / ms) * 1000).toFixed(0)}/s)`.padStart(13)} ${`${(ms / median(results[base].map((r) => r.ms))).toFixed(2)}×`.padStart(6)} ${`${(done / 1000).toFixed(1)} s`.padStart(10)} ${`${(done / median(results[base].map((r) => r.doneMs))).toFixed(2)}×`.padStart(6)}  ${(allOk ? 'yes' : 'NO').padEnd(4)}  ${String(reuse).padStart(17)}  ${perRound}`,
		);
	}
	const ratio = (a, b) =>
		results[a] && results[b]
			? median(results[a].map((r) => r.ms)) / median(results[b].map((r) => r.ms))
			: undefined;
	const verdict = (name, value, target, met) =>
		value !== undefined &&
		lines.push(
			`bench: ${name} (${mode === 'queue' ? setting : `${mode}, ${setting}`}) = ${value.toFixed(2)}× (target ${target}): ${met(value) ? 'met' : 'NOT met'}`,
		);
	verdict(
		'trigger / Webhook node',
		ratio('trigger', 'webhook'),
		setting === 'lazy' ? '≤ 1.15×' : 'none: n8n builds an isolate per call',
		(v) => setting !== 'lazy' || v <= 1.15,
	);
	verdict('trigger / hand-built', ratio('trigger', 'handBuilt'), '< 1.00×', (v) => v < 1);
	return lines.join('\n');
}

/** Where the main's and the worker's CPU went during each row's bursts (--profile). */
function profileReport(setting, rows, results, profileDir) {
	const lines = [];
	for (const [who, steps] of [
		['main', STEPS],
		['worker', WORKER_STEPS],
	]) {
		const dir = path.join(profileDir, who);
		const file = fs.existsSync(dir)
			? fs
					.readdirSync(dir)
					.filter((name) => name.endsWith('.cpuprofile'))
					.sort()[0]
			: undefined;
		if (!file) {
			lines.push(`no CPU profile of the ${who} in ${dir}`);
			continue;
		}
		for (const row of rows) {
			const windows = results[row.key].map((r) => r.window);
			lines.push(
				`\n${summarizeProfile(path.join(dir, file), { windows, title: `${setting}: n8n's ${who}${who === 'worker' ? ' (one of two)' : ''} from the first ${row.key} delivery to its last execution` })}`,
			);
			const count = windows.length * DELIVERIES * (who === 'worker' ? 0.5 : 1);
			lines.push(
				`steps of the ${row.key} deliveries, CPU ms per delivery (inclusive${who === 'worker' ? '; this worker ran about half' : ''}):`,
			);
			for (const [label, ms] of inclusiveTimes(path.join(dir, file), steps, { windows }))
				lines.push(`  ${(ms / count).toFixed(1).padStart(6)}  ${label}`);
		}
		lines.push(`profile: ${path.join(dir, file)}`);
	}
	fs.writeFileSync(
		path.join(profileDir, 'windows.json'),
		JSON.stringify(
			Object.fromEntries(rows.map((row) => [row.key, results[row.key].map((r) => r.window)])),
		),
	);
	return lines.join('\n');
}

async function main() {
	log(
		`${DELIVERIES} deliveries from ${SENDERS} senders per row, ${ROUNDS} rounds, rows ${ROW_KEYS.join(', ')}, settings ${SETTING_KEYS.join(', ')}; load average ${os
			.loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')} on ${os.cpus().length} cores`,
	);
	for (const key of SETTING_KEYS)
		if (!SETTINGS[key])
			throw new Error(`unknown setting ${key} (settings: ${Object.keys(SETTINGS).join(', ')})`);
	for (const key of MODE_KEYS)
		if (!MODES[key])
			throw new Error(`unknown mode ${key} (modes: ${Object.keys(MODES).join(', ')})`);
	const pgBin = await ensureQueueModePackages({ log });
	const root = path.join(cacheDir(), 'bench-webhooks', String(process.pid));
	fs.rmSync(root, { recursive: true, force: true });
	fs.mkdirSync(root, { recursive: true });
	const tarball = await packPackage({ log, dest: path.join(root, 'pack') });

	const stops = [];
	const reports = [];
	let version;
	try {
		const postgres = await startPostgres({ log, binDir: pgBin, statementStats: PG_STATS });
		stops.push(() => postgres.stop());
		const redis = await startRedis({ log });
		stops.push(() => redis.stop());
		const servers = await startWebhookServers();
		stops.push(() => servers.stop());

		const n8n = new N8n({
			line: '2',
			userFolder: path.join(root, 'n8n'),
			port: await freePort(5800),
			logFile: path.join(root, 'n8n-main.log'),
		});
		// The same for every row; the bench measures the delivery path, not the editor's history.
		n8n.baseEnv = {
			...postgresEnv(postgres),
			N8N_LOG_LEVEL: 'warn',
			EXECUTIONS_DATA_PRUNE: 'false',
		};
		// Regular mode is n8n's default: the same database, without the queue's settings.
		n8n.modeEnv = { queue: queueModeEnv(postgres, redis), regular: {} };
		n8n.extraEnv = { ...n8n.baseEnv, ...n8n.modeEnv.queue };
		version = n8n.version;
		const all = benchRows(servers.sinkUrl, servers.apiUrl);
		const rows = ROW_KEYS.map((key) => {
			if (!all[key]) throw new Error(`unknown row ${key} (rows: ${Object.keys(all).join(', ')})`);
			return all[key];
		});

		const pkg = await n8n.installPackage(tarball);
		log(`installed ${pkg.name}@${pkg.version} as a community package`);
		await n8n.importCredentials([benchCredential(servers.apiUrl), ...handBuiltCredentials()]);
		const imported = rows.filter((row) => !row.viaRest);
		await n8n.importWorkflows(imported.map((row) => row.workflow));
		for (const row of imported) await n8n.activate(row.workflow.id);
		if (MEMORY > 0) {
			const { remember } = require('../dist/nodes/CryptoSettlementTrigger/dedupe.js');
			const memory = {};
			const hours = rememberByHour(remember, memory, randomKeys(MEMORY), PER_HOUR);
			const staticData = JSON.stringify({ 'node:Crypto Settlement Trigger': memory });
			const ids = rows
				.filter((row) => row.dedupes === 'static data')
				.map((row) => `'${row.workflow.id}'`);
			if (ids.length)
				await postgres.sql(
					`UPDATE workflow_entity SET "staticData" = '${staticData}' WHERE id IN (${ids.join(', ')})`,
				);
			log(
				`the trigger rows start with a duplicate memory of ${MEMORY} deliveries over ${hours} hour(s) (${staticData.length} bytes of static data)`,
			);
		}

		let created = false;
		for (const mode of MODE_KEYS) {
			for (const setting of SETTING_KEYS) {
				const run = MODE_KEYS.length > 1 || mode !== 'queue' ? `${mode}-${setting}` : setting;
				const profileDir = path.join(root, 'profile', run);
				const stop = await startN8n(n8n, { root, mode, setting, profileDir });
				let measured;
				try {
					if (!created && rows.some((row) => row.viaRest))
						await createViaRest(
							n8n,
							rows.filter((row) => row.viaRest),
						);
					created = true;
					measured = await measureSetting(n8n, { setting: run, rows, servers, postgres });
				} finally {
					await stop();
				}
				reports.push(report(setting, rows, measured, mode));
				console.log(reports.at(-1));
				if (PROFILE) console.log(profileReport(run, rows, measured.results, profileDir));
			}
		}
	} finally {
		for (const stop of stops) await Promise.resolve(stop()).catch(() => {});
		if (!KEEP && !PROFILE) fs.rmSync(root, { recursive: true, force: true });
		else log(`kept ${root}`);
	}
	console.log(
		`\nwebhooks in ${MODE_KEYS.map((mode) => MODES[mode].label).join(' and ')} (n8n ${version}, PostgreSQL${MODE_KEYS.includes('queue') ? ' + Redis' : ''}), ${DELIVERIES} deliveries from ${SENDERS} senders, median of ${ROUNDS} rounds${WORKER_CPUS === undefined ? '' : `, the workers on CPU ${WORKER_CPUS} (taskset)`}; load average at the end ${os
			.loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')}`,
	);
	console.log(reports.join('\n'));
}

await main();
