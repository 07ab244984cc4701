#!/usr/bin/env node
// Every list in the docs that the records own is a generated section, so a doc cannot drift from
// the code: the statuses and their events (service/catalog.ts, LIFECYCLES) and what prose says of
// them (which are refunded, which still open, the life cycles), the triggers' Events options
// (events/events.ts), and the README's Operations and money classes tables
// (tooling/operations-table.cjs). test/package/docs.test.ts fails when a section is stale (it renders
// them from the TypeScript sources, so no build is needed for it to see a change).
//   npm run docs                        rebuild, then rewrite every stale section (or say "unchanged")
//   node tooling/docs.cjs [--write]     print (or rewrite) them from dist/ (needs `npm run build`)
// A section is the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`, the one
// syntax of generated text in the docs: on lines of its own for a table, or inline within a sentence
// or a table cell (a section that holds no line break stays on one line, so a generated list can sit
// inside the prose a person reads).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const { classesTable, operationsTable } = require('./operations-table.cjs');

const ROOT = path.join(__dirname, '..');
/** The files that hold generated sections. */
const FILES = [
	'README.md',
	'docs/usage.md',
	'docs/guardrails.md',
	'docs/architecture.md',
	'docs/trigger.md',
	'docs/fake-api.md',
	'docs/api.md',
	'docs/statement.md',
	'fake-api/README.md',
];

/** The fake API's route files (fake-api/src/routes/<file>.ts, each exporting `<file>Routes`), by file. */
function routeFiles(dir, load) {
	const files = fs.readdirSync(dir).map((file) => file.replace(/\.(js|ts)$/, ''));
	return Object.fromEntries(
		files
			.map((file) => [file, load(path.join(dir, file))[`${file}Routes`]])
			.filter(([, routes]) => routes),
	);
}

const dist = (file) =>
	file === 'fake-api/routes'
		? routeFiles(path.join(ROOT, 'fake-api', '.build', 'fake-api', 'src', 'routes'), require)
		: require(path.join(ROOT, 'dist', 'nodes', `${file}.js`));

/** One row per record status: where it stands, whether it can change, and its event. */
function statusesTable({ LIFECYCLES }) {
	const rows = [
		'| Record | Status | Can still change | Held by a check | Money went back | Event the service sends on entering it |',
		'|---|---|---|---|---|---|',
	];
	for (const [kind, statuses] of Object.entries(LIFECYCLES)) {
		for (const [status, entry] of Object.entries(statuses)) {
			const event = entry.event
				? `\`${kind}.${status}\`: ${entry.event}`
				: 'none (seen in records only)';
			rows.push(
				`| ${kind} | \`${status}\` | ${entry.open ? 'yes' : 'no'} | ${entry.held ? 'yes' : 'no'} | ${entry.refunded ? 'yes' : 'no'} | ${event} |`,
			);
		}
	}
	return rows.join('\n');
}

/**
 * The Events options of both triggers, as the editor lists them: the poll trigger's (every status
 * change), and whether the webhook trigger offers it too (the events the service sends).
 */
function eventsTable({ EVENT_OPTIONS, POLL_EVENT_OPTIONS }) {
	const webhook = new Set(EVENT_OPTIONS.map((option) => option.value));
	const rows = [
		'| Option | Value | When | Webhook trigger | Poll trigger |',
		'|---|---|---|---|---|',
	];
	for (const option of POLL_EVENT_OPTIONS)
		rows.push(
			`| ${option.name} | \`${option.value}\` | ${option.description} | ${webhook.has(option.value) ? 'yes' : 'no'} | yes |`,
		);
	return rows.join('\n');
}

/** The operations of each kind, for prose that says which operations are never repeated. */
function kindsTable({ RESOURCES }) {
	const byKind = new Map();
	for (const { name, specs } of Object.values(RESOURCES)) {
		for (const spec of Object.values(specs)) {
			if (!byKind.has(spec.kind)) byKind.set(spec.kind, []);
			byKind.get(spec.kind).push(`${name} → ${spec.option.name}`);
		}
	}
	const rows = ['| kind | operations |', '|---|---|'];
	for (const [kind, operations] of byKind) rows.push(`| \`${kind}\` | ${operations.join(', ')} |`);
	return rows.join('\n');
}

const code = (names) => names.map((name) => `\`${name}\``).join(', ');
/** A kind's statuses whose entry passes a test, in the table's order. */
const statusesWhere = (statuses, test) =>
	Object.keys(statuses).filter((status) => test(statuses[status]));

/** Inline: the withdrawal statuses whose money went back. */
function refundedList({ LIFECYCLES }) {
	return code(statusesWhere(LIFECYCLES.withdrawal, (entry) => entry.refunded));
}

/** Inline: the statuses of records that can still change, per record. */
function openList({ LIFECYCLES }) {
	return Object.entries(LIFECYCLES)
		.map(([kind, statuses]) => `${kind}s ${code(statusesWhere(statuses, (entry) => entry.open))}`)
		.join('; ');
}

/** Inline: each record's life in rank order; statuses of one rank exclude each other. */
function lifecyclesList({ LIFECYCLES }) {
	return Object.entries(LIFECYCLES)
		.map(([kind, statuses]) => {
			const ranks = [...new Set(Object.values(statuses).map((entry) => entry.rank))].sort(
				(a, b) => a - b,
			);
			const steps = ranks.map((rank) => {
				const names = statusesWhere(statuses, (entry) => entry.rank === rank);
				return names.length === 1 ? code(names) : `one of ${code(names)}`;
			});
			return `a ${kind} goes ${steps.join(' → ')}`;
		})
		.join('; ');
}

/** Inline: the statuses seen in records only (the service documents no event for them). */
function recordsOnlyList({ LIFECYCLES }) {
	return Object.entries(LIFECYCLES)
		.map(([kind, statuses]) => [kind, statusesWhere(statuses, (entry) => !entry.event)])
		.filter(([, names]) => names.length > 0)
		.map(([kind, names]) => `${kind} ${code(names)}`)
		.join('; ');
}

/** A table of names and what each means (a statement's line kinds, Match's results). */
function meaningsTable(header, meanings) {
	const rows = [`| ${header} | What it is |`, '|---|---|'];
	for (const [name, meaning] of Object.entries(meanings)) rows.push(`| \`${name}\` | ${meaning} |`);
	return rows.join('\n');
}

/** What the API does not list, as the statement's summary says it (`notListed`). */
function notListedList({ NOT_LISTED }) {
	return NOT_LISTED.map((text) => `- ${text}`).join('\n');
}

/** Every operation of the records, as the editor names it, with its record. */
const operationsOf = ({ RESOURCES }) =>
	Object.values(RESOURCES).flatMap(({ name, specs }) =>
		Object.values(specs).map((spec) => ({ title: `${name} → ${spec.option.name}`, spec })),
	);

/** Inline: the operations whose path no source confirms (the record's `source` is `unconfirmed`). */
function unconfirmedList(operations) {
	return operationsOf(operations)
		.filter(({ spec }) => spec.source === 'unconfirmed')
		.map(({ title }) => title)
		.join(', ');
}

/**
 * Inline: the operations whose output names each amount's currency beside it, found by what their
 * `output` does to a withdrawal record the service lists without units.
 */
function currencyNamedList(operations) {
	const sample = {
		id: 'w1',
		amount: 20,
		fee: 50,
		payoutAmount: 29950,
		currency: 'ngn',
		status: 'pending',
	};
	return operationsOf(operations)
		.filter(
			({ spec }) =>
				typeof spec.output === 'function' &&
				spec.output({ ...sample }).amountCurrency !== undefined,
		)
		.map(({ title }) => title)
		.join(', ');
}

/** The operations of one record whose answer must be about it (`byId`) and show what was set (`echoes`): docs/usage.md. */
function recordAskedList(operations) {
	return operationsOf(operations)
		.filter(({ spec }) => spec.byId || spec.echoes)
		.map(({ title, spec }) => {
			const also = Object.keys(spec.byId?.alsoShownAs ?? {}).filter(
				(field) => field !== spec.byId.param,
			);
			const notes = [
				also?.length ? `also by its ${also.join(', ')}` : '',
				spec.echoes ? `shows ${Object.keys(spec.echoes).join(', ')} back` : '',
			].filter(Boolean);
			return notes.length ? `${title} (${notes.join('; ')})` : title;
		})
		.join(', ');
}

/**
 * The fake API's Endpoints table (fake-api/README.md): each route file's routes, and the operations
 * whose request (or External ID lookup) is that route, so a new route is documented by `npm run docs`.
 */
function fakeApiTable(files, { RESOURCES }) {
	const users = {};
	for (const { name, specs } of Object.values(RESOURCES)) {
		for (const spec of Object.values(specs)) {
			const sent =
				spec.kind === 'report'
					? spec.reads.map((route) => [route, ' (reads)'])
					: [[`${spec.method} ${spec.path}`, '']];
			if (spec.lookupPath) sent.push([`GET ${spec.lookupPath}`, ' (lookup)']);
			for (const [route, how] of sent)
				(users[route] ??= []).push(`${name} → ${spec.option.name}${how}`);
		}
	}
	const rows = [
		'| file (`src/routes/`) | endpoint | access | node operations |',
		'|---|---|---|---|',
	];
	for (const [file, routes] of Object.entries(files)) {
		for (const route of routes) {
			const access = {
				public: 'public, no credentials',
				credentials: 'credentials',
				vip: 'credentials (VIP)',
			}[route.access];
			const limited = route.limit ? ', rate-limited' : '';
			rows.push(
				`| \`${file}.ts\` | \`${route.method} ${route.template}\` | ${access}${limited} | ${(users[`${route.method} ${route.template}`] ?? ['—']).join(', ')} |`,
			);
		}
	}
	return rows.join('\n');
}

/** Each generator renders from the modules `load` gives (dist/ by default; the test passes the sources). */
const GENERATORS = {
	statuses: (load) => statusesTable(load('service/catalog')),
	refunded: (load) => refundedList(load('service/catalog')),
	open: (load) => openList(load('service/catalog')),
	lifecycles: (load) => lifecyclesList(load('service/catalog')),
	recordsonly: (load) => recordsOnlyList(load('service/catalog')),
	events: (load) => eventsTable(load('events/events')),
	kinds: (load) => kindsTable(load('CryptoSettlement/operations/index')),
	unconfirmed: (load) => unconfirmedList(load('CryptoSettlement/operations/index')),
	currencynamed: (load) => currencyNamedList(load('CryptoSettlement/operations/index')),
	recordasked: (load) => recordAskedList(load('CryptoSettlement/operations/index')),
	linekinds: (load) => meaningsTable('kind', load('CryptoSettlement/statement/lines').LINE_KINDS),
	matchresults: (load) =>
		meaningsTable('match', load('CryptoSettlement/statement/match').MATCH_RESULTS),
	notlisted: (load) => notListedList(load('CryptoSettlement/statement/summary')),
	operations: (load) =>
		operationsTable(
			load('CryptoSettlement/operations/index').RESOURCES,
			load('CryptoSettlement/record/moneyClasses').MONEY_CLASSES,
		),
	fakeapi: (load) =>
		fakeApiTable(load('fake-api/routes'), load('CryptoSettlement/operations/index')),
	moneyclasses: (load) =>
		classesTable(
			load('CryptoSettlement/operations/index').RESOURCES,
			load('CryptoSettlement/record/moneyClasses').MONEY_CLASSES,
		),
};

const SECTION = /(<!-- generated:([a-z]+) -->)([\s\S]*?)(<!-- \/generated:\2 -->)/g;

/** Every generated section of a text: its name and what it holds now. */
function sectionsOf(text) {
	return [...text.matchAll(SECTION)].map((match) => ({ name: match[2], text: match[3].trim() }));
}

/** The text with every section rewritten from the records (read through `load`). */
function regenerate(text, load = dist) {
	return text.replace(SECTION, (_all, open, name, old, close, offset) => {
		if (!GENERATORS[name])
			throw new Error(
				`unknown generated section "${name}" (known: ${Object.keys(GENERATORS).join(', ')})`,
			);
		const next = GENERATORS[name](load);
		if (old.includes('\n')) return `${open}\n${next}\n${close}`;
		if (next.includes('\n'))
			throw new Error(
				`generated section "${name}" spans lines: put its markers on lines of their own`,
			);
		// A comment that starts a line ends the paragraph around it in Markdown: keep text before it.
		if (/^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset)))
			throw new Error(`inline section "${name}" starts a line: keep it within the sentence`);
		return `${open}${next}${close}`;
	});
}

module.exports = { FILES, GENERATORS, ROOT, regenerate, routeFiles, sectionsOf };

if (require.main === module) {
	const write = process.argv.includes('--write');
	const rewritten = [];
	for (const file of FILES) {
		const full = path.join(ROOT, file);
		const text = fs.readFileSync(full, 'utf8');
		const next = regenerate(text);
		if (!write) {
			for (const section of sectionsOf(next))
				console.log(`${file} (${section.name}):\n${section.text}\n`);
		} else if (next !== text) {
			fs.writeFileSync(full, next);
			rewritten.push(file);
			const stale = sectionsOf(text).filter(
				(section, i) => section.text !== sectionsOf(next)[i].text,
			);
			console.log(`${file}: rewritten (${stale.map((section) => section.name).join(', ')})`);
		}
	}
	if (write && !rewritten.length)
		console.log(
			`docs: unchanged (every generated section of ${FILES.length} files is as the records say)`,
		);
}
