/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
// package-lock.json is complete enough for `npm ci` on npm 10 and 11 (checked offline; .ci/run
// and the CI workflow also run `npm ci`, `npm@10 ci --dry-run` and a regeneration diff).
import fs from 'node:fs';
import path from 'node:path';

interface LockEntry {
	version?: string;
	dev?: boolean;
	optional?: boolean;
	extraneous?: boolean;
	link?: boolean;
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
}

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const packages: Record<string, LockEntry> = lock.packages;

/** The lock entry that Node's resolution finds for `name` required from the package at `from`. */
function resolve(from: string, name: string): LockEntry | undefined {
	let base = from;
	for (;;) {
		const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
		if (packages[candidate]) return packages[candidate];
		if (!base) return undefined;
		const cut = base.lastIndexOf('/node_modules/');
		base = cut < 0 ? '' : base.slice(0, cut);
	}
}

describe('package-lock.json', () => {
	test('is a lockfileVersion 3 lock of this package', () => {
		expect(lock.lockfileVersion).toBe(3);
		expect(lock.name).toBe(pkg.name);
		expect(lock.version).toBe(pkg.version);
	});

	test("records package.json's devDependencies and peerDependencies exactly", () => {
		expect(packages[''].devDependencies).toEqual(pkg.devDependencies);
		expect(packages[''].peerDependencies).toEqual(pkg.peerDependencies);
		expect(packages[''].dependencies).toBeUndefined();
		for (const [name, version] of Object.entries(pkg.devDependencies as Record<string, string>)) {
			expect(`${name}@${packages[`node_modules/${name}`]?.version}`).toBe(`${name}@${version}`);
		}
	});

	// npm 11's `npm ci` refuses a lock in which a declared optional dependency has no entry (the
	// platform bindings of unrs-resolver were missing: issue 16), so every optional edge of every
	// locked package must resolve to an entry, whatever the platform that wrote the lock.
	test('every optional dependency of every locked package has an entry (all platforms)', () => {
		const missing: string[] = [];
		for (const [location, entry] of Object.entries(packages)) {
			if (entry.link) continue;
			for (const name of Object.keys(entry.optionalDependencies ?? {})) {
				if (!resolve(location, name)) missing.push(`${location || '(root)'} → ${name}`);
			}
		}
		expect(missing).toEqual([]);
	});

	test('every required dependency of every locked package has an entry', () => {
		const missing: string[] = [];
		for (const [location, entry] of Object.entries(packages)) {
			if (entry.link) continue;
			for (const name of Object.keys(entry.dependencies ?? {})) {
				if (!resolve(location, name)) missing.push(`${location || '(root)'} → ${name}`);
			}
		}
		expect(missing).toEqual([]);
	});

	test('holds no extraneous entries (a lock written from a stale node_modules)', () => {
		const extraneous = Object.keys(packages).filter((location) => packages[location].extraneous);
		expect(extraneous).toEqual([]);
	});

	test('every entry has a version and an integrity hash', () => {
		const incomplete = Object.entries(packages)
			// Registry packages only: the root and the fake-api/ workspace are folders of this repo.
			.filter(([location, entry]) => location.includes('node_modules/') && !entry.link)
			.filter(([, entry]) => !entry.version || !(entry as { integrity?: string }).integrity)
			.map(([location]) => location);
		expect(incomplete).toEqual([]);
	});
});
