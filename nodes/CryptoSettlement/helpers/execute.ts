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
import { createHttpCall, raisedByEngine } from './engine';
import { Params } from './params';
import { redact, redactError } from './redact';
import { callApi, fillPath, isSuccess, serviceError, type ApiRequest, type ApiResponse, type HttpCall } from './transport';
import { RETRY_OF_KIND, type Envelope, type OperationSpec, type RequestParts, type ResourceSpecs } from './types';
import { isObject } from './values';
import { submitWithdrawal } from './withdrawals';

/** Return All stops here, with a hint: n8n's engine cannot take much more from one node run. */
export const MAX_LIST_ITEMS = 100_000;

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

/** Records of a list, page by page in order: a record seen before is dropped, a repeated page is refused. */
class PagedList {
	readonly records: IDataObject[] = [];

	private readonly seen = new Set<string>();

	private previousPage = '';

	/** `meta.pages` and `meta.totalDocs` of the last page read, when the service gives them. */
	pages: number | undefined;

	totalDocs: number | undefined;

	constructor(
		private readonly params: Params,
		readonly limit: number,
	) {}

	/** Adds one page; tells whether another page may follow. */
	add(page: number, response: ApiResponse): boolean {
		const data = Array.isArray(response.body.data) ? response.body.data : [];
		const keys = data.map((entry) => (isObject(entry) ? (recordKey(entry) ?? JSON.stringify(entry)) : '')).join('\n');
		if (page > 1 && data.length && keys === this.previousPage) {
			throw listError(this.params, `page ${page} repeats page ${page - 1}`);
		}
		this.previousPage = keys;
		for (const entry of data) {
			if (this.records.length >= this.limit) break;
			if (!isObject(entry)) continue;
			const key = recordKey(entry);
			if (key !== undefined) {
				if (this.seen.has(key)) continue;
				this.seen.add(key);
			}
			this.records.push(entry);
			if (this.records.length > MAX_LIST_ITEMS) throw listError(this.params, `more than ${MAX_LIST_ITEMS} records`);
		}
		const meta = response.body.meta ?? {};
		this.pages = typeof meta.pages === 'number' ? meta.pages : undefined;
		this.totalDocs = typeof meta.totalDocs === 'number' ? meta.totalDocs : undefined;
		if (this.records.length >= this.limit || meta.hasNextPage !== true || data.length === 0) return false;
		return !(this.pages !== undefined && page >= this.pages);
	}
}

/**
 * Reads a paged list with one constant page size (so page numbers stay aligned) until the limit,
 * `meta.pages`, or `hasNextPage` is false. Once a page gives `meta.pages`, the remaining pages the
 * limit needs are fetched at once (within the route's in-flight limit) and assembled in order.
 */
async function fetchPages(
	params: Params,
	http: HttpCall,
	request: ApiRequest,
	pageSize: number,
): Promise<IDataObject[]> {
	const list = new PagedList(params, limitOf(params));
	const size = Math.min(pageSize, list.limit);
	const fetchPage = async (page: number): Promise<ApiResponse> => {
		const pageRequest = { ...request, qs: { ...request.qs, page, size } };
		const response = await callApi(params.ctx, http, pageRequest, 'safe');
		if (!isSuccess(response)) throw serviceError(params.ctx, pageRequest, response);
		return response;
	};
	let page = 1;
	let more = list.add(page, await fetchPage(page));
	while (more) {
		const { pages, totalDocs } = list;
		if (list.limit > MAX_LIST_ITEMS && ((totalDocs ?? 0) > MAX_LIST_ITEMS || (pages ?? 0) > Math.ceil(MAX_LIST_ITEMS / size) + 1)) {
			throw listError(params, `more than ${MAX_LIST_ITEMS} records`);
		}
		const needed = Math.ceil((list.limit - list.records.length) / size);
		const last = pages === undefined ? page + 1 : Math.min(pages, page + needed);
		const numbers = Array.from({ length: last - page }, (_, i) => page + 1 + i);
		const responses = await Promise.all(numbers.map(fetchPage));
		for (const [index, response] of responses.entries()) {
			page = numbers[index];
			more = list.add(page, response);
			if (!more) break;
		}
	}
	return list.records;
}

function listError(params: Params, what: string): NodeOperationError {
	return new NodeOperationError(params.ctx.getNode(), `Return All stopped: the list returned ${what}`, {
		itemIndex: params.itemIndex,
		description: `Lists are read up to ${MAX_LIST_ITEMS} records and stop when the service repeats a page. Turn off Return All and set a Limit, or narrow the list with filters.`,
	});
}

const own = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** The record of resource → operation; undefined for anything else (including inherited names). */
function specOf(resources: Record<string, ResourceSpecs>, resource: unknown, operation: unknown): OperationSpec | undefined {
	const specs = typeof resource === 'string' && own(resources, resource) ? resources[resource] : undefined;
	return specs && typeof operation === 'string' && own(specs, operation) ? specs[operation] : undefined;
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
		// Resource and operation take no expressions (noDataExpression): their stored values are
		// read directly, which spares two parameter resolutions per item.
		const { resource: storedResource, operation: storedOperation } = this.getNode().parameters;
		let spec = specOf(resources, storedResource, storedOperation);
		const resource = spec ? String(storedResource) : (this.getNodeParameter('resource') as string);
		const operation = spec ? String(storedOperation) : (this.getNodeParameter('operation') as string);
		spec ??= specOf(resources, resource, operation);
		const itemIndex = this.getItemIndex();
		if (!spec) {
			throw new NodeOperationError(this.getNode(), `Unknown operation '${operation}' of resource '${resource}'`, {
				itemIndex,
			});
		}
		const retry = RETRY_OF_KIND[spec.kind];
		// Writes that must not repeat join the run's batch now, in item order, before anything is awaited.
		const batch = retry === 'safe' ? undefined : joinBatch(this);
		let secrets: string[] = [];
		let records: IDataObject[];
		try {
			const credentials = await credentialsOf(this);
			// Only writes that move money take a PIN in the node.
			secrets = secretsOf(credentials, batch ? nodePin(this) : undefined);
			assertUsableCredential(this, credentials);
			const http = createHttpCall(this, requestData);
			if (batch) {
				const parts = await planItem(this, batch, spec);
				records = await sendInTurn(this, batch, parts, async () => await perform(this, spec, parts, http), retry === 'withdrawal');
			} else {
				const params = new Params(this, spec);
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
	params = new Params(ctx, spec),
): Promise<IDataObject[]> {
	const request: ApiRequest = {
		method: spec.method,
		route: spec.path,
		url: fillPath(spec.path, parts.pathParams),
		qs: parts.qs,
		body: parts.body,
		rateLimit: spec.rateLimit,
	};
	switch (spec.kind) {
		case 'pagedList':
			if (!parts.keep) return await fetchPages(params, http, request, spec.pageSize);
			// The node's own filter (helpers/filters.ts): every page is read, then Limit counts the matches.
			return (await fetchPages(new WholeList(ctx, spec), http, request, spec.pageSize))
				.filter(parts.keep)
				.slice(0, limitOf(params));
		case 'withdrawal':
			if (!parts.idempotency) throw new NodeOperationError(ctx.getNode(), 'A withdrawal needs an External ID');
			return [await submitWithdrawal(ctx, http, request, parts.idempotency, spec.lookupPath)];
		default: {
			const response = await callApi(ctx, http, request, RETRY_OF_KIND[spec.kind]);
			if (!isSuccess(response)) throw serviceError(ctx, request, response, spec.errorHint?.[response.statusCode]);
			if (spec.kind === 'delete') return [{ deleted: true, id: Object.values(parts.pathParams ?? {})[0] ?? '' }];
			if (spec.kind === 'read' && spec.records) return spec.records(response.body.data);
			const records = unwrap(response.body, parts);
			return spec.kind === 'wholeList' ? records.slice(0, limitOf(params)) : records;
		}
	}
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
