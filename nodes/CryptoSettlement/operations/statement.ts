import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { HttpCall } from '../../service/api';
import { scalarText } from '../../service/values';
import { runOf } from '../engine/engine';
import { optionsCollection, requiredText } from '../fields/fields';
import type { Params } from '../record/params';
import type { ResourceSpecs } from '../record/record';
import { statementCsv } from '../statement/csv';
import { parseDay, type Day } from '../statement/day';
import { linesOf, numberIn, type Line } from '../statement/lines';
import { MATCH_BY, MATCH_RESULTS, matchIndex, matchRow, type MatchBy, type MatchIndex } from '../statement/match';
import { ACCOUNT_PATH, LIST_PATHS, readStatementLists, type ReadLists } from '../statement/read';
import { readBalances, summarize } from '../statement/summary';

/**
 * Statement (reconciliation, docs/statement.md): the statement of one UTC day, and a team's own
 * rows matched against the service's records. Both only read. The lists are read once per node
 * run, whatever the number of items (each item's day shares its day's read).
 */

const OUTPUTS = ['summary', 'lines', 'exceptions', 'file'] as const;
const FILE_CURRENCIES = ['all', 'NGN', 'GHS', 'USD'] as const;

const GET_FIELDS: INodeProperties[] = [
	{
		displayName: 'Day',
		name: 'day',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-03-10',
		description:
			'The day of the statement, YYYY-MM-DD, in UTC whatever the time zone of n8n or the workflow. Empty: yesterday (UTC).',
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'summary',
		options: [
			{ name: 'Summary', value: 'summary', description: 'One item: totals per kind and currency, the exceptions, closing balances and the balance check' },
			{ name: 'Lines', value: 'lines', description: 'One item per line: every deposit, payout, fee and refund of the day' },
			{ name: 'Exceptions', value: 'exceptions', description: 'Only the lines that need a person, each saying what to check (no item when there is none)' },
			{ name: 'File', value: 'file', description: 'One item with the summary and a CSV file in binary property "data", in the layout accounting software imports as a bank statement' },
		],
	},
	optionsCollection([
		{
			displayName: 'Pending After Hours',
			name: 'pendingAfterHours',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 24,
			description: 'A deposit or withdrawal not final after this many hours is an exception',
		},
		{
			displayName: 'Opening Balances',
			name: 'openingBalances',
			type: 'json',
			default: '{}',
			description:
				'The balances at the start of the day, currency → amount (e.g. {"NGN": 1500000, "USD": 2000}): map the previous day\'s closingBalances here. Gives closingBalances and the balance check.',
		},
		{
			displayName: 'File Currency',
			name: 'fileCurrency',
			type: 'options',
			default: 'all',
			options: FILE_CURRENCIES.map((value) => ({ name: value === 'all' ? 'All Currencies' : value, value })),
			description: 'Only the lines of this currency in the CSV file: a bank statement import is for one account, in one currency',
			displayOptions: { show: { '/output': ['file'] } },
		},
	]),
];

const MATCH_FIELDS: INodeProperties[] = [
	{
		displayName: 'Match By',
		name: 'matchBy',
		type: 'options',
		default: 'externalId',
		options: [
			{ name: 'External ID (Payouts)', value: 'externalId', description: 'A withdrawal under the row\'s External ID' },
			{ name: 'Wallet Address (Deposits)', value: 'walletAddress', description: 'Deposits to the row\'s wallet address' },
			{ name: 'Wallet Label (Deposits)', value: 'walletLabel', description: 'Deposits to the wallet(s) with the row\'s label' },
		],
	},
	requiredText('value', 'Value', {
		placeholder: 'e.g. {{ $json.payoutId }}',
		description: 'The row\'s key: its External ID, wallet address or wallet label (usually an expression over the input item)',
	}),
	{
		displayName: 'Expected Amount (USD)',
		name: 'expectedAmount',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			'The amount the row expects, in USD (a withdrawal\'s amount, a deposit\'s amountReceived). 0 or empty: the amount is not checked.',
	},
	optionsCollection([
		{
			displayName: 'Amount Tolerance (USD)',
			name: 'amountTolerance',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'How far the record\'s amount may be from Expected Amount and still match',
		},
	]),
];

/** What one node run read: per kind of read, the lists (and for Match their index), shared by its items. */
const reads = new WeakMap<object, Map<string, Promise<ReadLists & { index?: MatchIndex }>>>();

function readOnce(ctx: IExecuteSingleFunctions, key: string, read: () => Promise<ReadLists & { index?: MatchIndex }>) {
	const run = runOf(ctx);
	let byKey = reads.get(run);
	if (!byKey) reads.set(run, (byKey = new Map()));
	let lists = byKey.get(key);
	if (!lists) {
		const reading = read();
		// A failed read is not kept: n8n's Retry On Fail (the same node run) reads again.
		reading.catch(() => {
			if (byKey?.get(key) === reading) byKey.delete(key);
		});
		lists = reading;
		byKey.set(key, lists);
	}
	return lists;
}

function optionsOf(params: Params): IDataObject {
	const options = params.raw('options', {});
	return options && typeof options === 'object' && !Array.isArray(options) ? (options as IDataObject) : {};
}

function pendingAfterHoursOf(params: Params): number {
	const value = optionsOf(params).pendingAfterHours;
	if (value === undefined || value === null || value === '') return 24;
	const hours = numberIn(value);
	if (hours === undefined || hours < 0) params.assert([{ field: 'pendingAfterHours', message: 'pendingAfterHours must be a number of hours, 0 or more', value }]);
	return hours as number;
}

/** The CSV file as n8n binary data, with the summary as the item's JSON. */
async function fileItem(params: Params, day: Day, lines: Line[], summary: IDataObject, redact: <T>(value: T) => T): Promise<INodeExecutionData> {
	const chosen = scalarText(optionsOf(params).fileCurrency) || 'all';
	if (!(FILE_CURRENCIES as readonly string[]).includes(chosen)) {
		params.assert([{ field: 'fileCurrency', message: `fileCurrency must be one of ${FILE_CURRENCIES.join(', ')}`, value: chosen }]);
	}
	const currency = chosen === 'all' ? undefined : chosen;
	// The file holds service text (labels, reasons): written from lines redacted like every output.
	const csv = statementCsv(redact(lines), currency);
	const fileName = `statement-${day.day}${currency ? `-${currency}` : ''}.csv`;
	const data = await params.ctx.helpers.prepareBinaryData(Buffer.from(csv, 'utf8'), fileName, 'text/csv');
	return { json: { ...summary, fileName, fileRows: csv.split('\r\n').length - 2 }, binary: { data } };
}

async function getStatement(params: Params, http: HttpCall, redact: <T>(value: T) => T): Promise<INodeExecutionData[]> {
	const { ctx } = params;
	const now = Date.now();
	const dayValue = params.raw('day', '');
	const day = parseDay(dayValue, now);
	if ('error' in day) return params.assert([{ field: 'day', message: `day ${day.error}`, value: dayValue }]) as never;
	const output = scalarText(params.raw('output', 'summary'));
	if (!(OUTPUTS as readonly string[]).includes(output)) {
		params.assert([{ field: 'output', message: `output must be one of ${OUTPUTS.join(', ')}`, value: output }]);
	}
	const pendingAfterHours = pendingAfterHoursOf(params);
	const balancesValue = optionsOf(params).openingBalances;
	const openingBalances = readBalances(balancesValue);
	if ('error' in openingBalances) {
		params.assert([{ field: 'openingBalances', message: `openingBalances ${String(openingBalances.error)}`, value: balancesValue }]);
	}
	const lists = await readOnce(ctx, `day:${day.day}`, async () => await readStatementLists(ctx, http, { since: day.start, account: true }));
	const lineOptions = { day, now, pendingAfterHours };
	const lines = linesOf(lists, lineOptions);
	if (output === 'lines') return lines.map((json) => ({ json }));
	if (output === 'exceptions') return lines.filter((line) => line.exception).map((json) => ({ json }));
	const summary = summarize({
		day,
		lines,
		linesAfter: linesOf(lists, lineOptions, (record) => Date.parse(scalarText(record.createdAt)) >= day.end),
		account: lists.account,
		openingBalances: openingBalances as Record<string, number>,
		now,
		pendingAfterHours,
	});
	summary.pagesRead = lists.pages;
	if (output === 'file') return [await fileItem(params, day, lines, summary, redact)];
	return [{ json: summary }];
}

/** The row's own fields (none when the engine gives the node no main input, as for an AI agent's tool). */
function inputOf(ctx: IExecuteSingleFunctions): IDataObject {
	try {
		return ctx.getInputData()?.json ?? {};
	} catch {
		return {};
	}
}

async function matchItem(params: Params, http: HttpCall): Promise<INodeExecutionData[]> {
	const { ctx } = params;
	const by = scalarText(params.raw('matchBy', 'externalId'));
	if (!(MATCH_BY as readonly string[]).includes(by)) {
		params.assert([{ field: 'matchBy', message: `matchBy must be one of ${MATCH_BY.join(', ')}`, value: by }]);
	}
	const key = params.requiredText('value');
	const expectedValue = params.raw('expectedAmount', 0);
	const expected = numberIn(expectedValue);
	if (expected === undefined && expectedValue !== '' && expectedValue !== null && expectedValue !== undefined) {
		params.assert([{ field: 'expectedAmount', message: 'expectedAmount must be a number of USD', value: expectedValue }]);
	}
	const toleranceValue = optionsOf(params).amountTolerance ?? 0;
	const tolerance = numberIn(toleranceValue);
	if (tolerance === undefined || tolerance < 0) {
		params.assert([{ field: 'amountTolerance', message: 'amountTolerance must be a number of USD, 0 or more', value: toleranceValue }]);
	}
	const lists = await readOnce(ctx, 'all', async () => {
		const read = await readStatementLists(ctx, http, { account: false });
		return { ...read, index: matchIndex(read) };
	});
	const result = matchRow(lists.index as MatchIndex, by as MatchBy, key, expected || undefined, tolerance as number);
	return [{ json: { ...inputOf(ctx), ...result } }];
}

const READS = `${Object.values(LIST_PATHS).join(', ')}`;
/** Every route the statement reads (the README's Operations table). */
const ROUTES_READ = [...Object.values(LIST_PATHS), ACCOUNT_PATH].map((path) => `GET ${path}`);

export const statement: ResourceSpecs = {
	get: {
		option: {
			name: 'Get',
			action: 'Get a statement',
			description: `The statement of one UTC day: every deposit, payout, fee and refund as a line, with totals, exceptions and a balance check (reads ${READS}, ${ACCOUNT_PATH})`,
		},
		method: 'GET',
		path: LIST_PATHS.transactions,
		source: 'spec + public notes',
		kind: 'report',
		reads: ROUTES_READ,
		money: 'none',
		fields: GET_FIELDS,
		report: getStatement,
	},
	match: {
		option: {
			name: 'Match',
			action: 'Match records against the service',
			description: `Each input row matched by External ID, wallet address or label: ${Object.keys(MATCH_RESULTS).join(', ')} (reads ${READS} once per run)`,
		},
		method: 'GET',
		path: LIST_PATHS.withdrawals,
		source: 'spec + public notes',
		kind: 'report',
		reads: ROUTES_READ.slice(0, 3),
		money: 'none',
		fields: MATCH_FIELDS,
		report: matchItem,
	},
};
