import type { INodeProperties } from 'n8n-workflow';
import type { ErrorWording } from '../../service/api';
import { keptFor, RETRY_OF_KIND, type OperationSpec, type ResourceSpecs } from './record';

/**
 * Builds the node's properties from the operation records, identical field definitions merged into as
 * few entries as possible (docs/architecture.md, "Operation records and the generated description").
 */

export interface ResourceEntry {
	name: string;
	description: string;
	/** The operation selected when the resource is chosen. */
	default: string;
	specs: ResourceSpecs;
}

/** Resource → operations using one definition, grouped into description entries. */
interface Group {
	definition: INodeProperties;
	resources: string[];
	operations: string[];
}

export function describeNode(
	resources: Record<string, ResourceEntry>,
	defaultResource: string,
): INodeProperties[] {
	return [
		resourceSelector(resources, defaultResource),
		...operationSelectors(resources),
		...fieldEntries(resources),
	];
}

/**
 * The node's subtitle on the canvas: the chosen operation's action ("Create a crypto withdrawal"),
 * not its raw values. One flat lookup, which every n8n expression engine evaluates.
 */
export function describeSubtitle(resources: Record<string, ResourceEntry>): string {
	const actions = Object.fromEntries(
		Object.entries(resources).flatMap(([resource, { specs }]) =>
			Object.entries(specs).map(([operation, spec]) => [
				`${resource}:${operation}`,
				spec.option.action ?? spec.option.name,
			]),
		),
	);
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}

function resourceSelector(
	resources: Record<string, ResourceEntry>,
	defaultResource: string,
): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: Object.entries(resources).map(([value, { name, description }]) => ({
			name,
			value,
			description,
		})),
		default: defaultResource,
	};
}

/**
 * One Operation selector per resource. Each option only turns on the engine's pagination hook
 * (`send.paginate`): the hook runs every operation through the node's one pipeline
 * (pipeline/pipeline.ts), which builds the request itself.
 */
function operationSelectors(resources: Record<string, ResourceEntry>): INodeProperties[] {
	return Object.entries(resources).map(([resource, entry]) => {
		const defaultOperation = entry.default;
		return {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: Object.entries(entry.specs).map(([value, spec]) => ({
				...spec.option,
				value,
				routing: { send: { paginate: true } },
			})),
			default: defaultOperation,
		};
	});
}

function fieldEntries(resources: Record<string, ResourceEntry>): INodeProperties[] {
	// Each distinct definition (by content), with the resource → operations listing it.
	const definitions = new Map<
		string,
		{ definition: INodeProperties; users: Map<string, string[]> }
	>();
	const listed: Array<{ resource: string; operation: string; keys: string[] }> = [];
	for (const [resource, { specs }] of Object.entries(resources)) {
		for (const [operation, spec] of Object.entries(specs)) {
			const keys = spec.fields.map((field) => JSON.stringify(field));
			spec.fields.forEach((definition, index) => {
				const entry = definitions.get(keys[index]) ?? {
					definition,
					users: new Map<string, string[]>(),
				};
				entry.users.set(resource, [...(entry.users.get(resource) ?? []), operation]);
				definitions.set(keys[index], entry);
			});
			listed.push({ resource, operation, keys });
		}
	}
	const operationsOf = (resource: string) => Object.keys(resources[resource].specs);
	const split = new Set<string>();
	for (;;) {
		const groups = new Map<string, Group[]>();
		for (const [key, { definition, users }] of definitions) {
			groups.set(
				key,
				split.has(key) ? singletons(definition, users) : grouped(definition, users, operationsOf),
			);
		}
		const ordered = orderEntries(groups, listed);
		if (Array.isArray(ordered)) return ordered.map(toEntry);
		// A cycle: two operations list shared fields in opposite orders. Unmerge one of them.
		if (split.has(ordered.splitKey))
			throw new Error('The operations list their fields in an order no description can show');
		split.add(ordered.splitKey);
	}
}

/** Merges resources into groups while resources × operations stays within what lists the field. */
function grouped(
	definition: INodeProperties,
	users: Map<string, string[]>,
	operationsOf: (resource: string) => string[],
): Group[] {
	const groups: Group[] = [];
	for (const [resource, operations] of users) {
		const fits = (group: Group) => {
			const union = [...new Set([...group.operations, ...operations])];
			return [...group.resources, resource].every((member) => {
				const uses = users.get(member) ?? [];
				return operationsOf(member).every(
					(operation) => !union.includes(operation) || uses.includes(operation),
				);
			});
		};
		const group = groups.find(fits);
		if (group) {
			group.resources.push(resource);
			group.operations = [...new Set([...group.operations, ...operations])];
		} else {
			groups.push({ definition, resources: [resource], operations: [...operations] });
		}
	}
	return groups;
}

function singletons(definition: INodeProperties, users: Map<string, string[]>): Group[] {
	return [...users].flatMap(([resource, operations]) =>
		operations.map((operation) => ({ definition, resources: [resource], operations: [operation] })),
	);
}

/**
 * Orders the entries so that every operation sees its fields in its own order (a topological
 * sort, ties broken by first use); or names a merged definition on a cycle, to be split.
 */
function orderEntries(
	groups: Map<string, Group[]>,
	listed: Array<{ resource: string; operation: string; keys: string[] }>,
): Group[] | { splitKey: string } {
	const groupOf = (key: string, resource: string, operation: string) =>
		(groups.get(key) ?? []).find(
			(group) => group.resources.includes(resource) && group.operations.includes(operation),
		) as Group;
	const keyOf = new Map<Group, string>();
	for (const [key, list] of groups) for (const group of list) keyOf.set(group, key);
	const firstUse = new Map<Group, number>();
	const after = new Map<Group, Set<Group>>();
	const before = new Map<Group, number>();
	for (const { resource, operation, keys } of listed) {
		const chain = keys.map((key) => groupOf(key, resource, operation));
		chain.forEach((group, index) => {
			if (!firstUse.has(group)) firstUse.set(group, firstUse.size);
			const next = chain[index + 1];
			if (!next || after.get(group)?.has(next)) return;
			after.set(group, (after.get(group) ?? new Set()).add(next));
			before.set(next, (before.get(next) ?? 0) + 1);
		});
	}
	const byFirstUse = (a: Group, b: Group) =>
		(firstUse.get(a) as number) - (firstUse.get(b) as number);
	const ready = [...firstUse.keys()].filter((group) => !before.get(group)).sort(byFirstUse);
	const ordered: Group[] = [];
	while (ready.length) {
		const group = ready.shift() as Group;
		ordered.push(group);
		for (const next of after.get(group) ?? []) {
			const left = (before.get(next) as number) - 1;
			before.set(next, left);
			if (left === 0) {
				ready.push(next);
				ready.sort(byFirstUse);
			}
		}
	}
	if (ordered.length === firstUse.size) return ordered;
	const stuck = [...firstUse.keys()].filter((group) => !ordered.includes(group)).sort(byFirstUse);
	const shared =
		stuck.find((group) => group.resources.length > 1 || group.operations.length > 1) ?? stuck[0];
	return { splitKey: keyOf.get(shared) as string };
}

function toEntry({ definition, resources, operations }: Group): INodeProperties {
	const own = definition.displayOptions;
	return {
		...definition,
		displayOptions: { ...own, show: { resource: resources, operation: operations, ...own?.show } },
	};
}

const fieldsByName = keptFor<OperationSpec, Map<string, INodeProperties>>();

/**
 * The field an operation shows under this name (a field of its own, or an option of one of its
 * collections); the first one listed when several share the name (they differ by a condition).
 */
export function fieldOf(spec: OperationSpec, name: string): INodeProperties | undefined {
	return fieldsByName(spec, fieldsNamed).get(name);
}

function fieldsNamed(spec: OperationSpec): Map<string, INodeProperties> {
	const byName = new Map<string, INodeProperties>();
	for (const field of spec.fields) {
		const options = field.type === 'collection' ? ((field.options ?? []) as INodeProperties[]) : [];
		for (const candidate of [field, ...options])
			if (!byName.has(candidate.name)) byName.set(candidate.name, candidate);
	}
	return byName;
}

/** Body fields the API names differently from the node's parameter (bankAccountFields sends `bankId` as `id`). */
const PARAMETER_OF_BODY_FIELD: Record<string, string> = { id: 'bankId' };

const wordings = keptFor<OperationSpec, ErrorWording>();

/** How the service's errors for this operation are worded: its field labels and hints, and whether it may repeat. */
export function wordingOf(spec: OperationSpec): ErrorWording {
	return wordings(spec, wordingMade);
}

function wordingMade(spec: OperationSpec): ErrorWording {
	const own = (name: string) => (name === '' ? undefined : fieldOf(spec, name)?.displayName);
	return {
		labelOf: (field) =>
			own(field) ??
			own(
				Object.prototype.hasOwnProperty.call(PARAMETER_OF_BODY_FIELD, field)
					? PARAMETER_OF_BODY_FIELD[field]
					: '',
			),
		hints: spec.errorHint,
		oneShot: RETRY_OF_KIND[spec.kind] !== 'safe',
		pays: spec.payment !== undefined,
	};
}
