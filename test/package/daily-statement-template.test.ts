/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads the template file */
/**
 * The daily statement template (templates/daily-statement.json) names each line's Payee (issues 49,
 * 70): the names of its payee Data Table (reference → payee: a vendor's External ID, a customer's
 * wallet label; `npm start` makes it with the Pay vendors sample rows' vendors), and the customers
 * Settings may give per wallet label. Its steps from the trigger to Statement File run through
 * n8n-core's WorkflowExecute against the fake API, with the template's own parameters and Code. n8n's
 * base nodes are not installed here: each is a stand-in doing what it does (Settings sets its values,
 * Payees From the Data Table? routes on payeesFrom, Read Payee Names gives the table's rows, a Code
 * step runs its JavaScript with n8n's `$input` and `$('…')`, Payee Rows passes its items on, Opening
 * Balances finds no row: the first run). That the whole template runs in real n8n and mails these files is the e2e's
 * (e2e/lib/templates/daily-statement.mjs, statementDaysCheck).
 */
import { sandboxCredentials } from '../helpers/credentials';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { parse as parseCsv } from 'csv-parse/sync';
import type {
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import { startFakeApi, type FakeApi } from '../../fake-api/src/server';
import { CREDENTIAL_TYPE, PACKAGE_ROOT, runWorkflow } from '../helpers';

const DAY = '2026-03-10';
const template = JSON.parse(
	readFileSync(path.join(PACKAGE_ROOT, 'templates', 'daily-statement.json'), 'utf8'),
) as { nodes: INode[]; connections: IConnections };

/** A stand-in for one of n8n's base nodes: its parameters kept as the template has them. */
const standIn = (
	name: string,
	parameters: string[],
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>,
	outputs = 1,
): INodeType => ({
	description: {
		displayName: name,
		name,
		group: ['transform'],
		version: 1,
		description: `stand-in for n8n's ${name}`,
		defaults: { name },
		inputs: ['main'],
		outputs: Array.from({ length: outputs }, () => 'main' as const),
		properties: parameters.map((parameter) => ({
			displayName: parameter,
			name: parameter,
			type: 'json' as const,
			default: '',
		})),
	},
	execute,
});

/** The node's own parameter as the template stores it (an expression left to evaluate). */
const raw = (context: IExecuteFunctions, name: string) =>
	context.getNode().parameters[name] as IDataObject;
const valueOf = (context: IExecuteFunctions, value: unknown, index: number) =>
	(typeof value === 'string' && value.startsWith('=')
		? context.evaluateExpression(value.slice(1), index)
		: value) as IDataObject[string];

const BASE_NODES: Record<string, INodeType> = {
	'n8n-nodes-base.scheduleTrigger': standIn('scheduleTrigger', [], async function () {
		return [this.getInputData()];
	}),
	'n8n-nodes-base.set': standIn('set', ['assignments'], async function () {
		return [
			this.getInputData().map((_, index) => ({
				json: Object.fromEntries(
					((raw(this, 'assignments').assignments ?? []) as IDataObject[]).map((a) => [
						String(a.name),
						valueOf(this, a.value, index),
					]),
				),
			})),
		];
	}),
	'n8n-nodes-base.if': standIn(
		'if',
		['conditions'],
		async function () {
			const [condition] = raw(this, 'conditions').conditions as IDataObject[];
			const operation = (condition.operator as IDataObject).operation;
			const holds = (index: number) => {
				const left = valueOf(this, condition.leftValue, index);
				if (operation === 'equals') return left === condition.rightValue;
				if (operation === 'notEquals') return left !== condition.rightValue;
				throw new Error(`the If stand-in does not know ${String(operation)}`);
			};
			const items = this.getInputData();
			return [items.filter((_, index) => holds(index)), items.filter((_, index) => !holds(index))];
		},
		2,
	),
	'n8n-nodes-base.code': standIn('code', ['jsCode'], async function () {
		// as n8n's Code node runs it (once for all items): its JavaScript with the workflow's `$input` and `$`
		const { $input, $ } = this.getWorkflowDataProxy(0);
		const step = runInNewContext(
			`(function ($input, $) {\n${String(this.getNode().parameters.jsCode)}\n})`,
			{},
		) as (input: unknown, node: unknown) => INodeExecutionData[];
		return [step($input, $).map((item) => ({ json: item.json }))];
	}),
	'n8n-nodes-base.noOp': standIn('noOp', [], async function () {
		return [this.getInputData()];
	}),
	// disabled in the template: the engine passes its input on without running it
	'n8n-nodes-base.googleSheets': standIn(
		'googleSheets',
		['documentId', 'sheetName', 'options'],
		async function () {
			throw new Error('Read Payout Rows ran: it is disabled as shipped');
		},
	),
	// Read Payee Names: the payee table's rows; Opening Balances, the first run: no balances kept yet
	// (each node's Always Output Data gives one empty item for no row)
	'n8n-nodes-base.dataTable': standIn(
		'dataTable',
		['resource', 'operation', 'dataTableId', 'filters', 'limit', 'returnAll'],
		async function () {
			return [
				this.getNode().name === 'Read Payee Names' ? payeeTable.map((json) => ({ json })) : [],
			];
		},
	),
};

/** The template from its trigger to Statement File, as a user fills in Settings (`settings`). */
function upToTheFile(settings: Record<string, string>, credentialId: string) {
	const names = new Set([
		'Every Morning',
		'Settings',
		'Payees From the Data Table?',
		'Read Payee Names',
		'Read Payout Rows',
		'Payee Rows',
		'Payee Names',
		'Opening Balances',
		'Statement File',
	]);
	const nodes = template.nodes
		.filter((node) => names.has(node.name))
		.sort((a, b) => Number(b.name === 'Every Morning') - Number(a.name === 'Every Morning'))
		.map((node) => structuredClone(node));
	const assignments = (
		nodes.find((node) => node.name === 'Settings')?.parameters.assignments as IDataObject
	).assignments as IDataObject[];
	// a setting the template lacks is not added: the run then shows what the template does without it
	for (const [name, value] of Object.entries(settings)) {
		const assignment = assignments.find((candidate) => candidate.name === name);
		if (assignment) assignment.value = value;
	}
	for (const node of nodes)
		if (node.credentials?.[CREDENTIAL_TYPE])
			node.credentials[CREDENTIAL_TYPE] = { id: credentialId, name: 'Crypto Settlement account' };
	const connections = Object.fromEntries(
		Object.entries(template.connections)
			.filter(([from]) => names.has(from) && from !== 'Statement File')
			.map(([from, types]) => [
				from,
				{
					main: (types.main ?? []).map((targets) =>
						(targets ?? []).filter((target) => names.has(target.node)),
					),
				},
			]),
	);
	return { nodes, connections };
}

/** The rows a template's Sample Payout Rows step gives (its Code run on its own). */
function sampleRows(file: string): IDataObject[] {
	const { nodes } = JSON.parse(
		readFileSync(path.join(PACKAGE_ROOT, 'templates', file), 'utf8'),
	) as { nodes: INode[] };
	const code = String(nodes.find((node) => node.name === 'Sample Payout Rows')?.parameters.jsCode);
	return (runInNewContext(`(function () {\n${code}\n})`, {}) as () => INodeExecutionData[])().map(
		(item) => item.json,
	);
}

/** The payee table's rows in a run (reference → payee). */
let payeeTable: IDataObject[] = [];

let fakeApi: FakeApi;
beforeAll(async () => {
	fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000 });
	fakeApi.seedDay({ day: DAY, records: 40 });
});
afterAll(async () => await fakeApi.close());

const credentials = () => ({
	[CREDENTIAL_TYPE]: sandboxCredentials(fakeApi) as never,
});

describe('Send a daily … statement: the Payee of each line is the name the workflow knows', () => {
	test("as shipped (a payee Data Table): a payout's Payee is its vendor's name in the table, under its External ID; a deposit's, the customer of its wallet label", async () => {
		// One payout of the day paid under a sample row's External ID, as Pay vendors pays it.
		const payout = fakeApi.state.withdrawals.find(
			(w) =>
				w.createdAt.startsWith(DAY) && w.type === 'crypto' && !w.trade && w.status === 'completed',
		);
		if (!payout) throw new Error(`no completed crypto payout seeded on ${DAY}`);
		payout.externalId = 'SAMPLE-INV-1002';
		const label = `${DAY}-customer-1`;
		const wallet = fakeApi.state.wallets.find((candidate) => candidate.label === label);
		const deposit = fakeApi.state.trades.find(
			(trade) =>
				trade.wallet === wallet?.id &&
				trade.status === 'completed' &&
				trade.updatedAt.startsWith(DAY),
		);
		if (!deposit) throw new Error(`no completed deposit seeded on ${DAY} into ${label}`);

		// the table as npm start makes it: Pay vendors' sample vendors, and a customer per seeded label
		payeeTable = [
			...sampleRows('pay-vendors-from-a-sheet.json').map((row) => ({
				reference: row['External ID'],
				payee: row.Vendor,
			})),
			{ reference: label, payee: 'Ada Obi' },
		];
		const run = await runWorkflow({
			workflow: upToTheFile({ statementDay: DAY }, 'cred-1'),
			credentials: credentials(),
			nodeTypes: BASE_NODES,
		});
		expect(run.error?.message).toBeUndefined();
		const files = run.output('Statement File');
		expect(files.length).toBeGreaterThan(0);
		const payees = new Map<string, string>();
		for (const file of files) {
			const rows = parseCsv(
				Buffer.from(String(file.binary?.data?.data), 'base64').toString('utf8'),
				{ columns: true },
			) as Array<Record<string, string>>;
			for (const row of rows) payees.set(row.Reference, row.Payee);
		}
		expect({
			payout: payees.get(`cryptoWithdrawal:${payout.id}`),
			deposit: payees.get(`deposit:${deposit.id}`),
		}).toEqual({ payout: 'Bolu Logistics', deposit: 'Ada Obi' });
	});

	test('an empty payee table still gives the file: each line keeps the name its record gives; Settings → customerPerWalletLabel names a customer', async () => {
		payeeTable = [];
		const label = `${DAY}-customer-2`;
		const wallet = fakeApi.state.wallets.find((candidate) => candidate.label === label);
		const deposit = fakeApi.state.trades.find(
			(trade) =>
				trade.wallet === wallet?.id &&
				trade.status === 'completed' &&
				trade.updatedAt.startsWith(DAY),
		);
		if (!deposit) throw new Error(`no completed deposit seeded on ${DAY} into ${label}`);
		const run = await runWorkflow({
			workflow: upToTheFile(
				{ statementDay: DAY, customerPerWalletLabel: JSON.stringify({ [label]: 'Bolu Ade' }) },
				'cred-1',
			),
			credentials: credentials(),
			nodeTypes: BASE_NODES,
		});
		expect(run.error?.message).toBeUndefined();
		const rows = run.output('Statement File').flatMap(
			(file) =>
				parseCsv(Buffer.from(String(file.binary?.data?.data), 'base64').toString('utf8'), {
					columns: true,
				}) as Array<Record<string, string>>,
		);
		expect(rows.length).toBeGreaterThan(0);
		expect(rows.find((row) => row.Reference === `deposit:${deposit.id}`)?.Payee).toBe('Bolu Ade');
	});

	test('customers that are not an object of wallet label → name stop the run at Payee Names, naming the setting', async () => {
		const run = await runWorkflow({
			workflow: upToTheFile({ statementDay: DAY, customerPerWalletLabel: '["Ada Obi"]' }, 'cred-1'),
			credentials: credentials(),
			nodeTypes: BASE_NODES,
		});
		expect(run.nodeError('Payee Names')?.message).toMatch(
			/customerPerWalletLabel must be a JSON object of wallet label → customer/,
		);
		expect(run.output('Statement File')).toEqual([]);
	});
});
