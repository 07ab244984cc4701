import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

/** The shapes of a request to the service and of its answer, shared by the client's modules. */

/** How a request may be repeated after an ambiguous failure: freely, never, or resolved through its External ID. */
export type RetryPolicy = 'safe' | 'never' | 'withdrawal';

/** The success envelope (docs/api.md, "Envelope"); the swap answer carries only message, success and data. */
export interface Envelope {
	message?: string;
	success?: boolean;
	data?: unknown;
	meta?: IDataObject;
	errors?: Array<{ message?: string; field?: string; location?: string }>;
}

/**
 * How the calling operation words the service's errors: the editor's label of a field the service
 * names, the operation's hint for a status, and whether it is a write that must not repeat (a
 * refusal then says that nothing was done, or paid). The service layer knows no operation records.
 */
export interface ErrorWording {
	labelOf(field: string): string | undefined;
	hints?: Partial<Record<number, string>>;
	oneShot: boolean;
	pays: boolean;
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** The path template, for example `/trades/wallets/{walletId}`: the rate-limit route. */
	route: string;
	url: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** A shorter wait for an answer than REQUEST_TIMEOUT_MS (service/transport.ts), where a caller must answer quickly. */
	timeoutMs?: number;
	/**
	 * Requests per minute the service allows on this route, per integration (the operation's
	 * `rateLimit`); routes do not share a budget (docs/api.md, "Rate limits").
	 */
	rateLimit?: number;
	/** The operation the request is for: its field labels and hints word the service's errors. */
	wording?: ErrorWording;
}

export interface ApiResponse {
	statusCode: number;
	headers: IDataObject;
	body: Envelope;
	/** Whether the body was a JSON object (an HTML page or an empty body is not an answer we can read). */
	json: boolean;
	/**
	 * Why an earlier attempt of the same request got no clear answer, when it was repeated: that
	 * attempt may have taken effect, and this answer may be about what it did (a 404 after a delete).
	 */
	afterUnclear?: string;
}

/**
 * The service answered; or the exchange ended without an answer we can trust, after the request
 * may have reached the service (`ambiguous`: a 5xx, a timeout, a dropped connection, an answer
 * that is not one); or it failed before any byte left (`unsent`: connection refused, no such host),
 * which proves nothing was done.
 */
export type Outcome =
	| { kind: 'answered'; response: ApiResponse }
	| { kind: 'ambiguous'; reason: string; statusCode?: number; redirectedTo?: string }
	| { kind: 'unsent'; reason: string };

/** Sends one request and hands back the full response, whatever its status. */
export type HttpCall = (options: IHttpRequestOptions) => Promise<ApiResponse>;

/**
 * What pacing and errors need from n8n's context: the node (its credential id and name), and the
 * item the request is for. An action item's context has both; a trigger's has no item (index 0).
 */
export type ApiContext = Pick<IExecuteSingleFunctions, 'getNode'> &
	Partial<Pick<IExecuteSingleFunctions, 'getItemIndex'>>;
