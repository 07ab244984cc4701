/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';

/** What a handler sees of one request. */
export interface Seen {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: IncomingMessage['headers'];
	body: IDataObject | undefined;
}

/** `reset`: the connection is destroyed instead of answered (after `delayMs`), as a dropped connection. */
export type Reply = {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	raw?: string;
	delayMs?: number;
	reset?: boolean;
};

/**
 * A real local HTTP server for tests where the answer's exact shape matters (content types,
 * redirects, empty bodies, slow answers). Every request is recorded.
 */
export async function localService(handler: (request: Seen) => Reply | Promise<Reply>, port = 0) {
	const requests: Seen[] = [];
	const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', async () => {
			const url = new URL(req.url ?? '/', 'http://local');
			const text = Buffer.concat(chunks).toString('utf8');
			let body: IDataObject | undefined;
			try {
				body = text ? (JSON.parse(text) as IDataObject) : undefined;
			} catch {
				body = undefined;
			}
			const seen: Seen = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query: url.searchParams,
				headers: req.headers,
				body,
			};
			requests.push(seen);
			const reply = await handler(seen);
			if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
			if (res.destroyed) return;
			if (reply.reset) {
				req.socket.destroy();
				return;
			}
			const payload = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
			res.writeHead(reply.status, {
				...(reply.raw === undefined && reply.body !== undefined
					? { 'content-type': 'application/json' }
					: {}),
				...reply.headers,
			});
			res.end(payload);
		});
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	const { port: listening } = server.address() as AddressInfo;
	return {
		port: listening,
		origin: `http://127.0.0.1:${listening}`,
		baseUrl: `http://127.0.0.1:${listening}/v1`,
		requests,
		sent: (method: string, pathPrefix: string) =>
			requests.filter((r) => r.method === method && r.path.startsWith(`/v1${pathPrefix}`)),
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export const envelope = (data: unknown, message = 'ok') => ({
	message,
	success: true,
	data,
	meta: {},
	summary: {},
	stats: {},
});
export const refusal = (message: string, errors: IDataObject[] = []) => ({
	success: false,
	message,
	meta: {},
	errors,
	data: {},
});

/**
 * A withdrawal service: stores withdrawals by External ID, answers the lookup by External ID, and
 * lets a test script the answer to each POST (after the withdrawal is stored, or instead of it).
 */
export function withdrawalService(
	script: (body: IDataObject, index: number) => Reply | 'create' = () => 'create',
) {
	const byExternalId = new Map<string, IDataObject>();
	let posts = 0;
	const handler = (request: Seen): Reply => {
		if (request.method === 'GET' && request.path.startsWith('/v1/payments/withdrawal/')) {
			const key = decodeURIComponent(request.path.split('/').pop() ?? '');
			const found = byExternalId.get(key) ?? [...byExternalId.values()].find((w) => w.id === key);
			return found
				? { status: 200, body: envelope(found, 'data fetched') }
				: { status: 404, body: refusal('withdrawal not found') };
		}
		// The service's address check (fields/addresses.ts asks it where an address's form cannot decide).
		if (request.method === 'POST' && request.path === '/v1/payments/wallet-addresses/validate') {
			const { address, token, network } = request.body ?? {};
			return {
				status: 200,
				body: envelope(
					{ address, token, ...(network ? { network } : {}), valid: true },
					'wallet address is valid',
				),
			};
		}
		if (request.method === 'POST' && request.path.startsWith('/v1/payments/withdraw/')) {
			const body = request.body ?? {};
			const scripted = script(body, posts++);
			if (scripted !== 'create') return scripted;
			const externalId = String(body.externalId);
			if (byExternalId.has(externalId))
				return { status: 400, body: refusal('duplicate withdrawal') };
			const record: IDataObject = {
				id: `wd-${byExternalId.size + 1}`,
				externalId,
				status: 'pending',
				token: body.token ?? null,
				network: body.network ?? null,
				amount: body.amount ?? null,
				cryptoAmount: body.cryptoAmount ?? null,
				walletAddress: body.walletAddress ?? null,
				bankAccount: request.path.includes('/bank/') ? request.path.split('/').pop() : null,
			};
			byExternalId.set(externalId, record);
			return {
				status: 200,
				body: envelope({ id: record.id }, 'withdrawal initiated successfully'),
			};
		}
		return { status: 404, body: refusal('not found') };
	};
	return {
		byExternalId,
		handler,
		store: (record: IDataObject) => byExternalId.set(String(record.externalId), record),
	};
}
