/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads the example workflow files */
/**
 * The example workflows teach what users copy (issue 19): a withdrawal node runs once per item,
 * and its External ID comes from the payment's own ID. The e2e tests run them in real n8n
 * (e2e/run.mjs); these checks keep the unsafe patterns out of the files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { PACKAGE_ROOT } from '../harness';

interface WorkflowNode {
	name: string;
	type: string;
	executeOnce?: boolean;
	onError?: string;
	parameters: IDataObject;
}

const load = (file: string) =>
	JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'e2e', 'workflows', `${file}.json`), 'utf8')) as {
		nodes: WorkflowNode[];
		connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	};

const EXAMPLES = ['tour', 'withdrawals', 'batch-payouts', 'trigger'];
const isWithdrawal = (node: WorkflowNode) =>
	node.type.endsWith('.cryptoSettlement') && ['createCrypto', 'createBank'].includes(String(node.parameters.operation));

describe('the example workflows teach safe patterns', () => {
	test.each(EXAMPLES)('%s: no node uses Execute Once', (file) => {
		expect(load(file).nodes.filter((node) => node.executeOnce).map((node) => node.name)).toEqual([]);
	});

	test.each(EXAMPLES)('%s: every withdrawal maps its External ID from the data, never from the execution or the clock', (file) => {
		for (const node of load(file).nodes.filter(isWithdrawal)) {
			const externalId = String(node.parameters.externalId ?? '');
			expect(externalId).toMatch(/^=\{\{.*\$(json|\(')/);
			expect(externalId).not.toMatch(/\$execution|\$now|\$today|Date|Math\.random/);
		}
	});

	test('the batch example pays one row per item, keeps going past a refused row, and has a row that is refused', () => {
		const workflow = load('batch-payouts');
		const pay = workflow.nodes.find((node) => node.name === 'Pay Each Row') as WorkflowNode;
		expect(pay.parameters).toMatchObject({ operation: 'createCrypto', externalId: '={{ $json.payoutId }}', amount: '={{ $json.amountUsd }}' });
		expect(pay.onError).toBe('continueErrorOutput');
		expect(workflow.connections['Pay Each Row'].main.map((output) => output.map((c) => c.node))).toEqual([['Paid'], ['Refused or Failed']]);
		const rows = JSON.parse(String(workflow.nodes.find((node) => node.name === 'Payout Rows')?.parameters.jsonOutput)).payouts as IDataObject[];
		expect(rows).toHaveLength(3);
		expect(new Set(rows.map((row) => row.payoutId)).size).toBe(3);
		expect(rows.map((row) => row.amountUsd)).toContain('10.125');
	});
});
