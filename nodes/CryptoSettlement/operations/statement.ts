import type {
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import type { HttpCall } from '../../service/api';
import { sharedOf } from '../../service/boundedMemory';
import { isObject, objectIn, scalarText } from '../../service/values';
import { statedNumber } from '../../service/money';
import { runOf } from '../engine/engine';
import { requiredText } from '../fields/fields';
import { optionsProperty } from '../../events/events';
import type { Params } from '../record/params';
import type { ResourceSpecs } from '../record/record';
import { DAY_MS } from '../../service/utcDay';
import { DATE_FORMATS, type DateFormat } from '../statement/csv';
import { LOOK_BACK_DAYS, MAX_RANGE_DAYS, parseDay, parseRange, type Day } from '../statement/day';
import { FILE_FORMATS, StatementFiles, type FileFormat } from '../statement/files';
import { OFX_ACCTID_MAX, ofxAccountIdOf } from '../statement/ofx';
import { credentialsOf } from '../../service/credentials';
import { ROUTES } from '../../service/routes';
import { LineMaker, linesOf, type Line, type LineOptions } from '../statement/lines';
import { DayOrder } from '../statement/order';
import { MATCH_BY, MATCH_RESULTS, matchIndex, matchRow } from '../statement/match';
import {
	ACCOUNT_PATH,
	LIST_PATHS,
	readStatementDay,
	readStatementLists,
	type ReadLists,
} from '../statement/statementLists';
import type { KeptRecords } from '../statement/recordColumns';
import { closingBalanceOf, LineTally, readBalances, summarize } from '../statement/summary';

/** Statement (reconciliation, docs/statement.md): Get and Match, both reads, their lists read once per node run. */

const OUTPUTS = ['summary', 'lines', 'exceptions', 'file'] as const;

/** The most lines Output `lines` gives as items (docs/statement.md, "Speed"). */
const LINES_OUTPUT_MAX = 100_000;
const FILE_CURRENCIES = ['all', 'NGN', 'GHS', 'USD'] as const;

const GET_FIELDS: INodeProperties[] = [
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		default: 'day',
		options: [
			{ name: 'Day', value: 'day', description: 'The statement of one UTC day' },
			{
				name: 'Range',
				value: 'range',
				description: `The statement of several whole UTC days as one (at most ${MAX_RANGE_DAYS}), with each day's balances and totals`,
			},
		],
	},
	{
		displayName: 'Day',
		name: 'day',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-03-10',
		description:
			'The day of the statement, YYYY-MM-DD, in UTC whatever the time zone of n8n or the workflow. Empty: yesterday (UTC).',
		displayOptions: { show: { period: ['day'] } },
	},
	{
		displayName: 'From',
		name: 'from',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 2026-03-01',
		description: 'The first day of the range, YYYY-MM-DD (UTC)',
		displayOptions: { show: { period: ['range'] } },
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 2026-03-31',
		description: `The last day of the range, YYYY-MM-DD (UTC), included; at most ${MAX_RANGE_DAYS} days after From's`,
		displayOptions: { show: { period: ['range'] } },
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'summary',
		options: [
			{
				name: 'Summary',
				value: 'summary',
				description:
					'One item: totals per kind and currency, the exceptions, closing balances and the balance check',
			},
			{
				name: 'Lines',
				value: 'lines',
				description: 'One item per line: every deposit, payout, fee and refund of the day',
			},
			{
				name: 'Exceptions',
				value: 'exceptions',
				description:
					'Only the lines that need a person, each saying what to check (no item when there is none)',
			},
			{
				name: 'File',
				value: 'file',
				description:
					'One item per currency that moved, each with the summary and that currency\'s file in binary property "data", in the format accounting software imports as a bank statement',
			},
		],
	},
	optionsProperty([
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
				'The balances at the start of the day, currency → amount (e.g. {"NGN": 1500000, "USD": 2000}): map the previous day\'s closingBalances here for the balance check. Empty: derived from the service\'s balances (the first run).',
		},
		{
			displayName: 'File Format',
			name: 'fileFormat',
			type: 'options',
			default: 'xeroCsv',
			options: [
				{ name: 'Xero CSV', value: 'xeroCsv', description: FILE_FORMATS.xeroCsv },
				{ name: 'QuickBooks CSV', value: 'quickbooksCsv', description: FILE_FORMATS.quickbooksCsv },
				{ name: 'OFX', value: 'ofx', description: FILE_FORMATS.ofx },
			],
			description:
				'The format of the files: the one your accounting software imports as a bank statement',
			displayOptions: { show: { '/output': ['file'] } },
		},
		{
			displayName: 'Date Format',
			name: 'dateFormat',
			type: 'options',
			default: 'YYYY-MM-DD',
			options: DATE_FORMATS.map((value) => ({ name: value, value })),
			description:
				"How the CSV files write dates: the format your accounting software (or its organisation's region) expects",
			displayOptions: { show: { '/output': ['file'] } },
		},
		{
			displayName: 'Payee Names',
			name: 'payeeNames',
			type: 'json',
			default: '{}',
			description:
				'Reference → name, e.g. {"payout-2026-001": "Acme Supplies Ltd", "shop-customer-1": "Ada Obi"}: the vendor of an External ID, the customer of a wallet label. The Payee of those lines (OFX NAME), so bank rules and contact matching can use it.',
			displayOptions: { show: { '/output': ['file'] } },
		},
		{
			displayName: 'OFX Account ID',
			name: 'ofxAccountId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 0123456789-{currency}',
			description:
				"The ACCTID of the OFX files, as the account in your accounting software knows it (at most 22 characters; {currency} is replaced by each file's currency, and is needed unless File Currency is one currency). Empty: the service account's ID and the currency.",
			displayOptions: { show: { '/output': ['file'], fileFormat: ['ofx'] } },
		},
		{
			displayName: 'File Currency',
			name: 'fileCurrency',
			type: 'options',
			default: 'all',
			options: FILE_CURRENCIES.map((value) => ({
				name: value === 'all' ? 'All Currencies' : value,
				value,
			})),
			description:
				"Only this currency's file (every file is of one currency: a bank statement import is for one account, in one currency)",
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
			{
				name: 'External ID (Payouts)',
				value: 'externalId',
				description: "A withdrawal under the row's External ID",
			},
			{
				name: 'Wallet Address (Deposits)',
				value: 'walletAddress',
				description: "Deposits to the row's wallet address",
			},
			{
				name: 'Wallet Label (Deposits)',
				value: 'walletLabel',
				description: "Deposits to the wallet(s) with the row's label",
			},
		],
	},
	requiredText('value', 'Value', {
		placeholder: 'e.g. {{ $json.payoutId }}',
		description:
			"The row's key: its External ID, wallet address or wallet label (usually an expression over the input item)",
	}),
	{
		displayName: 'Expected Amount (USD)',
		name: 'expectedAmount',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			"The amount the row expects, in USD (a withdrawal's amount, a deposit's amountReceived). 0 or empty: the amount is not checked.",
	},
	optionsProperty([
		{
			displayName: 'Amount Tolerance (USD)',
			name: 'amountTolerance',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: "How far the record's amount may be from Expected Amount and still match",
		},
	]),
];

/** Each node run's reads, shared by its items and let go once every item took them (docs/statement.md, "Speed"). */
const reads = new WeakMap<object, { byKey: Map<string, Promise<unknown>>; took: Set<number> }>();

/** The items of the node run that will take a read: its input's (the first only with Execute Once); unknown: never let go. */
function itemsOfRun(ctx: IExecuteSingleFunctions): number {
	if (ctx.getNode().executeOnce === true) return 1;
	const items = ctx.getExecuteData().data?.main?.[0];
	return Array.isArray(items) ? items.length : Infinity;
}

function readOnce<T>(ctx: IExecuteSingleFunctions, key: string, read: () => Promise<T>) {
	const run = runOf(ctx);
	const { byKey, took } = sharedOf(reads, run, () => ({ byKey: new Map(), took: new Set() }));
	let lists = byKey.get(key) as Promise<T> | undefined;
	if (!lists) {
		const reading = (lists = read());
		// A failed read is not kept: n8n's Retry On Fail (the same node run) reads again.
		reading.catch(() => {
			if (byKey.get(key) === reading) byKey.delete(key);
		});
		byKey.set(key, reading);
	}
	took.add(ctx.getItemIndex());
	if (took.size >= itemsOfRun(ctx)) reads.delete(run);
	return lists;
}

function optionsOf(params: Params): IDataObject {
	const options = params.raw('options', {});
	return isObject(options) ? options : {};
}

/** A field left empty. */
const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** The field's error, naming it (Params.assert). */
function refuse(params: Params, field: string, message: string, value: unknown): never {
	return params.assert([{ field, message, value }]) as never;
}

function pendingAfterHoursOf(params: Params): number {
	const value = optionsOf(params).pendingAfterHours;
	if (isEmpty(value)) return 24;
	const hours = statedNumber(value);
	if (hours !== undefined && hours >= 0) return hours;
	return refuse(
		params,
		'pendingAfterHours',
		'pendingAfterHours must be a number of hours, 0 or more',
		value,
	);
}

/** A value chosen from a list (`fallback` when given and it is empty), or the field's error. */
function oneOf<T extends string>(
	params: Params,
	name: string,
	value: unknown,
	values: readonly T[],
	fallback?: T,
): T {
	const text = scalarText(value) || fallback || '';
	if (!(values as readonly string[]).includes(text))
		refuse(params, name, `${name} must be one of ${values.join(', ')}`, text);
	return text as T;
}

/** An option chosen from a list, `fallback` when empty. */
const choice = <T extends string>(
	params: Params,
	name: string,
	values: readonly T[],
	fallback: T,
) => oneOf(params, name, optionsOf(params)[name], values, fallback);

/** Payee Names as an object of reference → name, or the field's error. */
function payeeNamesOf(params: Params): Record<string, string> {
	const value = optionsOf(params).payeeNames;
	if (isEmpty(value)) return {};
	const object = objectIn(value);
	const names: Record<string, string> = {};
	if (object) {
		for (const [reference, name] of Object.entries(object))
			if (typeof name === 'string' && name.trim()) names[reference.trim()] = name.trim();
		if (Object.keys(names).length === Object.keys(object).length) return names;
	}
	return refuse(
		params,
		'payeeNames',
		'payeeNames must be an object of reference → name, e.g. {"payout-2026-001": "Acme Supplies Ltd"}',
		value,
	);
}

/** Where OFX Account ID names each file's currency. */
const CURRENCY_PLACE = '{currency}';

/** OFX Account ID per currency, undefined when empty; refused naming the field (docs/statement.md, "Statement → Get"). */
function ofxAccountIdOption(params: Params, format: FileFormat, fileCurrency: string) {
	const value = optionsOf(params).ofxAccountId;
	const text = scalarText(value).trim();
	if (format !== 'ofx' || !text) return undefined;
	const problem = /[\r\n<>&]/.test(text)
		? 'ofxAccountId must be one line of text without <, > or &'
		: fileCurrency === 'all' && !text.includes(CURRENCY_PLACE)
			? `ofxAccountId names one account, but File Currency all gives a file per currency: write ${CURRENCY_PLACE} in it (e.g. "0123456789-${CURRENCY_PLACE}") or choose one File Currency`
			: text.split(CURRENCY_PLACE).join('USD').length > OFX_ACCTID_MAX
				? `ofxAccountId must be at most ${OFX_ACCTID_MAX} characters (OFX's ACCTID), ${CURRENCY_PLACE} counted as the currency's 3`
				: undefined;
	if (problem) refuse(params, 'ofxAccountId', problem, value);
	return (currency: string) => text.split(CURRENCY_PLACE).join(currency);
}

/** How a statement's files are written (the item's options), before its lines are made. */
function fileWriter(params: Params, day: Day): StatementFiles {
	const chosen = choice(params, 'fileCurrency', FILE_CURRENCIES, 'all');
	const format = choice(params, 'fileFormat', Object.keys(FILE_FORMATS) as FileFormat[], 'xeroCsv');
	return new StatementFiles({
		day,
		format,
		dateFormat: choice<DateFormat>(params, 'dateFormat', DATE_FORMATS, 'YYYY-MM-DD'),
		payeeNames: payeeNamesOf(params),
		currency: chosen === 'all' ? undefined : chosen,
		ofxAccountId: ofxAccountIdOption(params, format, chosen),
	});
}

/** The service account an OFX file's ACCTID names when OFX Account ID is empty (docs/statement.md, "The files"). */
async function serviceAccountOf(params: Params, account: IDataObject | undefined): Promise<string> {
	const id = scalarText(account?.id ?? account?._id).trim();
	if (id) return id;
	const environment = scalarText((await credentialsOf(params.ctx)).environment).trim();
	return environment.toUpperCase() || 'ACCOUNT';
}

/** One item per currency that moved: the summary, the currency and its file (Xero parts beyond 1,000 lines in data2, data3, …). */
async function fileItems(
	params: Params,
	writer: StatementFiles,
	order: DayOrder,
	summary: IDataObject,
	account: IDataObject | undefined,
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	const { format, ofxAccountId } = writer.options;
	const serviceAccount =
		format === 'ofx' && !ofxAccountId ? await serviceAccountOf(params, account) : '';
	const accountIdOf =
		ofxAccountId ?? ((currency: string) => ofxAccountIdOf(serviceAccount, currency));
	for (const currency of order.currenciesAdded()) {
		const binary: INodeExecutionData['binary'] = {};
		const fileNames: string[] = [];
		let fileRows = 0;
		// Only an OFX file states a balance (LEDGERBAL).
		const balance = format === 'ofx' ? closingBalanceOf(summary, currency) : undefined;
		if (typeof balance === 'object') {
			items.push(noOfxFile(params, currency, balance.why));
			continue;
		}
		// One file at a time: written, made binary data, let go.
		for (const file of writer.filesOf(currency, order, accountIdOf(currency), balance)) {
			binary[fileNames.length === 0 ? 'data' : `data${fileNames.length + 1}`] =
				await params.ctx.helpers.prepareBinaryData(file.data, file.fileName, file.mimeType);
			fileNames.push(file.fileName);
			fileRows += file.rows;
		}
		const json = {
			...summary,
			currency,
			fileFormat: format,
			fileName: fileNames[0],
			fileNames,
			fileRows,
		};
		items.push({ json, binary });
	}
	return items;
}

/** A currency whose OFX file cannot be written for want of LEDGERBAL: an error item, or the item fails (docs/statement.md, "The files"). */
function noOfxFile(params: Params, currency: string, why: string): INodeExecutionData {
	const message = `The OFX file of ${currency} cannot be written: OFX requires its closing balance (LEDGERBAL), and ${why}`;
	const description = `Give Opening Balances with ${currency} (the previous day's closingBalances), or take this currency's statement as a CSV File Format, which states no balance.`;
	if (params.ctx.continueOnFail())
		return { json: { error: message, message: `${message}. ${description}` } };
	return params.fail(message, description);
}

async function getStatement(params: Params, http: HttpCall): Promise<INodeExecutionData[]> {
	const { ctx } = params;
	const now = Date.now();
	const day = periodOf(params, now);
	const output = oneOf(params, 'output', params.raw('output', 'summary'), OUTPUTS);
	const pendingAfterHours = pendingAfterHoursOf(params);
	const balancesValue = optionsOf(params).openingBalances;
	const openingBalances = readBalances(balancesValue);
	if ('error' in openingBalances)
		refuse(params, 'openingBalances', `openingBalances ${openingBalances.error}`, balancesValue);
	// Records created within the look-back window, so that a movement on the day of an older record is found.
	const since = day.start - LOOK_BACK_DAYS * DAY_MS;
	const read = async () =>
		await readOnce(ctx, `day:${day.day}`, async () => await readStatementDay(ctx, http, since));
	const lineOptions = { day, now, pendingAfterHours };
	if (output === 'lines' || output === 'exceptions')
		return linesOutput(params, output, linesOf(await read(), lineOptions), day);
	// The summary and the files are made from each line as it is made: a busy day's lines are not kept (docs/statement.md, "Speed").
	const writer = output === 'file' ? fileWriter(params, day) : undefined;
	// The read is handed on, not held here: once the summary and the files are made (and every item took it) its records are let go.
	const { tally, account, pages, files } = tallied(await read(), lineOptions, writer);
	const summary = summarize({ day, tally, account, openingBalances, now, pendingAfterHours });
	summary.pagesRead = pages;
	if (writer && files) return await fileItems(params, writer, files, summary, account);
	return [{ json: summary }];
}

/** Period Day's day or Period Range's days, a wrong one refused naming its field (docs/statement.md, "Statement → Get"). */
function periodOf(params: Params, now: number): Day {
	if (oneOf(params, 'period', params.raw('period', 'day'), ['day', 'range'], 'day') === 'day') {
		const dayValue = params.raw('day', '');
		const day = parseDay(dayValue, now);
		return 'error' in day ? refuse(params, 'day', `day ${day.error}`, dayValue) : day;
	}
	const from = params.raw('from', '');
	const to = params.raw('to', '');
	const range = parseRange(from, to, now);
	if (!('error' in range)) return range;
	return refuse(params, range.field, range.error, range.field === 'from' ? from : to);
}

/** Output Lines or Exceptions: the day's lines as items, a day of more than LINES_OUTPUT_MAX refused for Lines. */
function linesOutput(params: Params, output: 'lines' | 'exceptions', lines: Line[], day: Day) {
	if (output === 'exceptions')
		return lines.filter((line) => line.exception).map((json) => ({ json }));
	if (lines.length > LINES_OUTPUT_MAX)
		params.fail(
			`The statement of ${day.day} has ${lines.length} lines: more than the ${LINES_OUTPUT_MAX} items Output Lines gives`,
			'A day this busy is taken as its files: Output File gives one file per currency with every line; with File Format Xero CSV each file is in parts of 1,000 lines (binary data, data2, …), so a workflow imports them, or takes the lines as pages of 1,000 items by reading one part at a time with Extract From File. Output Exceptions gives only the lines that need a person.',
		);
	return lines.map((json) => ({ json }));
}

/** Each line of the day tallied for the summary and, with a writer, its place in its file's order noted (order.ts). */
function tallied(lists: ReadLists<KeptRecords>, lineOptions: LineOptions, writer?: StatementFiles) {
	const tally = new LineTally(lineOptions.day.days);
	const maker = new LineMaker(lists, lineOptions);
	// The files' lines are made again from their records, in the day's order.
	const order = new DayOrder((record) => maker.linesOf(record));
	maker.each((line, placement, record, ordinal, at) => {
		tally.add(line, placement);
		if (writer && placement === 'day' && writer.wants(line)) order.add(line, record, ordinal, at);
	});
	return { tally, account: lists.account, pages: lists.pages, files: writer ? order : undefined };
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
	const by = oneOf(params, 'matchBy', params.raw('matchBy', 'externalId'), MATCH_BY);
	const key = params.requiredText('value');
	const expectedValue = params.raw('expectedAmount', 0);
	const expected = statedNumber(expectedValue);
	if (expected === undefined && !isEmpty(expectedValue))
		refuse(params, 'expectedAmount', 'expectedAmount must be a number of USD', expectedValue);
	const toleranceValue = optionsOf(params).amountTolerance ?? 0;
	const tolerance = statedNumber(toleranceValue);
	if (tolerance === undefined || tolerance < 0)
		refuse(
			params,
			'amountTolerance',
			'amountTolerance must be a number of USD, 0 or more',
			toleranceValue,
		);
	const lists = await readOnce(ctx, 'all', async () => {
		const read = await readStatementLists(ctx, http);
		return { ...read, index: matchIndex(read) };
	});
	const result = matchRow(lists.index, by, key, expected || undefined, tolerance);
	return [{ json: { ...inputOf(ctx), ...result } }];
}

const READS = `${Object.values(LIST_PATHS).join(', ')}`;
/** How the statement's operations read, and every route they read (the README's Operations table). */
const LISTS_ONCE = 'every page of its lists, once per run; docs/statement.md';
const ROUTES_READ = [
	...Object.values(LIST_PATHS),
	ROUTES.bankAccounts.path,
	ROUTES.payoutAddresses.path,
	ACCOUNT_PATH,
].map((path) => `GET ${path}`);

export const statement: ResourceSpecs = {
	get: {
		option: {
			name: 'Get',
			action: 'Get a statement',
			description: `The statement of one UTC day or a range of days: every deposit, payout, fee and refund as a line, with totals, exceptions and a balance check (reads ${READS}, ${ACCOUNT_PATH})`,
		},
		method: 'GET',
		path: LIST_PATHS.transactions,
		source: 'spec + public notes',
		kind: 'report',
		reads: ROUTES_READ,
		readsNote: LISTS_ONCE,
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
		readsNote: LISTS_ONCE,
		money: 'none',
		fields: MATCH_FIELDS,
		report: matchItem,
	},
};
