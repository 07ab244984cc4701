/**
 * Statement → Match reads an External ID as the one rule says (nodes/service/ids.ts; issue 69,
 * point 3): the merchant's own reference, compared exactly once trimmed, so inv-1 is not INV-1's.
 * Through n8n-core's engine against the local fake API.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi } from '../../../fake-api/src/server';
import { runNode } from '../../helpers/node';

const DAY = '2026-03-10';

let fakeApi: FakeApi;
let credentials: IDataObject;

beforeAll(async () => {
	fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000 });
	credentials = sandboxCredentials(fakeApi);
	fakeApi.seedDay({ day: DAY, records: 20 });
	// The one payout under INV-1: completed, 25 USD.
	const payout = fakeApi.state.withdrawals.find((w) => w.status === 'completed' && !w.trade);
	if (!payout) throw new Error('the seeded day has no completed payout');
	Object.assign(payout, { externalId: 'INV-1', amount: 25 });
});
afterAll(async () => await fakeApi.close());

test('inv-1 with only INV-1 in the list stays notFound; INV-1, typed with spaces around it or not, is paid', async () => {
	const result = await runNode(
		{
			resource: 'statement',
			operation: 'match',
			matchBy: 'externalId',
			value: '={{ $json.ref }}',
			expectedAmount: 25,
		},
		{
			credentials,
			items: [{ ref: 'inv-1' }, { ref: 'INV-1' }, { ref: ' INV-1 ' }, { ref: 'Inv-1' }],
		},
	);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.ref, item.json.match])).toEqual([
		['inv-1', 'notFound'],
		['INV-1', 'paid'],
		[' INV-1 ', 'paid'],
		['Inv-1', 'notFound'],
	]);
	expect(result.items[0].json.matchNote).toBe('No withdrawal under "inv-1"');
	expect(result.items[1].json.records).toEqual([
		expect.objectContaining({ externalId: 'INV-1', status: 'completed' }),
	]);
});
