/**
 * @jest-environment ./test/setup/time-zone-environment.js
 * @jest-environment-options {"timeZone": "Africa/Lagos"}
 */
/**
 * Max per Day counts today's withdrawals whatever n8n's time zone (issue #69 point 1;
 * docs/guardrails.md, "Max per Day"): n8n runs in Lagos (UTC+1), as our users' own servers do, and a
 * withdrawal of today whose `createdAt` is written without a zone is read as UTC, the one reading of
 * a service date (`timeMs`, nodes/service/values.ts), never in n8n's zone, which would make it
 * yesterday's and let a payment over the limit through. Through n8n-core's engine against a local
 * service whose clock (its Date header and its records' dates) the test sets.
 */
import type { IDataObject } from 'n8n-workflow';
import { tronAddress } from '../../helpers/addresses';
import { runNode, serversClosedAfterEach } from '../../helpers/node';
import {
	envelope,
	localService,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';
import { onlyDateAt } from '../../helpers/clock';

/** 00:45 UTC on 6 December: 01:45 in Lagos, the same day in both. */
const NOW = Date.UTC(2026, 11, 6, 0, 45);

beforeEach(() => {
	onlyDateAt(NOW);
});
afterEach(() => jest.useRealTimers());

const servers = serversClosedAfterEach();

async function service(listed: IDataObject[]) {
	const withdrawals = withdrawalService();
	const server = await localService((request: Seen): Reply => {
		if (request.method === 'GET' && request.path === '/v1/payments/withdrawals') {
			const meta = { page: 1, hasNextPage: false, totalDocs: listed.length };
			return {
				status: 200,
				body: { ...envelope(listed), meta },
				headers: { date: new Date(NOW).toUTCString() },
			};
		}
		return withdrawals.handler(request);
	});
	servers.push(server);
	return {
		baseUrl: server.baseUrl,
		moneySent: () => server.requests.filter((r) => r.method === 'POST').length,
	};
}

const pay = (baseUrl: string) =>
	runNode(
		{
			resource: 'withdrawal',
			operation: 'createCrypto',
			token: 'USDT',
			network: 'TRC20',
			walletAddress: tronAddress('lagos'),
			amountType: 'usd',
			amount: 200,
			externalId: 'lagos-1',
		},
		{ items: [{}], credentials: { baseUrl, maxPerDayUsd: 1000 } },
	);

test('the process runs in Lagos: a date without a zone would be read an hour earlier there', () => {
	expect(new Date(2026, 11, 6, 0, 0, 30).getTime()).toBe(Date.UTC(2026, 11, 5, 23, 0, 30));
});

test.each(['2026-12-06T00:00:30', '2026-12-06 00:30:00', '2026-12-06T00:00:30.000'])(
	'a 900 USD withdrawal created at %s (no zone: UTC, today) counts: a 200 USD payment over 1,000 USD is refused and nothing is sent',
	async (createdAt) => {
		const { baseUrl, moneySent } = await service([
			{ id: 'w-900', status: 'completed', amount: 900, createdAt },
		]);
		const run = await pay(baseUrl);
		expect(run.error?.message).toBe(
			"Max per day is 1000.00 USD; today's withdrawals total 900.00 USD and this item is 200.00 USD",
		);
		expect(moneySent()).toBe(0);
	},
);

test("a withdrawal written without a zone at 23:30 of yesterday (UTC) is yesterday's: the payment is sent", async () => {
	const { baseUrl, moneySent } = await service([
		{ id: 'w-900', status: 'completed', amount: 900, createdAt: '2026-12-05T23:30:00' },
	]);
	const run = await pay(baseUrl);
	expect(run.error).toBeUndefined();
	expect(moneySent()).toBe(1);
});

test("Withdrawal → Get Many's Created After, written without a zone, is UTC too: a record at 23:30Z yesterday is not after 00:00 today", async () => {
	const listed = [
		{ id: 'w-late', status: 'completed', amount: 1, createdAt: '2026-12-05T23:30:00Z' },
		{ id: 'w-early', status: 'completed', amount: 2, createdAt: '2026-12-06 00:10:00' },
	];
	const { baseUrl } = await service(listed);
	const run = await runNode(
		{
			resource: 'withdrawal',
			operation: 'getAll',
			returnAll: true,
			filters: { createdAfter: '2026-12-06T00:00:00' },
		},
		{ items: [{}], credentials: { baseUrl } },
	);
	expect(run.error).toBeUndefined();
	expect(run.items.map((item) => item.json.id)).toEqual(['w-early']);
});
