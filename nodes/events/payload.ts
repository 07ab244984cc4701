import type { IDataObject } from 'n8n-workflow';

/** Deliveries are small JSON objects; anything larger is refused (413) without parsing. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Real payloads nest three levels deep; a deeper body is refused before it reaches the workflow. */
const MAX_DEPTH = 64;

/** Longest accepted `event` value. */
const MAX_EVENT_LENGTH = 200;

type ParsedDelivery =
	| { ok: true; body: IDataObject; event: string; text?: string }
	| { ok: false; status: 400 | 413; message: string };

function fail(status: 400 | 413, message: string): ParsedDelivery {
	return { ok: false, status, message };
}

/** Deepest nesting of `{`/`[` outside strings, stopping early once `limit` is passed. */
export function nestingDepth(text: string, limit: number): number {
	let depth = 0;
	let deepest = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 0x5c)
				i++; // backslash: skip the escaped character
			else if (c === 0x22) inString = false;
			continue;
		}
		if (c === 0x22) inString = true;
		else if (c === 0x7b || c === 0x5b) {
			deepest = Math.max(deepest, ++depth);
			if (deepest > limit) return deepest;
		} else if (c === 0x7d || c === 0x5d) depth--;
	}
	return deepest;
}

/**
 * Deepest nesting of objects/arrays in a parsed value (a top-level object is 1), without recursion,
 * stopping early once `limit` is passed.
 */
function valueDepth(value: unknown, limit: number): number {
	if (value === null || typeof value !== 'object') return 0;
	let deepest = 0;
	const stack: Array<[unknown, number]> = [[value, 1]];
	const seen = new Set<unknown>();
	while (stack.length > 0) {
		const [current, depth] = stack.pop()!;
		deepest = Math.max(deepest, depth);
		if (deepest > limit) return deepest;
		if (seen.has(current)) continue;
		seen.add(current);
		for (const child of Object.values(current as Record<string, unknown>)) {
			if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
		}
	}
	return deepest;
}

function isBinary(value: unknown): value is Uint8Array {
	return value instanceof Uint8Array;
}

function byteLength(value: string | Uint8Array): number {
	return typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.byteLength;
}

/** Parses JSON text into a value, or explains why it is refused. */
function parseText(text: string): { value: unknown } | ParsedDelivery {
	const trimmed = text.replace(/^\uFEFF/, '').trim();
	if (trimmed === '')
		return fail(400, 'The body is empty: a JSON object with an "event" field is expected');
	if (nestingDepth(trimmed, MAX_DEPTH) > MAX_DEPTH)
		return fail(400, `The body nests deeper than ${MAX_DEPTH} levels`);
	try {
		return { value: JSON.parse(trimmed) as unknown };
	} catch {
		return fail(400, 'The body is not valid JSON');
	}
}

interface UnreadRequest {
	readable?: boolean;
	readableEnded?: boolean;
	on(event: 'data', listener: (chunk: Buffer) => void): unknown;
	on(event: 'end', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * The request's bytes when n8n left them unread: from node version 1.1, n8n reads the body only for
 * the content types it parses (JSON, text, forms, XML). Only the first MAX_BODY_BYTES + 1 bytes are
 * kept (enough to refuse a larger body); the rest is read and dropped. Undefined when already read.
 */
export async function readUnreadBody(req: unknown): Promise<Buffer | undefined> {
	const stream = req as Partial<UnreadRequest> | undefined;
	if (!stream || typeof stream.on !== 'function') return undefined;
	if (stream.readable !== true || stream.readableEnded === true) return undefined;
	const readable = stream as UnreadRequest;
	return await new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let kept = 0;
		readable.on('data', (chunk) => {
			if (kept > MAX_BODY_BYTES) return;
			chunks.push(chunk);
			kept += chunk.length;
		});
		readable.on('end', () => resolve(Buffer.concat(chunks)));
		readable.on('error', reject);
	});
}

/**
 * Turns a delivery into a JSON object with an `event`. The raw body (what the service sent) is the
 * source of truth when n8n provides it, whatever the content type; n8n's parsed body is the fallback.
 */
export function parseDelivery(rawBody: unknown, parsedBody: unknown): ParsedDelivery {
	let value: unknown;
	let text: string | undefined;
	const raw = typeof rawBody === 'string' || isBinary(rawBody) ? rawBody : undefined;
	const source =
		raw !== undefined && byteLength(raw) > 0
			? raw
			: typeof parsedBody === 'string'
				? parsedBody
				: undefined;

	if (source !== undefined) {
		if (byteLength(source) > MAX_BODY_BYTES)
			return fail(413, `The body is larger than ${MAX_BODY_BYTES} bytes`);
		text =
			typeof source === 'string'
				? source
				: Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('utf8');
		const parsed = parseText(text);
		if (!('value' in parsed)) return parsed;
		value = parsed.value;
	} else {
		// No raw bytes from n8n: apply the same limits to the parsed body.
		value = parsedBody;
		if (value !== null && typeof value === 'object' && !isBinary(value)) {
			if (valueDepth(value, MAX_DEPTH) > MAX_DEPTH)
				return fail(400, `The body nests deeper than ${MAX_DEPTH} levels`);
			let size: number;
			try {
				size = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
			} catch {
				return fail(400, 'The body is not a JSON value');
			}
			if (size > MAX_BODY_BYTES)
				return fail(413, `The body is larger than ${MAX_BODY_BYTES} bytes`);
		}
	}

	if (value === null || typeof value !== 'object' || Array.isArray(value) || isBinary(value))
		return fail(400, 'The body must be a JSON object');
	const body = value as IDataObject;
	const event = body.event;
	if (typeof event !== 'string' || event.trim() === '')
		return fail(400, 'The body has no "event" field');
	if (event.length > MAX_EVENT_LENGTH) return fail(400, 'The "event" field is too long');
	return { ok: true, body, event, text };
}
