/**
 * The README's Operations table is generated from the node's operation records
 * (tooling/operations-table.cjs): this fails when the two drift apart.
 */
import { RESOURCES } from '../../nodes/CryptoSettlement/resources';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { operationsTable, readmeTable } = require('../../tooling/operations-table.cjs') as {
	operationsTable: (resources: typeof RESOURCES) => string;
	readmeTable: () => string;
};

test('the README lists every operation with its request, fields and source, as the records say (node tooling/operations-table.cjs --write)', () => {
	expect(readmeTable()).toBe(operationsTable(RESOURCES));
});

test('the table has a row per operation', () => {
	const rows = readmeTable().split('\n').slice(2);
	expect(rows).toHaveLength(Object.values(RESOURCES).reduce((count, { specs }) => count + Object.keys(specs).length, 0));
});
