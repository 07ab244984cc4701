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

const OPERATIONS = Object.entries(RESOURCES).flatMap(([resource, { specs }]) => Object.entries(specs).map(([operation, spec]) => ({ name: `${resource} → ${operation}`, spec })));
const labelOf = (spec: (typeof OPERATIONS)[number]['spec'], name: string) => spec.fields.find((field) => field.name === name)?.displayName;

/** Every read whose record declares the record it asks for (`byId`), with its contract case. */
const BY_ID = OPERATIONS.flatMap(({ name, spec }) => (spec.kind === 'read' && spec.byId ? [{ name, byId: spec.byId, label: labelOf(spec, spec.byId.param) }] : []));

/** Every update whose answer shows back what it set (`echoes`), one case per field. */
const ECHOES = OPERATIONS.flatMap(({ name, spec }) => (spec.echoes ?? []).map((field) => ({ name, field, label: labelOf(spec, field), sent: CASES[name].body?.[field] })));

/** Another value of the same type than the one sent. */
const otherThan = (sent: unknown) => (typeof sent === 'number' ? sent + 0.01 : typeof sent === 'boolean' ? !sent : 'someone-else');

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
	const byPath = OPERATIONS.filter(({ spec }) => spec.kind === 'read' && /\{\w+\}/.test(spec.path)).map(({ name }) => name);
	expect(byPath.filter((name) => !BY_ID.some((entry) => entry.name === name))).toEqual(['rate → calculate']);
	expect(BY_ID.map((entry) => entry.name).sort()).toEqual(['transaction → get', 'wallet → get', 'webhookEvent → get', 'withdrawal → get']);
});

test('every update whose contract answer shows a field it sent declares it (echoes)', () => {
	const showsBack = OPERATIONS.filter(({ name, spec }) => spec.kind === 'update' && CASES[name]).flatMap(({ name }) => {
		const { body = {}, output } = CASES[name];
		return Object.keys(body).filter((field) => output.some((record) => field in record)).map((field) => `${name}: ${field}`);
	});
	expect(ECHOES.map(({ name, field }) => `${name}: ${field}`).sort()).toEqual(showsBack.sort());
	expect(showsBack.length).toBeGreaterThanOrEqual(3);
});

describe.each(ECHOES)('$name', ({ name, field, label, sent }) => {
	test(`answered with another ${field} than the one sent: the item fails, naming the field and both values`, async () => {
		const shown = otherThan(sent);
		const server = await answering({ ...(CASES[name].output[0] as IDataObject), [field]: shown });
		const result = await runNode(CASES[name].params, { credentials: { baseUrl: server.baseUrl } });
		expect(server.requests).toHaveLength(1);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe(`The service answered '${label}' ${JSON.stringify(shown)} after being asked to set ${JSON.stringify(sent)}`);
		expectNoSecrets(result.text);
	});

	test(`answered with the ${field} sent (also as text), or without it: the answer is output`, async () => {
		for (const answer of [{ [field]: sent }, { [field]: String(sent) }, {}]) {
			const server = await answering({ ...(CASES[name].output[0] as IDataObject), ...answer });
			const result = await runNode(CASES[name].params, { credentials: { baseUrl: server.baseUrl } });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
		}
	});
});

test('an update answered about another record fails, saying whether the one asked for changed cannot be told', async () => {
	const server = await answering({ walletId: 'w2', autoSettlement: false });
	const result = await runNode(CASES['wallet → setAutoSettlement'].params, { credentials: { baseUrl: server.baseUrl } });
	expect(result.error?.message).toBe("The service answered with the record w2, not the one 'Wallet' asked for (w1)");
	expect(result.error?.description).toBe('The answer is another record\'s, so whether w1 was changed cannot be told. Get w1 to see what it holds before relying on it.');
});

describe.each(BY_ID)('$name', ({ name, label, byId }) => {
	const asked = askedOf(name);

	test('answered with a record of another id: nothing is output, and the error names the field and both ids', async () => {
		const server = await answering({ id: 'other-record-9', status: 'completed', amount: 1234 });
		const result = await runNode(CASES[name].params, { credentials: { baseUrl: server.baseUrl } });
		expect(server.requests).toHaveLength(1);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe(`The service answered with the record other-record-9, not the one '${label}' asked for (${asked})`);
		expect(result.error?.description).toMatch(/^Nothing was output for this item/);
		expectNoSecrets(result.text);
	});

	test('with Continue On Fail the item is an error item; the next item, answered with its own record, is output', async () => {
		const server = await localService((request) => ({ status: 200, body: envelope({ id: request.path.endsWith('/second') ? 'second' : 'another-record', status: 'completed' }) }));
		servers.push(server);
		const param = byId.param;
		const params = { ...CASES[name].params, [param]: '={{ $json.id }}' };
		const result = await runNode(params, { credentials: { baseUrl: server.baseUrl }, continueOnFail: true, items: [{ id: asked }, { id: 'second' }] });
		expect(result.items.map((item) => item.json.error ?? item.json.id)).toEqual([
			`The service answered with the record another-record, not the one '${label}' asked for (${asked})`,
			'second',
		]);
	});

	test.each<[string, (asked: string) => IDataObject]>([
		['its own id', (id) => ({ id, status: 'completed' })],
		['its own _id', (id) => ({ _id: id, status: 'completed' })],
		['its own id in another case', (id) => ({ id: id.toUpperCase(), status: 'completed' })],
		['no id at all (it contradicts nothing)', () => ({ status: 'completed' })],
	])('answered with %s: the record is output', async (_shape, record) => {
		const server = await answering(record(asked));
		const result = await runNode(CASES[name].params, { credentials: { baseUrl: server.baseUrl } });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ status: 'completed' });
	});

	if (byId.alsoShownAs?.length) {
		test.each(byId.alsoShownAs)('a record found by its %s (not its id) is the record asked for', async (field) => {
			const server = await answering({ id: 'record-1', [field]: asked, status: 'completed' });
			const result = await runNode(CASES[name].params, { credentials: { baseUrl: server.baseUrl } });
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ id: 'record-1', [field]: asked });
		});
	}
});
