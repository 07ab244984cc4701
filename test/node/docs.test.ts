/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Docs that cannot drift (issue 37): every list the records own is a generated section
 * (tooling/docs.cjs, `npm run docs`), and no doc or example workflow names an event, a status or an
 * operation the records do not have.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as catalog from '../../nodes/service/catalog';
import { LIFECYCLES, statusesWithEvents } from '../../nodes/service/catalog';
import * as resources from '../../nodes/CryptoSettlement/operations';
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';
import * as events from '../../nodes/events/events';
import { EVENT_OPTIONS } from '../../nodes/events/events';
import * as statementLines from '../../nodes/CryptoSettlement/statement/lines';
import * as statementMatch from '../../nodes/CryptoSettlement/statement/match';
import * as statementSummary from '../../nodes/CryptoSettlement/statement/summary';
import * as moneyClasses from '../../nodes/CryptoSettlement/record/moneyClasses';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the generator is a CommonJS tool
const docs = require('../../tooling/docs.cjs') as {
	FILES: string[];
	ROOT: string;
	regenerate: (text: string, load?: (file: string) => unknown) => string;
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
	if (!(file in SOURCES)) throw new Error(`tooling/docs.cjs reads ${file}: add it to SOURCES`);
	return SOURCES[file];
};

const read = (file: string) => fs.readFileSync(path.join(docs.ROOT, file), 'utf8');
const WORKFLOWS = fs.readdirSync(path.join(docs.ROOT, 'e2e', 'workflows')).map((file) => `e2e/workflows/${file}`);
const SECTIONS = docs.FILES.flatMap((file) => docs.sectionsOf(read(file)).map((section) => ({ file, ...section })));

test.each(docs.FILES)('%s: its generated sections are as the records say (npm run docs)', (file) => {
	const text = read(file);
	expect(docs.regenerate(text, fromSources)).toBe(text);
});

test('the statuses, events, kinds, operations and money classes, and the lists of statuses in prose, are each generated somewhere the docs link to', () => {
	expect(new Set(SECTIONS.map((section) => section.name))).toEqual(new Set(['statuses', 'refunded', 'open', 'lifecycles', 'recordsonly', 'events', 'kinds', 'unconfirmed', 'currencynamed', 'linekinds', 'matchresults', 'notlisted', 'operations', 'moneyclasses']));
});

const markdownIn = (dir: string) => fs.readdirSync(path.join(docs.ROOT, dir)).filter((file) => file.endsWith('.md')).map((file) => path.posix.join(dir, file));
const PAGES = ['README.md', ...markdownIn('docs'), ...markdownIn('templates'), ...markdownIn('fake-api')];

test.each(PAGES)('%s: generated text has one syntax, and npm run docs rewrites it', (page) => {
	// Any other marker (an `operations:start` … `operations:end` pair, say) would need a generator of
	// its own, and a page outside docs.FILES would never be regenerated. Code spans only show markers.
	const comments = [...read(page).replace(/`[^`\n]*`/g, '').matchAll(/<!--[\s\S]*?-->/g)].map(([comment]) => comment);
	expect(comments.filter((comment) => !/^<!-- \/?generated:[a-z]+ -->$/.test(comment))).toEqual([]);
	if (comments.length) expect(docs.FILES).toContain(page);
});

const STATUSES = Object.entries(LIFECYCLES).flatMap(([kind, statuses]) => Object.keys(statuses).map((status) => ({ kind, status })));

test.each(STATUSES)('the $kind status $status is in every statuses table and every life cycle the docs show', ({ kind, status }) => {
	for (const section of SECTIONS.filter(({ name }) => name === 'statuses')) expect(section.text).toContain(`| ${kind} | \`${status}\` |`);
	for (const section of SECTIONS.filter(({ name }) => name === 'lifecycles')) {
		const life = section.text.split('; ').find((part) => part.startsWith(`a ${kind} goes `));
		expect(life).toContain(`\`${status}\``);
	}
});

test.each([...docs.FILES, 'docs/e2e.md'])('%s lists statuses only in generated sections, never by hand', (file) => {
	// Two statuses joined by an arrow, a comma, a slash or a bar are a list a new status would leave
	// stale; "`pending` or `flagged`" in an example is not one.
	const names = [...new Set(STATUSES.map(({ status }) => status))].join('|');
	const list = new RegExp(`\`(?:${names})\`(?:\\s*(?:→|,|/|\\||\\(→|\\)?\\s*→)\\s*\`(?:${names})\`)+`, 'g');
	const prose = read(file).replace(/<!-- generated:([a-z]+) -->[\s\S]*?<!-- \/generated:\1 -->/g, '');
	expect([...prose.matchAll(list)].map((match) => match[0])).toEqual([]);
});

/** Event names the docs use on purpose as ones the service does not send (All Events passes them). */
const NOT_THE_SERVICES = ['trade.deleted'];
const EVENTS = new Set(EVENT_OPTIONS.map((option) => String(option.value)));

test.each([...docs.FILES, 'docs/e2e.md', ...WORKFLOWS])('%s names only events the records have', (file) => {
	const named = [...read(file).matchAll(/\b((?:trade|withdrawal)\.[a-z]+(?:\.[a-z]+)*)\b/g)].map((match) => match[1]);
	const unknown = named.filter((event) => !EVENTS.has(event) && !NOT_THE_SERVICES.includes(event) && !/\.(ts|js|json|md)$/.test(event));
	expect(unknown).toEqual([]);
});

test.each(WORKFLOWS)('%s: its operations and status filters are ones the records have', (file) => {
	const workflow = JSON.parse(read(file)) as { nodes: Array<{ type: string; parameters: Record<string, unknown> }> };
	for (const node of workflow.nodes.filter((candidate) => candidate.type.endsWith('.cryptoSettlement'))) {
		const { resource, operation } = node.parameters as { resource?: string; operation?: string };
		if (resource === undefined || operation === undefined) continue;
		expect(Object.keys(RESOURCES[resource]?.specs ?? {})).toContain(operation);
		const status = (node.parameters.filters as { status?: unknown } | undefined)?.status;
		const kind = resource === 'withdrawal' ? 'withdrawal' : 'trade';
		if (typeof status === 'string' && !status.startsWith('=')) expect(statusesWithEvents(kind)).toContain(status);
	}
});

test("the poll trigger example's final withdrawals are every final withdrawal status with an event", () => {
	const workflow = JSON.parse(read('e2e/workflows/poll-trigger.json')) as { nodes: Array<{ parameters: { events?: string[] } }> };
	const events = workflow.nodes.flatMap((node) => node.parameters.events ?? []).filter((event) => event.startsWith('withdrawal.'));
	const final = Object.entries(LIFECYCLES.withdrawal)
		.filter(([, status]) => !status.open && 'event' in status)
		.map(([status]) => `withdrawal.${status}`);
	expect(events.sort()).toEqual(final.sort());
});
