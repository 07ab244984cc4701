/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/** Reading requests and writing answers on Node's HTTP server. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { ApiError, MESSAGES, errorBody, type Reply } from './http';

export function sameSecret(a: string, b: string): boolean {
	const digest = (value: string) => createHash('sha256').update(value).digest();
	return timingSafeEqual(digest(a), digest(b));
}

export function header(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

export function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		const parsed = new URL(value);
		return parsed.protocol === 'http:' || parsed.protocol === 'https:';
	} catch {
		return false;
	}
}

export function send(
	res: ServerResponse,
	reply: Reply,
	extraHeaders: Record<string, string> = {},
): void {
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

export function errorReply(error: ApiError): Reply {
	return {
		status: error.status,
		body: errorBody(error.status, error.message, error.errors),
		headers: error.headers,
	};
}

export function serverError(status = 500): Reply {
	return { status, body: errorBody(status, MESSAGES.serverError) };
}

export function remoteAddressOf(req: IncomingMessage): string {
	return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}
