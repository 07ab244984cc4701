#!/usr/bin/env node
// The webhook trigger's duplicate memory as n8n drives it, per emitted delivery, without n8n: the
// static data loaded (JSON.parse), the duplicate check, the key marked emitted, brought up to date
// twice and marked changed, then saved (JSON.stringify). The memory starts with N deliveries at
// 1,000 an hour (the volume docs/trigger.md states), then bursts of 300 deliveries; median of 15.
// Prints the CPU per delivery and the bytes saved. `--dist <path>` measures another build (for
// example an earlier version's dist/, whose memory was 2,000 keys separated by spaces).
//
// `--lag N`: the calls of a burst run at once, each saving up to N calls after it loaded (below).
//
// Usage: npm run build && node bench/dedupe-memory.mjs [--memory 2000] [--lag 0] [--dist dist]

import { createRequire } from 'node:module';
import path from 'node:path';

import { randomKeys, rememberByHour } from './lib/memory.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) =>
	argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback;
const MEMORY = Number(option('memory', 2000));
const DIST = path.resolve(option('dist', 'dist'));
const BURST = 300;
/** How many calls later a call's save may land (0: each call saves before the next loads). */
const LAG = Number(option('lag', 0));

const dedupe = createRequire(import.meta.url)(
	path.join(DIST, 'nodes/CryptoSettlementTrigger/dedupe.js'),
);
const { deliveryKey, eventIdentity } = createRequire(import.meta.url)(
	path.join(DIST, 'nodes/events/identity.js'),
);
/** A delivery's key in the memory, as the trigger makes it. */
const keyOf = (id) => deliveryKey(eventIdentity('trade.completed', { id, status: 'completed' }));
/** Versions before the memory was kept by the hour: `remember(staticData, key)` on a list capped at 2,000. */
const hourly = 'DEDUPE_WINDOW_HOURS' in dedupe;

function prefilled() {
	const keys = randomKeys(MEMORY);
	const memory = {};
	if (hourly) rememberByHour(dedupe.remember, memory, keys, 1000);
	else memory[dedupe.DEDUPE_STATIC_KEY] = keys.slice(-dedupe.DEDUPE_CAPACITY).join(' ');
	return JSON.stringify({ node: memory });
}

/** A deterministic order for the calls' saves (the same in every build measured). */
function random(seed) {
	return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/**
 * One burst. Each call loads the static data saved last, checks and marks its key, and finishes
 * (brought up to date twice, marked changed, saved whole) `LAG` calls later at most, in a random
 * order: the calls of a burst run at once, so a save lands after later calls loaded, and the last
 * to save overwrites keys saved meanwhile (which the next calls write back).
 */
function burst(round) {
	let saved = prefilled();
	const scope = `bench-${round}`;
	const next = random(round + 1);
	const running = [];
	const finish = ({ staticData, key }) => {
		const now = Date.now();
		dedupe.release(scope, key);
		dedupe.bringUpToDate(scope, staticData, now);
		dedupe.bringUpToDate(scope, staticData, now);
		dedupe.touch(staticData);
		saved = JSON.stringify({ node: staticData });
		dedupe.settleHandOver(scope, key, true, now);
	};
	const started = process.hrtime.bigint();
	for (let i = 0; i < BURST; i++) {
		const staticData = JSON.parse(saved).node;
		const key = keyOf(`r${round}-${i}`);
		const now = Date.now();
		if (dedupe.duplicateState(scope, staticData, key, now) !== 'new')
			throw new Error('a new delivery was taken for a duplicate');
		dedupe.claim(scope, key);
		dedupe.markEmitted(scope, staticData, key, now, true);
		running.push({ staticData, key, at: i + Math.floor(next() * (LAG + 1)) });
		for (const call of running.filter((one) => one.at <= i))
			finish(running.splice(running.indexOf(call), 1)[0]);
	}
	for (const call of running.sort((a, b) => a.at - b.at)) finish(call);
	const ms = Number(process.hrtime.bigint() - started) / 1e6 / BURST;
	// Every key of the burst is in the last save, or written back by the next call.
	const last = JSON.parse(saved).node;
	dedupe.bringUpToDate(scope, last, Date.now());
	for (let i = 0; i < BURST; i++) {
		if (
			typeof dedupe.wasEmitted === 'function' &&
			!dedupe.wasEmitted(last, keyOf(`r${round}-${i}`))
		)
			throw new Error('a key was lost');
	}
	return { ms, bytes: saved.length };
}

const rounds = Array.from({ length: 15 }, (_, round) => burst(round));
const ms = rounds.map((r) => r.ms).sort((a, b) => a - b)[7];
console.log(
	`duplicate memory of ${MEMORY} deliveries (${path.relative(process.cwd(), DIST) || '.'}): ${ms.toFixed(2)} ms of CPU per emitted delivery (median of 15 bursts of ${BURST}${LAG ? `, saves landing up to ${LAG} calls late` : ''}), ${rounds[14].bytes} bytes saved after a burst`,
);
