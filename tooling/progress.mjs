#!/usr/bin/env node
// One long step of the first start (downloading Node 24, installing n8n, compiling its native
// modules), run while saying what happens: the step, the time it has taken and what npm is
// fetching or the build is compiling, every second on a terminal and every few seconds in a log.
// A first `npm start` takes minutes; without this it printed one line for all of them.
//
//   node tooling/progress.mjs '{"label":"2/3 installing n8n 2.41.1","cmd":"npm","args":["install"],"cwd":"…"}'
//   env: PROGRESS_INTERVAL_MS (between lines when stdout is not a terminal; default 5000)
//
// runWithProgressSync() runs this file in a child process, so callers that block (ensureN8n) still
// get their progress. The command's own output is kept and shown only if it fails.

import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const THIS_FILE = fileURLToPath(import.meta.url);
const PREFIX = '[n8n-install]';

/** 125000 ms → "2m05s". */
export function elapsed(ms) {
	const seconds = Math.floor(ms / 1000);
	const minutes = Math.floor(seconds / 60);
	return minutes ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

/** The package a registry URL names: …/@scope/name/-/name-1.2.3.tgz → "@scope/name@1.2.3"; a manifest URL → its name. */
export function packageOfUrl(url) {
	const tarball = /\/((?:@[^/]+\/)?[^/]+)\/-\/[^/]+?-(\d[^/]*)\.tgz$/.exec(url);
	if (tarball) return `${decodeURIComponent(tarball[1])}@${tarball[2]}`;
	const manifest = /^https?:\/\/[^/]+\/(.+)$/.exec(url);
	return manifest ? decodeURIComponent(manifest[1]) : url;
}

/**
 * What npm's `--loglevel=http` lines say it is doing: package manifests resolved, package
 * tarballs fetched (npm logs a tarball's cache lookup, then its download if the cache lacked it),
 * and the last one.
 */
export function npmActivity() {
	const manifests = new Set();
	const fetched = new Set();
	const downloaded = new Set();
	const state = { last: '' };
	return {
		state,
		/** Reads one line of npm's output; returns whether it was npm's http log. */
		read(line) {
			const fetch = /^npm http fetch \w+ \d+ (\S+)/.exec(line);
			const cache = /^npm http cache \S+?@(https?:\/\/\S+\.tgz)/.exec(line);
			const url = fetch?.[1] ?? cache?.[1];
			if (!url) return false;
			const what = packageOfUrl(url);
			if (!url.endsWith('.tgz')) {
				manifests.add(what);
				state.last = `resolved ${what}`;
			} else {
				fetched.add(what);
				if (fetch) downloaded.add(what);
				state.last = `${fetch ? 'downloaded' : 'fetched'} ${what}`;
			}
			return true;
		},
		summary() {
			const parts = [];
			if (manifests.size) parts.push(`${manifests.size} packages resolved`);
			if (fetched.size)
				parts.push(`${fetched.size} fetched, ${downloaded.size} of them downloaded`);
			return parts.join(', ');
		},
	};
}

/**
 * What a native build is doing, from the lines node-gyp's make prints for each file ("CXX(target)
 * Release/obj.target/sqlite3/…/sqlite3.o" → "compiling sqlite3.o", "SOLINK_MODULE(target) …" →
 * "linking node_sqlite3.node"); undefined for any other line. A compiler's warnings and their
 * source excerpts ("|       ^~~~") say nothing about progress, so they are never shown.
 */
export function buildActivity(line) {
	const step = /^\s*(CC|CXX|SOLINK_MODULE|LINK|COPY|ACTION|TOUCH)\([^)]*\)\s+(\S+)/.exec(line);
	if (!step) return undefined;
	const file = path.basename(step[2]);
	return ['CC', 'CXX'].includes(step[1])
		? `compiling ${file}`
		: ['SOLINK_MODULE', 'LINK'].includes(step[1])
			? `linking ${file}`
			: `building ${file}`;
}

/**
 * Runs `cmd args` and reports progress to `out`: a line that rewrites itself every second on a
 * terminal, else a line every `intervalMs`. Resolves { code, output }.
 */
export async function runWithProgress({
	label,
	cmd,
	args = [],
	cwd,
	env = process.env,
	intervalMs,
	out = process.stdout,
}) {
	const tty = Boolean(out.isTTY);
	const every = tty ? 1000 : Number(intervalMs ?? process.env.PROGRESS_INTERVAL_MS ?? 5000);
	const started = Date.now();
	const npm = npmActivity();
	let output = '';
	let building = '';
	let changedAt = started;
	const status = () => {
		const doing = npm.summary() || building;
		const last = npm.state.last ? `; last: ${npm.state.last}` : '';
		const quiet =
			Date.now() - changedAt >= 15000
				? ` (nothing new for ${elapsed(Date.now() - changedAt)}: npm is writing node_modules, or a large file is compiling)`
				: '';
		return `${PREFIX} ${label}: ${elapsed(Date.now() - started)}${doing ? `, ${doing}` : ''}${npm.summary() ? last : ''}${quiet}`;
	};
	const print = (final = false) => {
		const line = status();
		const width = out.columns || 200;
		if (tty)
			out.write(
				`\r\x1b[2K${line.length > width - 1 ? `${line.slice(0, width - 4)}...` : line}${final ? '\n' : ''}`,
			);
		else out.write(`${line}\n`);
	};
	out.write(`${PREFIX} ${label}: started\n`);
	const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let pending = '';
	const take = (chunk) => {
		const text = String(chunk);
		output += text;
		pending += text;
		const lines = pending.split('\n');
		pending = lines.pop() ?? '';
		for (const line of lines) {
			if (!npm.read(line.trim())) building = buildActivity(line) ?? building;
			changedAt = Date.now();
		}
	};
	child.stdout.on('data', take);
	child.stderr.on('data', take);
	const timer = setInterval(() => print(), every);
	const code = await new Promise((resolve) => {
		child.on('error', (error) => {
			output += `\n${error.message}`;
			resolve(127);
		});
		child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
	});
	clearInterval(timer);
	if (tty) print(true);
	out.write(
		`${PREFIX} ${label}: ${code === 0 ? 'done' : `failed (exit ${code})`} in ${elapsed(Date.now() - started)}${npm.summary() ? `, ${npm.summary()}` : ''}\n`,
	);
	return { code, output };
}

/**
 * runWithProgress for callers that block: runs this file in a child process writing to the same
 * stdout. Throws with the tail of the command's output when it fails.
 */
export function runWithProgressSync({ label, cmd, args = [], cwd, env = process.env }) {
	const res = spawnSync(process.execPath, [THIS_FILE, JSON.stringify({ label, cmd, args, cwd })], {
		env,
		stdio: ['ignore', 'inherit', 'pipe'],
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	if (res.status !== 0) {
		throw new Error(
			`command failed (${res.status ?? res.signal}): ${path.basename(cmd)} ${args.join(' ')}\n${(res.stderr || '').slice(-4000)}`,
		);
	}
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === THIS_FILE;
if (isMain) {
	const options = JSON.parse(process.argv[2] ?? '{}');
	const { code, output } = await runWithProgress(options);
	// The command's own output goes to stderr, for the caller's error message.
	if (code !== 0) process.stderr.write(output.slice(-4000));
	process.exit(code);
}
