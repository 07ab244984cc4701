/** Bad input: not JSON, not an object, no event, large or deep bodies → 4xx and no execution. */
import {
	captureLogs,
	TriggerHarness,
	tradePayload,
	WITHOUT_CONFIRMATION,
} from '../helpers/webhook';

let h: TriggerHarness;
beforeEach(async () => {
	captureLogs();
	h = await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION });
});

test.each([
	[
		'invalid JSON sent as application/json',
		{ raw: '{"event":"trade.completed",', contentType: 'application/json' },
	],
	['plain text', { raw: 'event=trade.completed', contentType: 'text/plain' }],
	[
		'a form body',
		{ raw: 'event=trade.completed&id=1', contentType: 'application/x-www-form-urlencoded' },
	],
	['XML', { raw: '<event>trade.completed</event>', contentType: 'application/xml' }],
	[
		'no content type and garbage',
		{ raw: Buffer.from([0xff, 0xfe, 0x00, 0x01]), contentType: 'application/octet-stream' },
	],
	['a JSON array', { raw: '[{"event":"trade.completed"}]' }],
	['JSON null', { raw: 'null' }],
	['a JSON string', { raw: '"trade.completed"' }],
	['a JSON number', { raw: '42' }],
	['an empty body', { raw: '' }],
	['whitespace only', { raw: ' \n ' }],
	['an object without event', { body: { id: 't1', status: 'completed' } }],
	['a numeric event', { body: { event: 1 } }],
	['a null event', { body: { event: null } }],
	['an object event', { body: { event: { name: 'trade.completed' } } }],
	['an empty event', { body: { event: '' } }],
	[
		'a very deep body',
		{ raw: `{"event":"trade.completed","x":${'['.repeat(5000)}${']'.repeat(5000)}}` },
	],
])('%s → 400, nothing started', async (_name, delivery) => {
	const r = await h.deliver(delivery);
	expect(r.threw).toBeUndefined();
	expect(r.status).toBe(400);
	expect(r.started).toBe(false);
	expect(r.result).toEqual({ noWebhookResponse: true });
	expect(r.response).toEqual({ message: expect.any(String) });
});

test('JSON sent as text/plain is still read from the raw body', async () => {
	const body = tradePayload('trade.completed');
	const r = await h.deliver({ raw: JSON.stringify(body), contentType: 'text/plain' });
	expect(r).toMatchObject({ status: 200, started: true });
	expect(r.items[0]).toMatchObject(body);
});

test('a charset parameter and a byte order mark are fine', async () => {
	const r = await h.deliver({
		raw: `\uFEFF${JSON.stringify(tradePayload('trade.completed'))}`,
		contentType: 'application/json; charset=utf-8',
	});
	expect(r).toMatchObject({ status: 200, started: true });
});

test('a body over 1 MiB → 413 without parsing, nothing started', async () => {
	const big = JSON.stringify({
		event: 'trade.completed',
		id: 't1',
		pad: 'x'.repeat(2 * 1024 * 1024),
	});
	const r = await h.deliver({ raw: big });
	expect(r).toMatchObject({ status: 413, started: false });
});

test('a 20 MB body of garbage is refused by its size, never parsed', async () => {
	// What makes the refusal quick, without a clock: the node never hands the body to JSON.parse (the
	// harness's stand-in for n8n's body parser does, before the node runs).
	const original = JSON.parse;
	const parsedByTheNode: number[] = [];
	const parse = jest
		.spyOn(JSON, 'parse')
		.mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
			if (new Error().stack?.includes('/dist/nodes/')) parsedByTheNode.push(String(text).length);
			return original(text, reviver) as unknown;
		});
	try {
		const r = await h.deliver({ raw: Buffer.alloc(20 * 1024 * 1024, 0x7b) });
		expect(r.status).toBe(413);
		expect(parsedByTheNode.filter((size) => size > 1024 * 1024)).toEqual([]);
	} finally {
		parse.mockRestore();
	}
});

test('a body just under the limit is accepted', async () => {
	const body = { event: 'trade.completed', id: 't1', pad: 'x'.repeat(1024 * 1024 - 100) };
	const r = await h.deliver({ body });
	expect(r).toMatchObject({ status: 200, started: true });
});

test('prototype keys in the body stay plain data', async () => {
	const r = await h.deliver({
		raw: '{"event":"trade.completed","id":"t1","__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
	});
	expect(r.started).toBe(true);
	expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	expect(Object.getPrototypeOf(r.items[0])).toBe(Object.prototype);
});

describe("without a raw body the node falls back to n8n's parsed body", () => {
	test('a parsed object is accepted', async () => {
		const body = tradePayload('trade.completed');
		const r = await h.deliver({ body, omitRawBody: true });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0]).toMatchObject(body);
	});
	test('a parsed text body is parsed as JSON or refused', async () => {
		expect(
			(await h.deliver({ raw: 'hello', contentType: 'text/plain', omitRawBody: true })).status,
		).toBe(400);
		const ok = await h.deliver({
			raw: '{"event":"trade.pending","id":"t9"}',
			contentType: 'text/plain',
			omitRawBody: true,
		});
		expect(ok.started).toBe(true);
	});
	test('nothing at all → 400', async () => {
		expect((await h.deliver({ omitRawBody: true })).status).toBe(400);
	});
	// Case 6: the size and depth limits also apply when only the parsed body is available.
	test('a parsed body over 1 MiB → 413, nothing started', async () => {
		const body = { event: 'trade.completed', id: 't1', pad: 'x'.repeat(1024 * 1024 + 10) };
		expect(await h.deliver({ body, omitRawBody: true })).toMatchObject({
			status: 413,
			started: false,
		});
	});
	test('a parsed body nesting deeper than 64 levels → 400, nothing started', async () => {
		let deep: unknown = 'bottom';
		for (let i = 0; i < 100; i++) deep = { d: deep };
		const r = await h.deliver({
			body: { event: 'trade.completed', id: 't1', deep },
			omitRawBody: true,
		});
		expect(r).toMatchObject({
			status: 400,
			started: false,
			response: { message: expect.stringMatching(/deeper than 64/) },
		});
	});
	test('a parsed body at the limits is still accepted', async () => {
		let deep: unknown = 'bottom';
		for (let i = 0; i < 60; i++) deep = [deep];
		const r = await h.deliver({
			body: { event: 'trade.completed', id: 't1', deep, pad: 'x'.repeat(1000) },
			omitRawBody: true,
		});
		expect(r).toMatchObject({ status: 200, started: true });
	});
});

describe('versions 1 and 1.1 read the same bytes (n8n reads unparsed content types only for version 1)', () => {
	test.each([
		['application/octet-stream', 1],
		['application/octet-stream', 1.1],
		['', 1],
		['', 1.1],
		['application/json', 1.1],
	])(
		'JSON sent as %p to version %p is accepted and answered {"received":true}',
		async (contentType, typeVersion) => {
			const node = await TriggerHarness.create({
				events: ['*'],
				parameters: WITHOUT_CONFIRMATION,
				typeVersion,
			});
			const body = tradePayload('trade.completed');
			const r = await node.deliver({ raw: JSON.stringify(body), contentType });
			expect(r).toMatchObject({ status: 200, started: true, response: { received: true } });
			expect(r.items[0]).toMatchObject(body);
		},
	);

	test('an unread body over 1 MiB → 413 (version 1.1)', async () => {
		const node = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			typeVersion: 1.1,
		});
		const r = await node.deliver({
			raw: Buffer.alloc(3 * 1024 * 1024, 0x7b),
			contentType: 'application/octet-stream',
		});
		expect(r).toMatchObject({ status: 413, started: false });
	});
});
