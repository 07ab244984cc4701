// Builds the package (npm run build) and packs it (npm pack) into a folder outside the repo.
import fs from 'node:fs';
import path from 'node:path';

import { cacheDir } from './n8n-install.mjs';
import { REPO_ROOT, runCommand, secs } from './util.mjs';

export async function buildPackage({ log = () => {} } = {}) {
	log('building the package (npm run build)');
	const res = await runCommand('npm', ['run', 'build'], { cwd: REPO_ROOT, timeoutMs: 600000 });
	if (res.code !== 0)
		throw new Error(
			`npm run build failed:\n${res.stdout.slice(-4000)}\n${res.stderr.slice(-4000)}`,
		);
	log(`  built in ${secs(res.ms)}`);
}

/** npm pack → absolute path of the tarball (in `dest`, by default <cache>/pack/, emptied first). */
export async function packPackage({ log = () => {}, dest = path.join(cacheDir(), 'pack') } = {}) {
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(dest, { recursive: true });
	const res = await runCommand('npm', ['pack', '--json', '--pack-destination', dest], {
		cwd: REPO_ROOT,
		timeoutMs: 300000,
	});
	if (res.code !== 0) throw new Error(`npm pack failed:\n${res.stdout}\n${res.stderr}`);
	let info;
	try {
		info = JSON.parse(res.stdout.slice(res.stdout.indexOf('[')));
	} catch {
		throw new Error(`cannot read npm pack output:\n${res.stdout}`);
	}
	const tarball = path.join(dest, info[0].filename);
	const files = info[0].files.map((f) => f.path);
	for (const required of [
		'package.json',
		'dist/nodes/CryptoSettlement/CryptoSettlement.node.js',
		'dist/nodes/CryptoSettlementTrigger/CryptoSettlementTrigger.node.js',
		'dist/credentials/CryptoSettlementApi.credentials.js',
	]) {
		if (!files.includes(required))
			throw new Error(`the packed tarball lacks ${required} (did the build succeed?)`);
	}
	log(
		`packed ${path.basename(tarball)} (${files.length} files, ${Math.round(info[0].size / 1024)} kB)`,
	);
	return tarball;
}
