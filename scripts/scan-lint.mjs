// n8n's community-package scanner (@n8n/scan-community-package, a devDependency), run as the
// verification gate runs it, minus the provenance step that needs a published version: its own
// ESLint configuration (@n8n/eslint-plugin-community-nodes and eslint-plugin-n8n-nodes-base, inline
// eslint-disable comments ignored) over the source and over the packed tarball. A rule the scanner
// adds fails `npm run lint` here before it fails verification (docs/development.md).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { packPackage } from '../tooling/pack.mjs';
import { REPO_ROOT } from '../tooling/util.mjs';

// What the scanner lints in the published tarball (its analyzePackageByName, which does not export
// these patterns): the compiled JavaScript and package.json; the source leg covers the TypeScript.
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

/** The tarball `npm pack` makes of the current build, unpacked into a temporary folder. */
async function unpackedTarball(workDir) {
	// The tarball ships dist/: build first when a source changed since the last build.
	await createRequire(import.meta.url)('../test/setup/fresh-build.js')();
	const tarball = await packPackage({ dest: path.join(workDir, 'pack') });
	const unpacked = path.join(workDir, 'package');
	fs.mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	return unpacked;
}

/** The scanner's verdict on one folder; a folder with nothing to lint fails (a wrong pattern, not a pass). */
async function scan(label, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	const passed = result.passed && result.message === undefined;
	process.stdout.write(`scan: ${label}: ${passed ? 'passed' : `FAILED (${result.message})`}\n`);
	if (!passed && result.details) process.stdout.write(result.details);
	return passed;
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-'));
// Loading the scanner makes a temporary folder (for the downloads this script skips): in ours.
process.env.TMPDIR = workDir;
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
	'@n8n/scan-community-package/scanner/scanner.mjs'
);
try {
	const source = await scan(
		'source (package.json, nodes/, credentials/)',
		REPO_ROOT,
		SOURCE_FILE_PATTERNS,
	);
	const packed = await scan(
		'packed tarball',
		await unpackedTarball(workDir),
		TARBALL_FILE_PATTERNS,
	);
	if (!source || !packed) process.exitCode = 1;
} finally {
	fs.rmSync(workDir, { recursive: true, force: true });
}
