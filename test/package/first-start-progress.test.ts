/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code, outside the scanned folders */
/**
 * The first start shows its progress (issue 27): installing Node 24 and n8n takes minutes, and
 * tooling/progress.mjs says the step, the time taken and what npm fetches or the build compiles,
 * every few seconds. Checked against a stand-in for npm that logs as `npm --loglevel=http` does.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const PROGRESS = path.join(ROOT, 'tooling', 'progress.mjs');

/** A command that prints `lines` to stderr, one every `gapMs`, then exits with `code`. */
function standIn(lines: string[], gapMs: number, code = 0): { cmd: string; args: string[] } {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'progress-test-'));
	const script = path.join(dir, 'npm.js');
	fs.writeFileSync(
		script,
		`const lines = ${JSON.stringify(lines)};
let i = 0;
const timer = setInterval(() => {
	if (i < lines.length) return void process.stderr.write(lines[i++] + '\\n');
	clearInterval(timer);
	process.exit(${code});
}, ${gapMs});`,
	);
	return { cmd: process.execPath, args: [script] };
}

function runProgress(label: string, command: { cmd: string; args: string[] }) {
	const res = spawnSync(process.execPath, [PROGRESS, JSON.stringify({ label, ...command })], {
		env: { ...process.env, PROGRESS_INTERVAL_MS: '100' },
		encoding: 'utf8',
	});
	return { code: res.status, lines: res.stdout.trim().split('\n'), stderr: res.stderr };
}

const REGISTRY = 'https://registry.npmjs.org';

test('an npm install reports the step, the time taken and what it fetches, every few seconds', () => {
	const log = [
		`npm http fetch GET 200 ${REGISTRY}/n8n 120ms (cache miss)`,
		`npm http fetch GET 200 ${REGISTRY}/@n8n%2fn8n-nodes-langchain 80ms (cache miss)`,
		`npm http cache n8n@${REGISTRY}/n8n/-/n8n-2.41.1.tgz 0ms (cache hit)`,
		`npm http fetch GET 200 ${REGISTRY}/n8n/-/n8n-2.41.1.tgz 2300ms (cache miss)`,
		`npm http cache @n8n/n8n-nodes-langchain@${REGISTRY}/@n8n/n8n-nodes-langchain/-/n8n-nodes-langchain-2.41.1.tgz 0ms (cache hit)`,
		'added 2 packages in 3s',
	];
	const { code, lines } = runProgress('1/2 installing n8n 2.41.1 (npm install)', standIn(log, 300));
	expect(code).toBe(0);
	expect(lines[0]).toBe('[n8n-install] 1/2 installing n8n 2.41.1 (npm install): started');
	const updates = lines.slice(1, -1);
	expect(updates.length).toBeGreaterThanOrEqual(3);
	for (const update of updates)
		expect(update).toMatch(/^\[n8n-install\] 1\/2 installing n8n 2\.41\.1 \(npm install\): \d+s/);
	expect(updates.join('\n')).toContain('1 packages resolved; last: resolved n8n');
	expect(updates.join('\n')).toContain('last: downloaded n8n@2.41.1');
	expect(lines.at(-1)).toMatch(
		/^\[n8n-install\] 1\/2 installing n8n 2\.41\.1 \(npm install\): done in \d+s, 2 packages resolved, 2 fetched, 1 of them downloaded$/,
	);
});

test("a build says what it compiles, never a compiler's warnings, and a failure shows the command's own output", () => {
	const log = [
		'gyp info spawn make',
		'  CC(target) Release/obj.target/sqlite3/gen/sqlite-autoconf-3440200/sqlite3.o',
		'../src/statement.cc:12:5: warning: unused variable',
		'   12 |     int unused;',
		'      |       ^~~~~~~',
		'  SOLINK_MODULE(target) Release/obj.target/node_sqlite3.node',
		'gyp ERR! build error',
	];
	const { code, lines, stderr } = runProgress(
		"2/2 compiling n8n's database module (SQLite) for Node 24: a minute or two",
		standIn(log, 300, 2),
	);
	expect(code).toBe(2);
	const shown = lines.join('\n');
	// The seconds depend on the machine's load; what it compiles is what matters.
	expect(shown).toMatch(
		/2\/2 compiling n8n's database module \(SQLite\) for Node 24: a minute or two: \d+s, compiling sqlite3\.o/,
	);
	expect(shown).toMatch(/: \d+s, linking node_sqlite3\.node/);
	expect(shown).not.toMatch(/\^~|warning|\| {3}/);
	expect(lines.at(-1)).toMatch(/: failed \(exit 2\) in \d+s$/);
	expect(stderr).toContain('gyp ERR! build error');
});

test('no step of the first start is named by isolated-vm', () => {
	const installer = fs.readFileSync(path.join(ROOT, 'tooling', 'n8n-install.mjs'), 'utf8');
	const labels = installer.match(/label: `[^`]*`/g) ?? [];
	expect(labels.length).toBeGreaterThanOrEqual(3);
	for (const label of labels) expect(label).not.toMatch(/isolated-vm|rebuild\.join/);
});

test("the installer's long steps (Node 24, npm ci from the line's lock, SQLite, native modules) all go through it", () => {
	const installer = fs.readFileSync(path.join(ROOT, 'tooling', 'n8n-install.mjs'), 'utf8');
	const syncSteps = installer.match(/runWithProgressSync\(\{[\s\S]*?\n\t*\}\);/g) ?? [];
	expect(syncSteps.map((step) => /args: \[\s*('[a-z]+')/.exec(step)?.[1])).toEqual(["'pack'"]);
	// the others run through step() (runWithProgress), two of them at once on a first install
	const steps = installer.match(/step\(\{[\s\S]*?\}\);\n/g) ?? [];
	expect(steps.map((step) => /args: \[\s*('[a-z]+'|verb)/.exec(step)?.[1])).toEqual([
		"'install'",
		"'rebuild'",
		'verb',
		"'rebuild'",
	]);
	expect(installer).toContain("install(locked ? 'ci' : 'install')");
	expect(installer).not.toMatch(/run\('npm'/);
});

test('each line has a lock that pins n8n and sqlite3 with the address of every tarball', () => {
	for (const version of ['2.41.1', '1.123.81']) {
		type Entry = { version?: string; link?: boolean; resolved?: string; extraneous?: boolean };
		const lock = JSON.parse(
			fs.readFileSync(
				path.join(ROOT, 'tooling', 'n8n-locks', `n8n-${version}.package-lock.json`),
				'utf8',
			),
		) as { packages: Record<string, Entry> };
		expect(lock.packages['node_modules/n8n'].version).toBe(version);
		expect(lock.packages['node_modules/sqlite3'].version).toMatch(/^5\./);
		const entries = Object.entries(lock.packages).filter(([key]) => key);
		expect(entries.filter(([, entry]) => !entry.link && !entry.resolved)).toEqual([]);
		expect(entries.filter(([, entry]) => entry.extraneous)).toEqual([]);
	}
});
