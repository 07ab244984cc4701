/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Docs that cannot drift (issue 37): every list the records own is a generated section
 * (tooling/docs.cjs, `npm run docs`), and no doc or example workflow names an event, a status or an
 * operation the records do not have.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LIFECYCLES, statusesWithEvents } from '../../nodes/CryptoSettlement/helpers/catalog';
import { RESOURCES } from '../../nodes/CryptoSettlement/resources';
import { EVENT_OPTIONS } from '../../nodes/CryptoSettlementTrigger/events';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the generator is a CommonJS tool
const docs = require('../../tooling/docs.cjs') as {
	FILES: string[];
	ROOT: string;
	regenerate: (text: string) => string;
	sectionsOf: (text: string) => Array<{ name: string; text: string }>;
};

const read = (file: string) => fs.readFileSync(path.join(docs.ROOT, file), 'utf8');
const WORKFLOWS = fs.readdirSync(path.join(docs.ROOT, 'e2e', 'workflows')).map((file) => `e2e/workflows/${file}`);

test.each(docs.FILES)('%s: its generated sections are as the records say (npm run docs)', (file) => {
	const text = read(file);
	expect(docs.regenerate(text)).toBe(text);
});

test('the statuses, events and kinds are each generated somewhere the docs link to', () => {
	const names = docs.FILES.flatMap((file) => docs.sectionsOf(read(file)).map((section) => section.name));
	expect(new Set(names)).toEqual(new Set(['statuses', 'events', 'kinds']));
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
