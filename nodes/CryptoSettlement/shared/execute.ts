import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import { Params } from './params';
import { callApi, createHttpCall, isSuccess, serviceError, type ApiRequest, type HttpCall } from './transport';
import type { Envelope, OperationSpec, RequestParts, ResourceSpecs } from './types';
import { submitWithdrawal } from './withdrawals';

/** Stop following hasNextPage after this many pages, whatever the service says. */
const MAX_PAGES = 10_000;

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

/** Follows meta.hasNextPage with one constant page size (so page numbers stay aligned) until the limit. */
async function fetchPages(
	params: Params,
	http: HttpCall,
	request: ApiRequest,
	pageSize: number,
): Promise<IDataObject[]> {
	const limit = limitOf(params);
	const size = Math.min(pageSize, limit);
	const records: IDataObject[] = [];
	for (let page = 1; page <= MAX_PAGES; page++) {
		const pageRequest = { ...request, qs: { ...request.qs, page, size } };
		const response = await callApi(params.ctx, http, pageRequest, 'safe');
		if (!isSuccess(response)) throw serviceError(params.ctx, pageRequest, response);
		const data = Array.isArray(response.body.data) ? response.body.data : [];
		for (const entry of data) {
			if (records.length >= limit) break;
			if (isObject(entry)) records.push(entry);
		}
		if (records.length >= limit || response.body.meta?.hasNextPage !== true || data.length === 0) break;
	}
	return records;
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
		const params = new Params(this);
		const parts = spec.build ? await spec.build(params) : {};
		const http = createHttpCall(this, requestData);
		const request: ApiRequest = {
			method: spec.method,
			route: spec.path,
			url: fillPath(spec.path, parts.pathParams),
			qs: parts.qs,
			body: parts.body,
		};

		let records: IDataObject[];
		if (spec.pageSize) {
			records = await fetchPages(params, http, request, spec.pageSize);
		} else if (spec.retry === 'withdrawal') {
			records = [await submitWithdrawal(this, http, request, String(parts.body?.externalId))];
		} else {
			const response = await callApi(this, http, request, spec.retry);
			if (!isSuccess(response)) throw serviceError(this, request, response, spec.errorHint?.[response.statusCode]);
			records = spec.output ? spec.output(response.body.data, parts) : unwrap(response.body, parts);
			if (spec.localLimit) records = records.slice(0, limitOf(params));
		}
		return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
	};
}
