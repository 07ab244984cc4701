/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
// Every file a doc or a code comment cites by path exists: a moved or renamed file cannot leave a
// pointer behind. A path is looked up where a reader would look: beside the citing file, from the
// repository's root, and from the folders whose files the code names by their short path
// (`money/guardrails.ts` in nodes/CryptoSettlement/, `src/routes/router.ts` in fake-api/). So does
// every folder cited (`statement/`), and every symbol cited with its file ("`LIFECYCLES` in
// `service/catalog.ts`", "(withdrawals.ts, lookUp)") is defined in that file.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const BASES = [
	'',
	'nodes',
	'nodes/CryptoSettlement',
	'fake-api',
	'fake-api/src',
	'test',
	'e2e',
	'docs',
];
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
const DOCS = [
	'README.md',
	...filesUnder('docs', (file) => file.endsWith('.md')),
	...filesUnder('fake-api', (file) => file.endsWith('.md')),
	...filesUnder('templates', (file) => file.endsWith('.md')),
];
const SOURCES = [
	'nodes',
	'credentials',
	'fake-api',
	'test',
	'tooling',
	'e2e',
	'bench',
	'scripts',
].flatMap((dir) => filesUnder(dir, (file) => CODE.test(file)));

/** The text a reader reads as prose: a doc whole, a source's comments only. */
function proseOf(file: string): string {
	const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
	if (file.endsWith('.md')) return text;
	return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)]
		.map(([comment]) => comment)
		.join('\n');
}

/** Paths of our own source files a text cites, with or without folders (never a URL, a glob or a placeholder). */
function citedIn(text: string): string[] {
	const cited = [
		...text.matchAll(/(?<![\w/.<*{-])((?:[\w.-]+\/)*[\w-]+\.(?:ts|mjs|cjs))(?![\w/])/g),
	].map(([, cited]) => cited);
	return [...new Set(cited)].filter(
		(cited) => !/^(dist|node_modules)\//.test(cited) && !cited.startsWith('../'),
	);
}

/** Every file name of the sources, for a name cited bare (a table's row names its folder). */
const NAMES = new Set(
	[...SOURCES, ...filesUnder('nodes', () => true)].map((file) => path.posix.basename(file)),
);

/** The files a citation can mean, by where a reader would look (a bare name: any file of that name). */
function filesCited(cited: string, from: string): string[] {
	if (!cited.includes('/'))
		return [...SOURCES, ...filesUnder('nodes', () => true)].filter(
			(file) => path.posix.basename(file) === cited,
		);
	const here = path.posix.dirname(from);
	return [here, ...BASES]
		.map((base) => path.posix.join(base, cited))
		.filter(
			(file) => fs.existsSync(path.join(ROOT, file)) && fs.statSync(path.join(ROOT, file)).isFile(),
		);
}

function exists(cited: string, from: string): boolean {
	if (!cited.includes('/')) return NAMES.has(cited);
	return filesCited(cited, from).length > 0;
}

/**
 * Folders a text cites (`statement/`, `nodes/CryptoSettlement/record/`, the folder of
 * `<folder>/<name>.ts`), never a URL's, a package's (`@n8n/…`), a home folder's or a build's.
 */
function foldersCitedIn(text: string): string[] {
	const cited = [
		...text.matchAll(/(?<![\w/.<*{@~$:-])((?:\.?[\w-]+\/)+)(?=<|[`'")\],;:\s]|\.(?:\s|$)|$)/gm),
	].map(([, folder]) => folder);
	return [...new Set(cited)].filter(
		(folder) =>
			!folder.split('/').some((part) => SKIPPED_FOLDERS.has(part)) &&
			!/\d/.test(folder.split('/')[0] ?? '') &&
			!(folder in ELSEWHERE),
	);
}

/** Folders the docs and comments cite that are not the repository's, by where they are. */
const ELSEWHERE: Record<string, string> = {
	'pack/': "the n8n cache's (docs/e2e.md, ~/.cache/n8n-nodes-crypto-settlement/)",
	'start/': "the n8n cache's (docs/e2e.md)",
	'include/': "a Node.js package's headers (tooling/n8n-install.mjs)",
};

function folderExists(cited: string, from: string): boolean {
	const here = path.posix.dirname(from);
	return [here, ...BASES].some(
		(base) =>
			fs.existsSync(path.join(ROOT, base, cited)) &&
			fs.statSync(path.join(ROOT, base, cited)).isDirectory(),
	);
}

const PATH = String.raw`(?<![\w/.<*{-])((?:[\w.-]+\/)*[\w-]+\.(?:ts|mjs|cjs))(?![\w/])`;
const NAME = String.raw`[A-Za-z_$][\w$]*`;
/** A name that reads as code even without backticks: `lookUpAhead`, `LIFECYCLES`, `ListSource`. */
const CODE_NAME =
	/^(?:[a-z]+[A-Z][\w$]*|[A-Z][A-Z0-9]*_[A-Z0-9_]*|[A-Z]{5,}[A-Z0-9]*|[A-Z][a-z0-9]+[A-Z][\w$]*)$/;

/**
 * Symbols a text cites with their file: "`<file>.ts`, `name`", "(<file>.ts, NAME)", "<file>.ts name",
 * "`name` in `<file>.ts`", "`name` (`<file>.ts`". A bare word counts only where it reads as code, and
 * before a parenthesis only in backticks ("n8n-core's LoadOptionsContext (test/helpers/…)" names
 * where it is used).
 */
function symbolsCitedIn(text: string): Array<{ file: string; symbol: string }> {
	const forms: Array<[RegExp, number, number]> = [
		[new RegExp(String.raw`\`?${PATH}\`?(?:,\s*|\s+)(\`${NAME}\`|${NAME})`, 'g'), 1, 2],
		[new RegExp(String.raw`(\`${NAME}\`|${NAME})\s+(?:in|of|from)\s+\`?${PATH}`, 'g'), 2, 1],
		[new RegExp(String.raw`(\`${NAME}\`)\s+\(\`?${PATH}`, 'g'), 2, 1],
	];
	const found = forms.flatMap(([form, file, symbol]) =>
		[...text.matchAll(form)].flatMap((match) => {
			const name = match[symbol].replace(/`/g, '');
			const reads = match[symbol].startsWith('`') || CODE_NAME.test(name);
			return reads ? [{ file: match[file], symbol: name }] : [];
		}),
	);
	return found.filter(
		(entry, index) =>
			found.findIndex((other) => other.file === entry.file && other.symbol === entry.symbol) ===
			index,
	);
}

/** Whether a source defines a name: a declaration, an export, an interface member, an object's key or a method. */
function defines(file: string, symbol: string): boolean {
	const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
	const name = symbol.replace(/\$/g, '\\$');
	return [
		new RegExp(
			String.raw`\b(?:function\*?|const|let|var|class|interface|type|enum|namespace)\s+${name}\b`,
		),
		new RegExp(String.raw`\bexport\s*\{[^}]*\b${name}\b`),
		new RegExp(
			String.raw`^\s*(?:(?:readonly|static|private|public|async|get|set)\s+)*['"]?${name}['"]?\??\s*[:(=]`,
			'm',
		),
		new RegExp(
			String.raw`(?:module\.)?exports\.${name}\b|module\.exports\s*=\s*\{[^}]*\b${name}\b`,
		),
	].some((form) => form.test(text));
}

test('every source file a doc or a comment cites exists', () => {
	const broken: string[] = [];
	for (const file of [...DOCS, ...SOURCES]) {
		for (const cited of citedIn(proseOf(file)))
			if (!exists(cited, file)) broken.push(`${file} cites ${cited}`);
	}
	expect(broken).toEqual([]);
});

test('the check sees a citation of a file that does not exist', () => {
	expect(citedIn('the router (fake-api/src/routes/judge.ts) and money/guardrails.ts')).toEqual([
		'fake-api/src/routes/judge.ts',
		'money/guardrails.ts',
	]);
	expect(exists('fake-api/src/routes/judge.ts', 'nodes/service/catalog.ts')).toBe(false);
	expect(exists('money/guardrails.ts', 'nodes/service/catalog.ts')).toBe(true);
	expect(exists('judge.ts', 'docs/architecture.md')).toBe(false);
});

test('every folder a doc or a comment cites exists', () => {
	const broken: string[] = [];
	for (const file of [...DOCS, ...SOURCES]) {
		for (const cited of foldersCitedIn(proseOf(file)))
			if (!folderExists(cited, file)) broken.push(`${file} cites ${cited}`);
	}
	expect(broken).toEqual([]);
});

test('every symbol a doc or a comment cites with its file is defined in that file', () => {
	const broken: string[] = [];
	for (const file of [...DOCS, ...SOURCES]) {
		for (const { file: cited, symbol } of symbolsCitedIn(proseOf(file))) {
			const files = filesCited(cited, file);
			if (files.length && !files.some((candidate) => defines(candidate, symbol)))
				broken.push(`${file} cites ${symbol} in ${cited}`);
		}
	}
	expect(broken).toEqual([]);
});

test('the checks see a folder that is gone and a symbol its file does not define', () => {
	const prose =
		'the records (`resources/<resource>.ts`, `nodes/CryptoSettlement/statement/`) and https://example.com/a/b/ and @n8n/node-cli/';
	expect(foldersCitedIn(prose)).toEqual(['resources/', 'nodes/CryptoSettlement/statement/']);
	expect(folderExists('resources/', 'docs/architecture.md')).toBe(false);
	expect(folderExists('statement/', 'docs/architecture.md')).toBe(true);
	expect(
		symbolsCitedIn(
			'the table (fields/rules.ts, LIFECYCLES), `MONEY_CLASSES` in `record/moneyClasses.ts`, `transport.ts` `exchange`, `markInDoubt` (`apiErrors.ts`), fields/rules.ts and more',
		),
	).toEqual([
		{ file: 'fields/rules.ts', symbol: 'LIFECYCLES' },
		{ file: 'transport.ts', symbol: 'exchange' },
		{ file: 'record/moneyClasses.ts', symbol: 'MONEY_CLASSES' },
		{ file: 'apiErrors.ts', symbol: 'markInDoubt' },
	]);
	expect(defines('nodes/CryptoSettlement/fields/rules.ts', 'LIFECYCLES')).toBe(false);
	expect(defines('nodes/service/catalog.ts', 'LIFECYCLES')).toBe(true);
	expect(defines('nodes/CryptoSettlement/record/record.ts', 'moneyWith')).toBe(true);
});
