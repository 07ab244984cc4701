/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
/**
 * Issue 73: the phrasings a finance lead (or a model) types to find this package are one list,
 * e2e/lib/mcp-phrasings.json. The e2e's workflow builder check asks n8n 2.41's instance MCP server
 * (search_nodes) each of them (e2e/lib/builder-checks.mjs); docs/usage.md's table ("Building with an
 * AI assistant") quotes exactly those, row by job, so the docs and the check cannot drift.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Job {
	job: string;
	phrasings: string[];
}
const LIST = (JSON.parse(read('e2e/lib/mcp-phrasings.json')) as { jobs: Job[] }).jobs;

/** The table under "Building with an AI assistant": its rows as { job, phrasings } (the quoted strings of the second column). */
function docsTable(): Job[] {
	const usage = read('docs/usage.md');
	const section = usage.slice(usage.indexOf('## Building with an AI assistant'));
	const body = section.slice(0, section.indexOf('\n## ', 1));
	const table = body.slice(body.indexOf('| the job | what a finance lead says |'));
	const rows = table.split('\n').slice(2);
	const end = rows.findIndex((row) => !row.startsWith('|'));
	return rows.slice(0, end < 0 ? undefined : end).map((row) => {
		const [job, says] = row
			.split('|')
			.slice(1, 3)
			.map((cell) => cell.trim());
		return { job, phrasings: [...says.matchAll(/"([^"]+)"/g)].map((m) => m[1]) };
	});
}

test('docs/usage.md quotes exactly the phrasings of e2e/lib/mcp-phrasings.json, job by job, in its order', () => {
	expect(docsTable()).toEqual(LIST);
});

test('the phrasings are not empty and none is listed twice', () => {
	const all = LIST.flatMap((job) => job.phrasings);
	expect(all.length).toBeGreaterThan(20);
	expect(new Set(all.map((phrasing) => phrasing.toLowerCase())).size).toBe(all.length);
	for (const job of LIST) expect(job.phrasings.length).toBeGreaterThan(0);
});

test('the e2e check reads the same file', () => {
	const check = read('e2e/lib/builder-checks.mjs');
	expect(check).toContain("'mcp-phrasings.json'");
	expect(check).toContain('PHRASINGS.flatMap');
});
