/**
 * The first hour of a finance user (issue 27): a node placed on the canvas opens on a read, an
 * empty External ID is pointed out, list filters offer what exists, and the editor speaks in
 * actions and in the published README, never in this repository's paths. The browser check
 * (e2e/lib/browser.mjs) looks at the same things in a real editor.
 */
import { NodeHelpers, Workflow, type INode, type INodeParameters, type INodeProperties, type INodeTypeDescription } from 'n8n-workflow';
import { ACTION_NODE, loadPackage } from '../harness';
import { RESOURCES } from '../../nodes/CryptoSettlement/resources';
import { FEE_LEVELS, TRADE_STATUSES, WITHDRAWAL_STATUSES } from '../../nodes/CryptoSettlement/helpers/rules';

async function description(type = ACTION_NODE): Promise<INodeTypeDescription> {
	const { nodeTypes } = await loadPackage();
	return nodeTypes.getByNameAndVersion(type).description;
}

/** The parameters n8n gives a node just placed on the canvas: every default. */
async function placedNode(): Promise<INodeParameters> {
	const { properties } = await description();
	const node = { typeVersion: 1 } as INode;
	return NodeHelpers.getNodeParameters(properties, {}, true, false, node, await description()) as INodeParameters;
}

/** The entries shown for these parameter values. */
async function shown(values: INodeParameters): Promise<INodeProperties[]> {
	const desc = await description();
	return desc.properties.filter((entry) => NodeHelpers.displayParameter(values, entry, { typeVersion: 1 }, desc, values));
}

const withDefaults = async (values: INodeParameters): Promise<INodeParameters> => {
	const desc = await description();
	return NodeHelpers.getNodeParameters(desc.properties, values, true, false, { typeVersion: 1 } as INode, desc) as INodeParameters;
};

describe('2. a node placed on the canvas (or given to an AI Agent as a tool) opens on a read', () => {
	test('the defaults are Account → Get', async () => {
		expect(await placedNode()).toMatchObject({ resource: 'account', operation: 'get' });
		expect(RESOURCES.account.specs.get.kind).toBe('read');
	});

	test('choosing a resource selects a read where the resource has one', async () => {
		for (const [resource, { specs, default: operation }] of Object.entries(RESOURCES)) {
			const { operation: chosen } = await withDefaults({ resource });
			expect({ resource, chosen }).toEqual({ resource, chosen: operation });
			const reads = Object.values(specs).filter((spec) => ['read', 'pagedList', 'wholeList'].includes(spec.kind));
			if (reads.length) expect({ resource, kind: specs[operation].kind }).toEqual({ resource, kind: expect.stringMatching(/^(read|pagedList|wholeList)$/) });
		}
	});
});

describe('1. an empty External ID is pointed out while it is empty', () => {
	const notice = (entries: INodeProperties[]) => entries.filter((entry) => entry.type === 'notice');

	test.each(['createCrypto', 'createBank'])('Withdrawal → %s shows the notice right after External ID, only while it is empty', async (operation) => {
		const empty = await shown(await withDefaults({ resource: 'withdrawal', operation }));
		const [shownNotice] = notice(empty);
		expect(shownNotice.displayName).toMatch(/^External ID is empty, so each run derives a new one: every manual run \(Execute step, Execute workflow\) pays again\. Map your own payment ID instead/);
		const names = empty.map((entry) => entry.name);
		expect(names[names.indexOf('externalId') + 1]).toBe(shownNotice.name);

		// The editor resolves a mapped External ID before it decides what to show (the browser check looks at that).
		expect(notice(await shown(await withDefaults({ resource: 'withdrawal', operation, externalId: 'order-1042' })))).toEqual([]);
	});

	test('no other operation shows it', async () => {
		for (const [resource, { specs }] of Object.entries(RESOURCES)) {
			for (const operation of Object.keys(specs)) {
				if (resource === 'withdrawal' && ['createCrypto', 'createBank'].includes(operation)) continue;
				expect({ resource, operation, notices: notice(await shown(await withDefaults({ resource, operation }))) }).toEqual({ resource, operation, notices: [] });
			}
		}
	});
});

describe('5. a status filter offers the statuses that exist', () => {
	test.each([
		['withdrawal', WITHDRAWAL_STATUSES],
		['transaction', TRADE_STATUSES],
	] as const)('%s → Get Many: Status is a choice of %j (another value only through an expression)', async (resource, statuses) => {
		const [filters] = (await shown({ resource, operation: 'getAll' })).filter((entry) => entry.name === 'filters');
		const status = (filters.options as INodeProperties[]).find((option) => option.name === 'status') as INodeProperties;
		expect(status.type).toBe('options');
		expect(status.noDataExpression).toBeUndefined();
		expect((status.options ?? []).map((option) => (option as { value: string }).value)).toEqual([...statuses]);
		expect(statuses).toEqual(expect.arrayContaining(['pending', 'completed']));
	});
});

describe('9. polish', () => {
	test('Fee Level offers Low, Medium, High, in that order', async () => {
		const feeLevels = (await description()).properties.filter((entry) => entry.name === 'feeLevel');
		expect(feeLevels.length).toBeGreaterThan(0);
		for (const field of feeLevels) expect((field.options ?? []).map((option) => option.name)).toEqual(['Low', 'Medium', 'High']);
		expect(FEE_LEVELS).toEqual(['low', 'medium', 'high']);
	});

	test("the canvas subtitle is the operation's action, for every operation", async () => {
		const { nodeTypes } = await loadPackage();
		const { subtitle } = await description();
		for (const [resource, { specs }] of Object.entries(RESOURCES)) {
			for (const [operation, spec] of Object.entries(specs)) {
				const node: INode = { id: '1', name: 'Crypto Settlement', type: ACTION_NODE, typeVersion: 1, position: [0, 0], parameters: { resource, operation } };
				const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
				expect(workflow.expression.getSimpleParameterValue(node, subtitle as string, 'internal', {})).toBe(spec.option.action);
			}
		}
	});

	test("texts shown in the editor point at the package's README, never at files of this repository", async () => {
		const texts: string[] = [];
		const collect = (value: unknown): void => {
			if (typeof value === 'string') texts.push(value);
			else if (Array.isArray(value)) value.forEach(collect);
			else if (value && typeof value === 'object') Object.values(value).forEach(collect);
		};
		const { loader } = await loadPackage();
		for (const { type } of Object.values(loader.nodeTypes)) collect((type as { description: unknown }).description);
		for (const { type } of Object.values(loader.credentialTypes)) collect(type);
		expect(texts.length).toBeGreaterThan(100);
		expect(texts.filter((text) => /\b(docs|nodes|e2e|fake-api|tooling|test)\/[\w./-]+|\b[\w-]+\.md\b/.test(text))).toEqual([]);
	});
});
