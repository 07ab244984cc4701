import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';
import { header, RETRY } from './pacing';
import type {
	ApiContext,
	ApiRequest,
	ApiResponse,
	ErrorWording,
	Outcome,
	RetryPolicy,
} from './api';
import { namingItsRow, rowOf } from './rows';

/**
 * The API client's errors: the service's message, the HTTP code and the first validation entry,
 * never the request (which holds the credentials).
 */

type Ambiguous = Extract<Outcome, { kind: 'ambiguous' }>;

function itemIndexOf(ctx: ApiContext): number {
	return ctx.getItemIndex?.() ?? 0;
}

/**
 * A NodeApiError that keeps the node's own message. n8n replaces a message that mentions a socket
 * code (ECONNRESET, ETIMEDOUT…) with its advice to retry at once, which is wrong for a write that
 * may have taken effect.
 */
export function apiError(
	node: INode,
	details: JsonObject,
	options: NonNullable<ConstructorParameters<typeof NodeApiError>[2]> & { message: string },
): NodeApiError {
	const error = new NodeApiError(node, details, options);
	error.message = options.message;
	return error;
}

/** An item's API error: `cause` (and its HTTP code) the service's or a library's words, `message` and `description` the node's. */
export function itemApiError(
	ctx: ApiContext,
	cause: string,
	httpCode: string | undefined,
	message: string,
	description: string,
): NodeApiError {
	return apiError(
		ctx.getNode(),
		{ message: cause, ...(httpCode ? { httpCode } : {}) },
		{ message, description, httpCode, itemIndex: itemIndexOf(ctx) },
	);
}

/**
 * Marks an error after which a write may or may not have taken effect (docs/architecture.md,
 * "Never paid twice"): n8n's Retry On Fail must not send it again. A typed flag on the error's
 * context, never read from its text (n8n rewrites some messages).
 */
export function markInDoubt<E extends { context: Record<string, unknown> }>(error: E): E {
	error.context.inDoubt = true;
	return error;
}

export function isInDoubt(error: unknown): boolean {
	return (error as { context?: { inDoubt?: unknown } } | undefined)?.context?.inDoubt === true;
}

export function isSuccess(response: ApiResponse): boolean {
	const { statusCode, json, body } = response;
	return statusCode >= 200 && statusCode < 300 && json && body.success !== false;
}

const STATUS_HINTS: Record<number, string> = {
	400: 'The service refused the request (a business rule such as balance, a duplicate, or temporary payout capacity).',
	401: "Check the credential's App ID, App Secret and Environment.",
	// Payouts have their own 403 hints (limits, availability, allowlist): operations/withdrawal.ts.
	403: 'The account lacks permission for this action (for example no API access for it).',
	404: 'Nothing was found with this ID in the selected environment.',
	409: 'The request conflicts with the current state, for example something that already exists.',
	422: 'The service rejected one or more fields.',
	500: 'The service failed unexpectedly.',
};

/**
 * A validation entry in the editor's words: "'Wallet Address': invalid wallet address", or
 * "'Amount (USD)' must have at most 2 decimal places" when the service starts with its field name.
 */
function entryText(entry: { field?: string; message?: string }, wording?: ErrorWording): string {
	const field = entry.field ?? 'request';
	const text = entry.message ?? 'Invalid value';
	const label = wording && entry.field ? wording.labelOf(entry.field) : undefined;
	if (!label) return `${field}: ${text}`;
	return text.startsWith(`${field} `)
		? `'${label}' ${text.slice(field.length + 1)}`
		: `'${label}': ${text}`;
}

/** What a field the service refused must be, from what the item sent (the node's own rules cannot check it). */
function adviceOf(field: string | undefined, body: ApiRequest['body']): string {
	if (field !== 'walletAddress' || typeof body?.token !== 'string') return '';
	const network = typeof body.network === 'string' ? ` on ${body.network}, the Network chosen` : '';
	return ` It must be a ${body.token} address${network}: an address of another chain is refused.`;
}

/**
 * A 422 of a write that must not repeat, worded as the node's own field errors (record/params.ts):
 * the field's label, the row (counted from 1, with its External ID) and that nothing was done.
 */
function refusedFieldText(
	ctx: ApiContext,
	request: ApiRequest,
	entry: { field?: string } | undefined,
): string | undefined {
	const wording = request.wording;
	if (!wording?.oneShot) return undefined;
	const label = entry?.field ? wording.labelOf(entry.field) : undefined;
	const row = rowOf(
		itemIndexOf(ctx),
		typeof request.body?.externalId === 'string' ? request.body.externalId : undefined,
	);
	const what = wording.pays ? 'nothing was paid for this item' : 'nothing was done for this item';
	return `${label ? `Fix '${label}' for ${row}.` : `The service refused ${row}.`}${adviceOf(entry?.field, request.body)} The service refused it, so ${what}.`;
}

/**
 * A refusal of a repeated write whose earlier attempt got no clear answer may be about what that
 * attempt did: a delete answered 404 the second time most likely deleted the record the first
 * time. Said first, so nobody takes the refusal for a wrong id (docs/usage.md, "Pacing, retries and
 * timeouts").
 */
function afterUnclearText(request: ApiRequest, response: ApiResponse): string | undefined {
	if (response.afterUnclear === undefined || request.method === 'GET') return undefined;
	const deleted = request.method === 'DELETE' && response.statusCode === 404;
	return `This answer came to a repeat: an earlier attempt got no clear answer (${response.afterUnclear}) and may have taken effect${
		deleted
			? ', so the record was most likely deleted by it; Get Many shows whether it is still there'
			: '; this answer may be about what it did'
	}.`;
}

/**
 * A service error: its message, the HTTP code and, for 422, the first validation entry named by
 * the field's label (for a write, with the row and that nothing was done, as the node's own
 * errors say). The hint is the caller's, else the operation's for this status, else the status's own.
 */
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
	const firstEntry = first ? entryText(first, request.wording) : undefined;
	const message = `${serviceMessage} (HTTP ${status})${firstEntry ? ` — ${firstEntry}` : ''}`;
	const refused = status === 422 ? refusedFieldText(ctx, request, first) : undefined;
	const description = [
		afterUnclearText(request, response),
		refused,
		hint ??
			request.wording?.hints?.[status] ??
			STATUS_HINTS[status] ??
			`The service answered ${request.method} ${request.url} with HTTP ${status}.`,
		firstEntry && errors.length > 1
			? `${errors.length} problems were reported; the first is shown, all are in the error details.`
			: undefined,
	]
		.filter(Boolean)
		.join(' ');
	const details: JsonObject = {
		message: serviceMessage,
		httpCode: String(status),
		errors: errors as JsonObject[],
	};
	const error = apiError(ctx.getNode(), details, {
		message,
		description,
		httpCode: String(status),
		itemIndex: itemIndexOf(ctx),
	});
	return refused ? namingItsRow(error) : error;
}

export function rateLimitError(
	ctx: ApiContext,
	request: ApiRequest,
	response: ApiResponse,
	waitMs: number,
	attempts: number,
): NodeApiError {
	const route = `${request.method} ${request.url}`;
	const limit = header(response.headers, 'x-ratelimit-limit') ?? request.rateLimit;
	const retryInSeconds = Math.ceil(waitMs / 1000);
	return itemApiError(
		ctx,
		response.body?.message ?? 'rate limit exceeded',
		'429',
		`Rate limit reached on ${route}${limit ? ` (${limit} requests per minute)` : ''}; try again in ${retryInSeconds} s`,
		`The service kept answering 429 (${attempts} attempt${attempts === 1 ? '' : 's'}; at most ${RETRY.maxRateLimitedAttempts} attempts or ${RETRY.maxRateLimitWaitMs / 1000} s of waiting). Nothing was done for this item; run it again after ${retryInSeconds} s.`,
	);
}

/** A redirect is never followed (it would carry the credentials): the error names only its origin. */
export function redirectError(
	ctx: ApiContext,
	request: ApiRequest,
	outcome: Ambiguous,
	policy: RetryPolicy,
): NodeApiError {
	const error = itemApiError(
		ctx,
		outcome.reason,
		String(outcome.statusCode),
		`The service redirected ${request.method} ${request.url} to ${outcome.redirectedTo}; the redirect was not followed`,
		`Authenticated requests never follow redirects, so the credentials stay with the service. Check the credential's Base URL.${
			policy === 'safe'
				? ''
				: ' The request may or may not have taken effect: check the result before running it again.'
		}`,
	);
	return policy === 'safe' ? error : markInDoubt(error);
}

export function ambiguousError(
	ctx: ApiContext,
	request: ApiRequest,
	outcome: Ambiguous,
	policy: RetryPolicy,
	attempts: number,
): NodeApiError {
	const route = `${request.method} ${request.url}`;
	const safe = policy === 'safe';
	const error = itemApiError(
		ctx,
		outcome.reason,
		outcome.statusCode ? String(outcome.statusCode) : undefined,
		safe
			? `The service did not answer ${route} after ${attempts} attempts (${outcome.reason})`
			: `${route} may or may not have taken effect: ${outcome.reason}`,
		safe
			? 'The request was retried with backoff and kept failing. Try again later.'
			: 'The service failed without a clear answer, so the request may have been applied. It was not repeated, to avoid doing it twice: check the result (balances, lists) before running it again.',
	);
	return safe ? error : markInDoubt(error);
}

/** Every attempt failed before the request left (connection refused, no such host): nothing was sent. */
export function unsentError(
	ctx: ApiContext,
	request: ApiRequest,
	outcome: Extract<Outcome, { kind: 'unsent' }>,
	attempts: number,
): NodeApiError {
	return itemApiError(
		ctx,
		outcome.reason,
		undefined,
		`Could not reach the service for ${request.method} ${request.url} (${outcome.reason}); nothing was sent`,
		`The connection failed before the request left, ${attempts} time${attempts === 1 ? '' : 's'}, so nothing was done. Check the credential's Base URL and that the service is reachable, then run it again.`,
	);
}
