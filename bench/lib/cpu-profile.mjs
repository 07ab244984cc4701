// Where a process's CPU went, from a V8 .cpuprofile (node --cpu-prof): self time per area of the
// code (this package, n8n's expression isolates, the database driver, ...) and the top functions.
import fs from 'node:fs';
import path from 'node:path';

/** Areas, first match wins: [label, test on the function's script URL or name]. */
const AREAS = [
	[
		'this package (n8n-nodes-crypto-settlement)',
		(url) => url.includes('n8n-nodes-crypto-settlement/dist'),
	],
	[
		'expression isolates (@n8n/expression-runtime, isolated-vm)',
		(url) => /expression-runtime|isolated-vm/.test(url),
	],
	[
		'database (typeorm, pg)',
		(url) => /node_modules\/(@n8n\/typeorm|typeorm|pg|pg-[a-z-]+)\//.test(url),
	],
	['queue (bull, ioredis)', (url) => /node_modules\/(bull|ioredis|redis-parser)\//.test(url)],
	[
		'HTTP server (express, body parsing)',
		(url) =>
			/node_modules\/(express|body-parser|raw-body|router|iconv-lite|finalhandler|send|qs)\//.test(
				url,
			),
	],
	['n8n-core / n8n-workflow', (url) => /node_modules\/(n8n-core|n8n-workflow)\//.test(url)],
	['n8n (cli, @n8n/*)', (url) => /node_modules\/(n8n|@n8n)\//.test(url)],
	['other node_modules', (url) => url.includes('node_modules')],
	['Node.js internals', (url) => url.startsWith('node:') || (url !== '' && !url.includes('/'))],
];

/**
 * `windows`: [fromUs, toUs] pairs of the monotonic clock (process.hrtime in µs, which V8's profile
 * timestamps share on Linux); only samples inside them count. Without them, the whole profile.
 */
export function summarizeProfile(
	file,
	{ top = 15, windows, title = "CPU of n8n's main while busy" } = {},
) {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const selfMs = new Map();
	const deltas = profile.timeDeltas;
	let at = profile.startTime;
	let wallUs = 0;
	for (const [from, to] of windows ?? []) wallUs += to - from;
	for (let i = 0; i < profile.samples.length; i++) {
		at += deltas[i] ?? 0;
		if (windows && !windows.some(([from, to]) => at >= from && at <= to)) continue;
		const id = profile.samples[i];
		selfMs.set(id, (selfMs.get(id) ?? 0) + (deltas[i] ?? 0) / 1000);
	}
	const areas = new Map();
	const functions = new Map();
	let busy = 0;
	for (const [id, ms] of selfMs) {
		const { callFrame } = byId.get(id);
		const name = callFrame.functionName || '(anonymous)';
		if (name === '(idle)') continue;
		busy += ms;
		const url = callFrame.url ?? '';
		const area = name.startsWith('(')
			? name
			: (AREAS.find(([, test]) => test(url))?.[0] ?? 'other');
		areas.set(area, (areas.get(area) ?? 0) + ms);
		const where = url
			? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '')}:${callFrame.lineNumber + 1}`
			: '';
		const key = `${name} ${where}`;
		functions.set(key, (functions.get(key) ?? 0) + ms);
	}
	const pct = (ms) => `${((ms / busy) * 100).toFixed(1).padStart(5)}%`;
	const lines = [
		`${title}: ${(busy / 1000).toFixed(1)} s of CPU${windows ? ` in ${(wallUs / 1e6).toFixed(1)} s` : ''}`,
	];
	for (const [area, ms] of [...areas].sort((a, b) => b[1] - a[1]))
		lines.push(`  ${pct(ms)}  ${area}`);
	lines.push(`top ${top} functions (self time):`);
	for (const [key, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
		lines.push(`  ${pct(ms)}  ${key}`);
	return lines.join('\n');
}

/**
 * Inclusive CPU time of named functions inside `windows`: a sample counts for every listed function
 * on its stack (async functions count for the synchronous part of each step).
 * `names`: [label, test on "functionName url"] pairs.
 */
export function inclusiveTimes(file, names, { windows } = {}) {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const totals = new Map(names.map(([label]) => [label, 0]));
	let at = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		at += profile.timeDeltas[i] ?? 0;
		if (windows && !windows.some(([from, to]) => at >= from && at <= to)) continue;
		const hit = new Set();
		for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
			const { callFrame } = byId.get(id);
			const text = `${callFrame.functionName} ${callFrame.url}`;
			for (const [label, test] of names) if (test(text)) hit.add(label);
		}
		for (const label of hit)
			totals.set(label, totals.get(label) + (profile.timeDeltas[i] ?? 0) / 1000);
	}
	return totals;
}

/**
 * Where a function's self time came from: its callers `depth` frames up, by time, inside `windows`.
 * For a closer look: node bench/lib/cpu-profile.mjs <profile> [row] [function] (row's windows from
 * windows.json beside the profile).
 */
export function callersOf(file, functionName, { windows, depth = 8, top = 6 } = {}) {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const chains = new Map();
	let at = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		at += profile.timeDeltas[i] ?? 0;
		if (windows && !windows.some(([from, to]) => at >= from && at <= to)) continue;
		const node = byId.get(profile.samples[i]);
		if (node.callFrame.functionName !== functionName) continue;
		const chain = [];
		for (
			let id = parent.get(node.id), d = 0;
			id !== undefined && d < depth;
			id = parent.get(id), d++
		) {
			const { callFrame } = byId.get(id);
			chain.push(
				`${callFrame.functionName || '(anonymous)'}@${callFrame.url.replace(/^.*node_modules\//, '')}:${callFrame.lineNumber + 1}`,
			);
		}
		const key = chain.join(' < ');
		chains.set(key, (chains.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
	}
	return [...chains]
		.sort((a, b) => b[1] - a[1])
		.slice(0, top)
		.map(([chain, ms]) => `${ms.toFixed(0).padStart(6)} ms  ${chain}`)
		.join('\n');
}

if (process.argv[2] && process.argv[1]?.endsWith('cpu-profile.mjs')) {
	const [file, row, functionName] = process.argv.slice(2);
	const windowsFile = path.join(path.dirname(file), 'windows.json');
	const windows =
		row && fs.existsSync(windowsFile)
			? JSON.parse(fs.readFileSync(windowsFile, 'utf8'))[row]
			: undefined;
	console.log(
		functionName
			? callersOf(file, functionName, { windows })
			: summarizeProfile(file, { top: 25, windows }),
	);
}
