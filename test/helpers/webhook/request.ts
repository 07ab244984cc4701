/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The request/response pair n8n hands to the node: the Express-like request after n8n's body parser
 * ran (`parseBody`: `rawBody` is the bytes sent; `body` is parsed JSON for `application/json`, the
 * text for `text/plain`, otherwise `{}`), and a response that records what is written to it.
 *
 * n8n's `parseRequestBody` reads the body for every content type when the node's version is 1; from
 * version 1.1 only for the types it parses (JSON, text, forms, XML), and leaves the others unread:
 * the request is then the unread stream, without `rawBody`.
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { SERVICE_IPS, WEBHOOK_ID, WEBHOOK_SECRET } from './constants';

export interface Delivery {
	/** JSON body; serialised into the raw body unless `raw` is given. */
	body?: unknown;
	/** Raw bytes as sent (string or Buffer). */
	raw?: string | Buffer;
	/** Extra request headers (lowercase names). */
	headers?: Record<string, string | string[] | undefined>;
	/**
	 * `x-webhook-secret` header (unless `headers` sets it): absent = the right secret, as the service
	 * sends it; `null` = no header.
	 */
	secret?: string | null;
	/** Source address as Express reports it in `req.ip`. */
	ip?: string;
	contentType?: string;
	/** Leave `req.rawBody` unset (only n8n's parsed `body`), as when something upstream consumed the bytes. */
	omitRawBody?: boolean;
}

/** Express-like response recording what is written; emits `finish` once answered, as Node's does. */
export class FakeResponse extends EventEmitter {
	statusCode = 200;
	body: unknown = undefined;
	headers: Record<string, string> = {};
	headersSent = false;
	ended = false;

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	json(body: unknown): this {
		this.headers['content-type'] = 'application/json';
		return this.send(body);
	}

	send(body?: unknown): this {
		if (this.ended) throw new Error('response already sent');
		this.body = body;
		this.headersSent = true;
		this.ended = true;
		this.emit('finish');
		return this;
	}

	end(): this {
		if (this.ended) throw new Error('response already sent');
		this.headersSent = true;
		this.ended = true;
		this.emit('finish');
		return this;
	}

	setHeader(name: string, value: string): this {
		this.headers[name.toLowerCase()] = value;
		return this;
	}

	header(name: string, value: string): this {
		return this.setHeader(name, value);
	}

	set(name: string, value: string): this {
		return this.setHeader(name, value);
	}
}

/** The content types n8n's `parseRequestBody` reads for node versions above 1 (n8n 1.x and 2.x alike). */
function isParsedByN8n(contentType: string): boolean {
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

/** Builds the Express-like request n8n hands to a node of `typeVersion` after its body parser ran. */
export function buildRequest(delivery: Delivery, typeVersion = 1): Record<string, unknown> {
	const contentType = delivery.contentType ?? 'application/json';
	let raw: Buffer;
	if (delivery.raw !== undefined)
		raw = Buffer.isBuffer(delivery.raw) ? delivery.raw : Buffer.from(delivery.raw, 'utf8');
	else if (delivery.body === undefined) raw = Buffer.alloc(0);
	else raw = Buffer.from(JSON.stringify(delivery.body), 'utf8');

	let body: unknown = {};
	const mime = contentType.split(';')[0].trim().toLowerCase();
	if (raw.length > 0 && mime === 'application/json') {
		try {
			body = JSON.parse(raw.toString('utf8'));
		} catch {
			body = {};
		}
	} else if (raw.length > 0 && mime === 'text/plain') {
		body = raw.toString('utf8');
	}

	const headers: Record<string, string | string[]> = {
		host: 'n8n.example.test',
		'content-type': contentType,
		'content-length': String(raw.length),
		'user-agent': 'service-webhooks/1.0',
	};
	const secret = delivery.secret === undefined ? WEBHOOK_SECRET : delivery.secret;
	if (secret !== null) headers['x-webhook-secret'] = secret;
	for (const [name, value] of Object.entries(delivery.headers ?? {})) {
		if (value === undefined) delete headers[name];
		else headers[name] = value;
	}
	const ip = delivery.ip ?? SERVICE_IPS[0];
	const unread = typeVersion > 1 && !delivery.omitRawBody && !isParsedByN8n(mime);
	const request = {
		method: 'POST',
		url: `/webhook/${WEBHOOK_ID}/webhook`,
		path: `/webhook/${WEBHOOK_ID}/webhook`,
		headers,
		body,
		rawBody: delivery.omitRawBody ? undefined : raw,
		contentType: mime,
		encoding: 'utf-8',
		query: {},
		params: {},
		ip,
		ips: [],
		socket: { remoteAddress: ip },
	};
	if (!unread) return request;
	// The unread stream: what the node gets for a content type n8n does not parse.
	return Object.assign(Readable.from(raw.length > 0 ? [raw] : []), {
		...request,
		body: {},
		rawBody: undefined,
	}) as unknown as Record<string, unknown>;
}
