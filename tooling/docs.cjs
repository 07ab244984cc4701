#!/usr/bin/env node
// Every list in the docs that the records own is a generated section, so a doc cannot drift from
// the code: the statuses and their events (helpers/catalog.ts, LIFECYCLES), the triggers' Events
// options (CryptoSettlementTrigger/events.ts) and the README's Operations table
// (tooling/operations-table.cjs). test/node/docs.test.ts fails when a section is stale.
//   npm run docs                        rebuild, then rewrite every section
//   node tooling/docs.cjs [--write]     print (or rewrite) them from dist/ (needs `npm run build`)
// A section is the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
/** The files that hold generated sections (the README's Operations table has its own markers). */
const FILES = ['README.md', 'docs/architecture.md', 'docs/trigger.md', 'docs/fake-api.md', 'docs/api.md', 'fake-api/README.md'];

const dist = (file) => require(path.join(ROOT, 'dist', 'nodes', file));

/** One row per record status: where it stands, whether it can change, and its event. */
function statusesTable({ LIFECYCLES }) {
	const rows = ['| Record | Status | Can still change | Money went back | Event the service sends on entering it |', '|---|---|---|---|---|'];
	for (const [kind, statuses] of Object.entries(LIFECYCLES)) {
		for (const [status, entry] of Object.entries(statuses)) {
			const event = entry.event ? `\`${kind}.${status}\`: ${entry.event}` : 'none (seen in records only)';
			rows.push(`| ${kind} | \`${status}\` | ${entry.open ? 'yes' : 'no'} | ${entry.refunded ? 'yes' : 'no'} | ${event} |`);
		}
	}
	return rows.join('\n');
}

/** The Events options both triggers show, as the editor lists them. */
function eventsTable({ EVENT_OPTIONS }) {
	const rows = ['| Option | Value | Sent when |', '|---|---|---|'];
	for (const option of EVENT_OPTIONS) rows.push(`| ${option.name} | \`${option.value}\` | ${option.description} |`);
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

const GENERATORS = {
	statuses: () => statusesTable(dist('CryptoSettlement/helpers/catalog.js')),
	events: () => eventsTable(dist('CryptoSettlementTrigger/events.js')),
	kinds: () => kindsTable(dist('CryptoSettlement/resources/index.js')),
};

const SECTION = /(<!-- generated:([a-z]+) -->)([\s\S]*?)(<!-- \/generated:\2 -->)/g;

/** Every generated section of a text: its name and what it holds now. */
function sectionsOf(text) {
	return [...text.matchAll(SECTION)].map((match) => ({ name: match[2], text: match[3].trim() }));
}

/** The text with every section rewritten from the records. */
function regenerate(text) {
	return text.replace(SECTION, (_all, open, name, _old, close) => {
		if (!GENERATORS[name]) throw new Error(`unknown generated section "${name}" (known: ${Object.keys(GENERATORS).join(', ')})`);
		return `${open}\n${GENERATORS[name]()}\n${close}`;
	});
}

module.exports = { FILES, GENERATORS, ROOT, regenerate, sectionsOf };

if (require.main === module) {
	const write = process.argv.includes('--write');
	for (const file of FILES) {
		const full = path.join(ROOT, file);
		const text = fs.readFileSync(full, 'utf8');
		const next = regenerate(text);
		if (write && next !== text) {
			fs.writeFileSync(full, next);
			console.log(`${file}: generated sections rewritten`);
		} else if (!write) {
			for (const section of sectionsOf(next)) console.log(`${file} (${section.name}):\n${section.text}\n`);
		}
	}
	if (write) require('./operations-table.cjs').writeReadme();
}
