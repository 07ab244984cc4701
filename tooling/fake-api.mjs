// The local fake of the payments API (the fake-api/ workspace package, docs/fake-api.md), compiled by
// `tsc -p fake-api/tsconfig.json` into fake-api/.build/.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { REPO_ROOT, runCommand } from './util.mjs';

const PACKAGE_DIR = path.join(REPO_ROOT, 'fake-api');
const SERVER_JS = path.join(PACKAGE_DIR, '.build', 'fake-api', 'src', 'server.js');

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

/** Compiles the fake API when its server.js is missing or older than its sources (or the node's rules module). */
export async function ensureFakeApiBuilt({ log = () => {} } = {}) {
	const built = fs.existsSync(SERVER_JS) ? fs.statSync(SERVER_JS).mtimeMs : 0;
	const sources = Math.max(
		newestMtime(path.join(PACKAGE_DIR, 'src'), '.ts'),
		newestMtime(path.join(REPO_ROOT, 'nodes', 'service'), '.ts'),
	);
	if (built && built >= sources) return SERVER_JS;
	log('compiling the fake API (tsc -p fake-api/tsconfig.json)');
	const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
	const res = await runCommand(process.execPath, [tsc, '-p', 'fake-api/tsconfig.json'], {
		cwd: REPO_ROOT,
		timeoutMs: 300000,
	});
	if (res.code !== 0) throw new Error(`fake API build failed:\n${res.stdout}\n${res.stderr}`);
	if (!fs.existsSync(SERVER_JS)) throw new Error(`fake API build produced no ${SERVER_JS}`);
	return SERVER_JS;
}

/** Starts the fake API in this process; returns its handle ({ url, port, state, settle, close, setWebhook, ... }). */
export async function startFakeApi(options, { log } = {}) {
	await ensureFakeApiBuilt({ log });
	const require = createRequire(import.meta.url);
	delete require.cache[SERVER_JS];
	const { startFakeApi: start } = require(SERVER_JS);
	return await start(options);
}
