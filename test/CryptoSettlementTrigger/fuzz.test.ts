/**
 * Fuzz: random bodies, content types, header sets and source addresses against several option
 * sets. The handler never throws, always answers 2xx or 4xx, never starts an execution on a 4xx,
 * and never leaks the secret into an item.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import {
	BASE_URL,
	captureLogs,
	SERVICE_IPS,
	TriggerHarness,
	WEBHOOK_SECRET,
	type Delivery,
	CONTRACT_EVENTS,
	mulberry32,
} from '../helpers/webhook';

const ITERATIONS = 1500;
const SEED = 20241122;

const random = mulberry32(SEED);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)];
const chance = (p: number) => random() < p;

const EVENTS = [
	...CONTRACT_EVENTS,
	'trade.deleted',
	'withdrawal.processing',
	'',
	' ',
	'*',
	'TRADE.COMPLETED',
	'trade.completed ',
	'x'.repeat(300),
	'\u0000',
	'💸',
];

function randomString(max = 40): string {
	const alphabets = [
		'abcdefghijklmnopqrstuvwxyz0123456789',
		'{}[]":,\\/.-_ \n\t',
		'\u0000\u001f\u2028\uFEFF€💸é',
	];
	let out = '';
	const length = int(max);
	for (let i = 0; i < length; i++) out += pick(pick(alphabets).split(''));
	return out;
}

function randomScalar(): unknown {
	return pick([
		() => randomString(),
		() => int(1e9),
		() => -random(),
		() => null,
		() => true,
		() => Number.MAX_SAFE_INTEGER,
		() => 1e308,
		() => '',
		() => '66f1c0ffee' + int(1e6),
	])();
}

function randomValue(depth: number): unknown {
	if (depth > 3 || chance(0.6)) return randomScalar();
	if (chance(0.5)) return Array.from({ length: int(4) }, () => randomValue(depth + 1));
	const obj: Record<string, unknown> = {};
	for (let i = int(5); i > 0; i--)
		obj[pick(['a', 'id', 'status', '__proto__', 'constructor', 'json', 'event', randomString(8)])] =
			randomValue(depth + 1);
	return obj;
}

function randomBody(): Pick<Delivery, 'body' | 'raw'> {
	switch (int(10)) {
		case 0:
			return { raw: randomString(200) };
		case 1: {
			const text = JSON.stringify({ event: pick(EVENTS), id: randomScalar() });
			return { raw: text.slice(0, int(text.length)) };
		}
		case 2:
			return {
				raw: pick([
					'[]',
					'null',
					'0',
					'"x"',
					'true',
					'{}',
					'{"event":null}',
					'[{"event":"trade.completed"}]',
				]),
			};
		case 3:
			return {
				raw: `{"event":"trade.completed","d":${'['.repeat(int(3000))}${']'.repeat(int(3000))}}`,
			};
		case 4:
			return { raw: Buffer.from(Array.from({ length: int(300) }, () => int(256))) };
		case 5:
			return { body: randomValue(0) };
		case 6:
			if (chance(0.1))
				return {
					raw: JSON.stringify({
						event: 'trade.completed',
						pad: 'x'.repeat(1024 * 1024 + int(1000)),
					}),
				};
			return {
				body: {
					event: pick(EVENTS),
					id: randomScalar(),
					status: randomScalar(),
					confirmations: randomScalar(),
				},
			};
		default: {
			const body: Record<string, unknown> = {
				event: pick(EVENTS.slice(0, 8)),
				id: chance(0.8) ? `66f1c0ffee${int(50)}` : randomScalar(),
				status: pick(['pending', 'completed', 'flagged', 'reversed', 'rejected', randomScalar()]),
			};
			if (chance(0.5)) body.confirmations = int(5);
			if (chance(0.3)) body.extra = randomValue(0);
			return { body };
		}
	}
}

function randomHeaders(): Pick<Delivery, 'headers' | 'secret' | 'ip' | 'contentType'> {
	const headers: Record<string, string | string[] | undefined> = {};
	for (let i = int(4); i > 0; i--)
		headers[
			pick([
				'x-forwarded-for',
				'authorization',
				'cookie',
				'x-request-id',
				randomString(10)
					.toLowerCase()
					.replace(/[^a-z-]/g, '') || 'x',
			])
		] = randomString(30);
	if (chance(0.1)) headers['x-webhook-secret'] = [WEBHOOK_SECRET, randomString(5)];
	return {
		headers,
		secret: pick([
			WEBHOOK_SECRET,
			WEBHOOK_SECRET,
			null,
			'',
			randomString(20),
			` ${WEBHOOK_SECRET} `,
			WEBHOOK_SECRET + '\u0000',
		]),
		ip: pick([
			...SERVICE_IPS,
			'::ffff:46.101.201.155',
			'8.8.8.8',
			'::1',
			'',
			'not-an-ip',
			'2001:db8::1',
			randomString(12),
		]),
		contentType: pick([
			'application/json',
			'application/json; charset=utf-8',
			'text/plain',
			'application/x-www-form-urlencoded',
			'application/octet-stream',
			'',
			randomString(10),
		]),
	};
}

const CONFIGS: Array<{ parameters?: IDataObject; options: IDataObject }> = [
	{ parameters: { confirmWithApi: false, ignoreDuplicates: false }, options: {} },
	{ parameters: { confirmWithApi: false }, options: { verifySecret: true } },
	{
		parameters: { confirmWithApi: false },
		options: { allowedIps: `${SERVICE_IPS.join(',')}, 2001:db8::/32` },
	},
	{ parameters: { confirmWithApi: false }, options: { includeHeaders: true } },
	{ options: {} },
	{
		options: {
			verifySecret: true,
			allowedIps: SERVICE_IPS.join(','),
			confirmWithApi: true,
			ignoreDuplicates: true,
			includeHeaders: true,
		},
	},
];

test(`fuzz: ${ITERATIONS} random deliveries never throw and always answer 2xx/4xx (or 503 while confirming)`, async () => {
	captureLogs();
	nock.disableNetConnect();
	// The API knows some ids (with a random status) and not others.
	const api = (uri: string) => {
		if (chance(0.3)) return [404, { success: false, message: 'not found', data: {} }];
		const id = decodeURIComponent(uri.split('/').pop() ?? '');
		return [
			200,
			{
				success: true,
				data: { id, status: pick(['pending', 'completed', 'flagged', 'reversed', 'rejected']) },
			},
		];
	};
	nock(BASE_URL)
		.persist()
		.get(/.*/)
		.reply((uri) => api(uri) as [number, object]);

	const harnesses = await Promise.all(
		CONFIGS.map(
			async (config) =>
				await TriggerHarness.create({
					events: chance(0.5) ? ['*'] : ['trade.completed', 'withdrawal.completed'],
					...config,
				}),
		),
	);
	const statuses = new Map<number, number>();
	let started = 0;
	for (let i = 0; i < ITERATIONS; i++) {
		const delivery: Delivery = { ...randomBody(), ...randomHeaders() };
		const h = pick(harnesses);
		const r = await h.deliver(delivery);
		const context = `iteration ${i} (seed ${SEED})`;
		if (r.threw) throw new Error(`${context}: webhook() threw ${r.threw.stack}`);
		// 503 only where confirmation (or a copy in flight) asks the service to retry.
		const retryable = r.status === 503 && h.node.parameters.confirmWithApi !== false;
		if (
			!((r.status >= 200 && r.status < 300) || (r.status >= 400 && r.status < 500) || retryable)
		) {
			throw new Error(`${context}: answered ${r.status} ${JSON.stringify(r.response)}`);
		}
		statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
		if (r.status !== 200 && r.started)
			throw new Error(`${context}: ${r.status} but an execution started`);
		if (r.started) {
			started++;
			expect(r.items).toHaveLength(1);
			expect(typeof r.items[0].event).toBe('string');
			expect(r.items[0].verification).toEqual(
				expect.objectContaining({ secret: expect.stringMatching(/^(verified|not configured)$/) }),
			);
			const text = JSON.stringify(r.items);
			if (text.includes(WEBHOOK_SECRET))
				throw new Error(`${context}: the secret leaked into an item`);
		}
	}
	nock.cleanAll();
	nock.enableNetConnect();
	// Every path was exercised.
	for (const status of [200, 400, 401, 403, 413]) expect(statuses.get(status)).toBeGreaterThan(0);
	expect(started).toBeGreaterThan(50);
});
