/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code, outside the scanned folders */
// The published tarball holds what n8n users need and nothing else: `npm pack --dry-run --json`
// on the built package (npm test builds first). Prints the tarball's size.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

interface PackFile {
	path: string;
	size: number;
}
interface PackResult {
	name: string;
	version: string;
	filename: string;
	size: number;
	unpackedSize: number;
	entryCount: number;
	files: PackFile[];
}

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** What may be published: the compiled nodes and credentials, their icons and codex files, docs. */
const ALLOWED: Array<[RegExp, string]> = [
	[/^package\.json$/, 'package.json'],
	[/^README\.md$/, 'README'],
	[/^LICENSE$/, 'LICENSE'],
	[/^CHANGELOG\.md$/, 'CHANGELOG'],
	[/^dist\/nodes\/[\w/]+(\.node)?\.js$/, 'compiled node code'],
	[/^dist\/nodes\/\w+\/\w+\.node\.json$/, 'codex file'],
	[/^dist\/credentials\/\w+\.credentials\.js$/, 'compiled credential'],
	[/^dist\/icons\/[\w.-]+\.(svg|png)$/, 'icon'],
];

/** Budget for the packed size: a regression guard, far above today's size. */
const MAX_PACKED_BYTES = 250 * 1024;

let pack: PackResult;
let files: string[];

beforeAll(() => {
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes')))
		throw new Error('dist/ is missing: run npm run build (npm test does)');
	const stdout = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, npm_config_loglevel: 'error' },
	});
	[pack] = JSON.parse(stdout.slice(stdout.indexOf('['))) as PackResult[];
	files = pack.files.map((file) => file.path).sort();
	const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
	process.stdout.write(
		`\npackage content: ${pack.filename}: ${kB(pack.size)} packed, ${kB(pack.unpackedSize)} unpacked, ${pack.entryCount} files\n`,
	);
});

describe('published package (npm pack --dry-run)', () => {
	test('is this package at its version', () => {
		expect(pack.name).toBe(pkg.name);
		expect(pack.version).toBe(pkg.version);
	});

	test('holds only dist/ (nodes, credentials, icons, codex files), README, LICENSE, CHANGELOG and package.json', () => {
		const unexpected = files.filter((file) => !ALLOWED.some(([pattern]) => pattern.test(file)));
		expect(unexpected).toEqual([]);
	});

	test('holds no tests, fake API, e2e, bench, scripts, TypeScript sources or source maps', () => {
		const forbidden = files.filter(
			(file) =>
				/^(test|fake-api|e2e|bench|scripts|docs|artifacts|coverage|\.build|\.ci|\.github)\//.test(
					file,
				) ||
				/\.(ts|map|tsbuildinfo|tgz)$/.test(file) ||
				/(^|\/)(test|__tests__|__mocks__|fixtures)\//.test(file),
		);
		expect(forbidden).toEqual([]);
	});

	test('holds every node and credential that package.json registers with n8n', () => {
		const registered: string[] = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
		expect(registered.length).toBeGreaterThan(0);
		expect(registered.filter((file) => !files.includes(file))).toEqual([]);
	});

	test('holds the codex file of every node and every icon a node or credential points at', () => {
		const missing: string[] = [];
		for (const node of pkg.n8n.nodes as string[]) {
			const codex = node.replace(/\.js$/, '.json');
			if (!files.includes(codex)) missing.push(codex);
		}
		for (const file of files.filter((f) => f.endsWith('.js'))) {
			const code = fs.readFileSync(path.join(ROOT, file), 'utf8');
			for (const [, ref] of code.matchAll(/['"]file:([^'"]+)['"]/g)) {
				const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), ref));
				if (!files.includes(target)) missing.push(`${target} (from ${file})`);
			}
		}
		expect(missing).toEqual([]);
	});

	test('carries no source map reference to a file that is not published', () => {
		const dangling: string[] = [];
		for (const file of files.filter((f) => f.endsWith('.js'))) {
			const code = fs.readFileSync(path.join(ROOT, file), 'utf8');
			const match = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code);
			if (!match || match[1].startsWith('data:')) continue;
			const mapFile = path.posix.join(path.posix.dirname(file), match[1]);
			if (!files.includes(mapFile)) {
				dangling.push(`${file} → ${mapFile}`);
				continue;
			}
			const map = JSON.parse(fs.readFileSync(path.join(ROOT, mapFile), 'utf8'));
			(map.sources as string[]).forEach((source, index) => {
				const target = path.posix.normalize(
					path.posix.join(path.posix.dirname(mapFile), map.sourceRoot ?? '', source),
				);
				if (!files.includes(target) && !map.sourcesContent?.[index])
					dangling.push(`${mapFile} → ${target}`);
			});
		}
		expect(dangling).toEqual([]);
	});

	test('declares no runtime dependencies and only n8n-workflow as a peer', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.files).toEqual(['dist']);
	});

	test(`stays under ${MAX_PACKED_BYTES / 1024} kB packed`, () => {
		expect(pack.size).toBeLessThan(MAX_PACKED_BYTES);
	});
});
