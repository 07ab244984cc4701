import {
	NodeApiError,
	sleep,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IAllExecuteFunctions,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';
import type { Envelope, RetryPolicy } from './types';

/**
 * The one path every request takes: pacing under the service's rate limits (docs/api.md, "Rate limits"), bounded waits on 429,
 * bounded backoff on 5xx and network failures where a repeat cannot duplicate an effect, and
 * service errors turned into NodeApiErrors that never carry the request (and so no secret).
 */

/** One minute plus a second of margin for clock and latency differences with the service. */
const RATE_WINDOW_MS = 61_000;
/**
 * Requests in flight per credential and route adapt to the service (README, "Pacing, retries and
 * timeouts"): they start at 32, grow by one per fast clean answer (doubling per round trip) up to
 * 256, and halve on a 429, a 5xx, a failure without an answer, or an answer much slower than usual.
 */
export const CONCURRENCY = { initial: 32, min: 2, max: 256 };
/**
 * How long one attempt may wait for an answer (n8n's declarative default is 300 s). A hung request
 * holds a slot of its own route only, and for at most this long per attempt.
 */
export const REQUEST_TIMEOUT_MS = 60_000;
const ENGINE_DEFAULT_TIMEOUT_MS = 300_000;

export const RETRY = {
	/** Attempts on 429 before giving up, and the longest we wait in total. */
	maxRateLimitedAttempts: 6,
	maxRateLimitWaitMs: 180_000,
	/** A single 429 wait is capped (a wrong Retry-After must not park a workflow for hours). */
	maxSingleWaitMs: 65_000,
	/** Attempts on 5xx or network failure, for requests that may be repeated. */
	maxAmbiguousAttempts: 4,
	baseBackoffMs: 500,
	maxBackoffMs: 8_000,
};

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** The path template, for example `/trades/wallets/{walletId}`: the rate-limit route. */
	route: string;
	url: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** A shorter wait for an answer than REQUEST_TIMEOUT_MS, where a caller must answer quickly. */
	timeoutMs?: number;
	/**
	 * Requests per minute the service allows on this route, per integration (the operation's
	 * `rateLimit`); routes do not share a budget (docs/api.md, "Rate limits").
	 */
	rateLimit?: number;
}

export interface ApiResponse {
	statusCode: number;
	headers: IDataObject;
	body: Envelope;
	/** Whether the body was a JSON object (an HTML page or an empty body is not an answer we can read). */
	json: boolean;
}

/** The service answered, or the exchange ended without an answer we can trust. */
export type Outcome =
	| { kind: 'answered'; response: ApiResponse }
	| { kind: 'ambiguous'; reason: string; statusCode?: number; redirectedTo?: string };

/** Sends one request and hands back the full response, whatever its status. */
export type HttpCall = (options: IHttpRequestOptions) => Promise<ApiResponse>;

/**
 * What pacing and errors need from n8n's context: the node (its credential id and name), and the
 * item the request is for. An action item's context has both; a trigger's has no item (index 0).
 */
export type ApiContext = Pick<IExecuteSingleFunctions, 'getNode'> & Partial<Pick<IExecuteSingleFunctions, 'getItemIndex'>>;

/** Bounds a caller may tighten; the defaults are RETRY's. */
export interface ExchangeLimits {
	/** Attempts on 429 before giving up (1: the first 429 ends the exchange with the rate-limit error). */
	maxRateLimitedAttempts?: number;
}

function itemIndexOf(ctx: ApiContext): number {
	return ctx.getItemIndex?.() ?? 0;
}

class Lane {
	/** Send times, ascending: granted ahead of sending, then moved to the actual send time. */
	private sent: Array<{ at: number }> = [];

	blockedUntil = 0;

	/**
	 * Waits until a request may be sent without exceeding `limit` per rolling window, and holds
	 * its place in the window; `markSent` then records when it really left.
	 */
	async reserve(limit: number | undefined): Promise<{ at: number } | undefined> {
		const now = Date.now();
		let at = Math.max(now, this.blockedUntil);
		let entry: { at: number } | undefined;
		if (limit) {
			while (this.sent.length && this.sent[0].at <= now - RATE_WINDOW_MS) this.sent.shift();
			if (this.sent.length >= limit) at = Math.max(at, this.sent[this.sent.length - limit].at + RATE_WINDOW_MS);
			if (this.sent.length) at = Math.max(at, this.sent[this.sent.length - 1].at);
			entry = { at };
			this.sent.push(entry);
		}
		if (at > now) await sleep(at - now);
		return entry;
	}

	markSent(entry: { at: number } | undefined): void {
		const now = Date.now();
		if (!entry || entry.at >= now) return;
		entry.at = now;
		this.sent.sort((a, b) => a.at - b.at);
	}
}

export class Gate {
	limit = CONCURRENCY.initial;

	private inFlight = 0;

	private readonly queue: Array<() => void> = [];

	/** The fastest answer seen: "usual" latency, which does not drift up under load. */
	private fastestMs = Number.POSITIVE_INFINITY;

	private lastCutAt = 0;

	async enter(): Promise<void> {
		if (this.inFlight < this.limit) {
			this.inFlight++;
			return;
		}
		await new Promise<void>((resolve) => this.queue.push(resolve));
	}

	/** Frees the slot; `outcome` tells how the service coped with the request. */
	leave(outcome: { overloaded: boolean; latencyMs?: number }, now = Date.now()): void {
		const { latencyMs } = outcome;
		if (latencyMs !== undefined) this.fastestMs = Math.min(this.fastestMs, latencyMs);
		const slow = latencyMs !== undefined && latencyMs > Math.max(4 * this.fastestMs, this.fastestMs + 1000);
		if (outcome.overloaded || slow) {
			// One cut per round trip: the answers already in flight report the same congestion.
			if (now - this.lastCutAt > Math.max(this.fastestMs, 50)) {
				this.limit = Math.max(CONCURRENCY.min, Math.floor(this.limit / 2));
				this.lastCutAt = now;
			}
		} else if (this.limit < CONCURRENCY.max) {
			this.limit++;
		}
		this.inFlight--;
		while (this.inFlight < this.limit && this.queue.length) {
			this.inFlight++;
			(this.queue.shift() as () => void)();
		}
	}
}

/** Shared by every execution in this n8n process, so concurrent workflows pace together. */
const lanes = new Map<string, Lane>();
const gates = new Map<string, Gate>();

function laneFor(credentialKey: string, route: string): Lane {
	const key = `${credentialKey} ${route}`;
	let lane = lanes.get(key);
	if (!lane) lanes.set(key, (lane = new Lane()));
	return lane;
}

/** Routes do not share a budget, so they do not share in-flight slots either. */
function gateFor(credentialKey: string, route: string): Gate {
	const key = `${credentialKey} ${route}`;
	let gate = gates.get(key);
	if (!gate) gates.set(key, (gate = new Gate()));
	return gate;
}

/** Rate limits are per app id; a credential holds one app id, and its id is known without decrypting it. */
export function credentialKey(ctx: ApiContext): string {
	const credential = ctx.getNode().credentials?.cryptoSettlementApi;
	return credential?.id ?? credential?.name ?? 'default';
}

function header(headers: IDataObject, name: string): string | undefined {
	const value = headers[name.toLowerCase()] ?? headers[name];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

/** Retry-After (seconds or an HTTP date), else X-RateLimit-Reset (unix seconds), else undefined. */
export function rateLimitWaitMs(headers: IDataObject, now = Date.now()): number | undefined {
	const retryAfter = header(headers, 'retry-after');
	if (retryAfter !== undefined && retryAfter.trim() !== '') {
		const seconds = Number(retryAfter);
		if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	const reset = Number(header(headers, 'x-ratelimit-reset'));
	if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
	return undefined;
}

export function backoffMs(attempt: number): number {
	const ceiling = Math.min(RETRY.maxBackoffMs, RETRY.baseBackoffMs * 2 ** attempt);
	return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** Builds the HTTP call on the engine's own routing request, which reuses the decrypted credential. */
export function createHttpCall(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): HttpCall {
	// The engine post-processes each response with these actions; ours keeps status and headers.
	requestData.postReceive = [{ data: { parameterValue: undefined }, actions: [keepFullResponse] }];
	// The user's own Timeout option wins; otherwise a shorter one than the engine's default.
	const timeout =
		requestData.options.timeout && requestData.options.timeout !== ENGINE_DEFAULT_TIMEOUT_MS
			? requestData.options.timeout
			: REQUEST_TIMEOUT_MS;
	return async (options) => {
		const [item] = await ctx.makeRoutingRequest({
			...requestData,
			options: {
				...requestData.options,
				...options,
				json: true,
				ignoreHttpStatusErrors: true,
				// A redirect would carry the credentials (headers, and the PIN in the body) to its target.
				disableFollowRedirect: true,
				timeout,
			},
		});
		return item.json as unknown as ApiResponse;
	};
}

/**
 * Builds the HTTP call on n8n's `httpRequestWithAuthentication` (for contexts without the routing
 * engine, such as a polling trigger): full response, any status, redirects never followed, JSON.
 */
export function createAuthenticatedHttpCall(ctx: IAllExecuteFunctions, credentialType: string): HttpCall {
	return async (options) => {
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialType, {
			...options,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// A redirect would carry the credentials (headers) to its target.
			disableFollowRedirect: true,
			timeout: options.timeout ?? REQUEST_TIMEOUT_MS,
		})) as IN8nHttpFullResponse;
		const json = isJsonObject(response.body);
		return {
			statusCode: Number(response.statusCode),
			headers: (response.headers ?? {}) as IDataObject,
			body: json ? (response.body as Envelope) : {},
			json,
		};
	};
}

async function keepFullResponse(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const json = isJsonObject(response.body);
	const body = json ? response.body : {};
	return [{ json: { statusCode: response.statusCode, headers: response.headers, body, json } as unknown as IDataObject }];
}

function isJsonObject(body: unknown): boolean {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
	// A Buffer or stream is an object too, but not a parsed JSON answer.
	const prototype = Object.getPrototypeOf(body) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/** The origin (scheme, host and port) of a Location header, never its path or query. */
export function locationOrigin(headers: IDataObject): string {
	const location = header(headers, 'location') ?? '';
	const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(location.trim());
	return match ? match[1].replace(/\/\/[^@/]*@/, '//') : 'a relative location on the same service';
}

/** The socket code (ECONNREFUSED, ETIMEDOUT…) of a failure without an answer; n8n may wrap it. */
export function networkCode(error: unknown): string | undefined {
	const err = error as { code?: string; cause?: { code?: string } } | undefined;
	return err?.code ?? err?.cause?.code;
}

/** Describes a failure without an answer, without the request (which holds the credentials). */
function networkReason(error: unknown): string {
	const err = error as { message?: string };
	const code = networkCode(error);
	const message = typeof err?.message === 'string' ? err.message.slice(0, 160) : 'no answer';
	return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * One exchange: paced, and repeated on 429 (a refused request had no effect) within the bounds.
 * A 5xx or a network failure comes back as `ambiguous` for the caller's retry policy.
 */
export async function exchange(
	ctx: ApiContext,
	http: HttpCall,
	request: ApiRequest,
	limits: ExchangeLimits = {},
): Promise<Outcome> {
	const maxRateLimitedAttempts = limits.maxRateLimitedAttempts ?? RETRY.maxRateLimitedAttempts;
	const key = credentialKey(ctx);
	const route = `${request.method} ${request.route}`;
	const lane = laneFor(key, route);
	const limit = request.rateLimit;
	const gate = gateFor(key, route);
	let waitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		// The route's budget first: a request waiting for its turn holds no in-flight slot.
		const place = await lane.reserve(limit);
		await gate.enter();
		const sentAt = Date.now();
		let response: ApiResponse;
		try {
			lane.markSent(place);
			response = await http({
				method: request.method,
				url: request.url,
				qs: request.qs ?? {},
				body: request.method === 'GET' || request.method === 'DELETE' ? undefined : request.body,
				...(request.timeoutMs ? { timeout: request.timeoutMs } : {}),
			});
		} catch (error) {
			gate.leave({ overloaded: true });
			return { kind: 'ambiguous', reason: networkReason(error) };
		}
		const status = response.statusCode;
		gate.leave({ overloaded: status === 429 || status >= 500, latencyMs: Date.now() - sentAt });
		if (status >= 300 && status < 400) {
			const origin = locationOrigin(response.headers);
			return { kind: 'ambiguous', reason: `HTTP ${status}: redirected to ${origin}`, statusCode: status, redirectedTo: origin };
		}
		if (status >= 500 || (status < 300 && !response.json)) {
			return {
				kind: 'ambiguous',
				reason: response.json
					? `HTTP ${status}: ${response.body?.message ?? ''}`
					: `HTTP ${status} without a JSON answer`,
				statusCode: status,
			};
		}
		if (status !== 429) return { kind: 'answered', response };

		const hinted = rateLimitWaitMs(response.headers);
		const waitMs = Math.min(RETRY.maxSingleWaitMs, hinted ?? backoffMs(attempt));
		// The route is blocked for everyone in this process, also when this request gives up.
		lane.blockedUntil = Math.max(lane.blockedUntil, Date.now() + waitMs);
		if (attempt >= maxRateLimitedAttempts || waitedMs + waitMs > RETRY.maxRateLimitWaitMs) {
			throw rateLimitError(ctx, request, response, waitMs, attempt);
		}
		waitedMs += waitMs;
		await sleep(waitMs);
	}
}

/** An exchange whose ambiguous failures are retried only when the policy says repeating is safe. */
export async function callApi(
	ctx: ApiContext,
	http: HttpCall,
	request: ApiRequest,
	policy: RetryPolicy,
	limits: ExchangeLimits = {},
): Promise<ApiResponse> {
	for (let attempt = 1; ; attempt++) {
		const outcome = await exchange(ctx, http, request, limits);
		if (outcome.kind === 'answered') return outcome.response;
		if (outcome.redirectedTo !== undefined) throw redirectError(ctx, request, outcome, policy);
		if (policy !== 'safe' || attempt >= RETRY.maxAmbiguousAttempts)
			throw ambiguousError(ctx, request, outcome, policy, attempt);
		await sleep(backoffMs(attempt));
	}
}

export function isSuccess(response: ApiResponse): boolean {
	return response.statusCode >= 200 && response.statusCode < 300 && response.json && response.body.success !== false;
}

const STATUS_HINTS: Record<number, string> = {
	400: 'The service refused the request (a business rule such as balance, a duplicate, or temporary payout capacity).',
	401: "Check the credential's App ID, App Secret and Environment.",
	403: 'The account lacks permission for this action (API access, withdrawal limits or availability).',
	404: 'Nothing was found with this ID in the selected environment.',
	409: 'The request conflicts with the current state, for example something that already exists.',
	422: 'The service rejected one or more fields.',
	500: 'The service failed unexpectedly.',
};

/** A service error: its message, the HTTP code and, for 422, the first validation entry. */
export function serviceError(
	ctx: ApiContext,
	request: ApiRequest,
	response: ApiResponse,
	hint?: string,
): NodeApiError {
	const status = response.statusCode;
	const serviceMessage = response.body?.message || `HTTP ${status}`;
	const errors = Array.isArray(response.body?.errors) ? response.body.errors : [];
	const [first] = errors;
	const firstEntry = first ? `${first.field ?? 'request'}: ${first.message ?? 'Invalid value'}` : undefined;
	const message = firstEntry
		? `${serviceMessage} (HTTP ${status}) — ${firstEntry}`
		: `${serviceMessage} (HTTP ${status})`;
	const description = [
		hint ?? STATUS_HINTS[status] ?? `The service answered ${request.method} ${request.route} with HTTP ${status}.`,
		firstEntry && errors.length > 1
			? `${errors.length} problems were reported; the first is shown, all are in the error details.`
			: undefined,
	]
		.filter(Boolean)
		.join(' ');
	const details: JsonObject = { message: serviceMessage, httpCode: String(status), errors: errors as JsonObject[] };
	return new NodeApiError(ctx.getNode(), details, {
		message,
		description,
		httpCode: String(status),
		itemIndex: itemIndexOf(ctx),
	});
}

function rateLimitError(
	ctx: ApiContext,
	request: ApiRequest,
	response: ApiResponse,
	waitMs: number,
	attempts: number,
): NodeApiError {
	const route = `${request.method} ${request.route}`;
	const limit = header(response.headers, 'x-ratelimit-limit') ?? request.rateLimit;
	const retryInSeconds = Math.ceil(waitMs / 1000);
	return new NodeApiError(
		ctx.getNode(),
		{ message: response.body?.message ?? 'rate limit exceeded', httpCode: '429' },
		{
			message: `Rate limit reached on ${route}${limit ? ` (${limit} requests per minute)` : ''}; try again in ${retryInSeconds} s`,
			description: `The service kept answering 429 (${attempts} attempt${attempts === 1 ? '' : 's'}; at most ${RETRY.maxRateLimitedAttempts} attempts or ${RETRY.maxRateLimitWaitMs / 1000} s of waiting). Nothing was done for this item; run it again after ${retryInSeconds} s.`,
			httpCode: '429',
			itemIndex: itemIndexOf(ctx),
		},
	);
}

/** A redirect is never followed (it would carry the credentials): the error names only its origin. */
function redirectError(
	ctx: ApiContext,
	request: ApiRequest,
	outcome: Extract<Outcome, { kind: 'ambiguous' }>,
	policy: RetryPolicy,
): NodeApiError {
	const route = `${request.method} ${request.route}`;
	const httpCode = String(outcome.statusCode);
	return new NodeApiError(
		ctx.getNode(),
		{ message: outcome.reason, httpCode },
		{
			message: `The service redirected ${route} to ${outcome.redirectedTo}; the redirect was not followed`,
			description: `Authenticated requests never follow redirects, so the credentials stay with the service. Check the credential's Base URL.${
				policy === 'safe' ? '' : ' The request may or may not have taken effect: check the result before running it again.'
			}`,
			httpCode,
			itemIndex: itemIndexOf(ctx),
		},
	);
}

function ambiguousError(
	ctx: ApiContext,
	request: ApiRequest,
	outcome: Extract<Outcome, { kind: 'ambiguous' }>,
	policy: RetryPolicy,
	attempts: number,
): NodeApiError {
	const route = `${request.method} ${request.route}`;
	const httpCode = outcome.statusCode ? String(outcome.statusCode) : undefined;
	const safe = policy === 'safe';
	return new NodeApiError(
		ctx.getNode(),
		{ message: outcome.reason, ...(httpCode ? { httpCode } : {}) },
		{
			message: safe
				? `The service did not answer ${route} after ${attempts} attempts (${outcome.reason})`
				: `${route} may or may not have taken effect: ${outcome.reason}`,
			description: safe
				? 'The request was retried with backoff and kept failing. Try again later.'
				: 'The service failed without a clear answer, so the request may have been applied. It was not repeated, to avoid doing it twice: check the result (balances, lists) before running it again.',
			httpCode,
			itemIndex: itemIndexOf(ctx),
		},
	);
}
