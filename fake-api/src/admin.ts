/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/** The admin routes under /_sandbox/ (docs/fake-api.md, "Admin routes"): loopback, no auth. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Runtime } from './api';
import { ClockError } from './clock';
import type { FakeApi } from './handle';
import { ApiError } from './http';
import { isHttpUrl, send } from './io';
import type { FaultConfig, FiatWallets } from './types';

/** Loopback-only helpers for scripts that run the fake API in another process. */
export async function handleAdmin(
	fakeApi: FakeApi,
	{ core, limiter }: Runtime,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	raw: string,
): Promise<void> {
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
	const refuse = (status: number, message: string) =>
		send(res, { status, body: { ok: false, message } });
	const clock = () => ({ now: new Date(core.now()).toISOString(), offsetMs: core.clock.offsetMs });
	const reverse = /^POST \/_sandbox\/withdrawals\/([^/]+)\/reverse$/.exec(route);
	if (reverse) {
		try {
			const withdrawal = fakeApi.reverseWithdrawal(
				decodeURIComponent(reverse[1]),
				typeof body.reason === 'string' ? body.reason : undefined,
			);
			if (!withdrawal)
				return refuse(404, `no withdrawal with id or externalId ${decodeURIComponent(reverse[1])}`);
			return okReply(withdrawal);
		} catch (error) {
			return refuse(error instanceof ApiError ? 409 : 500, (error as Error).message);
		}
	}
	switch (route) {
		case 'GET /_sandbox/clock':
			return okReply(clock());
		case 'POST /_sandbox/clock': {
			// {at}: stand at that instant; {advance}: move forward by ms, PT10M, 1d... Never backwards.
			try {
				if (body.at !== undefined && body.advance === undefined && body.advanceMs === undefined)
					await fakeApi.setClock(body.at as string);
				else if (
					body.at === undefined &&
					(body.advance !== undefined) !== (body.advanceMs !== undefined)
				)
					await fakeApi.advanceClock((body.advance ?? body.advanceMs) as string);
				else
					return refuse(
						400,
						'give one of at (e.g. "2026-03-11T00:05:00Z"), advance (e.g. "PT10M", "1d") or advanceMs',
					);
			} catch (error) {
				return refuse(error instanceof ClockError ? 400 : 500, (error as Error).message);
			}
			res.setHeader('Date', new Date(core.now()).toUTCString());
			return okReply(clock());
		}
		case 'GET /_sandbox/destinations':
			return okReply(fakeApi.setDestinations({}));
		case 'PUT /_sandbox/destinations': {
			const lists: Record<string, string[]> = {};
			for (const key of ['reject', 'reverse', 'stuck']) {
				const value = body[key];
				if (value === undefined) continue;
				if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
					return refuse(400, `${key} must be a list of addresses or account numbers`);
				lists[key] = value.map((item: string) => item.trim()).filter(Boolean);
			}
			return okReply(fakeApi.setDestinations(lists));
		}
		case 'GET /_sandbox/health':
			return okReply({ url: fakeApi.url });
		case 'GET /_sandbox/state': {
			return okReply({ ...core.state, requests: undefined });
		}
		case 'GET /_sandbox/requests':
			return okReply(core.state.requests);
		case 'DELETE /_sandbox/requests':
			fakeApi.clearRequests();
			return okReply({});
		case 'GET /_sandbox/webhook':
			return okReply({ url: core.webhook.url });
		case 'PUT /_sandbox/webhook': {
			// Any http(s) URL: the example trigger's Production URL, a new trigger's Test URL, a
			// request bin... Pending retries go to the new URL too. `null` or '' stops deliveries.
			const target = typeof body.url === 'string' ? body.url.trim() : body.url;
			if (target !== undefined && target !== null && target !== '' && !isHttpUrl(target)) {
				return send(res, {
					status: 400,
					body: {
						ok: false,
						message: 'url must be an http:// or https:// URL (or null to stop deliveries)',
					},
				});
			}
			fakeApi.setWebhook(
				typeof target === 'string' && target ? target : null,
				typeof body.secret === 'string' ? body.secret : undefined,
			);
			return okReply({ url: core.webhook.url });
		}
		case 'PUT /_sandbox/faults':
			fakeApi.setFaults(body as FaultConfig);
			return okReply(core.faults);
		case 'PUT /_sandbox/balances':
			fakeApi.setBalances(body as Partial<FiatWallets>);
			return okReply(core.state.account.fiatWallets);
		case 'POST /_sandbox/seed-day': {
			try {
				return okReply(
					fakeApi.seedDay({
						day: String(body.day ?? ''),
						records: Number(body.records),
						prefix: typeof body.prefix === 'string' ? body.prefix : undefined,
					}),
				);
			} catch (error) {
				return send(res, { status: 400, body: { ok: false, message: (error as Error).message } });
			}
		}
		case 'POST /_sandbox/settle':
			await fakeApi.settle({ retries: body.retries === true });
			return okReply({});
		case 'POST /_sandbox/reset-rate-limits':
			limiter.reset();
			return okReply({});
		default:
			send(res, { status: 404, body: { ok: false, message: `unknown admin route ${route}` } });
	}
}
