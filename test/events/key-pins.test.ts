/**
 * The keys and checksums users keep are pinned byte for byte (issue #72, point 1): `eventKey`
 * values stored in ledgers, the trigger's duplicate keys kept in its memory, and the base58check
 * checksums of payout addresses, whichever SHA-256 computes them.
 */
import { deliveryKey, eventIdentity, eventKey } from '../../nodes/events/identity';
import { secretMatches } from '../../nodes/events/verify';
import { base58CheckDecode } from '../../nodes/CryptoSettlement/fields/addressCodecs';

const EVENT_KEYS: Array<[string, Record<string, unknown>, unknown, string]> = [
	[
		'trade.completed',
		{ id: '66f1c0ffee00000000000901', status: 'completed' },
		undefined,
		'HtS2Ty4eTyNaAdiAzsr1SA',
	],
	[
		'Withdrawal.Rejected',
		{ id: 'w-ünïcødé ✓ 𝄞', status: 'rejected' },
		undefined,
		'OCrK1IQ5x7f7Fn3_qX3xhm',
	],
	[
		'trade.address.created',
		{ id: 'wallet-1', address: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk' },
		undefined,
		'7TgXl2UQyY7iBkpvk0mpso',
	],
	[
		'withdrawal.pending',
		{ status: 'pending', note: 'a lone \ud800 surrogate', amount: 12.5 },
		undefined,
		'd2mxjxNX5KalGdZaDvZCKD',
	],
	[
		'withdrawal.completed',
		{ status: 'completed' },
		'77a2beef0000000000000903',
		'H7Xi4OKW1M6P6w23EHVEbF',
	],
];

test.each(EVENT_KEYS)(
	'eventKey(%p, %p, %p) is %p, as ledgers hold it',
	(event, body, reference, key) => {
		expect(eventKey(event, body as never, reference)).toBe(key);
	},
);

const DELIVERY_KEYS: Array<[string, Record<string, unknown>, string | undefined, string]> = [
	['trade.pending', { id: 't-1', status: 'pending', confirmations: 3 }, undefined, 'PbRXf4z0aC'],
	['trade.completed', { id: 't-1', status: 'completed' }, undefined, 'Q0MHMHFoVO'],
	[
		'trade.flagged',
		{ note: 'no id: keyed on the body ✓ \udc00' },
		'{"note":"no id"}',
		'J9WlU3TE-K',
	],
];

test.each(DELIVERY_KEYS)(
	'deliveryKey(%p, %p) is %p, as the duplicate memory holds it',
	(event, body, text, key) => {
		expect(deliveryKey(eventIdentity(event, body as never), text)).toBe(key);
	},
);

test('the webhook secret is compared whole, trimmed, whatever its length', () => {
	expect(secretMatches(' whsec-3b9f2c81-d7e64a0f ', 'whsec-3b9f2c81-d7e64a0f')).toBe(true);
	expect(secretMatches('whsec-3b9f2c81-d7e64a0', 'whsec-3b9f2c81-d7e64a0f')).toBe(false);
	expect(secretMatches('ünïcødé ✓', 'ünïcødé ✓')).toBe(true);
	expect(secretMatches('ünïcødé ✗', 'ünïcødé ✓')).toBe(false);
	expect(secretMatches(undefined, 'x')).toBe(false);
	expect(secretMatches('', '')).toBe(false);
});

describe('base58check checksums (double SHA-256)', () => {
	test.each([
		['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '41a614f803b6fd780986a42c78ec9c7f77e6ded13c'],
		['TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', '415cbdd86a2fa8dc4bddd8a8f69dba48572eec07fb'],
		['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '0062e907b15cbf27d5425399ebf6f0fb50ebb88f18'],
		['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', '05b472a266d0bd89c13706a4132ccfb16f7c3b9fcb'],
		['LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9', '30729fd0f4200e2e4e0064d2422c6fe462279fc773'],
		['MQMcJhpWHYVeQArcZR3sBgyPZxxRtnH441', '32b48297bff5dadecc5f36145cec6a5f20d57c8f9b'],
		['DPpJVPpvPNP6i6tMj4rTycAGh8wReTqaSU', '1eccdc7665e9e59b9033a9ed97643e2f1c3ff4f695'],
		['A7JjzK9k9x5b2MkkQzqt91WZsuu7wTu6iS', '16a31d5eb10b887b45257d9101eafa94c5373c85a6'],
		['1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', '0076a04053bda0a88bda5177b86a15c3b29f559873'],
	])('%s passes, with the payload %s', (address, payload) => {
		const decoded = base58CheckDecode(address);
		expect('payload' in decoded ? Buffer.from(decoded.payload).toString('hex') : decoded).toBe(
			payload,
		);
	});
	test.each([
		'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
		'1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb',
		'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH8',
		'DPpJVPpvPNP6i6tMj4rTycAGh8wReTqaSV',
		'1111',
	])('%s fails its checksum', (address) => {
		expect(base58CheckDecode(address)).toEqual({ error: 'checksum' });
	});
});
