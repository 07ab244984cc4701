/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * A faithful local sandbox of the payments API, on loopback: authentication, envelopes,
 * validation (with the node's own rules module), pagination, rate limits, state with a lifecycle,
 * outgoing webhooks, and fault switches. Development tooling only; not part of dist.
 *
 *   const sandbox = await startFakeApi({ lifecycleDelayMs: 10 });
 *   // credentials: sandbox.appId / sandbox.appSecret, base URL: sandbox.url (includes /v1)
 *   await sandbox.settle();   // run pending transitions and webhook deliveries now
 *   await sandbox.close();
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ENVIRONMENTS } from '../../nodes/CryptoSettlement/helpers/rules';
import { FakeApiCore } from './core';
import { ApiError, MESSAGES, errorBody, type Reply } from './http';
import { matchRoute, type Route } from './routes';
import type {
	Environment,
	FaultConfig,
	FaultKind,
	FaultRule,
	FiatWallets,
	RateLimitKey,
	RequestLogEntry,
	FakeApiOptions,
	FakeApiState,
} from './types';

export type * from './types';
export { DEFAULTS } from './core';

export interface FakeApi {
	/** Base URL including /v1, e.g. http://127.0.0.1:43210/v1 */
	url: string;
	port: number;
	/** Live state: account (balances, settings), wallets, withdrawals, trades, webhookEvents, requests... */
	state: FakeApiState;
	/** Credentials and PIN in force. */
	appId: string;
	appSecret: string;
	pin: string;
	/** Replaces the fault switches. */
	setFaults(faults: FaultConfig): void;
	/**
	 * Runs every pending lifecycle transition and first webhook delivery now (without waiting for
	 * their delay) and waits for them; retries run when due, or now with `{ retries: true }`
	 * (each pending retry once per call).
	 */
	settle(options?: { retries?: boolean }): Promise<void>;
	close(): Promise<void>;
	/** Request log (state.requests): method, path, query, headers without x-app-secret, body. */
	readonly requests: RequestLogEntry[];
	clearRequests(): void;
	/** Changes where (and with which secret) webhooks go; null stops deliveries. */
	setWebhook(url: string | null, secret?: string): void;
	readonly webhookUrl: string | null;
	readonly webhookSecret: string;
	setRateLimits(limits: Partial<Record<RateLimitKey, number>>): void;
	/** Forgets the current rate-limit windows. */
	resetRateLimits(): void;
	setBalances(balances: Partial<FiatWallets>): void;
}

const WINDOW_MS = 60_000;

interface RateWindow {
	start: number;
	count: number;
}

interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
	retryAfter: number;
}

/** Fixed one-minute windows per (x-app-id, route) (docs/api.md). */
class RateLimiter {
	private windows = new Map<string, RateWindow>();

	constructor(private readonly now: () => number) {}

	reset(): void {
		this.windows.clear();
	}

	hit(key: string, limit: number, consume: boolean): RateDecision {
		const now = this.now();
		let window = this.windows.get(key);
		if (!window || now >= window.start + WINDOW_MS) {
			window = { start: now, count: 0 };
			this.windows.set(key, window);
		}
		const allowed = window.count < limit;
		if (allowed && consume) window.count++;
		const resetAt = window.start + WINDOW_MS;
		return {
			allowed,
			retryAfter: Math.max(1, Math.ceil((resetAt - now) / 1000)),
			headers: {
				'X-RateLimit-Limit': String(limit),
				'X-RateLimit-Remaining': String(Math.max(0, limit - window.count)),
				'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
			},
		};
	}
}

const FAULT_ORDER: FaultKind[] = ['drop', '429', '5xx', '5xxAfterCommit', 'dropAfterCommit'];
const RATE_OF: Record<FaultKind, keyof FaultRule> = {
	drop: 'rateDrop',
	'429': 'rate429',
	'5xx': 'rate5xx',
	'5xxAfterCommit': 'rate5xxAfterCommit',
	dropAfterCommit: 'rateDropAfterCommit',
};

function normalizeKey(key: string): string {
	return key.trim().replace(/\{[^}]*\}/g, '{}');
}

/** The most specific rule: concrete path, route template, 'METHOD *', '*'. */
function findFaultRule(faults: FaultConfig, method: string, path: string, template: string | undefined): FaultRule | undefined {
	const byKey = new Map(Object.entries(faults).map(([key, rule]) => [normalizeKey(key), rule]));
	const candidates = [`${method} ${path}`, template ? normalizeKey(`${method} ${template}`) : undefined, `${method} *`, '*'];
	for (const candidate of candidates) {
		if (candidate && byKey.has(candidate)) return byKey.get(candidate);
	}
	return undefined;
}

function pickFault(rule: FaultRule | undefined, random: () => number): FaultKind | undefined {
	if (!rule) return undefined;
	for (const kind of FAULT_ORDER) {
		const count = rule.nextN?.[kind] ?? 0;
		if (count > 0 && rule.nextN) {
			rule.nextN[kind] = count - 1;
			return kind;
		}
	}
	for (const kind of FAULT_ORDER) {
		const rate = rule[RATE_OF[kind]] as number | undefined;
		if (rate && random() < rate) return kind;
	}
	return undefined;
}

function sameSecret(a: string, b: string): boolean {
	const digest = (value: string) => createHash('sha256').update(value).digest();
	return timingSafeEqual(digest(a), digest(b));
}

function header(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		const parsed = new URL(value);
		return parsed.protocol === 'http:' || parsed.protocol === 'https:';
	} catch {
		return false;
	}
}

function send(res: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}): void {
	if (res.writableEnded || res.destroyed) return;
	const body = JSON.stringify(reply.body);
	res.writeHead(reply.status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': String(Buffer.byteLength(body)),
		...extraHeaders,
		...reply.headers,
	});
	res.end(body);
}

function errorReply(error: ApiError): Reply {
	return { status: error.status, body: errorBody(error.status, error.message, error.errors), headers: error.headers };
}

function serverError(status = 500): Reply {
	return { status, body: errorBody(status, MESSAGES.serverError) };
}

function remoteAddressOf(req: IncomingMessage): string {
	return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

/** Starts the sandbox on 127.0.0.1 (options.port, default 0 = a free port). */
export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
	const core = new FakeApiCore(options);
	const { state } = core;
	const limiter = new RateLimiter(() => core.now());

	const log = (entry: RequestLogEntry) => {
		state.requests.push(entry);
		const excess = state.requests.length - core.options.requestLogLimit;
		if (excess > 0) state.requests.splice(0, excess);
	};

	async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
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
		log(entry);
		const reply = (result: Reply, extra: Record<string, string> = {}) => {
			entry.status = result.status;
			send(res, result, extra);
		};

		const apiPath = url.pathname.startsWith('/v1/') ? url.pathname.slice(3).replace(/(.)\/$/, '$1') : undefined;
		const { route, params } = apiPath ? matchRoute(method, apiPath) : { route: undefined, params: {} };
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

		// Rate limits (docs/api.md): headers on every answer of a limited route.
		let rateHeaders: Record<string, string> = {};
		if (route.limit) {
			const key = `${header(req, 'x-app-id') || `ip:${remoteAddressOf(req)}`}|${route.template}`;
			const decision = limiter.hit(key, core.options.rateLimits[route.limit], fault !== '429');
			rateHeaders = decision.headers;
			if (!decision.allowed) {
				reply({ status: 429, body: errorBody(429, MESSAGES.tooManyRequests) }, {
					...rateHeaders,
					'Retry-After': String(decision.retryAfter),
				});
				return;
			}
		}
		if (fault === '429') {
			reply({ status: 429, body: errorBody(429, MESSAGES.tooManyRequests) }, {
				...rateHeaders,
				'Retry-After': String(rule?.retryAfterSeconds ?? 1),
			});
			return;
		}
		if (fault === '5xx') {
			reply(serverError(rule?.status5xx ?? 500), rateHeaders);
			return;
		}

		let result: Reply;
		try {
			const body = parseBody(raw);
			const env = authenticate(req, route);
			result = await route.handle({ core, params, query: url.searchParams, body, env, remoteAddress: remoteAddressOf(req) });
			if (method !== 'GET') core.save();
		} catch (error) {
			if (error instanceof ApiError) {
				result = errorReply(error);
			} else {
				console.error('[sandbox] unexpected error:', error);
				result = serverError();
			}
		}

		// Faults after the effect happened.
		if (fault === 'dropAfterCommit') {
			req.socket.destroy();
			return;
		}
		if (fault === '5xxAfterCommit') {
			reply(serverError(rule?.status5xx ?? 500), rateHeaders);
			return;
		}
		reply(result, rateHeaders);
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
	function authenticate(req: IncomingMessage, route: Route): Environment {
		const envHeader = header(req, 'x-service-env');
		const known = (ENVIRONMENTS as readonly string[]).includes(envHeader ?? '');
		if (route.access === 'public') return known ? (envHeader as Environment) : 'sandbox';
		const appId = header(req, 'x-app-id');
		const appSecret = header(req, 'x-app-secret');
		if (!appId || !appSecret) throw new ApiError(401, MESSAGES.notAuthenticated);
		if (!known) throw new ApiError(401, MESSAGES.badEnvironment);
		const valid = sameSecret(appId, core.options.appId) && sameSecret(appSecret, core.options.appSecret);
		if (!valid) throw new ApiError(401, MESSAGES.wrongCredentials);
		if (!state.account.isActive) throw new ApiError(403, MESSAGES.noApiAccess);
		if (route.access === 'vip' && !state.account.webhookAccess) throw new ApiError(403, MESSAGES.noApiAccess);
		return envHeader as Environment;
	}

	/** Loopback-only helpers for scripts that run the sandbox in another process. */
	async function handleAdmin(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<void> {
		const method = (req.method ?? 'GET').toUpperCase();
		let body: Record<string, unknown> = {};
		try {
			body = raw.trim() ? (JSON.parse(raw) as Record<string, unknown>) : {};
		} catch {
			send(res, { status: 400, body: { ok: false, message: 'malformed JSON' } });
			return;
		}
		const route = `${method} ${url.pathname.replace(/\/$/, '')}`;
		const okReply = (data: unknown) => send(res, { status: 200, body: { ok: true, data } });
		switch (route) {
			case 'GET /_sandbox/health':
				return okReply({ url: sandbox.url });
			case 'GET /_sandbox/state': {
				return okReply({ ...state, requests: undefined });
			}
			case 'GET /_sandbox/requests':
				return okReply(state.requests);
			case 'DELETE /_sandbox/requests':
				sandbox.clearRequests();
				return okReply({});
			case 'GET /_sandbox/webhook':
				return okReply({ url: core.webhook.url });
			case 'PUT /_sandbox/webhook': {
				// Any http(s) URL: the example trigger's Production URL, a new trigger's Test URL, a
				// request bin... Pending retries go to the new URL too. `null` or '' stops deliveries.
				const target = typeof body.url === 'string' ? body.url.trim() : body.url;
				if (target !== undefined && target !== null && target !== '' && !isHttpUrl(target)) {
					return send(res, { status: 400, body: { ok: false, message: 'url must be an http:// or https:// URL (or null to stop deliveries)' } });
				}
				sandbox.setWebhook(typeof target === 'string' && target ? target : null, typeof body.secret === 'string' ? body.secret : undefined);
				return okReply({ url: core.webhook.url });
			}
			case 'PUT /_sandbox/faults':
				sandbox.setFaults(body as FaultConfig);
				return okReply(core.faults);
			case 'PUT /_sandbox/balances':
				sandbox.setBalances(body as Partial<FiatWallets>);
				return okReply(state.account.fiatWallets);
			case 'POST /_sandbox/settle':
				await sandbox.settle({ retries: body.retries === true });
				return okReply({});
			case 'POST /_sandbox/reset-rate-limits':
				limiter.reset();
				return okReply({});
			default:
				send(res, { status: 404, body: { ok: false, message: `unknown admin route ${route}` } });
		}
	}

	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		readBody(req)
			.then((raw) => (url.pathname.startsWith('/_sandbox/') ? handleAdmin(req, res, url, raw) : handleApi(req, res, url, raw)))
			.catch((error) => {
				console.error('[sandbox] request failed:', error);
				send(res, serverError());
			});
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;

	let closed = false;
	const sandbox: FakeApi = {
		url: `http://127.0.0.1:${port}/v1`,
		port,
		state,
		appId: core.options.appId,
		appSecret: core.options.appSecret,
		pin: core.options.pin,
		setFaults(faults) {
			core.faults = JSON.parse(JSON.stringify(faults ?? {})) as FaultConfig;
		},
		async settle(settleOptions) {
			await core.scheduler.settle(settleOptions?.retries === true);
			await core.drain();
			core.save();
		},
		async close() {
			if (closed) return;
			closed = true;
			await core.scheduler.close();
			await core.drain();
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
			core.save();
		},
		get requests() {
			return state.requests;
		},
		clearRequests() {
			state.requests.splice(0, state.requests.length);
		},
		setWebhook(url, secret) {
			core.webhook.url = url || null;
			if (secret !== undefined) core.webhook.secret = secret;
		},
		get webhookUrl() {
			return core.webhook.url;
		},
		get webhookSecret() {
			return core.webhook.secret;
		},
		setRateLimits(limits) {
			Object.assign(core.options.rateLimits, limits);
		},
		resetRateLimits() {
			limiter.reset();
		},
		setBalances(balances) {
			for (const currency of ['usd', 'ngn', 'ghs'] as const) {
				const value = balances[currency];
				if (typeof value === 'number' && Number.isFinite(value)) state.account.fiatWallets[currency] = value;
			}
			core.save();
		},
	};
	return sandbox;
}
