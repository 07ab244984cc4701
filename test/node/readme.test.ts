/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
/** The README's Operations table is the node's own list: a test fails when the two drift apart. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RESOURCES } from '../../nodes/CryptoSettlement/resources';

const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
const table = readme.slice(readme.indexOf('## Operations'), readme.indexOf('## Credentials'));
const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Resource') && !line.startsWith('|---'));

const expected = Object.values(RESOURCES).flatMap(({ name, specs }) =>
	Object.entries(specs).map(([value, spec]) => ({ resource: name, operation: `${spec.option.name} (\`${value}\`)`, request: `${spec.method} ${spec.path}` })),
);

test('every operation of the node has its row, with its name, value, method and path', () => {
	for (const { resource, operation, request } of expected) {
		const row = rows.find((line) => line.startsWith(`| ${resource} | ${operation}`));
		expect({ operation: `${resource} → ${operation}`, row: row !== undefined }).toEqual({ operation: `${resource} → ${operation}`, row: true });
		expect(row).toContain(`\`${request}`);
	}
});

test('the table lists nothing the node does not have', () => {
	expect(rows).toHaveLength(expected.length);
});
