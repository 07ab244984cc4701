/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads the example workflow files */
/**
 * The example workflows teach what users copy (issue 19): a withdrawal node runs once per item,
 * and its External ID comes from the payment's own ID. The e2e tests run them in real n8n
 * (e2e/run.mjs); these checks keep the unsafe patterns out of the files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { PACKAGE_ROOT } from '../helpers';
import { SPECS } from '../../nodes/CryptoSettlement/operations';
import { box, inside, isSticky, overlap } from '../helpers/canvas';

interface WorkflowNode {
	name: string;
	type: string;
	position: [number, number];
	executeOnce?: boolean;
	onError?: string;
	parameters: IDataObject;
}

const load = (file: string) =>
	JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'e2e', 'workflows', `${file}.json`), 'utf8')) as {
		nodes: WorkflowNode[];
		connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	};

const EXAMPLES = ['tour', 'withdrawals', 'batch-payouts', 'trigger', 'poll-trigger', 'statement'];
/** A node of an operation whose record's kind is `withdrawal`. */
const isWithdrawal = (node: WorkflowNode) =>
	node.type.endsWith('.cryptoSettlement') &&
	SPECS[String(node.parameters.resource)]?.[String(node.parameters.operation)]?.kind ===
		'withdrawal';

describe('the example workflows teach safe patterns', () => {
	test.each(EXAMPLES)('%s: no node uses Execute Once', (file) => {
		expect(
			load(file)
				.nodes.filter((node) => node.executeOnce)
				.map((node) => node.name),
		).toEqual([]);
	});

	test.each(EXAMPLES)(
		'%s: every withdrawal maps its External ID from the data, never from the execution or the clock',
		(file) => {
			for (const node of load(file).nodes.filter(isWithdrawal)) {
				const externalId = String(node.parameters.externalId ?? '');
				expect(externalId).toMatch(/^=\{\{.*\$(json|\(')/);
				expect(externalId).not.toMatch(/\$execution|\$now|\$today|Date|Math\.random/);
			}
		},
	);

	test('the batch example pays one row per item, stops on a refused row (no Continue On Fail), has a row that is refused, and a sticky note says so (issue 50)', () => {
		const workflow = load('batch-payouts');
		const pay = workflow.nodes.find((node) => node.name === 'Pay Each Row') as WorkflowNode;
		expect(pay.parameters).toMatchObject({
			operation: 'createCrypto',
			externalId: '={{ $json.payoutId }}',
			amount: '={{ $json.amountUsd }}',
		});
		expect(pay.onError).toBeUndefined();
		expect(
			workflow.connections['Pay Each Row'].main.map((output) => output.map((c) => c.node)),
		).toEqual([['Paid']]);
		const rows = JSON.parse(
			String(workflow.nodes.find((node) => node.name === 'Payout Rows')?.parameters.jsonOutput),
		).payouts as IDataObject[];
		expect(rows).toHaveLength(3);
		expect(new Set(rows.map((row) => row.payoutId)).size).toBe(3);
		expect(rows.map((row) => row.amountUsd)).toContain('10.125');
		expect(
			workflow.nodes
				.filter(isSticky)
				.map((note) => String(note.parameters.content))
				.join(),
		).toMatch(/refused row stops the batch[\s\S]*nothing is sent/i);
	});
});

describe('the example workflows read well on the canvas (issue 27)', () => {
	test.each(EXAMPLES)(
		'%s: no two nodes overlap, and a sticky note holds a node whole or not at all',
		(file) => {
			const { nodes } = load(file);
			const steps = nodes.filter((node) => !isSticky(node));
			const notes = nodes.filter(isSticky);
			const clashes: string[] = [];
			steps.forEach((a, i) =>
				steps
					.slice(i + 1)
					.forEach((b) => overlap(box(a), box(b)) && clashes.push(`${a.name} / ${b.name}`)),
			);
			notes.forEach((a, i) =>
				notes
					.slice(i + 1)
					.forEach((b) => overlap(box(a), box(b)) && clashes.push(`${a.name} / ${b.name}`)),
			);
			for (const note of notes) {
				for (const step of steps)
					if (overlap(box(note), box(step)) && !inside(box(step), box(note)))
						clashes.push(`${note.name} cuts ${step.name}`);
			}
			expect(clashes).toEqual([]);
		},
	);

	test.each(EXAMPLES)(
		"%s: sticky notes link the package's README, never a file of this repository",
		(file) => {
			for (const note of load(file).nodes.filter(isSticky)) {
				expect(String(note.parameters.content)).not.toMatch(
					/\b(docs|e2e|nodes|fake-api)\/[\w./-]+|\b[\w-]+\.md\b/,
				);
			}
		},
	);

	test("the tour's sticky note links the README on the package's homepage", () => {
		expect(
			load('tour')
				.nodes.filter(isSticky)
				.map((note) => note.parameters.content)
				.join(),
		).toContain('https://github.com/crypto-settlement/n8n-nodes-crypto-settlement#readme');
	});

	test.each(EXAMPLES)(
		'%s: account settings are only written back as Get Account read them, and a sticky note says so',
		(file) => {
			const { nodes } = load(file);
			const settings = {
				setWithdrawalFeeBearer: 'withdrawalFeeBearer',
				setMarkupPercent: 'markupPercent',
			} as Record<string, string>;
			const writers = nodes.filter(
				(node) =>
					node.type.endsWith('.cryptoSettlement') &&
					node.parameters.resource === 'account' &&
					String(node.parameters.operation) in settings,
			);
			for (const node of writers) {
				const field = settings[String(node.parameters.operation)];
				expect({ node: node.name, value: node.parameters[field] }).toEqual({
					node: node.name,
					value: `={{ $('Get Account').first().json.${field} }}`,
				});
				const note = nodes.find(
					(candidate) =>
						isSticky(candidate) &&
						String(candidate.parameters.content).includes(`**${node.name}**`),
				);
				expect(note?.parameters.content).toMatch(/changes no setting/);
			}
			if (file === 'tour')
				expect(writers.map((node) => node.parameters.operation).sort()).toEqual([
					'setMarkupPercent',
					'setWithdrawalFeeBearer',
				]);
		},
	);

	test("the tour lists bank accounts and payout addresses before it deletes them, in n8n's execution order", () => {
		// n8n's v1 order: a node's branches run one after the other, the highest on the canvas first.
		const { nodes, connections } = load('tour');
		const position = new Map(nodes.map((node) => [node.name, node.position]));
		const order: string[] = [];
		const visit = (name: string) => {
			order.push(name);
			const children = (connections[name]?.main ?? []).flat().map((c) => c.node);
			children.sort(
				(a, b) =>
					(position.get(a) as number[])[1] - (position.get(b) as number[])[1] ||
					(position.get(a) as number[])[0] - (position.get(b) as number[])[0],
			);
			children.forEach(visit);
		};
		visit('Start');
		expect(order.length).toBe(nodes.filter((node) => !isSticky(node)).length);
		expect(order.indexOf('List Bank Accounts')).toBeLessThan(order.indexOf('Delete Bank Account'));
		expect(order.indexOf('List Payout Addresses')).toBeLessThan(
			order.indexOf('Delete Payout Address'),
		);
		expect(order.indexOf('Bank Withdrawal')).toBeLessThan(order.indexOf('Delete Bank Account'));
	});
});
