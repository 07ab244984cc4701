/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
// An export is a promise that another file needs it: every name exported by a TypeScript file of
// nodes/ or credentials/ is read by some other file (source or test, tooling, bench, e2e, the fake
// API, scripts), else it is not exported (or, used nowhere, deleted). A name counts as read when
// another file names it outside a comment, which also covers tooling's reads of dist/ (`{ NAME }`).
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CODE = /\.(ts|js|mjs|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', '.git']);

function filesOf(dir: string): string[] {
	if (!fs.existsSync(path.join(ROOT, dir))) return [];
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		if (SKIP.has(entry.name)) return [];
		const file = path.posix.join(dir, entry.name);
		return entry.isDirectory() ? filesOf(file) : CODE.test(entry.name) ? [file] : [];
	});
}

const SOURCES = [...filesOf('nodes'), ...filesOf('credentials')].filter((file) =>
	file.endsWith('.ts'),
);
const READERS = [
	...SOURCES,
	...['test', 'tooling', 'bench', 'e2e', 'fake-api', 'scripts'].flatMap(filesOf),
].filter((file) => file !== 'test/package/exports.test.ts');

/** A file's text without its comments (a name in a comment is not a read). */
const withoutComments = (text: string) =>
	text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
const TEXT = new Map(
	READERS.map((file) => [file, withoutComments(fs.readFileSync(path.join(ROOT, file), 'utf8'))]),
);

/** The names a file exports: declarations, and the names of `export { … }` lists. */
function exportsOf(file: string): string[] {
	const text = TEXT.get(file) ?? '';
	const declared = [
		...text.matchAll(
			/^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:const|let|var|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm,
		),
	].map((match) => match[1]);
	const listed = [...text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}(?!\s*from)/gm)].flatMap(
		(match) =>
			match[1]
				.split(',')
				.map(
					(part) =>
						part
							.trim()
							.split(/\s+as\s+/)
							.pop()
							?.replace(/^type\s+/, '') ?? '',
				)
				.filter(Boolean),
	);
	return [...declared, ...listed];
}

function readElsewhere(file: string, name: string): boolean {
	const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}([^\\w$]|$)`);
	for (const [reader, text] of TEXT) if (reader !== file && word.test(text)) return true;
	return false;
}

const unread = SOURCES.flatMap((file) =>
	exportsOf(file)
		.filter((name) => !readElsewhere(file, name))
		.map((name) => ({ file, name })),
);

test('every export of nodes/ and credentials/ is read by another file', () => {
	expect(unread.map(({ file, name }) => `${file}: ${name}`)).toEqual([]);
});

test('the scan sees the exports it judges', () => {
	// A guard against a pattern that stops matching: these are exported and read elsewhere.
	expect(exportsOf('nodes/service/catalog.ts')).toEqual(
		expect.arrayContaining(['LIFECYCLES', 'statusOf', 'RecordKind']),
	);
	expect(readElsewhere('nodes/service/catalog.ts', 'LIFECYCLES')).toBe(true);
});
