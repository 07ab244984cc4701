/**
 * The generated description (nodes/CryptoSettlement/record/nodeDescription.ts) shows each operation
 * exactly the fields its record lists (after the credential's guardrails where it moves money), in its order, whatever the values of the fields that decide
 * what else is shown; and merges identical definitions.
 */
import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { CryptoSettlement } from '../../../nodes/CryptoSettlement/CryptoSettlement.node';
import {
	describeNode,
	type ResourceEntry,
} from '../../../nodes/CryptoSettlement/record/nodeDescription';
import { RESOURCES, shownFields } from '../../../nodes/CryptoSettlement/operations';
import { TOKENS } from '../../../nodes/service/catalog';
import type { OperationSpec } from '../../../nodes/CryptoSettlement/record/record';

const description = new CryptoSettlement().description as INodeTypeDescription;
const node = { typeVersion: 1 };

/** Values of the fields other fields depend on: every combination is checked. */
const SCENARIOS: INodeParameters[] = TOKENS.flatMap((token) =>
	['usd', 'crypto'].flatMap((amountType) =>
		[true, false].map((returnAll) => ({ token, amountType, returnAll })),
	),
);

const operations = Object.entries(RESOURCES).flatMap(([resource, { specs }]) =>
	Object.entries(specs).map(([operation, spec]) => ({ resource, operation, spec })),
);

/** A definition without the resource and operation the generator adds. */
function own(entry: INodeProperties): string {
	const show = { ...entry.displayOptions?.show };
	delete show.resource;
	delete show.operation;
	const { displayOptions, ...rest } = entry;
	const options =
		Object.keys(show).length || displayOptions?.hide
			? { displayOptions: { ...displayOptions, show } }
			: {};
	return JSON.stringify({ ...rest, ...options });
}

function shown(properties: INodeProperties[], values: INodeParameters): INodeProperties[] {
	return properties.filter((entry) =>
		NodeHelpers.displayParameter(values, entry, node, description, values),
	);
}

describe.each(operations)('$resource → $operation', ({ resource, operation, spec }) => {
	test('shows exactly the fields it lists, in its order, for every value of the fields they depend on', () => {
		for (const scenario of SCENARIOS) {
			const values = { resource, operation, ...scenario };
			const fields = shown(description.properties, values).filter(
				(entry) => !['resource', 'operation'].includes(entry.name),
			);
			// The record's fields, after the credential's guardrails where it moves money (guardrails-panel.test.ts).
			const listed = shown(shownFields(spec), values);
			expect({ scenario, fields: fields.map(own) }).toEqual({
				scenario,
				fields: listed.map((field) => JSON.stringify(field)),
			});
		}
	});
});

test('identical definitions share an entry: no two entries could be one', () => {
	const fieldEntries = description.properties.filter(
		(entry) => !['resource', 'operation'].includes(entry.name),
	);
	const byDefinition = new Map<string, INodeProperties[]>();
	for (const entry of fieldEntries)
		byDefinition.set(own(entry), [...(byDefinition.get(own(entry)) ?? []), entry]);
	for (const [, entries] of byDefinition) {
		if (entries.length < 2) continue;
		// Two entries of one definition exist only because one entry would reach an operation not listing it.
		const resources = [
			...new Set(entries.flatMap((entry) => entry.displayOptions?.show?.resource as string[])),
		];
		const operationNames = [
			...new Set(entries.flatMap((entry) => entry.displayOptions?.show?.operation as string[])),
		];
		const reached = resources.flatMap((resource) =>
			operationNames
				.filter((operation) => RESOURCES[resource].specs[operation])
				.map((operation) => ({ resource, operation })),
		);
		const listing = reached.filter(({ resource, operation }) =>
			shownFields(RESOURCES[resource].specs[operation]).some(
				(field) => JSON.stringify(field) === own(entries[0]),
			),
		);
		expect(listing.length).toBeLessThan(reached.length);
	}
});

describe('the generator', () => {
	const field = (name: string): INodeProperties => ({
		displayName: name,
		name,
		type: 'string',
		default: '',
	});
	const spec = (fields: INodeProperties[]): OperationSpec => ({
		option: { name: 'x' },
		method: 'GET',
		path: '/x',
		source: 'spec',
		kind: 'read',
		money: 'none',
		fields,
	});
	const entriesOf = (resources: Record<string, ResourceEntry>) =>
		describeNode(resources, Object.keys(resources)[0]).filter(
			(entry) => !['resource', 'operation'].includes(entry.name),
		);

	test('splits a group whose resources × operations would reach an operation that does not list the field', () => {
		const a = field('a');
		const entries = entriesOf({
			one: {
				name: 'One',
				description: '',
				default: 'get',
				specs: { get: spec([a]), create: spec([]) },
			},
			two: { name: 'Two', description: '', default: 'create', specs: { create: spec([a]) } },
		});
		expect(entries.map((entry) => entry.displayOptions?.show)).toEqual([
			{ resource: ['one'], operation: ['get'] },
			{ resource: ['two'], operation: ['create'] },
		]);
	});

	test('merges resources whose operations allow it', () => {
		const a = field('a');
		const entries = entriesOf({
			one: { name: 'One', description: '', default: 'get', specs: { get: spec([a]) } },
			two: {
				name: 'Two',
				description: '',
				default: 'create',
				specs: { create: spec([a]), get: spec([a]) },
			},
		});
		expect(entries.map((entry) => entry.displayOptions?.show)).toEqual([
			{ resource: ['one', 'two'], operation: ['get', 'create'] },
		]);
	});

	test('operations listing shared fields in opposite orders each keep their order', () => {
		const [a, b] = [field('a'), field('b')];
		const resources = {
			one: { name: 'One', description: '', default: 'get', specs: { get: spec([a, b]) } },
			two: { name: 'Two', description: '', default: 'list', specs: { list: spec([b, a]) } },
		};
		const entries = entriesOf(resources);
		for (const [resource, operation, order] of [
			['one', 'get', ['a', 'b']],
			['two', 'list', ['b', 'a']],
		] as const) {
			const values = { resource, operation };
			expect(
				entries
					.filter((entry) => NodeHelpers.displayParameter(values, entry, node, description, values))
					.map((entry) => entry.name),
			).toEqual(order);
		}
	});
});

/**
 * One field per meaning: what an operation shows (its fields, and the options its collections offer
 * while empty, as a new node and a model building a workflow see them) names each parameter once.
 * Entries of one name that never show together (Network for USDT and for USDC) count once, since
 * only the shown ones are counted, for every value of the fields they depend on.
 */
describe.each(operations)(
	'$resource → $operation names each parameter once',
	({ resource, operation }) => {
		test('no parameter name is declared twice among the fields and collection options shown', () => {
			for (const scenario of SCENARIOS) {
				const values = { resource, operation, ...scenario };
				const fields = shown(description.properties, values);
				const names = fields.flatMap((entry) => {
					if (entry.type !== 'collection' || !entry.options) return [entry.name];
					const empty = (entry.default ?? {}) as INodeParameters;
					const offered = (entry.options as INodeProperties[]).filter((option) =>
						NodeHelpers.displayParameter(empty, option, node, description, values),
					);
					return [entry.name, ...offered.map((option) => option.name)];
				});
				const twice = names.filter((name, index) => names.indexOf(name) !== index);
				expect({ scenario, twice }).toEqual({ scenario, twice: [] });
			}
		});
	},
);

test('Dry Run under Additional Fields (saved workflows) shows only while it holds a value', () => {
	const saved = description.properties
		.filter((entry) => entry.name === 'additionalFields')
		.flatMap((entry) =>
			(entry.options as INodeProperties[]).filter((option) => option.name === 'dryRun'),
		);
	expect(saved.length).toBeGreaterThan(0);
	for (const option of saved) {
		expect(NodeHelpers.displayParameter({}, option, node, description)).toBe(false);
		expect(NodeHelpers.displayParameter({ dryRun: true }, option, node, description)).toBe(true);
		expect(NodeHelpers.displayParameter({ dryRun: false }, option, node, description)).toBe(true);
		expect(
			NodeHelpers.displayParameter({ dryRun: '={{ $json.dry }}' }, option, node, description),
		).toBe(true);
	}
});
