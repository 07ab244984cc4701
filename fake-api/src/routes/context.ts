/**
 * What every route handler gets and the shapes the handlers share: pagination (docs/api.md,
 * "Pagination"), one record by id or a 404, deleting one record or a 404, and the PIN check.
 */
import type { FakeApiCore } from '../core';
import { ApiError, MESSAGES, badRequest, notFound, ok, type Reply } from '../http';
import type { Environment, RateLimitKey } from '../types';

export interface Context {
	core: FakeApiCore;
	params: Record<string, string>;
	query: URLSearchParams;
	body: Record<string, unknown>;
	env: Environment;
	remoteAddress: string;
}

export interface Route {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** Path template relative to /v1, parameters in braces. */
	template: string;
	/** public: no credentials (docs/api.md); vip: webhook inspection (docs/api.md). */
	access: 'public' | 'credentials' | 'vip';
	limit?: RateLimitKey;
	handle: (ctx: Context) => Reply | Promise<Reply>;
}

interface PageMeta {
	pages: number;
	prevPage: number | null;
	nextPage: number | null;
	page: number;
	totalDocs: number;
	hasPrevPage: boolean;
	hasNextPage: boolean;
}

function positiveIntegerParam(query: URLSearchParams, name: string, fallback: number): number {
	const raw = query.get(name);
	if (raw === null || raw === '') return fallback;
	if (!/^\d+$/.test(raw) || Number(raw) < 1) {
		throw new ApiError(422, MESSAGES.validation, [
			{ message: `${name} must be a positive integer`, field: name, location: 'query' },
		]);
	}
	return Number(raw);
}

/** docs/api.md, "Pagination": page (default 1) and size (default 10, capped at `maxSize`); newest first. */
export function paginate<T>(
	items: T[],
	query: URLSearchParams,
	maxSize: number,
): { data: T[]; meta: PageMeta } {
	const page = positiveIntegerParam(query, 'page', 1);
	const size = Math.min(positiveIntegerParam(query, 'size', 10), Math.max(1, maxSize));
	const totalDocs = items.length;
	const pages = Math.max(1, Math.ceil(totalDocs / size));
	// The page's records newest first, read from the end of the list (oldest first) without copying it:
	// a list of 100,000 records is paged 1,000 times by the statement's bench.
	const newest = Math.max(0, totalDocs - (page - 1) * size);
	return {
		data: items.slice(Math.max(0, newest - size), newest).reverse(),
		meta: {
			pages,
			prevPage: page > 1 ? page - 1 : null,
			nextPage: page < pages ? page + 1 : null,
			page,
			totalDocs,
			hasPrevPage: page > 1,
			hasNextPage: page < pages,
		},
	};
}

/**
 * A paginated list answer (the four main lists), each record shown through `view`, after `pageDelayMs`:
 * the page is taken at the request (as a service reads it) and its records shown once the wait is
 * over, so a busy day's pages in waiting hold no copies (docs/fake-api.md).
 */
export async function pageOf<T>(
	ctx: Context,
	items: T[],
	message: string,
	view: (item: T) => unknown = (item) => item,
): Promise<Reply> {
	const { data, meta } = paginate(items, ctx.query, ctx.core.options.maxPageSize);
	await ctx.core.pause(ctx.core.options.pageDelayMs);
	return ok(message, data.map(view), { ...meta });
}

/** The record whose id is `id`, or a 404 `missing`. */
export function findOr404<T extends { id: string }>(
	items: T[],
	id: string | undefined,
	missing: string,
): T {
	const record = items.find((candidate) => candidate.id === id);
	if (!record) throw notFound(missing);
	return record;
}

/** Removes the record whose id is `id`, or throws a 404 `missing`. */
export function removeOr404<T extends { id: string }>(
	items: T[],
	id: string | undefined,
	missing: string,
): void {
	const index = items.findIndex((candidate) => candidate.id === id);
	if (index < 0) throw notFound(missing);
	items.splice(index, 1);
}

interface RecordRoute<T> {
	template: string;
	/** The records the template's last parameter names. */
	records: (ctx: Context) => T[];
	/** 404 message. */
	missing: string;
	/** Success message. */
	message: string;
}

/** GET one record by the template's last parameter: shown through `view`, or 404. */
export function getRecordRoute<T extends { id: string }>(
	spec: RecordRoute<T> & { view?: (record: T) => unknown },
): Route {
	const param = lastParam(spec.template);
	return {
		method: 'GET',
		template: spec.template,
		access: 'credentials',
		handle: (ctx) => {
			const record = findOr404(spec.records(ctx), ctx.params[param], spec.missing);
			return ok(spec.message, spec.view ? spec.view(record) : record);
		},
	};
}

/** DELETE one record by the template's last parameter, or 404. */
export function deleteRecordRoute<T extends { id: string }>(spec: RecordRoute<T>): Route {
	const param = lastParam(spec.template);
	return {
		method: 'DELETE',
		template: spec.template,
		access: 'credentials',
		handle: (ctx) => {
			removeOr404(spec.records(ctx), ctx.params[param], spec.missing);
			return ok(spec.message, {});
		},
	};
}

function lastParam(template: string): string {
	const match = /\{([^}]+)\}$/.exec(template);
	if (!match) throw new Error(`${template} ends with no parameter`);
	return match[1];
}

export function checkPin(ctx: Context): void {
	if (String(ctx.body.pin) !== ctx.core.options.pin) throw badRequest('invalid transaction pin');
}
