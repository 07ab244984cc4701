import type { IDataObject, IHttpRequestMethods, INodePropertyOptions } from 'n8n-workflow';
import type { Params } from './params';

/**
 * How a request may be repeated after an ambiguous failure (a 5xx, a timeout, a dropped
 * connection), when the service may or may not have acted on it. A 429 is never ambiguous (the
 * request was refused), so every operation retries it.
 * - `safe`: reads and idempotent writes; retried with backoff.
 * - `never`: a write that could be applied twice; never repeated, the error says so.
 * - `withdrawal`: repeated with the same externalId after looking the withdrawal up.
 */
export type RetryPolicy = 'safe' | 'never' | 'withdrawal';

/** The key that makes a withdrawal happen at most once, and where it came from. */
export interface IdempotencyKey {
	externalId: string;
	/** Derived from the execution because the user left 'External ID' empty. */
	derived: boolean;
}

/** What an operation sends, after its parameters passed the field rules. */
export interface RequestParts {
	/**
	 * For withdrawals: the External ID, what a record found under it must match, and whether the
	 * created record is read back by id ('Return Full Record').
	 */
	idempotency?: IdempotencyKey & { expected: IDataObject; fullRecord?: boolean };
	pathParams?: Record<string, string>;
	qs?: IDataObject;
	body?: IDataObject;
	/** Input echoed in the output when the service answers with an empty `data`. */
	identity?: IDataObject;
	/** For paged lists: the node's own filter, applied to the records fetched (Limit counts the matches). */
	keep?: (record: IDataObject) => boolean;
}

export interface OperationSpec {
	/** Display name, action and description shown in n8n. */
	option: Omit<INodePropertyOptions, 'value' | 'routing'>;
	method: IHttpRequestMethods;
	/** Path relative to the base URL; `{name}` placeholders come from `pathParams`. */
	path: string;
	retry: RetryPolicy;
	/** A list the service pages (docs/api.md, "Pagination"): page/size until meta.hasNextPage is false. */
	pageSize?: number;
	/** A list the service returns whole: Return All / Limit are applied locally. */
	localLimit?: boolean;
	/** Validates the item's parameters (throwing before any request) and builds the request. */
	build?: (params: Params) => RequestParts | Promise<RequestParts>;
	/** What to tell the user for a given HTTP status of this operation, instead of the generic hint. */
	errorHint?: Partial<Record<number, string>>;
	/** Turns the service's `data` into output items when the default unwrapping is not enough. */
	output?: (data: unknown, parts: RequestParts) => IDataObject[];
}

export type ResourceSpecs = Record<string, OperationSpec>;

/** The success envelope (docs/api.md, "Envelope"); the swap answer carries only message, success and data. */
export interface Envelope {
	message?: string;
	success?: boolean;
	data?: unknown;
	meta?: IDataObject;
	errors?: Array<{ message?: string; field?: string; location?: string }>;
}
