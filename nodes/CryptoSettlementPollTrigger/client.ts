import {
	NodeApiError,
	sleep,
	type IDataObject,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';
import { ambiguousError, isSuccess, redirectError, serviceError } from '../service/apiErrors';
import { backoffMs, credentialKey, header, laneFor, RETRY } from '../service/pacing';
import {
	createAuthenticatedHttpCall,
	exchange,
	REQUEST_TIMEOUT_MS,
	withAnswersRedacted,
} from '../service/transport';
import type { ApiRequest, ApiResponse, HttpCall } from '../service/api';
import { CREDENTIAL_TYPE } from '../service/credentials';
import { isObject, scalarText, timeMs } from '../service/values';
import type { PageRead } from './pageOrder';

/**
 * The poll trigger's requests (docs/trigger.md, "How it polls"): the action node's request path
 * (service/transport.ts: pacing, errors without the request), inside n8n's poll budget, with the
 * service's own clock read from its `Date` header. Every answer is cleaned of the credential's
 * secrets as it comes in (docs/guardrails.md, "Secrets: what is hidden where"), so the records,
 * errors and warnings the poll makes from it need no rewriting.
 */

/** n8n 1.x gives a poll no budget (`getPollBudgetMs` does not exist): a poll there stops after this long. */
export const FALLBACK_BUDGET_MS = 36_000;
/** No request starts after this share of the budget… */
const LAST_START_SHARE = 0.7;
/** …and every request has ended by this share: the rest is n8n's, to run the workflow and save the state. */
const LAST_ANSWER_SHARE = 0.9;

export class Budget {
	readonly startedAt = Date.now();

	constructor(readonly totalMs: number) {}

	static of(ctx: IPollFunctions): Budget {
		const ask = (ctx as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
		const ms = typeof ask === 'function' ? Number(ask.call(ctx)) : Number.NaN;
		return new Budget(Number.isFinite(ms) && ms > 0 ? ms : FALLBACK_BUDGET_MS);
	}

	/** The last moment a request may start, for the `part` of `parts` of the poll (lists share the time in turn). */
	lastStart(part = 1, parts = 1): number {
		return this.startedAt + (this.totalMs * LAST_START_SHARE * part) / parts;
	}

	/** How long a request started now may wait for its answer. */
	timeoutMs(now = Date.now()): number {
		return Math.max(
			250,
			Math.min(REQUEST_TIMEOUT_MS, this.startedAt + this.totalMs * LAST_ANSWER_SHARE - now),
		);
	}
}

/** Why a poll stopped reading a list before its end. */
export type StopReason = 'maxPages' | 'budget' | 'rateLimit';

/** Why a poll stopped reading, in its warnings' words. */
export const STOPPED = {
	maxPages: (maxPages: number) => `it read ${maxPages} pages (Max Pages per Poll)`,
	budget: () => "n8n's time for one poll was running out",
	rateLimit: () => 'the service answered 429 (rate limit)',
};

export class PollClient {
	private readonly http: HttpCall;

	/** The service's clock minus n8n's (ms), from the last `Date` header; the state keeps it between polls. */
	offsetMs: number;

	constructor(
		private readonly ctx: IPollFunctions,
		readonly budget: Budget,
		offsetMs: number | undefined,
		/** The credential's secrets (service/credentials.ts, `secretsOf`), cleaned from every answer. */
		secrets: readonly string[],
	) {
		this.http = withAnswersRedacted(createAuthenticatedHttpCall(ctx, CREDENTIAL_TYPE), secrets);
		this.offsetMs = offsetMs ?? 0;
	}

	/** The service's time now, as far as its answers tell (n8n's clock until one had a `Date` header). */
	serviceNow(): number {
		return Date.now() + this.offsetMs;
	}

	/**
	 * One GET within the budget: a failure without an answer is retried while time is left, a 429
	 * is not waited out (the route stays paced for everyone until its Retry-After). The answer, or
	 * why the poll stops reading here.
	 */
	async get(
		route: string,
		url: string,
		qs: IDataObject,
		lastStart: number,
	): Promise<ApiResponse | 'budget' | 'rateLimit'> {
		const lane = laneFor(credentialKey(this.ctx), `GET ${route}`);
		const request: ApiRequest = { method: 'GET', route, url, qs };
		for (let attempt = 1; ; attempt++) {
			const now = Date.now();
			if (lane.blockedUntil > lastStart) return 'rateLimit';
			if (now >= lastStart) return 'budget';
			const outcome = await exchange(
				this.ctx,
				this.http,
				{ ...request, timeoutMs: this.budget.timeoutMs() },
				{ maxRateLimitedAttempts: 1 },
			).catch(async (error: unknown) =>
				isRateLimited(error) ? undefined : await Promise.reject(error),
			);
			if (outcome === undefined) return 'rateLimit';
			if (outcome.kind === 'answered') {
				this.readClock(outcome.response);
				return outcome.response;
			}
			// A read repeats alike whether the request left (ambiguous) or not (unsent).
			const failed =
				outcome.kind === 'unsent'
					? { kind: 'ambiguous' as const, reason: outcome.reason }
					: outcome;
			if (failed.redirectedTo !== undefined) throw redirectError(this.ctx, request, failed, 'safe');
			if (attempt >= RETRY.maxAmbiguousAttempts)
				throw ambiguousError(this.ctx, request, failed, 'safe', attempt);
			const pause = backoffMs(attempt);
			if (Date.now() + pause >= lastStart) return 'budget';
			await sleep(pause);
		}
	}

	/** A page of a paged list (docs/api.md, "Pagination"); `forbidden` words a 403 for this list. */
	async page(
		route: string,
		qs: IDataObject,
		lastStart: number,
		forbidden?: (serviceMessage: string) => Error,
	): Promise<PageRead | StopReason> {
		const response = await this.get(route, route, qs, lastStart);
		if (typeof response === 'string') return response;
		if (!isSuccess(response)) {
			if (response.statusCode === 403 && forbidden)
				throw forbidden(scalarText(response.body?.message) || 'forbidden');
			throw serviceError(this.ctx, { method: 'GET', route, url: route, qs }, response);
		}
		const data = response.body.data;
		if (!Array.isArray(data))
			throw new NodeApiError(
				this.ctx.getNode(),
				{ message: 'the list has no data array' },
				{
					message: `The service answered GET ${route} without a list`,
					description: 'Nothing was emitted; the next poll tries again.',
				},
			);
		const meta = (response.body.meta ?? {}) as IDataObject;
		const page = Number(qs.page);
		const pages = positive(meta.pages);
		// Without `meta.hasNextPage` or `meta.pages`, a full page is taken to have another after it.
		const full = typeof meta.hasNextPage !== 'boolean' && pages === undefined;
		const hasNextPage = meta.hasNextPage === true || (full && data.length >= Number(qs.size));
		const servedAt = timeMs(header(response.headers, 'date'));
		return {
			records: data.filter(isObject),
			hasNextPage: hasNextPage || (pages !== undefined && page < pages),
			pages,
			total: positive(meta.totalDocs, 0),
			...(servedAt !== null ? { servedAt } : {}),
		};
	}

	/** One record by its path: the record, null when the service no longer has it (404), or why the poll stops. */
	async record(
		route: string,
		url: string,
		lastStart: number,
	): Promise<IDataObject | null | StopReason> {
		const response = await this.get(route, url, {}, lastStart);
		if (typeof response === 'string') return response;
		if (response.statusCode === 404) return null;
		if (!isSuccess(response)) throw serviceError(this.ctx, { method: 'GET', route, url }, response);
		return isObject(response.body.data) ? response.body.data : null;
	}

	/**
	 * The service's `Date` header sets the offset between its clock and n8n's. The header says whole
	 * seconds: the offset is taken at its lowest (the second's start, the answer's arrival), so the
	 * service's time is never overestimated (a position a little behind costs a re-read, not an event).
	 */
	private readClock(response: ApiResponse): void {
		const stated = timeMs(header(response.headers, 'date'));
		if (stated !== null) this.offsetMs = stated - Date.now();
	}
}

function positive(value: unknown, min = 1): number | undefined {
	const number = Number(value);
	const stated = value !== null && value !== undefined && value !== '';
	return stated && Number.isInteger(number) && number >= min ? number : undefined;
}

/** The 429 that ends a walk quietly: the next poll continues from the same position. */
function isRateLimited(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '429';
}

/** HTTP 403 on the stored deliveries: the account has no webhook inspection access. */
export function refusedInspection(ctx: IPollFunctions, serviceMessage: string): NodeApiError {
	return new NodeApiError(
		ctx.getNode(),
		{ message: serviceMessage, httpCode: '403' } as JsonObject,
		{
			message:
				'The service refused to list its stored webhook deliveries (HTTP 403): this account has no webhook inspection access',
			description: `The service said: "${serviceMessage}". Source "Stored Webhook Deliveries" needs the service's webhook inspection access (VIP API access): ask the service to enable it, or set Source to "Records (Transactions and Withdrawals)", which needs only the API access the action node uses.`,
			httpCode: '403',
		},
	);
}
