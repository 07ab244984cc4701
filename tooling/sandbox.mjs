// The local API sandbox (sandbox/*.ts, compiled by `tsc -p tsconfig.tools.json` into .build/).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { REPO_ROOT, runCommand } from './util.mjs';

const SERVER_JS = path.join(REPO_ROOT, '.build', 'sandbox', 'server.js');

function newestMtime(dir, ext) {
	let newest = 0;
	if (!fs.existsSync(dir)) return newest;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (!entry.isFile() || !entry.name.endsWith(ext)) continue;
		const full = path.join(entry.parentPath ?? entry.path, entry.name);
		newest = Math.max(newest, fs.statSync(full).mtimeMs);
	}
	return newest;
}

/** Compiles the sandbox when .build/sandbox/server.js is missing or older than its sources. */
export async function ensureSandboxBuilt({ log = () => {} } = {}) {
	const built = fs.existsSync(SERVER_JS) ? fs.statSync(SERVER_JS).mtimeMs : 0;
	const sources = Math.max(
		newestMtime(path.join(REPO_ROOT, 'sandbox'), '.ts'),
		newestMtime(path.join(REPO_ROOT, 'nodes', 'CryptoSettlement', 'shared'), '.ts'),
	);
	if (built && built >= sources) return SERVER_JS;
	log('compiling the sandbox (tsc -p tsconfig.tools.json)');
	const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
	const res = await runCommand(process.execPath, [tsc, '-p', 'tsconfig.tools.json'], { cwd: REPO_ROOT, timeoutMs: 300000 });
	if (res.code !== 0) throw new Error(`sandbox build failed:\n${res.stdout}\n${res.stderr}`);
	if (!fs.existsSync(SERVER_JS)) throw new Error(`sandbox build produced no ${SERVER_JS}`);
	return SERVER_JS;
}

/** Starts the sandbox in this process; returns its handle ({ url, port, state, settle, close, setWebhook, ... }). */
export async function startSandbox(options, { log } = {}) {
	await ensureSandboxBuilt({ log });
	const require = createRequire(import.meta.url);
	delete require.cache[SERVER_JS];
	const { startSandbox: start } = require(SERVER_JS);
	return await start(options);
}
