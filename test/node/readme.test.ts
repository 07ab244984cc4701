/**
 * The README's Operations table and its table of what each class of operation may do to money
 * are generated from the node's operation records (tooling/operations-table.cjs): this fails when
 * they drift apart.
 */
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { classesTable, operationsTable, readmeTable } = require('../../tooling/operations-table.cjs') as {
	classesTable: (resources: typeof RESOURCES) => string;
	operationsTable: (resources: typeof RESOURCES) => string;
	readmeTable: (text?: string, block?: 'operations' | 'classes') => string;
};

test('the README lists every operation with its request, fields and source, as the records say (node tooling/operations-table.cjs --write)', () => {
	expect(readmeTable()).toBe(operationsTable(RESOURCES));
});

test('the table has a row per operation', () => {
	const rows = readmeTable().split('\n').slice(2);
	expect(rows).toHaveLength(Object.values(RESOURCES).reduce((count, { specs }) => count + Object.keys(specs).length, 0));
});

test("the README's Guardrails section classes every operation as its record does (node tooling/operations-table.cjs --write)", () => {
	expect(readmeTable(undefined, 'classes')).toBe(classesTable(RESOURCES));
});
