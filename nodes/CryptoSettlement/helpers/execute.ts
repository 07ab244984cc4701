import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import { joinBatch, planItem, sendInTurn } from './batch';
import { assertUsableCredential, credentialsOf, secretsOf } from './credentials';
import { raisedByEngine } from './engine';
import { Params } from './params';
import { redact, redactError } from './redact';
import { callApi, createHttpCall, isSuccess, serviceError, type ApiRequest, type HttpCall } from './transport';
import type { Envelope, OperationSpec, RequestParts, ResourceSpecs } from './types';
import { submitWithdrawal } from './withdrawals';

/** Return All stops here, with a hint: n8n's engine cannot take much more from one node run. */
export const MAX_LIST_ITEMS = 100_000;

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fillPath(path: string, values: Record<string, string> = {}): string {
	return path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** Unwraps the envelope: an array gives one record per element; an empty `data` gives a status record. */
export function unwrap(body: Envelope, parts: RequestParts): IDataObject[] {
	const { data } = body;
	if (Array.isArray(data))
		return data.map((entry) => (isObject(entry) ? entry : { value: entry as IDataObject[string] }));
	if (isObject(data) && Object.keys(data).length) return [data];
	return [{ success: true, message: body.message ?? '', ...parts.identity }];
}

function limitOf(params: Params): number {
	if (params.raw('returnAll', false) === true) return Number.POSITIVE_INFINITY;
	const limit = Number(params.raw('limit', 50));
	return Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : 50;
}

const recordKey = (record: IDataObject) => {
	const id = record.id ?? record._id;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};

/**
 * Follows the pages with one constant page size (so page numbers stay aligned) until the limit,
 * `meta.pages`, or `hasNextPage` is false. A page that repeats the previous one, or more records
 * than n8n can take, stops with a clear error; a record seen on an earlier page is not output twice.
 */
async function fetchPages(
	params: Params,
	http: HttpCall,
	request: ApiRequest,
	pageSize: number,
): Promise<IDataObject[]> {
	const limit = limitOf(params);
	const size = Math.min(pageSize, limit);
	const records: IDataObject[] = [];
	const seen = new Set<string>();
	let previousPage = '';
	for (let page = 1; ; page++) {
		const pageRequest = { ...request, qs: { ...request.qs, page, size } };
		const response = await callApi(params.ctx, http, pageRequest, 'safe');
		if (!isSuccess(response)) throw serviceError(params.ctx, pageRequest, response);
		const data = Array.isArray(response.body.data) ? response.body.data : [];
		const keys = data.map((entry) => (isObject(entry) ? (recordKey(entry) ?? JSON.stringify(entry)) : '')).join('\n');
		if (page > 1 && data.length && keys === previousPage) throw listError(params, `page ${page} repeats page ${page - 1}`);
		previousPage = keys;
		for (const entry of data) {
			if (records.length >= limit) break;
			if (!isObject(entry)) continue;
			const key = recordKey(entry);
			if (key !== undefined) {
				if (seen.has(key)) continue;
				seen.add(key);
			}
			records.push(entry);
			if (records.length > MAX_LIST_ITEMS) throw listError(params, `more than ${MAX_LIST_ITEMS} records`);
		}
		const meta = response.body.meta ?? {};
		const pages = typeof meta.pages === 'number' ? meta.pages : undefined;
		if (records.length >= limit || meta.hasNextPage !== true || data.length === 0) break;
		if (pages !== undefined && page >= pages) break;
	}
	return records;
}

function listError(params: Params, what: string): NodeOperationError {
	return new NodeOperationError(params.ctx.getNode(), `Return All stopped: the list returned ${what}`, {
		itemIndex: params.itemIndex,
		description: `Lists are read up to ${MAX_LIST_ITEMS} records and stop when the service repeats a page. Turn off Return All and set a Limit, or narrow the list with filters.`,
	});
}

/**
 * The engine's pagination hook, used for every operation so that each request of the node goes
 * through the same pipeline: validation, pacing, retries, error mapping and output shaping.
 */
export function createOperationRunner(resources: Record<string, ResourceSpecs>) {
	return async function runOperation(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const resource = this.getNodeParameter('resource') as string;
		const operation = this.getNodeParameter('operation') as string;
		const spec: OperationSpec | undefined = resources[resource]?.[operation];
		const itemIndex = this.getItemIndex();
		if (!spec) {
			throw new NodeOperationError(this.getNode(), `Unknown operation '${operation}' of resource '${resource}'`, {
				itemIndex,
			});
		}
		// Writes that must not repeat join the run's batch now, in item order, before anything is awaited.
		const batch = spec.retry === 'safe' ? undefined : joinBatch(this);
		let secrets: string[] = [];
		let records: IDataObject[];
		try {
			const credentials = await credentialsOf(this);
			secrets = secretsOf(credentials, nodePin(this));
			assertUsableCredential(this, credentials);
			const http = createHttpCall(this, requestData);
			if (batch) {
				const parts = await planItem(this, batch, spec);
				records = await sendInTurn(this, batch, parts, async () => await perform(this, spec, parts, http), spec.retry === 'withdrawal');
			} else {
				const params = new Params(this);
				records = await perform(this, spec, spec.build ? await spec.build(params) : {}, http, params);
			}
		} catch (error) {
			batch?.settle(itemIndex, { state: 'invalid' });
			const redacted = redactError(error, secrets);
			// The node's own refusals stay NodeOperationErrors (not "Error code: none" API errors).
			if (redacted instanceof NodeOperationError && !this.continueOnFail()) return raisedByEngine(redacted);
			throw redacted;
		}
		records = redact(records, secrets);
		return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
	};
}

/** One item's request(s), by the operation's kind. */
async function perform(
	ctx: IExecuteSingleFunctions,
	spec: OperationSpec,
	parts: RequestParts,
	http: HttpCall,
	params = new Params(ctx),
): Promise<IDataObject[]> {
	const request: ApiRequest = {
		method: spec.method,
		route: spec.path,
		url: fillPath(spec.path, parts.pathParams),
		qs: parts.qs,
		body: parts.body,
	};
	if (spec.pageSize && parts.keep) {
		// The node's own filter (helpers/filters.ts): every page is read, then Limit counts the matches.
		const all = await fetchPages(new WholeList(ctx), http, request, spec.pageSize);
		return all.filter(parts.keep).slice(0, limitOf(params));
	}
	if (spec.pageSize) return await fetchPages(params, http, request, spec.pageSize);
	if (spec.retry === 'withdrawal') {
		if (!parts.idempotency) throw new NodeOperationError(ctx.getNode(), 'A withdrawal needs an External ID');
		return [await submitWithdrawal(ctx, http, request, parts.idempotency)];
	}
	const response = await callApi(ctx, http, request, spec.retry);
	if (!isSuccess(response)) throw serviceError(ctx, request, response, spec.errorHint?.[response.statusCode]);
	const records = spec.output ? spec.output(response.body.data, parts) : unwrap(response.body, parts);
	return spec.localLimit ? records.slice(0, limitOf(params)) : records;
}

/** The item's parameters with Return All on: a filtered list is read whole before Limit applies. */
class WholeList extends Params {
	raw(name: string, fallback?: unknown): unknown {
		return name === 'returnAll' ? true : super.raw(name, fallback);
	}
}

/** The PIN typed into this item's node field, if any: a secret like the credential's. */
function nodePin(ctx: IExecuteSingleFunctions): unknown {
	try {
		const additional = ctx.getNodeParameter('additionalFields', {}) as IDataObject;
		return additional?.pin;
	} catch {
		return undefined;
	}
}
