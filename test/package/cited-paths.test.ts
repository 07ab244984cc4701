/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
// Every file a doc or a code comment cites by path exists: a moved or renamed file cannot leave a
// pointer behind. A path is looked up where a reader would look: beside the citing file, from the
// repository's root, and from the folders whose files the code names by their short path
// (`money/guardrails.ts` in nodes/CryptoSettlement/, `src/routes/router.ts` in fake-api/).
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const BASES = ['', 'nodes', 'nodes/CryptoSettlement', 'fake-api', 'fake-api/src', 'test', 'e2e', 'docs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', '.build']);

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
	const full = path.join(ROOT, dir);
	if (!fs.existsSync(full)) return [];
	return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
		if (SKIPPED_FOLDERS.has(entry.name)) return [];
		const file = path.posix.join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(file, keep) : keep(file) ? [file] : [];
	});
}

const CODE = /\.(ts|mjs|cjs|js)$/;
const DOCS = ['README.md', ...filesUnder('docs', (file) => file.endsWith('.md')), ...filesUnder('fake-api', (file) => file.endsWith('.md')), ...filesUnder('templates', (file) => file.endsWith('.md'))];
const SOURCES = ['nodes', 'credentials', 'fake-api', 'test', 'tooling', 'e2e', 'bench', 'scripts'].flatMap((dir) => filesUnder(dir, (file) => CODE.test(file)));

/** The text a reader reads as prose: a doc whole, a source's comments only. */
function proseOf(file: string): string {
	const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
	if (file.endsWith('.md')) return text;
	return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)].map(([comment]) => comment).join('\n');
}

/** Paths of our own source files a text cites, with or without folders (never a URL, a glob or a placeholder). */
function citedIn(text: string): string[] {
	const cited = [...text.matchAll(/(?<![\w/.<*{-])((?:[\w.-]+\/)*[\w-]+\.(?:ts|mjs|cjs))(?![\w/])/g)].map(([, cited]) => cited);
	return [...new Set(cited)].filter((cited) => !/^(dist|node_modules)\//.test(cited) && !cited.startsWith('../'));
}

/** Every file name of the sources, for a name cited bare (a table's row names its folder). */
const NAMES = new Set([...SOURCES, ...filesUnder('nodes', () => true)].map((file) => path.posix.basename(file)));

function exists(cited: string, from: string): boolean {
	if (!cited.includes('/')) return NAMES.has(cited);
	const here = path.posix.dirname(from);
	return [here, ...BASES].some((base) => fs.existsSync(path.join(ROOT, base, cited)));
}

test('every source file a doc or a comment cites exists', () => {
	const broken: string[] = [];
	for (const file of [...DOCS, ...SOURCES]) {
		for (const cited of citedIn(proseOf(file))) if (!exists(cited, file)) broken.push(`${file} cites ${cited}`);
	}
	expect(broken).toEqual([]);
});

test('the check sees a citation of a file that does not exist', () => {
	expect(citedIn('the router (fake-api/src/routes/judge.ts) and money/guardrails.ts')).toEqual(['fake-api/src/routes/judge.ts', 'money/guardrails.ts']);
	expect(exists('fake-api/src/routes/judge.ts', 'nodes/service/catalog.ts')).toBe(false);
	expect(exists('money/guardrails.ts', 'nodes/service/catalog.ts')).toBe(true);
	expect(exists('judge.ts', 'docs/architecture.md')).toBe(false);
});
