/** The node's pure helpers: address matching, secret comparison, header redaction, body parsing, keys. */
import * as nodeCrypto from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import {
	formatIp,
	hasLeadingZeroOctet,
	isIpAllowed,
	parseAllowList,
	parseIp,
	redactHeaders,
	secretMatches,
} from '../../nodes/events/verify';
import { MAX_BODY_BYTES, nestingDepth, parseDelivery } from '../../nodes/events/payload';
import {
	DEDUPE_STATIC_KEY,
	keysOf,
	remember,
	wasEmitted,
} from '../../nodes/CryptoSettlementTrigger/dedupe';
import { deliveryKey, eventIdentity } from '../../nodes/events/identity';
import { lookupFor } from '../../nodes/events/confirm';

describe('parseIp', () => {
	test.each([
		['46.101.201.155', '46.101.201.155'],
		[' 46.101.201.155 ', '46.101.201.155'],
		['::ffff:46.101.201.155', '46.101.201.155'],
		['::FFFF:46.101.201.155', '46.101.201.155'],
		['::ffff:2e65:c99b', '46.101.201.155'],
		['0:0:0:0:0:ffff:46.101.201.155', '46.101.201.155'],
		['::1', '0:0:0:0:0:0:0:1'],
		['[2001:db8::1]', '2001:db8:0:0:0:0:0:1'],
		['fe80::1%eth0', 'fe80:0:0:0:0:0:0:1'],
		['2001:DB8:0:0:8:800:200C:417A', '2001:db8:0:0:8:800:200c:417a'],
		['::', '0:0:0:0:0:0:0:0'],
	])('%s → %s', (input, expected) => {
		const ip = parseIp(input);
		expect(ip).toBeDefined();
		expect(formatIp(ip!)).toBe(expected);
	});

	test.each([
		'',
		'256.1.1.1',
		'1.2.3',
		'1.2.3.4.5',
		'a.b.c.d',
		'1::2::3',
		'12345::',
		':::',
		'localhost',
		'1.2.3.4/8',
		'::ffff:999.1.1.1',
		'1:2:3:4:5:6:7:8:9',
	])('rejects %p', (input) => {
		expect(parseIp(input)).toBeUndefined();
	});

	test('non-strings are not addresses', () => {
		expect(parseIp(undefined)).toBeUndefined();
		expect(parseIp(42)).toBeUndefined();
	});
});

describe('allow list', () => {
	const list = parseAllowList(
		'46.101.201.155, 159.89.20.62;10.0.0.0/8 2001:db8::/32\n::ffff:192.168.0.0/112',
	);

	test('parses every entry', () => {
		expect(list.invalid).toEqual([]);
		expect(list.ranges).toHaveLength(5);
	});

	test.each([
		['46.101.201.155', true],
		['::ffff:46.101.201.155', true],
		['159.89.20.62', true],
		['10.255.3.4', true],
		['11.0.0.1', false],
		['2001:db8:1234::5', true],
		['2001:db9::1', false],
		['192.168.7.9', true],
		['192.169.0.1', false],
		['46.101.201.15', false],
		['146.101.201.155', false],
	])('%s allowed: %p', (ip, allowed) => {
		expect(isIpAllowed(parseIp(ip), list)).toBe(allowed);
	});

	test('exact match only, no substring match (10.0.0.1 does not admit 110.0.0.12)', () => {
		const exact = parseAllowList('10.0.0.1');
		expect(isIpAllowed(parseIp('110.0.0.12'), exact)).toBe(false);
		expect(isIpAllowed(parseIp('10.0.0.12'), exact)).toBe(false);
		expect(isIpAllowed(parseIp('10.0.0.1'), exact)).toBe(true);
	});

	test('/0 admits every address of its family', () => {
		expect(isIpAllowed(parseIp('8.8.8.8'), parseAllowList('0.0.0.0/0'))).toBe(true);
		expect(isIpAllowed(parseIp('::1'), parseAllowList('0.0.0.0/0'))).toBe(false);
	});

	test('an unknown source is never allowed', () => {
		expect(isIpAllowed(undefined, list)).toBe(false);
	});

	test('reports invalid entries', () => {
		expect(parseAllowList('1.2.3.4, nope, 10.0.0.0/33, 1.2.3.4/x, ::/129').invalid).toEqual([
			'nope',
			'10.0.0.0/33',
			'1.2.3.4/x',
			'::/129',
		]);
	});
});

describe('secretMatches', () => {
	test('equal secrets match, surrounding whitespace ignored', () => {
		expect(secretMatches('s3cret', 's3cret')).toBe(true);
		expect(secretMatches(' s3cret ', 's3cret\n')).toBe(true);
	});
	test.each([
		['s3cre', 's3cret'],
		['s3cret!', 's3cret'],
		['', 's3cret'],
		[undefined, 's3cret'],
		[['s3cret'], 's3cret'],
		['s3cret', ''],
		['', ''],
	])('%p vs %p does not match', (given, expected) => {
		expect(secretMatches(given, expected)).toBe(false);
	});
});

test('redactHeaders hides secret-bearing headers only', () => {
	expect(
		redactHeaders({
			'x-webhook-secret': 'abc',
			Authorization: 'Bearer x',
			cookie: 'a=b',
			'x-request-id': '7',
		}),
	).toEqual({
		'x-webhook-secret': '[redacted]',
		Authorization: '[redacted]',
		cookie: '[redacted]',
		'x-request-id': '7',
	});
	expect(redactHeaders(undefined)).toEqual({});
});

describe('parseDelivery', () => {
	test('raw body wins over the parsed body', () => {
		const result = parseDelivery(Buffer.from('{"event":"trade.completed","id":"1"}'), {
			event: 'other',
		});
		expect(result).toMatchObject({ ok: true, event: 'trade.completed' });
	});
	test('falls back to the parsed body without a raw body', () => {
		expect(parseDelivery(undefined, { event: 'trade.pending' })).toMatchObject({
			ok: true,
			event: 'trade.pending',
		});
		expect(parseDelivery(Buffer.alloc(0), { event: 'trade.pending' })).toMatchObject({ ok: true });
		expect(parseDelivery(undefined, '{"event":"x"}')).toMatchObject({ ok: true, event: 'x' });
	});
	test('a byte order mark is tolerated', () => {
		expect(parseDelivery('\uFEFF{"event":"x"}', undefined)).toMatchObject({ ok: true });
	});
	test.each([
		['not json', 400],
		['[1,2]', 400],
		['null', 400],
		['"trade.completed"', 400],
		['{"id":1}', 400],
		['{"event":42}', 400],
		['{"event":"   "}', 400],
		[`{"event":"${'e'.repeat(201)}"}`, 400],
		['   ', 400],
	])('%p → %i', (raw, status) => {
		expect(parseDelivery(Buffer.from(raw), undefined)).toMatchObject({ ok: false, status });
	});
	test('oversized bodies are refused before parsing', () => {
		const big = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
		expect(parseDelivery(big, undefined)).toMatchObject({ ok: false, status: 413 });
	});
	test('nesting is measured outside strings only', () => {
		expect(nestingDepth('{"a":"[[[[[[{{{{"}', 64)).toBe(1);
		expect(nestingDepth('{"a":"\\"[[["}', 64)).toBe(1);
		expect(nestingDepth('[[[[]]]]', 64)).toBe(4);
		expect(
			parseDelivery(`{"event":"x","a":${'['.repeat(100)}${']'.repeat(100)}}`, undefined),
		).toMatchObject({
			ok: false,
			status: 400,
		});
	});
});

/** The duplicate key of a delivery of `event` with `body`. */
const keyOf = (event: string, body: IDataObject) => deliveryKey(eventIdentity(event, body));

describe('deliveryKey', () => {
	test('event + id + status make a delivery distinct', () => {
		const base = { event: 'trade.completed', id: 't1', status: 'completed' };
		expect(keyOf('trade.completed', base)).toBe(
			keyOf('trade.completed', { ...base, note: 'retry' }),
		);
		expect(keyOf('trade.completed', base)).not.toBe(
			keyOf('trade.flagged', { ...base, event: 'trade.flagged' }),
		);
		expect(keyOf('trade.completed', base)).not.toBe(
			keyOf('trade.completed', { ...base, id: 't2' }),
		);
		expect(keyOf('trade.completed', base)).not.toBe(
			keyOf('trade.completed', { ...base, status: 'x' }),
		);
	});
	test('trade.pending also keys on confirmations', () => {
		const pending = { event: 'trade.pending', id: 't1', status: 'pending', confirmations: 0 };
		expect(keyOf('trade.pending', pending)).not.toBe(
			keyOf('trade.pending', { ...pending, confirmations: 1 }),
		);
		expect(keyOf('trade.pending', pending)).toBe(keyOf('trade.pending', { ...pending }));
	});
	test('no delimiter confusion between fields', () => {
		expect(keyOf('a', { id: 'b|c', status: '' })).not.toBe(keyOf('a', { id: 'b', status: 'c' }));
	});
	test('keys are short whatever the id', () => {
		expect(keyOf('x', { id: 'i'.repeat(100000) }).length).toBeLessThanOrEqual(24);
	});
	test('the memory is bounded, oldest first out', () => {
		const data: Record<string, unknown> = {};
		const keys = Array.from({ length: 30 }, (_, i) => keyOf('trade.completed', { id: `t${i}` }));
		const now = Date.now();
		for (const key of keys) remember(data as never, key, now, 10);
		expect(keysOf(data as never, now)).toEqual(keys.slice(20));
		expect(wasEmitted(data as never, keys[29], now)).toBe(true);
		expect(wasEmitted(data as never, keys[19], now)).toBe(false);
	});
});

describe('lookupFor', () => {
	test('maps events to records and statuses', () => {
		expect(lookupFor('trade.completed', 'abc')).toEqual({
			kind: 'trade',
			id: 'abc',
			path: '/trades/transactions/abc',
			expectedStatus: 'completed',
		});
		expect(lookupFor('withdrawal.reversed', 'w1')).toEqual({
			kind: 'withdrawal',
			id: 'w1',
			path: '/payments/withdrawal/w1',
			expectedStatus: 'reversed',
		});
		expect(lookupFor('trade.address.created', 'a1')).toEqual({
			kind: 'wallet',
			id: 'a1',
			path: '/trades/wallets/a1',
		});
		expect(lookupFor('trade.pending', 12)).toMatchObject({ path: '/trades/transactions/12' });
	});
	test.each([
		[undefined],
		[''],
		['../admin'],
		['..'],
		['a/b'],
		['a b'],
		[{ id: 1 }],
		['x'.repeat(129)],
	])('refuses id %p', (id) => {
		expect(typeof lookupFor('trade.completed', id)).toBe('string');
	});
	test('unknown event families cannot be confirmed', () => {
		expect(typeof lookupFor('payout.done', 'a1')).toBe('string');
	});
});

describe('duplicate keys', () => {
	test('match those stored before (so the memory survives the upgrade)', () => {
		const parts = ['delivery', 'trade.completed', 't-1', 'completed'];
		const before = nodeCrypto
			.createHash('sha256')
			.update(JSON.stringify(parts), 'utf8')
			.digest('base64url')
			.slice(0, 22);
		const key = keyOf('trade.completed', { id: 't-1', status: 'completed' });
		// Keys are now the first 10 characters; the 22-character keys (a list) and the 12-character keys
		// (separated by spaces) of earlier versions are read by that prefix.
		expect(key).toBe(before.slice(0, 10));
		expect(wasEmitted({ [DEDUPE_STATIC_KEY]: ['an-older-key-of-22-char', before] }, key)).toBe(
			true,
		);
		expect(wasEmitted({ [DEDUPE_STATIC_KEY]: `an-old-key12 ${before.slice(0, 12)}` }, key)).toBe(
			true,
		);
		expect(wasEmitted({ [DEDUPE_STATIC_KEY]: 'an-old-key12 other-key-12' }, key)).toBe(false);
	});
});

describe('leading zeros in an allow-list entry are refused (case 6)', () => {
	test.each(['010.0.0.1', '10.0.0.01', '10.00.0.1', '192.168.01.0/24', '::ffff:010.0.0.1'])(
		'%s is invalid and flagged',
		(entry) => {
			const list = parseAllowList(`46.101.201.155, ${entry}`);
			expect(list.invalid).toEqual([entry]);
			expect(hasLeadingZeroOctet(entry)).toBe(true);
		},
	);
	test.each(['10.0.0.1', '0.0.0.0/0', '100.0.0.0/8', '10.0.0.0'])('%s is fine', (entry) => {
		expect(parseAllowList(entry).invalid).toEqual([]);
		expect(hasLeadingZeroOctet(entry)).toBe(false);
	});
});
