/**
 * What the nodes tell an AI assistant that builds workflows (issue 73): the action node's
 * builderHint and property hints (nodes/CryptoSettlement/operations/actionHints.ts) and the
 * triggers' (nodes/events/triggerHints.ts) name only parameters, resources, operations, events and
 * credential fields that exist, and each example is a valid node for n8n's own parameter checks, so
 * the texts cannot drift from the records.
 */
import {
	NodeHelpers,
	type IBuilderHint,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { CryptoSettlement } from '../../../nodes/CryptoSettlement/CryptoSettlement.node';
import { CryptoSettlementTrigger } from '../../../nodes/CryptoSettlementTrigger/CryptoSettlementTrigger.node';
import { CryptoSettlementPollTrigger } from '../../../nodes/CryptoSettlementPollTrigger/CryptoSettlementPollTrigger.node';
import { CryptoSettlementApi } from '../../../credentials/CryptoSettlementApi.credentials';
import { RESOURCES } from '../../../nodes/CryptoSettlement/operations';
import {
	BUILDER_EXAMPLES,
	PROPERTY_HINTS,
	type ExampleValue,
} from '../../../nodes/CryptoSettlement/operations/actionHints';
import { ACTION_TYPE, POLL_TRIGGER_TYPE, TRIGGER_TYPE } from '../../../nodes/events/triggerHints';
import { EVENT_OPTIONS } from '../../../nodes/events/events';
import pkg from '../../../package.json';

const action = new CryptoSettlement().description as INodeTypeDescription;
const trigger = new CryptoSettlementTrigger().description as INodeTypeDescription;
const pollTrigger = new CryptoSettlementPollTrigger().description as INodeTypeDescription;
const credential = new CryptoSettlementApi();

/** Every parameter name a description declares, at any depth (collection options included). */
function parameterNames(properties: INodeProperties[]): Set<string> {
	const names = new Set<string>();
	const walk = (list: unknown[]) => {
		for (const entry of list as INodeProperties[]) {
			if (!entry || typeof entry !== 'object' || !('name' in entry) || !('type' in entry)) continue;
			names.add(entry.name);
			if (entry.type === 'collection' || entry.type === 'fixedCollection')
				walk((entry.options ?? []) as unknown[]);
		}
	};
	walk(properties);
	return names;
}

/** Item fields the hints name: the triggers' ledger key (nodes/events/identity.ts). */
const ITEM_FIELDS = ['eventKey'];

/** The texts of a builderHint a model reads (the examples are checked as nodes below). */
function hintTexts(hint: IBuilderHint | undefined): string[] {
	return [
		hint?.searchHint ?? '',
		...(hint?.relatedNodes ?? []).map((related) => related.relationHint),
	];
}

const backticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]);

/** "Withdrawal → Create Crypto": a resource's and an operation's names as the editor shows them. */
const operationPhrases = (text: string) =>
	[
		...text.matchAll(
			/((?:[A-Z][a-z]+ )*[A-Z][a-z]+) → ((?:[A-Z][a-z]+ ?)+?)(?=[^A-Za-z]|$| [a-z(])/g,
		),
	].map((match) => ({ resource: match[1], operation: match[2].trim() }));

const resourceByName = new Map(Object.values(RESOURCES).map((entry) => [entry.name, entry]));

describe.each([
	['the action node', action],
	['the webhook trigger', trigger],
	['the poll trigger', pollTrigger],
])('%s', (_name, description) => {
	test('has a search hint', () => {
		expect(description.builderHint?.searchHint?.length).toBeGreaterThan(100);
	});

	test("its hints name in backticks only its parameters or its items' fields", () => {
		const names = parameterNames(description.properties);
		const texts = [
			...hintTexts(description.builderHint),
			...(description === action ? Object.values(PROPERTY_HINTS) : []),
		];
		const named = texts.flatMap(backticked);
		expect(named.length).toBeGreaterThan(0);
		expect(named.filter((name) => !names.has(name) && !ITEM_FIELDS.includes(name))).toEqual([]);
	});

	test('its hints name only operations the action node has, and only events that exist', () => {
		const texts = [...hintTexts(description.builderHint), ...Object.values(PROPERTY_HINTS)];
		for (const { resource, operation } of texts.flatMap(operationPhrases)) {
			const entry = resourceByName.get(resource);
			expect({
				resource,
				operation,
				found: Object.values(entry?.specs ?? {}).some((spec) => spec.option.name === operation),
			}).toEqual({ resource, operation, found: true });
		}
		const events = new Set(EVENT_OPTIONS.map((option) => option.value));
		for (const event of texts.join(' ').match(/\b(?:trade|withdrawal)\.[a-z.]+[a-z]/g) ?? [])
			expect(events).toContain(event);
	});

	test("its related nodes are n8n's or this package's, by their full type names", () => {
		const ours = pkg.n8n.nodes.map(
			(path) =>
				`${pkg.name}.${path
					.split('/')
					.pop()
					?.replace('.node.js', '')
					.replace(/^./, (c) => c.toLowerCase())}`,
		);
		expect(ours).toEqual([ACTION_TYPE, TRIGGER_TYPE, POLL_TRIGGER_TYPE]);
		for (const { nodeType, relationHint } of description.builderHint?.relatedNodes ?? []) {
			expect(nodeType).toMatch(
				/^(n8n-nodes-base\.[a-zA-Z]+|@n8n\/n8n-nodes-langchain\.[a-zA-Z]+|n8n-nodes-crypto-settlement\.[a-zA-Z]+)$/,
			);
			if (nodeType.startsWith(`${pkg.name}.`)) expect(ours).toContain(nodeType);
			expect(nodeType).not.toBe(`${pkg.name}.${description.name}`);
			expect(relationHint.length).toBeGreaterThan(20);
		}
	});
});

test('the action node relates the ledger, the approval email, the hand-off webhook and both triggers', () => {
	expect(action.builderHint?.relatedNodes?.map((related) => related.nodeType)).toEqual(
		expect.arrayContaining([
			'n8n-nodes-base.dataTable',
			'n8n-nodes-base.emailSend',
			'n8n-nodes-base.webhook',
			TRIGGER_TYPE,
			POLL_TRIGGER_TYPE,
		]),
	);
});

test("the search hint says Dry Run first, a mapped External ID, and the credential's agent guardrail by its label", () => {
	const hint = action.builderHint?.searchHint ?? '';
	expect(hint).toMatch(/`dryRun` true/);
	expect(hint).toMatch(/`externalId`/);
	const agentPayments = credential.properties.find(
		(property) => property.name === 'allowAgentPayments',
	);
	expect(hint).toContain(agentPayments?.displayName);
});

describe('property hints', () => {
	test('the money fields have one, on every operation that shows them at the top level', () => {
		for (const name of [
			'amount',
			'amountType',
			'externalId',
			'dryRun',
			'token',
			'network',
			'walletAddress',
		])
			expect(PROPERTY_HINTS[name]).toBeDefined();
		const topLevel = action.properties.filter((entry) =>
			Object.prototype.hasOwnProperty.call(PROPERTY_HINTS, entry.name),
		);
		expect(new Set(topLevel.map((entry) => entry.name))).toEqual(
			new Set(Object.keys(PROPERTY_HINTS)),
		);
		for (const entry of topLevel)
			expect(entry.builderHint).toEqual({ propertyHint: PROPERTY_HINTS[entry.name] });
	});
});

/** An example's parameters as n8n stores them: expressions as "={{ … }}". */
function stored(value: ExampleValue): unknown {
	if (typeof value !== 'object') return value;
	if ('expr' in value && typeof value.expr === 'string') return `=${value.expr}`;
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => [key, stored(entry as ExampleValue)]),
	);
}

describe.each(
	BUILDER_EXAMPLES.map(
		(example) =>
			[
				`${example.parameters.resource} → ${example.parameters.operation}: ${example.title}`,
				example,
			] as const,
	),
)('example %s', (_title, example) => {
	const parameters = stored(example.parameters as unknown as ExampleValue) as INodeParameters;

	test('is shown for its operation only (its displayOptions), and rendered with its name and values', () => {
		const variation = action.builderHint?.extraTypeDefContent?.find((entry) =>
			entry.content.includes(`name: '${example.name}'`),
		);
		expect(variation?.displayOptions).toEqual({
			show: { resource: [example.parameters.resource], operation: [example.parameters.operation] },
		});
		expect(variation?.content).toContain(`type: '${ACTION_TYPE}'`);
		for (const [key, value] of Object.entries(example.parameters))
			if (typeof value === 'string') expect(variation?.content).toContain(`${key}: '${value}'`);
	});

	test('sets only fields its operation shows, options among their values, and n8n finds no issue', () => {
		const shown = action.properties.filter((entry) =>
			NodeHelpers.displayParameter(parameters, entry, { typeVersion: 1 }, action, parameters),
		);
		for (const [key, value] of Object.entries(parameters)) {
			const fields = shown.filter((entry) => entry.name === key);
			expect({ key, shown: fields.length }).toEqual({ key, shown: 1 });
			const [field] = fields;
			if (field.type === 'options' && typeof value === 'string' && !value.startsWith('=')) {
				expect(
					(field.options ?? []).map((option) => (option as { value: unknown }).value),
				).toContain(value);
			}
			if (field.type === 'collection') {
				for (const [option, optionValue] of Object.entries(value as IDataObject)) {
					const declared = (field.options as INodeProperties[]).find(
						(entry) => entry.name === option,
					);
					expect({ option, declared: declared !== undefined }).toEqual({ option, declared: true });
					if (declared?.type === 'options')
						expect(
							(declared.options ?? []).map((entry) => (entry as { value: unknown }).value),
						).toContain(optionValue);
				}
			}
		}
		const node: INode = {
			id: 'example',
			name: example.name,
			type: ACTION_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: NodeHelpers.getNodeParameters(
				action.properties,
				parameters,
				true,
				false,
				null,
				action,
			) as INodeParameters,
		};
		expect(NodeHelpers.getNodeParametersIssues(action.properties, node, action)).toBeNull();
		// n8n keeps every parameter the example sets.
		expect(node.parameters).toMatchObject(parameters as IDataObject);
	});
});

test('the money operations and the statement each have an example', () => {
	const covered = BUILDER_EXAMPLES.map(
		({ parameters }) => `${parameters.resource}:${parameters.operation}`,
	);
	expect(covered).toEqual(
		expect.arrayContaining([
			'withdrawal:createCrypto',
			'withdrawal:createBank',
			'statement:get',
			'statement:match',
		]),
	);
});
