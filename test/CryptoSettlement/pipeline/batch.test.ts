/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code */
/**
 * Issue 29 ("Also"): a withdrawal's lookup by External ID and its read-back by id are reads, so
 * they stay off the critical path of the paced send (docs/architecture.md, "Never paid twice"):
 * the lookups are made while the items wait for their turn, and a created withdrawal's turn ends
 * before it is read back. Through n8n-core's engine against a real local HTTP server, whose held
 * answers make the order observable without timing anything.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { MONEY_IN_FLIGHT, READ_AHEAD } from '../../../nodes/CryptoSettlement/pipeline/batch';
import { cryptoWithdrawal, runNode } from '../../helpers/node';
import { localService, withdrawalService, type Seen } from '../../helpers/local-service';

beforeAll(() => nock.enableNetConnect());

const ITEMS = 8;
const crypto = cryptoWithdrawal({ amount: '={{ $json.amount }}', externalId: '={{ $json.ref }}' });
const items = (prefix: string) =>
	Array.from({ length: ITEMS }, (_, i) => ({ amount: 5 + i, ref: `${prefix}-${i + 1}` }));

/** Resolves when `ready()` holds, or after `ms` (so a wrong order fails the test instead of hanging it). */
async function until(ready: () => boolean, ms = 3000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!ready() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

const isLookup = (request: Seen) =>
	request.method === 'GET' && request.path.startsWith('/v1/payments/withdrawal/');
const isPost = (request: Seen) => request.method === 'POST';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
	await close?.();
	close = undefined;
});

async function serve(hold: (request: Seen, requests: Seen[]) => Promise<void>) {
	const service = withdrawalService();
	const server = await localService(async (request) => {
		await hold(request, server.requests);
		return service.handler(request);
	});
	close = server.close;
	const run = async (rows: IDataObject[]) =>
		await runNode(crypto, { items: rows, credentials: { baseUrl: server.baseUrl } });
	return { server, service, run };
}

test('every External ID of the run is looked up while the first withdrawals are still being sent', async () => {
	let lookupsWhenFirstAnswered: number | undefined;
	const { server, run } = await serve(async (request, requests) => {
		if (!isPost(request) || lookupsWhenFirstAnswered !== undefined) return;
		await until(() => requests.filter(isLookup).length >= ITEMS);
		lookupsWhenFirstAnswered = requests.filter(isLookup).length;
	});
	const result = await run(items('ahead'));
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.alreadySubmitted)).toEqual(Array(ITEMS).fill(false));
	// Before the first send was answered, every item had been looked up (not only the few in flight).
	expect(lookupsWhenFirstAnswered).toBe(ITEMS);
	expect(server.requests.filter(isPost)).toHaveLength(ITEMS);
});

test('items far from their turn are looked up only as their turn nears', async () => {
	const count = MONEY_IN_FLIGHT + READ_AHEAD + 10;
	let lookupsWhenFirstAnswered: number | undefined;
	const { server, run } = await serve(async (request, requests) => {
		if (!isPost(request) || lookupsWhenFirstAnswered !== undefined) return;
		await until(() => requests.filter(isLookup).length >= count, 1000);
		lookupsWhenFirstAnswered = requests.filter(isLookup).length;
	});
	const rows = Array.from({ length: count }, (_, i) => ({ amount: 5, ref: `near-${i + 1}` }));
	const result = await run(rows);
	expect(result.error).toBeUndefined();
	// While the first send waited, the items in flight and the next READ_AHEAD had been looked up, no more.
	expect(lookupsWhenFirstAnswered).toBe(MONEY_IN_FLIGHT + READ_AHEAD);
	expect(server.requests.filter(isPost)).toHaveLength(count);
});

test("a created withdrawal's read-back does not hold up the next item's send", async () => {
	let postsWhenFirstReadBack: number | undefined;
	const { run } = await serve(async (request, requests) => {
		// The read-back asks by the service's id (wd-…), the lookup by the External ID.
		if (
			!isLookup(request) ||
			!request.path.includes('/wd-') ||
			postsWhenFirstReadBack !== undefined
		)
			return;
		await until(() => requests.filter(isPost).length >= ITEMS);
		postsWhenFirstReadBack = requests.filter(isPost).length;
	});
	const result = await run(items('readback'));
	expect(result.error).toBeUndefined();
	// Every item was sent while the first read-back was still unanswered, and every output is the full record.
	expect(postsWhenFirstReadBack).toBe(ITEMS);
	expect(result.items.map((item) => [item.json.status, item.json.fullRecordUnavailable])).toEqual(
		Array(ITEMS).fill(['pending', undefined]),
	);
});

test('a lookup made ahead is not trusted once another send of the same External ID in this n8n has ended', async () => {
	// Two executions pay the same External ID at once: both look it up before either sends, and the
	// first send is answered only after both lookups said "not found".
	const { server, run } = await serve(async (request, requests) => {
		if (isPost(request)) await until(() => requests.filter(isLookup).length >= 2);
	});
	const row = [{ amount: 12, ref: 'shared-1' }];
	const [first, second] = await Promise.all([run(row), run(row)]);
	expect([first.error, second.error]).toEqual([undefined, undefined]);
	// Sent once: the second execution looked the External ID up again instead of trusting its early
	// "not found" (the service would refuse a duplicate, but it is never asked to).
	expect(server.requests.filter(isPost)).toHaveLength(1);
	expect(
		[first.items[0].json.alreadySubmitted, second.items[0].json.alreadySubmitted].sort(),
	).toEqual([false, true]);
	expect(first.items[0].json.id).toBe(second.items[0].json.id);
});

// External IDs are compared exactly (nodes/service/ids.ts), so inv-1 and INV-1 are two payments to
// the node; the service's lookup may find one under the other (issue 69), so one batch may not hold
// both: every such row is refused before anything is sent (docs/usage.md, "Never paid twice").
describe('External IDs in one batch', () => {
	const rows = (...refs: string[]) => refs.map((ref, i) => ({ amount: 5 + i, ref }));

	test('inv-1 and INV-1: nothing is sent, and the error names both rows', async () => {
		const { server, run } = await serve(async () => {});
		const result = await run(rows('pay-0', 'inv-1', 'INV-1'));
		expect(server.requests.filter(isPost)).toHaveLength(0);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe(
			'2 of 3 rows are invalid, so nothing was sent: row 2 (inv-1, n8n item 1): External ID inv-1 differs only in letter case from row 3 (INV-1, n8n item 2), so neither is sent; ' +
				'row 3 (INV-1, n8n item 2): External ID INV-1 differs only in letter case from row 2 (inv-1, n8n item 1), so neither is sent',
		);
		expect(result.error?.description).toMatch(
			/If they are one payment, keep one row; if they are two, give them External IDs that differ by more than letter case\./,
		);
	});

	test('inv-1 and INV-1 with Continue On Fail: both are error items, the other rows are paid', async () => {
		const service = withdrawalService();
		const server = await localService((request) => service.handler(request));
		close = server.close;
		const result = await runNode(crypto, {
			items: rows('pay-0', 'inv-1', 'INV-1', 'pay-3'),
			continueOnFail: true,
			credentials: { baseUrl: server.baseUrl },
		});
		expect(result.items.map((item) => item.json.error ?? item.json.externalId)).toEqual([
			'pay-0',
			'External ID inv-1 differs only in letter case from row 3 (INV-1, n8n item 2), so neither is sent',
			'External ID INV-1 differs only in letter case from row 2 (inv-1, n8n item 1), so neither is sent',
			'pay-3',
		]);
		expect(server.requests.filter(isPost).map((request) => request.body?.externalId)).toEqual([
			'pay-0',
			'pay-3',
		]);
	});

	test('inv-1 twice: one payment, sent once; the second row finds it (a repeat, not a second payment)', async () => {
		const { server, run } = await serve(async () => {});
		const result = await run([
			{ amount: 5, ref: 'inv-1' },
			{ amount: 5, ref: 'inv-1' },
		]);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.externalId, item.json.alreadySubmitted])).toEqual([
			['inv-1', false],
			['inv-1', true],
		]);
		expect(server.requests.filter(isPost)).toHaveLength(1);
	});
});
