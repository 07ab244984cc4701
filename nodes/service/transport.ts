import {
	sleep,
	type IDataObject,
	type IAllExecuteFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
} from 'n8n-workflow';
import type {
	ApiContext,
	ApiRequest,
	ApiResponse,
	Envelope,
	HttpCall,
	Outcome,
	RetryPolicy,
} from './api';
import { ambiguousError, isSuccess, rateLimitError, redirectError, unsentError } from './apiErrors';
import {
	backoffMs,
	credentialKey,
	gateFor,
	header,
	laneFor,
	rateLimitWaitMs,
	RETRY,
	type Gate,
} from './pacing';
import { redact, redactMessage, redactRefusal } from './redact';

/**
 * The one path every request takes: pacing under the service's rate limits (docs/api.md, "Rate limits"), bounded waits on 429,
 * bounded backoff on 5xx and network failures where a repeat cannot duplicate an effect, and
 * service errors turned into NodeApiErrors that never carry the request (and so no secret).
 */

/**
 * How long one attempt may wait for an answer (n8n's declarative default is 300 s). A hung request
 * holds a slot of its own route only, and for at most this long per attempt.
 */
export const REQUEST_TIMEOUT_MS = 60_000;

/** Socket codes of a connection that failed before the request was written: nothing reached the service. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** An HTTP call on one of n8n's request helpers: full response, any status, redirects never followed, JSON. */
export function httpCallOn(send: (options: IHttpRequestOptions) => Promise<unknown>): HttpCall {
	return async (options) =>
		toApiResponse((await send(fullResponseOptions(options))) as IN8nHttpFullResponse);
}

/** The HTTP call on n8n's `httpRequestWithAuthentication` (for contexts without the routing engine, such as a polling trigger). */
export function createAuthenticatedHttpCall(
	ctx: IAllExecuteFunctions,
	credentialType: string,
): HttpCall {
	return httpCallOn(
		async (options) =>
			await ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialType, options),
	);
}

/**
 * The HTTP call with the service's answers cleaned of `secrets` as they enter the node; a failure without
 * an answer keeps only its cleaned message and socket code (docs/guardrails.md, "Secrets: what is hidden where").
 */
export function withAnswersRedacted(http: HttpCall, secrets: readonly string[]): HttpCall {
	if (!secrets.length) return http;
	return async (options) => {
		let response: ApiResponse;
		try {
			response = await http(options);
		} catch (error) {
			throw failureWithoutRequest(error, secrets);
		}
		const body = isSuccess(response)
			? redact(response.body, secrets)
			: redactRefusal(response.body, secrets);
		return body === response.body ? response : { ...response, body };
	};
}

/** What the transport reads of a failure without an answer (`networkCode`, `networkReason`), and nothing else. */
function failureWithoutRequest(error: unknown, secrets: readonly string[]): Error {
	const message = (error as { message?: unknown })?.message;
	const failure = new Error(
		typeof message === 'string' ? redactMessage(message, secrets) : 'no answer',
	);
	const code = networkCode(error);
	return code === undefined ? failure : Object.assign(failure, { code });
}

/** A request as every HTTP call of the package sends it: full response, any status, redirects never followed, JSON. */
function fullResponseOptions(options: IHttpRequestOptions): IHttpRequestOptions {
	return {
		...options,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// A redirect would carry the credentials (headers) to its target.
		disableFollowRedirect: true,
		timeout: options.timeout ?? REQUEST_TIMEOUT_MS,
	};
}

/** n8n's full response as the API client reads it. */
function toApiResponse(response: IN8nHttpFullResponse): ApiResponse {
	const json = isJsonObject(response.body);
	return {
		statusCode: Number(response.statusCode),
		headers: (response.headers ?? {}) as IDataObject,
		body: json ? (response.body as Envelope) : {},
		json,
	};
}

export function isJsonObject(body: unknown): boolean {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
	// A Buffer or stream is an object too, but not a parsed JSON answer.
	const prototype = Object.getPrototypeOf(body) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/**
 * One path segment: URL-encoded (a `/` stays inside it). `.` and `..` cannot be encoded (URLs
 * resolve `%2E%2E` too) and would point at another endpoint; the fields refuse them first, and
 * this refuses them again for any caller.
 */
function segment(value: string): string {
	if (value === '.' || value === '..') throw new Error(`"${value}" cannot be a path segment`);
	return encodeURIComponent(value);
}

/** A path template with its `{name}` placeholders filled, each value one encoded segment. */
export function fillPath(path: string, values: Record<string, string> = {}): string {
	return path.replace(/\{(\w+)\}/g, (_match, name: string) => segment(values[name] ?? ''));
}

/** The path of one record: a template with a single placeholder (`/trades/wallets/{walletId}`) and its id. */
export function recordPath(path: string, id: string): string {
	return path.replace(/\{\w+\}/, segment(id));
}

/** The origin (scheme, host and port) of a Location header, never its path or query. */
function locationOrigin(headers: IDataObject): string {
	const location = header(headers, 'location') ?? '';
	const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(location.trim());
	return match ? match[1].replace(/\/\/[^@/]*@/, '//') : 'a relative location on the same service';
}

/** The socket code (ECONNREFUSED, ETIMEDOUT…) of a failure without an answer; n8n may wrap it. */
export function networkCode(error: unknown): string | undefined {
	const err = error as { code?: string; cause?: { code?: string } } | undefined;
	return err?.code ?? err?.cause?.code;
}

/** Socket codes in the node's own words (n8n's wording advises retrying at once, wrong for a write). */
const SOCKET_WORDS: Record<string, string> = {
	ECONNRESET: 'the connection was dropped before an answer',
	EPIPE: 'the connection was closed while the request was sent',
	ECONNABORTED: 'no answer within the timeout',
	ETIMEDOUT: 'no answer within the timeout',
	ESOCKETTIMEDOUT: 'no answer within the timeout',
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be resolved',
};

/** Describes a failure without an answer, without the request (which holds the credentials). */
function networkReason(error: unknown): string {
	const code = networkCode(error);
	if (code) return `${code}: ${SOCKET_WORDS[code] ?? 'the connection failed'}`;
	const message = (error as { message?: unknown })?.message;
	return typeof message === 'string' ? message.slice(0, 160) : 'no answer';
}

/**
 * One exchange: paced, and repeated on 429 (a refused request had no effect) within the bounds.
 * A 5xx or a network failure comes back as `ambiguous` for the caller's retry policy.
 */
export async function exchange(
	ctx: ApiContext,
	http: HttpCall,
	request: ApiRequest,
	/** Attempts on 429 before giving up (1: the first 429 ends the exchange with the rate-limit error); RETRY's by default. */
	limits: { maxRateLimitedAttempts?: number } = {},
): Promise<Outcome> {
	const maxRateLimitedAttempts = limits.maxRateLimitedAttempts ?? RETRY.maxRateLimitedAttempts;
	const key = credentialKey(ctx);
	const route = `${request.method} ${request.route}`;
	const lane = laneFor(key, route);
	const gate = gateFor(key, route);
	let waitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		const outcome = await sendPaced(http, request, lane, gate);
		if (outcome.kind !== 'answered' || outcome.response.statusCode !== 429) return outcome;
		const limits = { attempt, waitedMs, maxRateLimitedAttempts };
		waitedMs += await waitOutRateLimit(ctx, request, outcome.response, lane, limits);
	}
}

type Lane = ReturnType<typeof laneFor>;

/**
 * One attempt, sent in the route's pace (its budget first: a request waiting for its turn holds
 * no in-flight slot) and through its in-flight gate, and what came back: a 429 is answered here,
 * for the caller to wait out.
 */
async function sendPaced(
	http: HttpCall,
	request: ApiRequest,
	lane: Lane,
	gate: Gate,
): Promise<Outcome> {
	const limit = request.rateLimit;
	const place = lane.isOpen(limit) ? undefined : await lane.reserve(limit);
	if (!gate.tryEnter()) await gate.enter();
	const sentAt = Date.now();
	let response: ApiResponse;
	try {
		lane.countFrom(place);
		const { method, url, timeoutMs } = request;
		const body = method === 'GET' || method === 'DELETE' ? undefined : request.body;
		response = await http({
			method,
			url,
			qs: request.qs ?? {},
			body,
			...(timeoutMs ? { timeout: timeoutMs } : {}),
		});
	} catch (error) {
		gate.leave({ overloaded: true });
		const code = networkCode(error);
		return {
			kind: code && NOT_SENT_CODES.has(code) ? 'unsent' : 'ambiguous',
			reason: networkReason(error),
		};
	} finally {
		// Answered or failed, the service counted it by now at the latest.
		lane.countFrom(place);
	}
	const status = response.statusCode;
	gate.leave({ overloaded: status === 429 || status >= 500, latencyMs: Date.now() - sentAt });
	return outcomeOfAnswer(response);
}

/** What an answer says: a redirect, a 5xx or a success that is not JSON leaves the effect in doubt. */
function outcomeOfAnswer(response: ApiResponse): Outcome {
	const status = response.statusCode;
	if (status >= 300 && status < 400) {
		const origin = locationOrigin(response.headers);
		return {
			kind: 'ambiguous',
			reason: `HTTP ${status}: redirected to ${origin}`,
			statusCode: status,
			redirectedTo: origin,
		};
	}
	if (status >= 500 || (status < 300 && !response.json)) {
		const reason = response.json
			? `HTTP ${status}: ${response.body?.message ?? ''}`
			: `HTTP ${status} without a JSON answer`;
		return { kind: 'ambiguous', reason, statusCode: status };
	}
	return { kind: 'answered', response };
}

type RateLimitedAttempts = { attempt: number; waitedMs: number; maxRateLimitedAttempts: number };

/**
 * After a 429: the route blocked for everyone in this process for the service's hinted wait (or
 * a backoff), also when this request gives up; then this request waits it out, or past its bounds
 * fails with the rate-limit error. Returns the time waited.
 */
async function waitOutRateLimit(
	ctx: ApiContext,
	request: ApiRequest,
	response: ApiResponse,
	lane: Lane,
	{ attempt, waitedMs, maxRateLimitedAttempts }: RateLimitedAttempts,
): Promise<number> {
	const hinted = rateLimitWaitMs(response.headers);
	const waitMs = Math.min(RETRY.maxSingleWaitMs, hinted ?? backoffMs(attempt));
	lane.blockedUntil = Math.max(lane.blockedUntil, Date.now() + waitMs);
	if (attempt >= maxRateLimitedAttempts || waitedMs + waitMs > RETRY.maxRateLimitWaitMs) {
		throw rateLimitError(ctx, request, response, waitMs, attempt);
	}
	await sleep(waitMs);
	return waitMs;
}

export async function exchangeOnce(
	ctx: ApiContext,
	http: HttpCall,
	request: ApiRequest,
): Promise<Exclude<Outcome, { kind: 'unsent' }>> {
	for (let attempt = 1; ; attempt++) {
		const outcome = await exchange(ctx, http, request);
		if (outcome.kind !== 'unsent') return outcome;
		if (attempt >= RETRY.maxAmbiguousAttempts) throw unsentError(ctx, request, outcome, attempt);
		await sleep(backoffMs(attempt));
	}
}

/**
 * An exchange whose ambiguous failures are retried only when the policy says repeating is safe;
 * otherwise the error is marked in doubt (apiErrors.ts, `markInDoubt`).
 */
export async function callApi(
	ctx: ApiContext,
	http: HttpCall,
	request: ApiRequest,
	policy: RetryPolicy,
): Promise<ApiResponse> {
	let unclear: string | undefined;
	for (let attempt = 1; ; attempt++) {
		const outcome = await exchangeOnce(ctx, http, request);
		if (outcome.kind === 'answered')
			return unclear === undefined
				? outcome.response
				: { ...outcome.response, afterUnclear: unclear };
		if (outcome.redirectedTo !== undefined) throw redirectError(ctx, request, outcome, policy);
		if (policy !== 'safe' || attempt >= RETRY.maxAmbiguousAttempts)
			throw ambiguousError(ctx, request, outcome, policy, attempt);
		unclear = outcome.reason;
		await sleep(backoffMs(attempt));
	}
}
