/**
 * A read of one record outputs that record or nothing, and an update whose answer shows what it set
 * must show what was sent (docs/usage.md, "The record asked for"): through n8n-core's engine against
 * a local HTTP server that answers with another record or another value, as a cache, a proxy or a
 * service that clamps or ignores a setting would. The operations come from the records.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { RESOURCES } from '../../../nodes/CryptoSettlement/operations';
import { CASES } from '../../helpers/operation-cases';
import { expectNoSecrets, runNode } from '../../helpers/node';
import { envelope, localService } from '../../helpers/local-service';

beforeAll(() => nock.enableNetConnect());

const OPERATIONS = Object.entries(RESOURCES).flatMap(([resource, { specs }]) =>
	Object.entries(specs).map(([operation, spec]) => ({ name: `${resource} → ${operation}`, spec })),
);
const labelOf = (spec: (typeof OPERATIONS)[number]['spec'], name: string) =>
	spec.fields.find((field) => field.name === name)?.displayName;

/** Every read whose record declares the record it asks for (`byId`), with its contract case. */
const BY_ID = OPERATIONS.flatMap(({ name, spec }) =>
	spec.kind === 'read' && spec.byId
		? [{ name, byId: spec.byId, label: labelOf(spec, spec.byId.param) }]
		: [],
);

/** Every update whose answer shows back what it set (`echoes`), one case per field. */
const ECHOES = OPERATIONS.flatMap(({ name, spec }) =>
	Object.keys(spec.echoes ?? {}).map((field) => ({
		name,
		field,
		label: labelOf(spec, field),
		sent: CASES[name].body?.[field],
		read: spec.kind === 'read',
	})),
);

/** Another value of the same type than the one sent. */
const otherThan = (sent: unknown) =>
	typeof sent === 'number' ? sent + 0.01 : typeof sent === 'boolean' ? !sent : 'someone-else';

/** What the contract case asks for: the last segment of its path. */
const askedOf = (name: string) => CASES[name].path.split('/').pop() ?? '';

let servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
	await Promise.all(servers.map((server) => server.close()));
	servers = [];
});

async function answering(record: IDataObject) {
	const server = await localService(() => ({ status: 200, body: envelope(record) }));
	servers.push(server);
	return server;
}

test('every read by a path parameter naming a record declares it (a quote by asset is not a record)', () => {
	const byPath = OPERATIONS.filter(
		({ spec }) => spec.kind === 'read' && /\{\w+\}/.test(spec.path),
	).map(({ name }) => name);
	expect(byPath.filter((name) => !BY_ID.some((entry) => entry.name === name))).toEqual([
		'rate → calculate',
	]);
	expect(BY_ID.map((entry) => entry.name).sort()).toEqual([
		'transaction → get',
		'wallet → get',
		'webhookEvent → get',
		'withdrawal → get',
	]);
});

test('every update or read whose contract answer shows a field it sent declares it (echoes)', () => {
	const showsBack = OPERATIONS.filter(
		({ name, spec }) => (spec.kind === 'update' || spec.kind === 'read') && CASES[name],
	).flatMap(({ name }) => {
		const { body = {}, output } = CASES[name];
		return Object.keys(body)
			.filter((field) => output.some((record) => field in record))
			.map((field) => `${name}: ${field}`);
	});
	expect(ECHOES.map(({ name, field }) => `${name}: ${field}`)).toEqual(
		expect.arrayContaining(showsBack),
	);
	expect(showsBack.length).toBeGreaterThanOrEqual(6);
});

// A field the contract case does not send (a BTC address has no network) is not compared.
describe.each(ECHOES.filter(({ sent }) => sent !== undefined))(
	'$name',
	({ name, field, label, sent, read }) => {
		test(`answered with another ${field} than the one sent: the item fails, naming the field and both values`, async () => {
			const shown = otherThan(sent);
			const server = await answering({ ...(CASES[name].output[0] as IDataObject), [field]: shown });
			const result = await runNode(CASES[name].params, {
				credentials: { baseUrl: server.baseUrl },
			});
			expect(server.requests).toHaveLength(1);
			expect(result.items).toHaveLength(0);
			expect(result.error?.message).toBe(
				read
					? `The service answered '${label}' ${JSON.stringify(shown)} for the ${JSON.stringify(sent)} asked for`
					: `The service answered '${label}' ${JSON.stringify(shown)} after being asked to set ${JSON.stringify(sent)}`,
			);
			expectNoSecrets(result.text);
		});

		test(`answered with the ${field} sent (also as text), or without it: the answer is output`, async () => {
			for (const answer of [{ [field]: sent }, { [field]: String(sent) }, {}]) {
				const server = await answering({ ...(CASES[name].output[0] as IDataObject), ...answer });
				const result = await runNode(CASES[name].params, {
					credentials: { baseUrl: server.baseUrl },
				});
				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(1);
			}
		});
	},
);

// The service shows the account number verified partly masked: where it shows a digit, it must be this number's.
test.each([
	['0123456789 in full', '0123456789', true],
	['masked at the end (012345XXXX)', '012345XXXX', true],
	['masked at the start (******6789)', '******6789', true],
	['masked to another length (XXXX6789): nothing to compare', 'XXXX6789', true],
	["another number's digits (987654XXXX)", '987654XXXX', false],
	["another number's last digits (******1111)", '******1111', false],
])('Bank → Verify Account answered with the account number %s', async (_name, shown, output) => {
	const server = await answering({
		accountNumber: shown,
		type: 'nuban',
		bankName: 'Bank',
		accountName: 'ADA',
	});
	const result = await runNode(CASES['bank → verifyAccount'].params, {
		credentials: { baseUrl: server.baseUrl },
	});
	if (output) expect(result.items.map((item) => item.json.accountNumber)).toEqual([shown]);
	else
		expect(result.error?.message).toBe(
			`The service answered 'Account Number' "${shown}" for the "0123456789" asked for`,
		);
});

test.each<[string, IDataObject, boolean]>([
	[
		'the same address in another case where case means nothing (bech32)',
		{ address: 'BC1QL45G9T5MQ9UP4XFKGQJ70S60V7QDHDK29RJ9JE', token: 'btc' },
		true,
	],
	[
		'a network the request did not send (BTC has none)',
		{ address: 'bc1ql45g9t5mq9up4xfkgqj70s60v7qdhdk29rj9je', token: 'BTC', network: 'BTC' },
		true,
	],
	[
		'a TRON address differing only in case (case is part of it)',
		{ address: 'TFZHMMP4ZMPENJCMQSPGRYP7KVQL8LEJNA', token: 'USDT', network: 'TRC20' },
		false,
	],
])('Payout Address → Validate answered with %s', async (_name, answer, output) => {
	const params =
		answer.network === 'TRC20'
			? {
					resource: 'payoutAddress',
					operation: 'validate',
					address: 'TFzHmmP4ZmPeNJcmqsPGRyP7KvqL8LejnA',
					token: 'USDT',
					network: 'TRC20',
				}
			: CASES['payoutAddress → validate'].params;
	const server = await answering({ ...answer, valid: true });
	const result = await runNode(params, { credentials: { baseUrl: server.baseUrl } });
	if (output) expect(result.items.map((item) => item.json.valid)).toEqual([true]);
	else
		expect(result.error?.message).toBe(
			`The service answered 'Address' "${String(answer.address)}" for the "TFzHmmP4ZmPeNJcmqsPGRyP7KvqL8LejnA" asked for`,
		);
});

test('an update answered about another record fails, saying whether the one asked for changed cannot be told', async () => {
	const server = await answering({ walletId: 'w2', autoSettlement: false });
	const result = await runNode(CASES['wallet → setAutoSettlement'].params, {
		credentials: { baseUrl: server.baseUrl },
	});
	expect(result.error?.message).toBe(
		"The service answered with the record w2, not the one 'Wallet' asked for (w1)",
	);
	expect(result.error?.description).toBe(
		"The answer is another record's, so whether w1 was changed cannot be told. Get w1 to see what it holds before relying on it.",
	);
});

describe.each(BY_ID)('$name', ({ name, label, byId }) => {
	const asked = askedOf(name);

	test('answered with a record of another id: nothing is output, and the error names the field and both ids', async () => {
		const server = await answering({ id: 'other-record-9', status: 'completed', amount: 1234 });
		const result = await runNode(CASES[name].params, { credentials: { baseUrl: server.baseUrl } });
		expect(server.requests).toHaveLength(1);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe(
			`The service answered with the record other-record-9, not the one '${label}' asked for (${asked})`,
		);
		expect(result.error?.description).toMatch(/^Nothing was output for this item/);
		expectNoSecrets(result.text);
	});

	test('with Continue On Fail the item is an error item; the next item, answered with its own record, is output', async () => {
		const server = await localService((request) => ({
			status: 200,
			body: envelope({
				id: request.path.endsWith('/second') ? 'second' : 'another-record',
				status: 'completed',
			}),
		}));
		servers.push(server);
		const param = byId.param;
		const params = { ...CASES[name].params, [param]: '={{ $json.id }}' };
		const result = await runNode(params, {
			credentials: { baseUrl: server.baseUrl },
			continueOnFail: true,
			items: [{ id: asked }, { id: 'second' }],
		});
		expect(result.items.map((item) => item.json.error ?? item.json.id)).toEqual([
			`The service answered with the record another-record, not the one '${label}' asked for (${asked})`,
			'second',
		]);
	});

	test.each<[string, (asked: string) => IDataObject]>([
		['its own id', (id) => ({ id, status: 'completed' })],
		['its own _id', (id) => ({ _id: id, status: 'completed' })],
		['no id at all (it contradicts nothing)', () => ({ status: 'completed' })],
	])('answered with %s: the record is output', async (_shape, record) => {
		const server = await answering(record(asked));
		const result = await runNode(CASES[name].params, { credentials: { baseUrl: server.baseUrl } });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ status: 'completed' });
	});

	// Record ids by the one rule (nodes/service/ids.ts): the service's hexadecimal object ids without
	// case, any other id exactly.
	test('asked for a hexadecimal id and answered with it in capitals: the same record, output', async () => {
		const hex = '65f1c0ffee0ddba11ab1e5ab';
		const server = await answering({ id: hex.toUpperCase(), status: 'completed' });
		const result = await runNode(
			{ ...CASES[name].params, [byId.param]: hex },
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ id: hex.toUpperCase(), status: 'completed' });
	});

	test('asked for an id that is not hexadecimal and answered with it in capitals: another record, nothing output', async () => {
		const server = await answering({ id: 'ORD-7', status: 'completed' });
		const result = await runNode(
			{ ...CASES[name].params, [byId.param]: 'ord-7' },
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe(
			`The service answered with the record ORD-7, not the one '${label}' asked for (ord-7)`,
		);
	});

	if (byId.alsoShownAs) {
		test.each(Object.keys(byId.alsoShownAs))(
			'a record found by its %s (not its id) is the record asked for',
			async (field) => {
				const server = await answering({ id: 'record-1', [field]: asked, status: 'completed' });
				const result = await runNode(CASES[name].params, {
					credentials: { baseUrl: server.baseUrl },
				});
				expect(result.error).toBeUndefined();
				expect(result.items[0].json).toMatchObject({ id: 'record-1', [field]: asked });
			},
		);
	}
});

// Issue 69, point 3: an External ID is the merchant's own reference, compared exactly
// (nodes/service/ids.ts), so a payout under INV-1 never marks inv-1 paid.
describe('Withdrawal → Get by External ID', () => {
	const get = (withdrawalId: string) => ({
		resource: 'withdrawal',
		operation: 'get',
		withdrawalId,
	});

	test('asked for inv-1 and answered with the payout INV-1: the item fails, naming the field and both ids; nothing is output', async () => {
		const server = await answering({ id: 'wd-77', externalId: 'INV-1', status: 'completed' });
		const result = await runNode(get('inv-1'), { credentials: { baseUrl: server.baseUrl } });
		expect(server.requests.map((request) => request.path)).toEqual([
			'/v1/payments/withdrawal/inv-1',
		]);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe(
			"The service answered with the record wd-77 (externalId INV-1), not the one 'Withdrawal ID' asked for (inv-1)",
		);
		expect(result.error?.description).toMatch(/^Nothing was output for this item/);
	});

	test('with Continue On Fail, inv-1 answered INV-1 is an error item, never the payout', async () => {
		const server = await answering({ id: 'wd-77', externalId: 'INV-1', status: 'completed' });
		const result = await runNode(get('inv-1'), {
			credentials: { baseUrl: server.baseUrl },
			continueOnFail: true,
		});
		expect(result.items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				error:
					"The service answered with the record wd-77 (externalId INV-1), not the one 'Withdrawal ID' asked for (inv-1)",
			}),
		]);
	});

	test.each([
		['its External ID exactly', 'INV-1', { id: 'wd-77', externalId: 'INV-1' }],
		[
			'its External ID, typed with spaces around it (trimmed)',
			' INV-1 ',
			{ id: 'wd-77', externalId: 'INV-1' },
		],
		['its id', 'wd-77', { id: 'wd-77', externalId: 'INV-1' }],
	])('asked for by %s: the payout is output', async (_name, asked, record) => {
		const server = await answering({ ...record, status: 'completed' });
		const result = await runNode(get(asked), { credentials: { baseUrl: server.baseUrl } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			id: 'wd-77',
			externalId: 'INV-1',
			status: 'completed',
		});
	});
});
