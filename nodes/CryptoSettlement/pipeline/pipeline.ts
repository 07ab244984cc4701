import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import { joinBatch, planItem, sendInTurn } from './batch';
import { assertUsableCredential, credentialsOf, secretsOf } from '../../service/credentials';
import { createHttpCall, raisedByEngine } from '../engine/engine';
import { checkMoneyClass } from '../money/guardrails';
import { fetchPages, limitOf, WholeList } from '../engine/lists';
import { Params } from '../record/params';
import { wordingOf, type ResourceEntry } from '../record/nodeDescription';
import { redactError } from '../../service/redact';
import { ambiguousError, isSuccess, serviceError } from '../../service/apiErrors';
import { callApi, fillPath, withAnswersRedacted } from '../../service/transport';
import type { ApiRequest, Envelope, HttpCall } from '../../service/api';
import {
	keptFor,
	RETRY_OF_KIND,
	type Echo,
	type OperationSpec,
	type RequestParts,
	type SendTurn,
	type ShownAs,
} from '../record/record';
import { sameAddress } from '../fields/addresses';
import { isObject, scalarText } from '../../service/values';
import { rowOf, withItsRow } from '../../service/rows';
import { idsShown, sameExternalId, sameRecordId } from '../../service/ids';
import { dryRunRecord, dryRunWithdrawal } from '../money/dryRun';
import type { RunDebits } from '../money/balanceCover';
import { lookUpAhead, submitWithdrawal, type LookupAhead } from '../money/withdrawals';

/**
 * The node's one pipeline (docs/architecture.md, "An item's lifecycle"): the engine's pagination
 * hook runs every item of every operation through here, by the operation's kind.
 */

/** Unwraps the envelope: an array gives one record per element; an empty `data` gives a status record. */
function unwrap(body: Envelope, parts: RequestParts): IDataObject[] {
	const { data } = body;
	if (Array.isArray(data))
		return data.map((entry) => (isObject(entry) ? entry : { value: entry as IDataObject[string] }));
	if (isObject(data) && Object.keys(data).length) return [data];
	return [{ success: true, message: body.message ?? '', ...parts.identity }];
}

const own = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** The record of resource → operation; undefined for anything else (including inherited names). */
function specOf(
	resources: Record<string, ResourceEntry>,
	resource: unknown,
	operation: unknown,
): OperationSpec | undefined {
	if (typeof resource !== 'string' || !own(resources, resource)) return undefined;
	const { specs } = resources[resource];
	return typeof operation === 'string' && own(specs, operation) ? specs[operation] : undefined;
}

/**
 * The engine's pagination hook, used for every operation so that each request of the node goes
 * through the same pipeline: validation, pacing, retries, error mapping and output shaping.
 */
export function createOperationRunner(resources: Record<string, ResourceEntry>) {
	return async function runOperation(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const { spec, title } = operationOf(this, resources);
		// Writes that must not repeat join the run's batch now, in item order, before anything is awaited.
		const batch = RETRY_OF_KIND[spec.kind] === 'safe' ? undefined : joinBatch(this);
		let secrets: string[] = [];
		let outcome: Outcome;
		try {
			const credentials = await credentialsOf(this);
			secrets = secretsOf(credentials, takesPin(spec) ? nodePin(this) : undefined);
			assertUsableCredential(this, credentials);
			checkMoneyClass(this, spec, title, credentials);
			// The service's answers are cleaned of the secrets as they come in; what the node writes is not rewritten.
			outcome = await runItem(
				this,
				spec,
				withAnswersRedacted(createHttpCall(this, requestData), secrets),
				batch,
			);
		} catch (error) {
			return await failedItem(this, spec, error, secrets, batch);
		}
		return itemsOf(spec, outcome, this.getItemIndex());
	};
}

type Batch = ReturnType<typeof joinBatch>;

/** What an item's run gives: records (shaped by the record's `output`), or a report's items. */
type Outcome = { records: IDataObject[] } | { reported: INodeExecutionData[] };

/** The item's operation record and its title ("Withdrawal → Get"); an unknown one is refused. */
function operationOf(
	ctx: IExecuteSingleFunctions,
	resources: Record<string, ResourceEntry>,
): { spec: OperationSpec; title: string } {
	// Resource and operation take no expressions (noDataExpression): their stored values are
	// read directly, which spares two parameter resolutions per item.
	const { resource: storedResource, operation: storedOperation } = ctx.getNode().parameters;
	let spec = specOf(resources, storedResource, storedOperation);
	const resource = spec ? String(storedResource) : (ctx.getNodeParameter('resource') as string);
	const operation = spec ? String(storedOperation) : (ctx.getNodeParameter('operation') as string);
	spec ??= specOf(resources, resource, operation);
	if (!spec) {
		const unknown = `Unknown operation '${operation}' of resource '${resource}'`;
		throw new NodeOperationError(ctx.getNode(), unknown, { itemIndex: ctx.getItemIndex() });
	}
	return { spec, title: `${resources[resource].name} → ${spec.option.name}` };
}

/** The item's run, by how its operation runs: a write in the run's batch, a report, or a plain request. */
async function runItem(
	ctx: IExecuteSingleFunctions,
	spec: OperationSpec,
	http: HttpCall,
	batch: Batch | undefined,
): Promise<Outcome> {
	if (batch) return { records: await runInBatch(ctx, spec, http, batch) };
	if (spec.kind === 'report') return { reported: await spec.report(new Params(ctx, spec), http) };
	const params = new Params(ctx, spec);
	const parts = spec.build ? await spec.build(params) : {};
	return { records: await perform(ctx, spec, parts, http, { params }) };
}

/** A write that must not repeat: planned with the run's batch, then sent in its turn (pipeline/batch.ts). */
async function runInBatch(
	ctx: IExecuteSingleFunctions,
	spec: OperationSpec,
	http: HttpCall,
	batch: Batch,
): Promise<IDataObject[]> {
	const parts = await planItem(ctx, batch, spec, http);
	// A withdrawal's External ID is looked up while it waits for its turn (withdrawals.ts, lookUpAhead).
	const ahead =
		spec.kind === 'withdrawal' && parts.idempotency && !parts.dryRun && !parts.existing
			? lookUpAhead(
					ctx,
					http,
					{ ...parts.idempotency, lookupPath: spec.lookupPath },
					batch.near(ctx.getItemIndex()),
				)
			: undefined;
	const send = async (turn: SendTurn) =>
		await perform(ctx, spec, parts, http, { turn, ahead, debits: batch.debits });
	return await sendInTurn(ctx, batch, parts, send, RETRY_OF_KIND[spec.kind] === 'withdrawal');
}

/**
 * A failed item: its place in the batch settled, its error explained and cleaned once more
 * (`redactError`), then output as an error item under Continue On Fail, else raised.
 */
async function failedItem(
	ctx: IExecuteSingleFunctions,
	spec: OperationSpec,
	error: unknown,
	secrets: string[],
	batch: Batch | undefined,
): Promise<INodeExecutionData[]> {
	const itemIndex = ctx.getItemIndex();
	batch?.settle(itemIndex, { state: 'invalid' });
	await spec.explainError?.(ctx, error);
	const redacted = redactError(error, secrets);
	if (ctx.continueOnFail()) {
		// The error item keeps its row's identity: pairedItem, and a message naming the row
		// (counted from 1) and its External ID, so a reconciler knows which payout failed. Only
		// `error` and `message`: n8n (1.x and 2.x) routes exactly such items to the error output,
		// merged with the input row's fields, and replaces the JSON of an item carrying an error
		// object with the bare message.
		const { message, description } = redacted as { message?: string; description?: string };
		const row = rowOf(itemIndex, batch?.entries.get(itemIndex)?.externalId);
		const json = {
			error: String(message),
			message: withItsRow(error, row, description ?? String(message)),
		};
		return [{ json, pairedItem: { item: itemIndex } }];
	}
	// The node's own refusals stay NodeOperationErrors (not "Error code: none" API errors).
	if (redacted instanceof NodeOperationError) return raisedByEngine(redacted);
	throw redacted;
}

/** The item's output, each item paired with its input item (nothing is rewritten: the records came in cleaned). */
function itemsOf(spec: OperationSpec, outcome: Outcome, itemIndex: number): INodeExecutionData[] {
	if ('reported' in outcome)
		return outcome.reported.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
	const records = spec.output ? outcome.records.map(spec.output) : outcome.records;
	return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

/** One item's request(s), by the operation's kind. */
async function perform(
	ctx: IExecuteSingleFunctions,
	spec: OperationSpec,
	parts: RequestParts,
	http: HttpCall,
	{
		params = new Params(ctx, spec),
		turn,
		ahead,
		debits,
	}: { params?: Params; turn?: SendTurn; ahead?: LookupAhead; debits?: RunDebits } = {},
): Promise<IDataObject[]> {
	const { method, path: route, rateLimit } = spec;
	const request: ApiRequest = {
		method,
		route,
		url: fillPath(route, parts.pathParams),
		qs: parts.qs,
		body: parts.body,
		rateLimit,
		wording: wordingOf(spec),
	};
	switch (spec.kind) {
		case 'pagedList':
			if (!parts.keep) return await fetchPages(params, http, request, spec.pageSize);
			// The node's own filter (record/filters.ts): every page is read, then Limit counts the matches.
			return (await fetchPages(new WholeList(ctx, spec), http, request, spec.pageSize))
				.filter(parts.keep)
				.slice(0, limitOf(params));
		case 'withdrawal': {
			if (!parts.idempotency)
				throw new NodeOperationError(ctx.getNode(), 'A withdrawal needs an External ID');
			if (parts.dryRun)
				return [await dryRunWithdrawal(ctx, http, request, parts, spec.lookupPath, debits)];
			if (parts.existing) return [parts.existing];
			const key = { ...parts.idempotency, lookupPath: spec.lookupPath };
			return [await submitWithdrawal(ctx, http, request, key, turn, ahead)];
		}
		default: {
			if (parts.dryRun) return [await dryRunRecord(ctx, request, parts)];
			const policy = RETRY_OF_KIND[spec.kind];
			const response = await callApi(ctx, http, request, policy);
			if (!isSuccess(response))
				throw serviceError(ctx, request, response, spec.errorHint?.[response.statusCode]);
			// A write that must not repeat is done only when the service's envelope says `success: true`,
			// as a withdrawal is created only then (docs/usage.md, "Never paid twice"): any other 2xx (a
			// gateway's own JSON) proves nothing, and the item is in doubt, never reported done.
			if (policy === 'never' && response.body.success !== true) {
				const { statusCode } = response;
				const reason = `HTTP ${statusCode} without success: true`;
				throw ambiguousError(ctx, request, { kind: 'ambiguous', reason, statusCode }, policy, 1);
			}
			if (spec.kind === 'delete')
				return [{ deleted: true, id: Object.values(parts.pathParams ?? {})[0] ?? '' }];
			if (spec.kind === 'read' && spec.records) return spec.records(response.body.data);
			const records = unwrap(response.body, parts);
			assertRecordAsked(params, spec, parts, records);
			assertEchoed(params, spec, parts, records);
			return spec.kind === 'wholeList' ? records.slice(0, limitOf(params)) : records;
		}
	}
}

/**
 * A read or an update of one record answers about that record only: an answer showing other ids fails
 * the item, each id compared by what it holds (`ShownAs`; docs/usage.md, "The record asked for").
 */
function assertRecordAsked(
	params: Params,
	spec: OperationSpec,
	parts: RequestParts,
	records: IDataObject[],
): void {
	if (!spec.byId) return;
	const { param, alsoShownAs = {} } = spec.byId;
	const asked = parts.pathParams?.[param] ?? '';
	for (const record of records) {
		const shown = [
			...idsShown(record).map((value) => ({ field: 'id', value, as: 'recordId' as ShownAs })),
			...Object.entries(alsoShownAs).flatMap(([field, as]) =>
				idsShown({}, record[field]).map((value) => ({ field, value, as })),
			),
		];
		if (shown.length === 0 || shown.some(({ value, as }) => SAME_ID[as](asked, value))) continue;
		const [named] = shown;
		const besides = shown
			.filter(({ field, value }) => field !== 'id' && value !== named.value)
			.map(({ field, value }) => `${field} ${value}`);
		params.fail(
			`The service answered with the record ${named.value}${besides.length ? ` (${besides.join(', ')})` : ''}, not the one '${params.label(param)}' asked for (${asked})`,
			spec.kind === 'read'
				? "Nothing was output for this item: the answer is another record's (a cache or proxy between n8n and the service may have answered another request). Run it again; if it persists, check the record in the dashboard."
				: `The answer is another record's, so whether ${asked} was changed cannot be told. Get ${asked} to see what it holds before relying on it.`,
		);
	}
}

/** Whether an id shown names the one asked, by what it holds. */
const SAME_ID: Record<ShownAs, (asked: string, shown: string) => boolean> = {
	recordId: sameRecordId,
	externalId: sameExternalId,
	address: (asked, shown) => sameAddress(asked.trim(), shown),
};

/** An answer showing another value than the one sent is about something else (docs/usage.md, "The record asked for"). */
function assertEchoed(
	params: Params,
	spec: OperationSpec,
	parts: RequestParts,
	records: IDataObject[],
): void {
	for (const [field, echo] of Object.entries(spec.echoes ?? {})) {
		const sent = parts.body?.[field];
		if (sent === undefined) continue;
		for (const record of records) {
			if (!(field in record) || SAME[echo](sent, record[field])) continue;
			const [shown, asked] = [JSON.stringify(record[field]), JSON.stringify(sent)];
			if (spec.kind === 'read') {
				params.fail(
					`The service answered '${params.label(field)}' ${shown} for the ${asked} asked for`,
					'Nothing was output for this item: the answer is about another one (a cache or proxy between n8n and the service may have answered another request). Run it again; if it persists, check it in the dashboard.',
				);
			}
			params.fail(
				`The service answered '${params.label(field)}' ${shown} after being asked to set ${asked}`,
				'The answer says the setting is not what was asked (clamped, rounded or ignored by the service). Check it in the dashboard before relying on it.',
			);
		}
	}
}

/** Characters a service masks part of an account number with ("012345XXXX"). */
const MASKED = /[xX*•#]/;

/** Text compared without case, spaces or dashes. */
const plainText = (value: unknown) => scalarText(value).replace(/[\s-]/g, '').toLowerCase();

/** Whether an answer shows the value sent, by how it shows it (`Echo`). */
const SAME: Record<Echo, (sent: unknown, shown: unknown) => boolean> = {
	// A number also as text, a boolean also as text, text without case.
	value: (sent, shown) => {
		if (typeof sent === 'number')
			return scalarText(shown).trim() !== '' && Number(scalarText(shown)) === sent;
		if (typeof sent === 'boolean')
			return shown === sent || scalarText(shown).trim().toLowerCase() === String(sent);
		return plainText(sent) === plainText(shown);
	},
	address: (sent, shown) => sameAddress(scalarText(sent).trim(), scalarText(shown).trim()),
	// Shown partly masked, it is the same where it shows a character; masked to another length it
	// cannot be compared, and contradicts nothing.
	accountNumber: (sent, shown) => {
		const [asked, answered] = [plainText(sent), plainText(shown)];
		if (!MASKED.test(answered)) return asked === answered;
		return (
			asked.length !== answered.length ||
			[...answered].every((char, index) => MASKED.test(char) || char === asked[index])
		);
	},
};

const pinFields = keptFor<OperationSpec, boolean>();
const isPin = (option: object) => 'name' in option && option.name === 'pin';

/** Whether the operation lists a PIN field (under Additional Fields): its value is a secret too. */
function takesPin(spec: OperationSpec): boolean {
	return pinFields(spec, listsPin);
}

function listsPin(spec: OperationSpec): boolean {
	return spec.fields.some((field) => isPin(field) || (field.options ?? []).some(isPin));
}

/** The PIN typed into this item's node field, if any: a secret like the credential's. */
function nodePin(ctx: IExecuteSingleFunctions): unknown {
	try {
		return (ctx.getNodeParameter('additionalFields', {}) as IDataObject)?.pin;
	} catch {
		return undefined;
	}
}
