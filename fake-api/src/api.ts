/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * One API request, in order: the request log, route matching, fault switches, rate limits,
 * body parsing and authentication, the route's handler, then the faults that strike after it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { ENVIRONMENTS } from '../../nodes/service/catalog';
import type { FakeApiCore } from './core';
import { findFaultRule, pickFault } from './faults';
import { ApiError, MESSAGES, errorBody, type Reply } from './http';
import { errorReply, header, remoteAddressOf, sameSecret, send, serverError } from './io';
import type { RateLimiter } from './rate-limiter';
import { matchRoute, type Route } from './routes/router';
import type { Environment, FaultKind, FaultRule, RequestLogEntry } from './types';

export interface Runtime {
	core: FakeApiCore;
	limiter: RateLimiter;
}

function log(core: FakeApiCore, entry: RequestLogEntry): void {
	const { state } = core;
	state.requests.push(entry);
	const excess = state.requests.length - core.options.requestLogLimit;
	if (excess > 0) state.requests.splice(0, excess);
}

/** One API request: logged, routed, then its faults, rate limit and handler in the order of the file's header. */
export async function handleApi(
	runtime: Runtime,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	raw: string,
): Promise<void> {
	const { core } = runtime;
	const method = (req.method ?? 'GET').toUpperCase();
	const entry = logRequest(core, req, method, url, raw);
	const reply = (result: Reply, extra: Record<string, string> = {}) => {
		entry.status = result.status;
		send(res, result, extra);
	};

	const apiPath = url.pathname.startsWith('/v1/')
		? url.pathname.slice(3).replace(/(.)\/$/, '$1')
		: undefined;
	const { route, params } = apiPath
		? matchRoute(method, apiPath)
		: { route: undefined, params: {} };
	if (!route) {
		reply(errorReply(new ApiError(404, `Cannot ${method} ${url.pathname}: route not found`)));
		return;
	}

	// Fault switches (before anything happens).
	const rule = findFaultRule(core.faults, method, apiPath ?? '', route.template);
	const fault = pickFault(rule, core.options.random);
	entry.fault = fault;
	if (fault === 'drop') {
		req.socket.destroy();
		return;
	}
	const refused = refusedBeforeHandling(runtime, req, route, fault, rule);
	if (refused.reply) {
		reply(refused.reply, refused.headers);
		return;
	}

	const result = await handleRoute(core, req, method, route, params, url, raw);

	// Faults after the effect happened.
	if (fault === 'dropAfterCommit') {
		req.socket.destroy();
		return;
	}
	reply(fault === '5xxAfterCommit' ? serverError(rule?.status5xx ?? 500) : result, refused.headers);
}

/** The request as the log keeps it (the app secret left out, the body parsed when it parses). */
function logRequest(
	core: FakeApiCore,
	req: IncomingMessage,
	method: string,
	url: URL,
	raw: string,
): RequestLogEntry {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (name === 'x-app-secret' || value === undefined) continue;
		headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	let loggedBody: unknown = undefined;
	if (raw !== '') {
		try {
			loggedBody = JSON.parse(raw);
		} catch {
			loggedBody = raw;
		}
	}
	const entry: RequestLogEntry = {
		at: core.iso(),
		method,
		url: req.url ?? '',
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		headers,
		body: loggedBody,
	};
	log(core, entry);
	return entry;
}

/**
 * The rate limit (docs/api.md): its headers, on every answer of a limited route; and the answer
 * that refuses the request before its handler runs (over the limit, or a 429 or 5xx fault), if any.
 */
function refusedBeforeHandling(
	{ core, limiter }: Runtime,
	req: IncomingMessage,
	route: Route,
	fault: FaultKind | undefined,
	rule: FaultRule | undefined,
): { headers: Record<string, string>; reply?: Reply } {
	let headers: Record<string, string> = {};
	if (route.limit) {
		const key = `${header(req, 'x-app-id') || `ip:${remoteAddressOf(req)}`}|${route.template}`;
		const decision = limiter.hit(key, core.options.rateLimits[route.limit], fault !== '429');
		headers = decision.headers;
		if (!decision.allowed) {
			return {
				headers: { ...headers, 'Retry-After': String(decision.retryAfter) },
				reply: { status: 429, body: errorBody(429, MESSAGES.tooManyRequests) },
			};
		}
	}
	if (fault === '429') {
		return {
			headers: { ...headers, 'Retry-After': String(rule?.retryAfterSeconds ?? 1) },
			reply: { status: 429, body: errorBody(429, MESSAGES.tooManyRequests) },
		};
	}
	if (fault === '5xx') return { headers, reply: serverError(rule?.status5xx ?? 500) };
	return { headers };
}

/** The route's answer: the body parsed, the caller authenticated, the handler run and a write saved; an error as its reply. */
async function handleRoute(
	core: FakeApiCore,
	req: IncomingMessage,
	method: string,
	route: Route,
	params: Record<string, string>,
	url: URL,
	raw: string,
): Promise<Reply> {
	try {
		const body = parseBody(raw);
		const env = authenticate(core, req, route);
		const result = await route.handle({
			core,
			params,
			query: url.searchParams,
			body,
			env,
			remoteAddress: remoteAddressOf(req),
		});
		if (method !== 'GET') core.save();
		return result;
	} catch (error) {
		if (error instanceof ApiError) return errorReply(error);
		console.error('[fake-api] unexpected error:', error);
		return serverError();
	}
}

function parseBody(raw: string): Record<string, unknown> {
	if (raw.trim() === '') return {};
	let parsed: unknown = undefined;
	let malformed = false;
	try {
		parsed = JSON.parse(raw);
	} catch {
		malformed = true;
	}
	if (malformed) throw new ApiError(400, 'malformed JSON in request body');
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new ApiError(400, 'request body must be a JSON object');
	}
	return parsed as Record<string, unknown>;
}

/** docs/api.md, "Base URL, authentication and environments": the three headers; 401 missing/wrong, 403 inactive or without API access. */
function authenticate(core: FakeApiCore, req: IncomingMessage, route: Route): Environment {
	const envHeader = header(req, 'x-service-env');
	const known = (ENVIRONMENTS as readonly string[]).includes(envHeader ?? '');
	if (route.access === 'public') return known ? (envHeader as Environment) : 'sandbox';
	const appId = header(req, 'x-app-id');
	const appSecret = header(req, 'x-app-secret');
	if (!appId || !appSecret) throw new ApiError(401, MESSAGES.notAuthenticated);
	if (!known) throw new ApiError(401, MESSAGES.badEnvironment);
	const valid =
		sameSecret(appId, core.options.appId) && sameSecret(appSecret, core.options.appSecret);
	if (!valid) throw new ApiError(401, MESSAGES.wrongCredentials);
	if (!core.state.account.isActive) throw new ApiError(403, MESSAGES.noApiAccess);
	if (route.access === 'vip' && !core.state.account.webhookAccess)
		throw new ApiError(403, MESSAGES.noApiAccess);
	return envHeader as Environment;
}
