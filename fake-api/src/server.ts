/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * A faithful local fake of the payments API, on loopback: authentication, envelopes,
 * validation (with the node's own rules module), pagination, rate limits, state with a lifecycle,
 * outgoing webhooks, and fault switches. Development tooling only; not part of dist.
 *
 *   const fakeApi = await startFakeApi({ lifecycleDelayMs: 10 });
 *   // credentials: fakeApi.appId / fakeApi.appSecret, base URL: fakeApi.url (includes /v1)
 *   await fakeApi.settle();   // run pending transitions and webhook deliveries now
 *   await fakeApi.close();
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { handleAdmin } from './admin';
import { ClockError, parseDuration, parseInstant } from './clock';
import { handleApi, type Runtime } from './api';
import { FakeApiCore } from './core';
import type { FakeApi } from './handle';
import { readBody, send, serverError } from './io';
import { RateLimiter } from './rate-limiter';
import { seedDay } from './seed';
import { reverseWithdrawal } from './withdrawals';
import type { FakeApiOptions, FaultConfig } from './types';

export type * from './types';
export type { FakeApi } from './handle';
export { DEFAULTS } from './options';
export type { SeedDayOptions, SeededDay, SeededKind } from './seed';
export { PATTERN as SEEDED_PATTERN } from './seed';

/** Starts the fake API on 127.0.0.1 (options.port, default 0 = a free port). */
export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
	const core = new FakeApiCore(options);
	const { state } = core;
	const runtime: Runtime = { core, limiter: new RateLimiter(() => core.now()) };

	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		// Every answer is dated by the service's clock (the clock route dates its own after the move).
		res.setHeader('Date', new Date(core.now()).toUTCString());
		readBody(req)
			.then((raw) =>
				url.pathname.startsWith('/_sandbox/')
					? handleAdmin(fakeApi, runtime, req, res, url, raw)
					: handleApi(runtime, req, res, url, raw),
			)
			.catch((error) => {
				console.error('[fake-api] request failed:', error);
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

	/** Moves the service's clock forward to `target` through what falls due by then (webhooks.ts, runUntil), then saves. */
	const moveClock = async (target: number) => {
		await core.scheduler.runUntil(target, (at) => core.clock.moveTo(at));
		await core.drain();
		core.save();
	};

	let closed = false;
	const fakeApi: FakeApi = {
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
			runtime.limiter.reset();
		},
		setBalances(balances) {
			for (const currency of ['usd', 'ngn', 'ghs'] as const) {
				const value = balances[currency];
				if (typeof value === 'number' && Number.isFinite(value))
					state.account.fiatWallets[currency] = value;
			}
			core.save();
		},
		now() {
			return core.now();
		},
		async setClock(at) {
			const instant = parseInstant(at);
			if (Number.isNaN(instant))
				throw new ClockError(
					`at must be a date-time such as 2026-03-11T00:05:00Z (UTC without a zone), got ${String(at)}`,
				);
			core.clock.check(instant);
			await moveClock(instant);
		},
		async advanceClock(by) {
			const ms = parseDuration(by);
			if (Number.isNaN(ms))
				throw new ClockError(
					`advance must be ms, an ISO 8601 duration of weeks to seconds (PT10M, P1DT6H) or 90s / 10m / 6h / 1d, got ${String(by)}`,
				);
			if (ms < 0)
				throw new ClockError(
					`the service's clock only moves forward: advance by a non-negative amount, got ${ms}`,
				);
			await moveClock(core.now() + ms);
		},
		reverseWithdrawal(id, reason) {
			return reverseWithdrawal(core, id, reason);
		},
		setDestinations(lists) {
			const { options } = core;
			if (lists.reject) options.rejectAddresses = [...lists.reject];
			if (lists.reverse) options.reverseAddresses = [...lists.reverse];
			if (lists.stuck) options.stuckAddresses = [...lists.stuck];
			return {
				reject: options.rejectAddresses,
				reverse: options.reverseAddresses,
				stuck: options.stuckAddresses,
			};
		},
		seedDay(seedOptions) {
			return seedDay(core, seedOptions);
		},
	};
	return fakeApi;
}
