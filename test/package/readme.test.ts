/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The README's Operations table and its table of what each class of operation may do to money
 * are generated sections (tooling/docs.cjs through tooling/operations-table.cjs; docs.test.ts
 * checks them against the records): the Operations table holds every operation, once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the generator is a CommonJS tool
const { ROOT, sectionsOf } = require('../../tooling/docs.cjs') as {
	ROOT: string;
	sectionsOf: (text: string) => Array<{ name: string; text: string }>;
};

test('the README has one Operations table, with a row per operation', () => {
	const tables = sectionsOf(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).filter(
		(section) => section.name === 'operations',
	);
	expect(tables).toHaveLength(1);
	const rows = tables[0].text.split('\n').slice(2);
	expect(rows).toHaveLength(
		Object.values(RESOURCES).reduce((count, { specs }) => count + Object.keys(specs).length, 0),
	);
});
