/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Docs that cannot drift (issue 37): every list the records own is a generated section
 * (tooling/docs.cjs, `npm run docs`), and no doc or example workflow names an event, a status or an
 * operation the records do not have.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as catalog from '../../nodes/service/catalog';
import { LIFECYCLES, TOKENS } from '../../nodes/service/catalog';
import { MONEY_CLASSES } from '../../nodes/CryptoSettlement/record/moneyClasses';
import * as resources from '../../nodes/CryptoSettlement/operations';
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';
import * as events from '../../nodes/events/events';
import { POLL_EVENT_OPTIONS } from '../../nodes/events/events';
import * as statementLines from '../../nodes/CryptoSettlement/statement/lines';
import * as statementMatch from '../../nodes/CryptoSettlement/statement/match';
import * as statementSummary from '../../nodes/CryptoSettlement/statement/summary';
import * as moneyClasses from '../../nodes/CryptoSettlement/record/moneyClasses';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the generator is a CommonJS tool
const docs = require('../../tooling/docs.cjs') as {
	FILES: string[];
	ROOT: string;
	regenerate: (text: string, load?: (file: string) => unknown) => string;
	routeFiles: (
		dir: string,
		load: (file: string) => Record<string, unknown>,
	) => Record<string, unknown>;
	sectionsOf: (text: string) => Array<{ name: string; text: string }>;
};

/** The generators' modules from the TypeScript sources, so a change fails here before any build. */
const SOURCES: Record<string, unknown> = {
	'service/catalog': catalog,
	'CryptoSettlement/operations/index': resources,
	'events/events': events,
	'CryptoSettlement/statement/lines': statementLines,
	'CryptoSettlement/statement/match': statementMatch,
	'CryptoSettlement/statement/summary': statementSummary,
	'CryptoSettlement/record/moneyClasses': moneyClasses,
};
const fromSources = (file: string) => {
	if (file === 'fake-api/routes')
		return docs.routeFiles(path.join(docs.ROOT, 'fake-api', 'src', 'routes'), require);
	if (!(file in SOURCES)) throw new Error(`tooling/docs.cjs reads ${file}: add it to SOURCES`);
	return SOURCES[file];
};

const read = (file: string) => fs.readFileSync(path.join(docs.ROOT, file), 'utf8');
const WORKFLOWS = fs
	.readdirSync(path.join(docs.ROOT, 'e2e', 'workflows'))
	.map((file) => `e2e/workflows/${file}`);
const SECTIONS = docs.FILES.flatMap((file) =>
	docs.sectionsOf(read(file)).map((section) => ({ file, ...section })),
);

test.each(docs.FILES)(
	'%s: its generated sections are as the records say (npm run docs)',
	(file) => {
		const text = read(file);
		expect(docs.regenerate(text, fromSources)).toBe(text);
	},
);

test('the statuses, events, kinds, operations and money classes, and the lists of statuses in prose, are each generated somewhere the docs link to', () => {
	expect(new Set(SECTIONS.map((section) => section.name))).toEqual(
		new Set([
			'statuses',
			'refunded',
			'open',
			'lifecycles',
			'recordsonly',
			'events',
			'kinds',
			'unconfirmed',
			'currencynamed',
			'recordasked',
			'linekinds',
			'matchresults',
			'notlisted',
			'operations',
			'moneyclasses',
			'fakeapi',
		]),
	);
});

const markdownIn = (dir: string) =>
	fs
		.readdirSync(path.join(docs.ROOT, dir))
		.filter((file) => file.endsWith('.md'))
		.map((file) => path.posix.join(dir, file));
const PAGES = [
	'README.md',
	...markdownIn('docs'),
	...markdownIn('templates'),
	...markdownIn('fake-api'),
];

test.each(PAGES)('%s: generated text has one syntax, and npm run docs rewrites it', (page) => {
	// Any other marker (an `operations:start` … `operations:end` pair, say) would need a generator of
	// its own, and a page outside docs.FILES would never be regenerated. Code spans only show markers.
	const comments = [
		...read(page)
			.replace(/`[^`\n]*`/g, '')
			.matchAll(/<!--[\s\S]*?-->/g),
	].map(([comment]) => comment);
	expect(comments.filter((comment) => !/^<!-- \/?generated:[a-z]+ -->$/.test(comment))).toEqual([]);
	if (comments.length) expect(docs.FILES).toContain(page);
});

const STATUSES = Object.entries(LIFECYCLES).flatMap(([kind, statuses]) =>
	Object.keys(statuses).map((status) => ({ kind, status })),
);

test.each(STATUSES)(
	'the $kind status $status is in every statuses table and every life cycle the docs show',
	({ kind, status }) => {
		for (const section of SECTIONS.filter(({ name }) => name === 'statuses'))
			expect(section.text).toContain(`| ${kind} | \`${status}\` |`);
		for (const section of SECTIONS.filter(({ name }) => name === 'lifecycles')) {
			const life = section.text.split('; ').find((part) => part.startsWith(`a ${kind} goes `));
			expect(life).toContain(`\`${status}\``);
		}
	},
);

test.each([...docs.FILES, 'docs/e2e.md'])(
	'%s lists statuses only in generated sections, never by hand',
	(file) => {
		// Two statuses joined by an arrow, a comma, a slash or a bar are a list a new status would leave
		// stale; "`pending` or `flagged`" in an example is not one.
		const names = [...new Set(STATUSES.map(({ status }) => status))].join('|');
		const list = new RegExp(
			`\`(?:${names})\`(?:\\s*(?:→|,|/|\\||\\(→|\\)?\\s*→)\\s*\`(?:${names})\`)+`,
			'g',
		);
		const prose = read(file).replace(
			/<!-- generated:([a-z]+) -->[\s\S]*?<!-- \/generated:\1 -->/g,
			'',
		);
		expect([...prose.matchAll(list)].map((match) => match[0])).toEqual([]);
	},
);

// ---- lists by hand in the package's strings and code, and in the templates --------------------

/** The names a table owns, by what they are, with the one file that defines (and may list) them. */
const OWNED = [
	{
		what: 'statuses',
		names: [...new Set(STATUSES.map(({ status }) => status))],
		file: 'nodes/service/catalog.ts',
	},
	{ what: 'tokens', names: [...TOKENS] as string[], file: 'nodes/service/catalog.ts' },
	{
		what: 'money classes',
		names: Object.keys(MONEY_CLASSES),
		file: 'nodes/CryptoSettlement/record/moneyClasses.ts',
	},
];

/**
 * Two or more of the names as a list in a sentence ("pending or processing", "USDT, USDC or BTC",
 * "**rejected**, `reversed` or 'cancelled'"), which a name the table gains would leave stale.
 */
const listIn = (names: string[]) => {
	const name = `(?<![\\w-])[*\`'"]*(?:${names.join('|')})[*\`'"]*(?![\\w-])`;
	return new RegExp(`${name}(?:\\s*(?:,|/|\\||→|,?\\s+(?:or|and|nor))\\s*${name})+`, 'g');
};
const namesOf = (list: string, names: string[]) =>
	list.match(new RegExp(`(?<![\\w-])(?:${names.join('|')})(?![\\w-])`, 'g')) ?? [];

function sourcesUnder(dir: string): string[] {
	return fs.readdirSync(path.join(docs.ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const file = `${dir}/${entry.name}`;
		return entry.isDirectory() ? sourcesUnder(file) : file.endsWith('.ts') ? [file] : [];
	});
}
const PACKAGE_SOURCES = [...sourcesUnder('nodes'), ...sourcesUnder('credentials')];

/** The lists by hand in a source: in its strings' text, and as code (an array, a union type, a chain of || or &&). */
function handListsIn(file: string, text = read(file)): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const where = (node: ts.Node) =>
		`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
	const literal = (node: ts.Node) =>
		ts.isStringLiteral(node)
			? node.text
			: ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)
				? node.literal.text
				: undefined;
	const isChain = (node: ts.Node): node is ts.BinaryExpression =>
		ts.isBinaryExpression(node) &&
		[ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken].includes(
			node.operatorToken.kind,
		);
	const literalsUnder = (node: ts.Node): string[] => [
		...(ts.isStringLiteral(node) ? [node.text] : []),
		...node.getChildren(source).flatMap(literalsUnder),
	];
	const visit = (node: ts.Node) => {
		const strings =
			ts.isStringLiteral(node) ||
			ts.isNoSubstitutionTemplateLiteral(node) ||
			ts.isTemplateLiteralToken(node)
				? [node.text]
				: [];
		const code = ts.isArrayLiteralExpression(node)
			? node.elements.map(literal)
			: ts.isUnionTypeNode(node)
				? node.types.map(literal)
				: isChain(node) &&
					  !(isChain(node.parent) && node.parent.operatorToken.kind === node.operatorToken.kind)
					? literalsUnder(node)
					: [];
		for (const { what, names, file: owner } of OWNED) {
			for (const text of strings)
				for (const [list] of text.matchAll(listIn(names)))
					found.push(`${where(node)} lists ${what} in a string: "${list}"`);
			const listed = code.filter((value) => value !== undefined && names.includes(value));
			if (file !== owner && listed.length > 1)
				found.push(`${where(node)} lists ${what} in code: ${listed.join(', ')}`);
		}
		// A decision by a class's name rather than by its column in MONEY_CLASSES.
		if (
			ts.isBinaryExpression(node) &&
			[ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(
				node.operatorToken.kind,
			)
		) {
			const [value, other] = ts.isStringLiteral(node.right)
				? [node.right.text, node.left]
				: ts.isStringLiteral(node.left)
					? [node.left.text, node.right]
					: [];
			if (
				value !== undefined &&
				other &&
				/\bmoney$/.test(other.getText(source)) &&
				value in MONEY_CLASSES
			)
				found.push(`${where(node)} decides by the money class '${value}' by name`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

test.each(PACKAGE_SOURCES)(
	'%s lists no statuses, tokens or money classes by hand, in its strings or its code',
	(file) => {
		expect(handListsIn(file)).toEqual([]);
	},
);

test('the check of the sources sees a list by hand in a string, in code and a decision by a class name', () => {
	const sample = [
		"const a = 'A withdrawal pending or processing';",
		"const b = `Send USDT, USDC or ${'BTC'}`;",
		"const c = ['rejected', 'reversed'];",
		"type D = 'USDT' | 'USDC';",
		"const e = (token: string) => token === 'USDT' || token === 'USDC';",
		"const f = (spec: { money: string }) => spec.money === 'destination';",
		"const g = 'pending'; const h = 'a pending withdrawal or a completed deposit'; const i = 'USDT on TRC20';",
	].join('\n');
	expect(handListsIn('nodes/sample.ts', sample)).toEqual([
		'nodes/sample.ts:1 lists statuses in a string: "pending or processing"',
		'nodes/sample.ts:2 lists tokens in a string: "USDT, USDC"',
		'nodes/sample.ts:3 lists statuses in code: rejected, reversed',
		'nodes/sample.ts:4 lists tokens in code: USDT, USDC',
		'nodes/sample.ts:5 lists tokens in code: USDT, USDC',
		"nodes/sample.ts:6 decides by the money class 'destination' by name",
	]);
});

/**
 * The templates cannot import the records, so a list of statuses there is one the records derive
 * (in the table's order), checked here: a status the table gains or moves fails the template.
 */
const DERIVED_LISTS = Object.entries(LIFECYCLES).flatMap(([kind, statuses]) => {
	const where = (keep: (entry: { open: boolean; refunded?: boolean }) => boolean) =>
		Object.entries(statuses as Record<string, { open: boolean; refunded?: boolean }>)
			.filter(([, entry]) => keep(entry))
			.map(([status]) => status);
	return [
		{ name: `every ${kind} status`, statuses: Object.keys(statuses) },
		{ name: `the open ${kind} statuses`, statuses: where((entry) => entry.open) },
		{ name: `the refunded ${kind} statuses`, statuses: where((entry) => entry.refunded === true) },
	].filter((list) => list.statuses.length > 1);
});
const TEMPLATES = fs
	.readdirSync(path.join(docs.ROOT, 'templates'))
	.filter((file) => /\.(json|md)$/.test(file))
	.map((file) => `templates/${file}`);

/** Every string of a template: a workflow's notes, expressions and code, or a README whole. */
function textsOf(file: string): string[] {
	const strings = (value: unknown): string[] =>
		typeof value === 'string'
			? [value]
			: value && typeof value === 'object'
				? Object.values(value).flatMap(strings)
				: [];
	return file.endsWith('.json') ? strings(JSON.parse(read(file))) : [read(file)];
}

/** The lists of statuses or tokens in a template's texts that no record derives. */
function templateHandLists(texts: string[]): string[] {
	const [statuses, tokens] = OWNED;
	const derived = new Set([
		...DERIVED_LISTS.map((list) => list.statuses.join(',')),
		[...TOKENS].join(','),
	]);
	return texts.flatMap((text) =>
		[statuses, tokens].flatMap(({ names }) =>
			[...text.matchAll(listIn(names))]
				.map(([list]) => list)
				.filter((list) => !derived.has(namesOf(list, names).join(','))),
		),
	);
}

test.each(TEMPLATES)('%s lists statuses and tokens only as the records derive them', (file) => {
	expect(templateHandLists(textsOf(file))).toEqual([]);
});

test('the check of the templates sees a list of statuses the records do not derive', () => {
	const refunded =
		DERIVED_LISTS.find((list) => list.name === 'the refunded withdrawal statuses')?.statuses ?? [];
	expect(refunded.length).toBeGreaterThan(1);
	const asWritten = `${refunded.slice(0, -1).join(', ')} or ${refunded[refunded.length - 1]}`;
	expect(
		templateHandLists([
			`**refunded** (${asWritten})`,
			"['pending', 'processing'].includes(status)",
		]),
	).toEqual([]);
	expect(
		templateHandLists([
			`refunded (${refunded.slice(1).join(' or ')})`,
			"['pending', 'completed']",
			'USDT or USDC',
		]),
	).toEqual([refunded.slice(1).join(' or '), "'pending', 'completed'", 'USDT or USDC']);
});

/** Event names the docs use on purpose as ones the service does not send (All Events passes them). */
const NOT_THE_SERVICES = ['trade.deleted'];
const EVENTS = new Set(POLL_EVENT_OPTIONS.map((option) => String(option.value)));

test.each([...docs.FILES, 'docs/e2e.md', ...WORKFLOWS])(
	'%s names only events the records have',
	(file) => {
		const named = [...read(file).matchAll(/\b((?:trade|withdrawal)\.[a-z]+(?:\.[a-z]+)*)\b/g)].map(
			(match) => match[1],
		);
		const unknown = named.filter(
			(event) =>
				!EVENTS.has(event) &&
				!NOT_THE_SERVICES.includes(event) &&
				!/\.(ts|js|json|md)$/.test(event),
		);
		expect(unknown).toEqual([]);
	},
);

test.each(WORKFLOWS)('%s: its operations and status filters are ones the records have', (file) => {
	const workflow = JSON.parse(read(file)) as {
		nodes: Array<{ type: string; parameters: Record<string, unknown> }>;
	};
	for (const node of workflow.nodes.filter((candidate) =>
		candidate.type.endsWith('.cryptoSettlement'),
	)) {
		const { resource, operation } = node.parameters as { resource?: string; operation?: string };
		if (resource === undefined || operation === undefined) continue;
		expect(Object.keys(RESOURCES[resource]?.specs ?? {})).toContain(operation);
		const status = (node.parameters.filters as { status?: unknown } | undefined)?.status;
		const kind = resource === 'withdrawal' ? 'withdrawal' : 'trade';
		if (typeof status === 'string' && !status.startsWith('='))
			expect(Object.keys(LIFECYCLES[kind])).toContain(status);
	}
});

test("the poll trigger example's final withdrawals are every final withdrawal status with an event", () => {
	const workflow = JSON.parse(read('e2e/workflows/poll-trigger.json')) as {
		nodes: Array<{ parameters: { events?: string[] } }>;
	};
	const events = workflow.nodes
		.flatMap((node) => node.parameters.events ?? [])
		.filter((event) => event.startsWith('withdrawal.'));
	const final = Object.entries(LIFECYCLES.withdrawal)
		.filter(([, status]) => !status.open && 'event' in status)
		.map(([status]) => `withdrawal.${status}`);
	expect(events.sort()).toEqual(final.sort());
});
