/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads the template files */
/**
 * The templates (templates/README.md, issue 44) follow n8n's creator rules and are safe as shipped.
 * Every workflow file in templates/ is checked, so a new template cannot skip a rule:
 * - a title "verb + thing + where"; no workflow id, not active;
 * - an overview sticky note: what it does, how it works, set-up steps, requirements, and that it
 *   needs a self-hosted n8n with this community package; a short sticky note over each step;
 * - the values a user must change in one Set node, Settings, right after every trigger; the other
 *   nodes read such values (a sheet, a mailbox, a channel, a table) from it, never a literal;
 * - credentials referenced by placeholder (a name, no id), no secret anywhere;
 * - no payout without a Dry Run or a person's approval before it, each with a mapped External ID,
 *   and the credential's guardrails named in the overview (Allow Sub-Workflow Payments in the set-up
 *   of a template that pays in a run another workflow starts);
 * - a section and a picture in templates/README.md, and imported by `npm start` (tooling/setup.mjs);
 * - runnable before anything outside is connected (issues 50, 70): a template that reads a sheet runs on
 *   sample rows (or a Data Table) as shipped, its Google Sheets nodes disabled until Settings chooses the sheet; a node
 *   names (`$('…')`) only a node every path to it runs through, so no step depends on which source
 *   ran; a payment or its Dry Run stops on a refused row (or its error output ends in Stop and Error).
 * That each one imports and runs in real n8n is the e2e's (e2e/lib/template-checks.mjs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import type { IDataObject } from 'n8n-workflow';
import { loadPackage, PACKAGE_NAME, PACKAGE_ROOT } from '../helpers';
import { SPECS } from '../../nodes/CryptoSettlement/operations';
import { box, inside, isSticky, overlap } from '../helpers/canvas';

interface TemplateNode {
	name: string;
	type: string;
	position: [number, number];
	parameters: IDataObject;
	credentials?: Record<string, { id?: string; name?: string }>;
	disabled?: boolean;
}
type Connections = Record<string, Record<string, Array<Array<{ node: string; type: string }>>>>;
interface Template {
	id?: string;
	name: string;
	active?: boolean;
	nodes: TemplateNode[];
	connections: Connections;
}

const DIR = path.join(PACKAGE_ROOT, 'templates');
const FILES = readdirSync(DIR).filter((file) => file.endsWith('.json'));
const load = (file: string) => JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as Template;
const README = readFileSync(path.join(DIR, 'README.md'), 'utf8');

const isTrigger = (node: TemplateNode) => /trigger$|\.webhook$|Trigger$/i.test(node.type);
const content = (node: TemplateNode) => String(node.parameters.content ?? '');
/** The overview: the one sticky note that starts with the template's title. */
const overviewOf = (template: Template) =>
	template.nodes.filter(
		(node) => isSticky(node) && content(node).startsWith(`## ${template.name}\n`),
	);

/** Parameters that name something of the user's (a document, a mailbox, a channel, a table, an address). */
const USER_RESOURCES = [
	'documentId',
	'sheetName',
	'fromEmail',
	'toEmail',
	'sendTo',
	'channelId',
	'dataTableId',
	'walletAddress',
	'chatId',
	'url',
];
/** Parameter names a secret would live under; none may hold a value in a template. */
const SECRETS =
	/^(pin|appSecret|apiKey|password|secret|webhookSecret|accessToken|privateKey|authorization)$/i;
const paramText = (value: unknown) =>
	value && typeof value === 'object' && '__rl' in value
		? String((value as IDataObject).value ?? '')
		: String(value ?? '');
const isExpression = (value: unknown) => paramText(value).startsWith('=');

/** Every node a node's main (or ai_tool) connections lead to, transitively. */
function downstream(connections: Connections, from: string, types = ['main']): Set<string> {
	const seen = new Set<string>();
	const visit = (name: string) => {
		for (const type of types) {
			for (const output of connections[name]?.[type] ?? []) {
				for (const { node } of output) {
					if (seen.has(node)) continue;
					seen.add(node);
					visit(node);
				}
			}
		}
	};
	visit(from);
	return seen;
}

/** Every node's main parents. */
function parentsOf(connections: Connections): Map<string, Set<string>> {
	const parents = new Map<string, Set<string>>();
	for (const [from, types] of Object.entries(connections)) {
		for (const output of types.main ?? []) {
			for (const { node } of output) {
				if (!parents.has(node)) parents.set(node, new Set());
				parents.get(node)?.add(from);
			}
		}
	}
	return parents;
}

/**
 * The nodes every path from a trigger to each node runs through (itself included): its dominators
 * on the main connections. A sub-node (an agent's model or tool) counts as the node it serves.
 */
function dominators(template: Template): (name: string) => Set<string> {
	const parents = parentsOf(template.connections);
	const names = template.nodes.filter((node) => !isSticky(node)).map((node) => node.name);
	const all = new Set(names);
	const dom = new Map(
		names.map((name) => [name, parents.has(name) ? new Set(all) : new Set([name])]),
	);
	for (let changed = true; changed; ) {
		changed = false;
		for (const name of names) {
			const from = [...(parents.get(name) ?? [])];
			if (!from.length) continue;
			const next = new Set(
				[...(dom.get(from[0]) ?? [])].filter((candidate) =>
					from.every((parent) => dom.get(parent)?.has(candidate)),
				),
			);
			next.add(name);
			if (next.size !== dom.get(name)?.size) {
				dom.set(name, next);
				changed = true;
			}
		}
	}
	/** A sub-node's place: the node its (non-main) connection serves. */
	const served = (name: string): string => {
		const serves = Object.entries(template.connections[name] ?? {}).find(
			([type]) => type !== 'main',
		)?.[1]?.[0]?.[0]?.node;
		return serves && !template.connections[name]?.main ? served(serves) : name;
	};
	return (name) =>
		new Set(
			[...(dom.get(served(name)) ?? [])].flatMap((candidate) => [
				candidate,
				...names.filter((other) => served(other) === candidate),
			]),
		);
}

/** The names a node's parameters reference as `$('…')`. */
const referencedNames = (node: TemplateNode) =>
	[...JSON.stringify(node.parameters).matchAll(/\$\(\\?['"]([^'"\\]+)\\?['"]\)/g)].map(
		(match) => match[1],
	);

const pays = (node: TemplateNode) =>
	node.type.startsWith(`${PACKAGE_NAME}.cryptoSettlement`) &&
	SPECS[String(node.parameters.resource)]?.[String(node.parameters.operation)]?.money === 'pays';

describe("the templates follow n8n's creator rules and are safe as shipped", () => {
	test('templates/ holds the five jobs', () => {
		expect(FILES.length).toBeGreaterThanOrEqual(5);
	});

	test.each(FILES)(
		'%s: a title "verb + thing + where", no workflow id, imported inactive',
		(file) => {
			const template = load(file);
			expect(template.name).toMatch(
				/^(Pay|Credit|Send|Prepare|Check|Reconcile|Approve|Create|Notify) \S.* (in|from|to|with|by|against|on|into) \S.*[A-Za-z]$/,
			);
			expect(template.id).toBeUndefined();
			expect(template.active ?? false).toBe(false);
		},
	);

	test.each(FILES)(
		'%s: an overview sticky note with what it does, how it works, set-up steps, requirements, and the self-hosted n8n with this package',
		(file) => {
			const template = load(file);
			const overview = overviewOf(template);
			expect(overview).toHaveLength(1);
			const text = content(overview[0]);
			for (const section of [
				'### What it does',
				'### How it works',
				'### Set up',
				'### Requirements',
			])
				expect(text).toContain(`\n${section}`);
			const setUp = text.slice(text.indexOf('### Set up'), text.indexOf('### Requirements'));
			expect(setUp).toMatch(/\n1\. .+\n2\. /);
			const requirements = text.slice(text.indexOf('### Requirements'));
			expect(requirements).toMatch(/self-hosted n8n/i);
			expect(requirements).toContain(PACKAGE_NAME);
		},
	);

	test.each(FILES)('%s: a short sticky note over each step, and nothing overlaps', (file) => {
		const template = load(file);
		const overview = overviewOf(template)[0];
		const steps = template.nodes.filter((node) => !isSticky(node));
		const notes = template.nodes.filter((node) => isSticky(node) && node !== overview);
		const unnoted = steps
			.filter((step) => !notes.some((note) => inside(box(step), box(note))))
			.map((step) => step.name);
		expect(unnoted).toEqual([]);
		for (const note of notes) {
			expect(content(note)).toMatch(/^### \S/);
			expect(content(note).length).toBeLessThanOrEqual(450);
		}
		const clashes: string[] = [];
		steps.forEach((a, i) =>
			steps
				.slice(i + 1)
				.forEach((b) => overlap(box(a), box(b)) && clashes.push(`${a.name} / ${b.name}`)),
		);
		const all = [overview, ...notes];
		all.forEach((a, i) =>
			all
				.slice(i + 1)
				.forEach((b) => overlap(box(a), box(b)) && clashes.push(`${a.name} / ${b.name}`)),
		);
		for (const note of all)
			for (const step of steps)
				if (overlap(box(note), box(step)) && !inside(box(step), box(note)))
					clashes.push(`${note.name} cuts ${step.name}`);
		expect(clashes).toEqual([]);
	});

	test.each(FILES)(
		'%s: the values a user changes are in one Set node, Settings, right after every trigger; no other node names a resource of the user by a literal',
		(file) => {
			const template = load(file);
			const settings = template.nodes.filter((node) => node.name === 'Settings');
			expect(settings.map((node) => node.type)).toEqual(['n8n-nodes-base.set']);
			const assignments = ((settings[0].parameters.assignments as IDataObject)?.assignments ??
				[]) as IDataObject[];
			expect(assignments.length).toBeGreaterThan(0);
			for (const value of assignments) expect(String(value.value ?? '')).not.toBe('');
			const triggers = template.nodes.filter((node) => isTrigger(node) && !isSticky(node));
			expect(triggers.length).toBeGreaterThan(0);
			for (const trigger of triggers)
				expect((template.connections[trigger.name]?.main ?? []).flat().map((c) => c.node)).toEqual([
					'Settings',
				]);
			const sets = template.nodes.filter(
				(node) => node.type === 'n8n-nodes-base.set' && node.name !== 'Settings',
			);
			for (const node of sets)
				expect(
					triggers.some((trigger) =>
						(template.connections[trigger.name]?.main ?? [])
							.flat()
							.some((c) => c.node === node.name),
					),
				).toBe(false);
			const literals = template.nodes
				.filter((node) => !isSticky(node) && node.name !== 'Settings')
				.flatMap((node) =>
					USER_RESOURCES.filter(
						(key) =>
							key in node.parameters &&
							paramText(node.parameters[key]) !== '' &&
							!isExpression(node.parameters[key]),
					).map((key) => `${node.name}.${key}`),
				);
			expect(literals).toEqual([]);
		},
	);

	test.each(FILES)(
		'%s: credentials by placeholder (a name, no id), and no secret anywhere',
		(file) => {
			const template = load(file);
			for (const node of template.nodes) {
				for (const [type, reference] of Object.entries(node.credentials ?? {})) {
					expect({ node: node.name, type, id: reference.id ?? '' }).toEqual({
						node: node.name,
						type,
						id: '',
					});
					expect(reference.name).toMatch(/ account$/);
				}
			}
			const secrets: string[] = [];
			const walk = (value: unknown, where: string) => {
				if (Array.isArray(value)) value.forEach((entry, i) => walk(entry, `${where}[${i}]`));
				else if (value && typeof value === 'object') {
					for (const [key, entry] of Object.entries(value)) {
						if (
							SECRETS.test(key) &&
							entry !== '' &&
							entry !== undefined &&
							typeof entry !== 'object'
						)
							secrets.push(`${where}.${key}`);
						walk(entry, `${where}.${key}`);
					}
				}
			};
			walk(
				template.nodes.map((node) => node.parameters),
				'nodes',
			);
			expect(secrets).toEqual([]);
			const text = readFileSync(path.join(DIR, file), 'utf8');
			expect(text).not.toMatch(/sk-[A-Za-z0-9]{8,}|xox[bp]-|-----BEGIN|"instanceId"/);
		},
	);

	test.each(FILES)(
		"%s: every payout comes after a Dry Run and a person's approval, or through human review, with a mapped External ID; the overview names the guardrails",
		async (file) => {
			const template = load(file);
			const payers = template.nodes.filter(pays);
			if (!payers.length) return;
			const approvals = template.nodes.filter(
				(node) => node.parameters.operation === 'sendAndWait',
			);
			for (const node of payers) {
				const externalId = String(node.parameters.externalId ?? '');
				expect({ node: node.name, externalId }).toEqual({
					node: node.name,
					externalId: expect.stringMatching(/^=\{\{.*(\$json|\$\(|\$fromAI)/),
				});
				if (node.parameters.dryRun === true) continue;
				const approved = approvals.some((approval) =>
					downstream(template.connections, approval.name).has(node.name),
				);
				const reviewed = [...downstream(template.connections, node.name, ['ai_tool'])].some(
					(name) =>
						template.nodes.find((candidate) => candidate.name === name)?.type.endsWith('HitlTool'),
				);
				expect({ node: node.name, approvedOrReviewed: approved || reviewed }).toEqual({
					node: node.name,
					approvedOrReviewed: true,
				});
				if (approved) {
					const dryRuns = payers.filter(
						(candidate) =>
							candidate.parameters.dryRun === true &&
							approvals.some((approval) =>
								downstream(template.connections, candidate.name).has(approval.name),
							),
					);
					expect({ node: node.name, dryRunBeforeTheApproval: dryRuns.length > 0 }).toEqual({
						node: node.name,
						dryRunBeforeTheApproval: true,
					});
				}
			}
			const { credentialType } = await loadPackage();
			const label = (name: string) =>
				credentialType.properties.find((property) => property.name === name)?.displayName;
			const overview = content(overviewOf(template)[0]);
			for (const guardrail of ['maxPerWithdrawalUsd', 'maxPerDayUsd', 'destinations'])
				expect(overview).toContain(`**${label(guardrail)}**`);
			if (payers.some((node) => node.type.endsWith('Tool'))) {
				for (const guardrail of ['allowAgentPayments', 'agentPaymentsNeedHumanReview'])
					expect(overview).toContain(`**${label(guardrail)}**`);
			}
			// A payment in a run another workflow starts (an agent's Call n8n Workflow Tool) is refused
			// unless the credential allows it: the set-up says so (docs/guardrails.md, "Payments in sub-workflows").
			const subWorkflowStarts = template.nodes.filter(
				(node) => node.type === 'n8n-nodes-base.executeWorkflowTrigger',
			);
			if (
				payers.some((node) =>
					subWorkflowStarts.some((start) =>
						downstream(template.connections, start.name).has(node.name),
					),
				)
			) {
				const setUp = overview.slice(
					overview.indexOf('### Set up'),
					overview.indexOf('### Requirements'),
				);
				expect(setUp).toContain(`**${label('allowSubWorkflowPayments')}**`);
			}
		},
	);

	test.each(FILES)(
		"%s: a node names `$('…')` only a node every path to it runs through (no step depends on which source ran)",
		(file) => {
			const template = load(file);
			const through = dominators(template);
			const loose = template.nodes
				.filter((node) => !isSticky(node))
				.flatMap((node) =>
					referencedNames(node)
						.filter((name) => !through(node.name).has(name))
						.map((name) => `${node.name} → $('${name}')`),
				);
			expect(loose).toEqual([]);
		},
	);

	test.each(FILES)(
		'%s: a template that reads a sheet runs without it as shipped (sample rows, or a Data Table): its Google Sheets nodes are disabled and reached only when Settings chooses the sheet',
		(file) => {
			const template = load(file);
			const sheets = template.nodes.filter((node) => node.type === 'n8n-nodes-base.googleSheets');
			if (!sheets.length) return;
			const settings = ((
				template.nodes.find((node) => node.name === 'Settings')?.parameters
					.assignments as IDataObject
			)?.assignments ?? []) as IDataObject[];
			// where its rows come from: rowsFrom (sample rows) or payeesFrom (a Data Table) as shipped, never the sheet
			const source = settings.find(
				(assignment) => assignment.name === 'rowsFrom' || assignment.name === 'payeesFrom',
			);
			expect({ [String(source?.name)]: source?.value }).toEqual(
				source?.name === 'payeesFrom' ? { payeesFrom: 'Data Table' } : { rowsFrom: 'sample rows' },
			);
			const shipped = String(source?.value);
			const parents = parentsOf(template.connections);
			for (const sheet of sheets) {
				expect({ node: sheet.name, disabled: sheet.disabled ?? false }).toEqual({
					node: sheet.name,
					disabled: true,
				});
				// its one way in is an If on that setting whose output it is not with the shipped value
				const [gate] = [...(parents.get(sheet.name) ?? [])];
				const gateNode = template.nodes.find((node) => node.name === gate);
				expect({
					node: sheet.name,
					gate: gateNode?.type,
					onRowsFrom: JSON.stringify(gateNode?.parameters ?? {}).includes(String(source?.name)),
				}).toEqual({ node: sheet.name, gate: 'n8n-nodes-base.if', onRowsFrom: true });
				const condition = (
					(gateNode?.parameters.conditions as IDataObject).conditions as IDataObject[]
				)[0];
				const operation = (condition.operator as IDataObject).operation;
				const output = template.connections[String(gate)].main.findIndex((targets) =>
					targets.some((target) => target.node === sheet.name),
				);
				const sampleGoesTrue =
					operation === 'equals'
						? condition.rightValue === shipped
						: operation === 'notEquals'
							? condition.rightValue !== shipped
							: undefined;
				expect({
					node: sheet.name,
					reachedBySampleRows:
						sampleGoesTrue === undefined ? 'unknown' : (output === 0) === sampleGoesTrue,
				}).toEqual({ node: sheet.name, reachedBySampleRows: false });
			}
		},
	);

	test.each(FILES)(
		'%s: a payment and its Dry Run stop on a refused row (no Continue On Fail), or their error output ends in Stop and Error',
		(file) => {
			const template = load(file);
			const continuing = template.nodes
				.filter(
					(node) =>
						pays(node) &&
						!node.type.endsWith('Tool') &&
						(node as TemplateNode & { onError?: string }).onError,
				)
				.filter((node) => {
					const onError = (node as TemplateNode & { onError?: string }).onError;
					if (onError !== 'continueErrorOutput') return true;
					const errorBranch = (template.connections[node.name]?.main?.[1] ?? []).map(
						(target) => target.node,
					);
					const ends = errorBranch.flatMap((name) => [
						name,
						...downstream(template.connections, name),
					]);
					return !ends.some(
						(name) =>
							template.nodes.find((candidate) => candidate.name === name)?.type ===
							'n8n-nodes-base.stopAndError',
					);
				})
				.map((node) => node.name);
			expect(continuing).toEqual([]);
		},
	);

	test.each(FILES)(
		"%s: a Data Table filter of several conditions says how they combine (the node's default, Any Condition, matches any of them)",
		(file) => {
			const loose = load(file)
				.nodes.filter((node) => node.type === 'n8n-nodes-base.dataTable')
				.filter(
					(node) =>
						(((node.parameters.filters as IDataObject)?.conditions as IDataObject[]) ?? []).length >
							1 && node.parameters.matchType === undefined,
				)
				.map((node) => node.name);
			expect(loose).toEqual([]);
		},
	);

	// n8n's Data Table "If Row Exists" / "If Row Does Not Exist" offer no operator (getSelectFields(…,
	// skipOperator)): a condition's `condition` is dropped when n8n reads the parameters and every
	// condition is "equals". A stored "not equal" there silently tests the opposite.
	test.each(FILES)(
		'%s: a Data Table row-exists check compares by equality only (it has no operator)',
		(file) => {
			const operators = load(file)
				.nodes.filter(
					(node) =>
						node.type === 'n8n-nodes-base.dataTable' &&
						/^row(Not)?Exists$/.test(String(node.parameters.operation)),
				)
				.flatMap((node) =>
					(((node.parameters.filters as IDataObject)?.conditions as IDataObject[]) ?? []).map(
						(condition) => ({ node: node.name, condition: condition.condition }),
					),
				)
				.filter(({ condition }) => condition !== undefined && condition !== 'eq');
			expect(operators).toEqual([]);
		},
	);

	test.each(FILES)(
		'%s: a section with its picture in templates/README.md, and imported by npm start',
		(file) => {
			const template = load(file);
			const slug = file.replace(/\.json$/, '');
			const section = README.split(/\n(?=## )/).find((part) =>
				part.startsWith(`## ${template.name}\n`),
			);
			expect(section).toBeDefined();
			expect(section).toContain(`](${file})`);
			const picture = /!\[[^\]]+\]\((images\/[\w-]+\.png)\)/.exec(section ?? '')?.[1];
			expect(picture).toBe(`images/${slug}.png`);
			expect(existsSync(path.join(DIR, String(picture)))).toBe(true);
			expect(readFileSync(path.join(PACKAGE_ROOT, 'tooling', 'setup.mjs'), 'utf8')).toContain(
				`'${slug}'`,
			);
		},
	);
});

describe('the daily statement email says which attached file goes where (issue 71)', () => {
	/** The email's text for one file item: its `{{ … }}` parts evaluated with the item's `$json`, as n8n's expressions evaluate them. */
	const emailOf = (json: IDataObject) => {
		const node = load('daily-statement.json').nodes.find(
			(each) => each.name === 'Email the Accountant',
		);
		const html = String(node?.parameters.html).replace(/^=/, '');
		return html.replace(/\{\{([\s\S]*?)\}\}/g, (_, code: string) =>
			String(runInNewContext(`(${code})`, { $json: json, Number, Object, JSON })),
		);
	};
	const item = (fileFormat: string, fileNames: string[]) => ({
		day: '2026-03-10',
		currency: 'NGN',
		fileFormat,
		fileNames,
		fileRows: 3,
		openingBalances: { NGN: 1 },
		net: { NGN: 1 },
		closingBalances: { NGN: 2 },
		balanceCheck: { result: 'balanced', why: '' },
		exceptionCount: 0,
		openingBalancesSource: 'given',
	});

	test.each([
		[
			'xeroCsv',
			['statement-2026-03-10-NGN-xero.csv'],
			/statement-2026-03-10-NGN-xero\.csv[^<]*Xero[^<]*NGN/,
		],
		[
			'xeroCsv',
			['statement-2026-03-10-NGN-xero-part1.csv', 'statement-2026-03-10-NGN-xero-part2.csv'],
			/one after the other/,
		],
		[
			'quickbooksCsv',
			['statement-2026-03-10-NGN-quickbooks.csv'],
			/statement-2026-03-10-NGN-quickbooks\.csv[^<]*QuickBooks Online[^<]*NGN/,
		],
		['ofx', ['statement-2026-03-10-NGN.ofx'], /statement-2026-03-10-NGN\.ofx[^<]*OFX[^<]*NGN/],
	])('%s %j: the file named, the package and the account it goes into', (format, names, says) => {
		const text = emailOf(item(format, names));
		expect(text).toMatch(says);
		expect(text).not.toMatch(/undefined/);
	});
});
