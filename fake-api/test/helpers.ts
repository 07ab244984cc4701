/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/** Shared helpers of the sandbox contract tests: a client and a webhook receiver. Transitions wait for settle() (long delay) unless a test sets lifecycleDelayMs. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { startFakeApi, type FakeApi, type FakeApiOptions } from '../src/server';

export interface ApiResponse {
	status: number;
	headers: Headers;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, asserted loosely
	body: any;
}

export interface Client {
	sandbox: FakeApi;
	call(
		method: string,
		path: string,
		body?: unknown,
		headers?: Record<string, string>,
	): Promise<ApiResponse>;
	raw(
		method: string,
		path: string,
		rawBody: string | undefined,
		headers: Record<string, string>,
	): Promise<ApiResponse>;
	auth: Record<string, string>;
}

export async function start(options: FakeApiOptions = {}): Promise<Client> {
	const sandbox = await startFakeApi({ lifecycleDelayMs: 60_000, ...options });
	const auth = {
		'x-app-id': sandbox.appId,
		'x-app-secret': sandbox.appSecret,
		'X-Service-Env': 'sandbox',
	};
	const raw = async (
		method: string,
		path: string,
		rawBody: string | undefined,
		headers: Record<string, string>,
	) => {
		const response = await fetch(`${sandbox.url}${path}`, { method, headers, body: rawBody });
		const text = await response.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// keep text
		}
		return { status: response.status, headers: response.headers, body };
	};
	return {
		sandbox,
		auth,
		raw,
		call: (method, path, body, headers) =>
			raw(method, path, body === undefined ? undefined : JSON.stringify(body), {
				...auth,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers,
			}),
	};
}

export interface Receiver {
	url: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies, asserted loosely
	received: Array<{ headers: http.IncomingHttpHeaders; body: any }>;
	/** Statuses to answer, in order; 200 once exhausted. */
	statuses: number[];
	close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
	const receiver: Receiver = { url: '', received: [], statuses: [], close: async () => undefined };
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			receiver.received.push({
				headers: req.headers,
				body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
			});
			res.statusCode = receiver.statuses.shift() ?? 200;
			res.end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
	receiver.close = () =>
		new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	return receiver;
}

export const ADDRESSES = {
	TRC20: 'TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9',
	ERC20: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
	BTC: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
	SOL: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
};

export const ASSET_IDS = {
	SOL_TEST: '64f1a2b3c4d5e6f7a8b9c0d1',
	TRX_TEST: '64f1a2b3c4d5e6f7a8b9c0d2',
	USDT_TRX_TEST: '64f1a2b3c4d5e6f7a8b9c0d3',
};

export function cryptoWithdrawal(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		pin: '1234',
		token: 'USDT',
		network: 'TRC20',
		amount: 10,
		walletAddress: ADDRESSES.TRC20,
		...overrides,
	};
}
