import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { sandboxCredentials } from '../helpers/credentials';
import { confirmedFields } from '../../nodes/events/item';
import { LISTING_LAG_MS, OVERLAP_MS } from '../../nodes/CryptoSettlementPollTrigger/cursor';
import {
	ADDRESSES,
	ASSET_IDS,
	cryptoWithdrawal,
	start,
	type Client,
} from '../../fake-api/test/helpers';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * The poll trigger through n8n-core's PollContext against the local sandbox (docs/trigger.md,
 * "Poll trigger"): both sources, first poll, new deposits and withdrawals, status changes, the
 * event filter, duplicates across restarts, the manual test event and the 403 on stored events.
 */
/** A valid Tron address whose withdrawals the fake ends `rejected`. */
const REJECTED = 'TUj72et9tS9ZahKE2RMZbEDfxdA6o76yRU';

let client: Client;
let credentials: ICredentialDataDecryptedObject;
let wallet: { id: string; address: string };
let reference = 0;

beforeEach(async () => {
	client = await start({ rejectAddresses: [REJECTED] });
	credentials = sandboxCredentials(client.sandbox, { pin: client.sandbox.pin });
	wallet = (
		await client.call('POST', `/trades/sell/assets/${ASSET_IDS.TRX_TEST}/generate-address`, {
			label: 'poll',
		})
	).body.data;
});
afterEach(async () => await client.sandbox.close());

async function deposit(): Promise<string> {
	reference++;
	const response = await client.call('POST', '/trades/sell/mock-trade', {
		walletAddress: wallet.address,
		asset: 'TRX_TEST',
		amountInUSD: 100,
		cryptoReceived: 833.33,
		reference: `poll-ref-${reference}`,
		txHash: `poll-hash-${reference}`,
	});
	expect(response.status).toBe(200);
	return response.body.data.id as string;
}

async function withdraw(overrides: Record<string, unknown> = {}): Promise<string> {
	reference++;
	const response = await client.call(
		'POST',
		'/payments/withdraw/address',
		cryptoWithdrawal({ externalId: `poll-w-${reference}`, ...overrides }),
	);
	expect(response.status).toBe(200);
	return response.body.data.id as string;
}

const requested = () => client.sandbox.requests.map((entry) => `${entry.method} ${entry.path}`);
const summary = (items: IDataObject[] | null) =>
	(items ?? []).map((item) => `${String(item.event)} ${String(item.id)}`);

describe('source: records', () => {
	const parameters = { source: 'records', events: ['*'] };

	test('first poll emits nothing, records where it stands, reads one page of each list', async () => {
		await deposit();
		const poller = await Poller.create(parameters, credentials);
		client.sandbox.clearRequests();
		const first = await poller.poll();
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		expect(requested().sort()).toEqual([
			'GET /v1/payments/withdrawals',
			'GET /v1/trades/transactions',
		]);
		expect(poller.staticData.pollState).toMatchObject({ version: 2, source: 'records' });
		// Nothing changed: the second poll emits nothing either.
		expect((await poller.poll()).items).toBeNull();
	});

	test("a new deposit, its status change and a new withdrawal each become one event with the webhook trigger's item shape", async () => {
		const poller = await Poller.create(parameters, credentials);
		expect((await poller.poll()).items).toBeNull();

		const tradeId = await deposit();
		const pending = await poller.poll();
		expect(summary(pending.items)).toEqual([`trade.pending ${tradeId}`]);

		await client.sandbox.settle();
		const completed = await poller.poll();
		expect(summary(completed.items)).toEqual([`trade.completed ${tradeId}`]);
		const item = completed.items![0];
		const record = (await client.call('GET', `/trades/transactions/${tradeId}`)).body
			.data as IDataObject;
		// Exactly what the webhook trigger emits with Confirm With API for this event, plus source.
		expect(item).toEqual({
			...confirmedFields('trade', record),
			id: tradeId,
			event: 'trade.completed',
			verification: { source: 'read from the API', confirmedWithApi: true },
			record,
			source: 'records',
			// What both triggers add (docs/trigger.md, "The item"): the event's key, the token and the
			// wallet's label looked up, each amount's unit.
			eventKey: expect.stringMatching(/^[\w-]{22}$/),
			token: 'TRX',
			network: 'Tron Shasta',
			walletLabel: 'poll',
			amountCurrency: 'NGN',
			feeAmountCurrency: 'NGN',
			amountReceivedCurrency: 'USD',
			cryptoAmountCurrency: 'TRX',
			cryptoReceivedCurrency: 'TRX',
		});
		expect(item).toMatchObject({
			amountInUSD: 100,
			destinationAddress: wallet.address,
			status: 'completed',
		});

		const withdrawalId = await withdraw({ walletAddress: REJECTED });
		expect(summary((await poller.poll()).items)).toEqual([`withdrawal.pending ${withdrawalId}`]);
		await client.sandbox.settle();
		const rejected = await poller.poll();
		expect(summary(rejected.items)).toEqual([`withdrawal.rejected ${withdrawalId}`]);
		expect(rejected.items![0]).toMatchObject({
			status: 'rejected',
			source: 'records',
			record: { id: withdrawalId },
		});
		expect((await poller.poll()).items).toBeNull();
	});

	test('the event filter: only selected events are emitted, "*" emits all', async () => {
		const onlyCompleted = await Poller.create(
			{ source: 'records', events: ['trade.completed', 'withdrawal.completed'] },
			credentials,
		);
		await onlyCompleted.poll();
		const tradeId = await deposit();
		const withdrawalId = await withdraw({ walletAddress: ADDRESSES.TRC20 });
		expect((await onlyCompleted.poll()).items).toBeNull();
		await client.sandbox.settle();
		expect(summary((await onlyCompleted.poll()).items).sort()).toEqual(
			[`trade.completed ${tradeId}`, `withdrawal.completed ${withdrawalId}`].sort(),
		);
	});

	test('the same event and status is emitted once, across restarts', async () => {
		const poller = await Poller.create(parameters, credentials);
		await poller.poll();
		const tradeId = await deposit();
		expect(summary((await poller.poll()).items)).toEqual([`trade.pending ${tradeId}`]);
		poller.restart();
		expect((await poller.poll()).items).toBeNull();
		await client.sandbox.settle();
		poller.restart();
		expect(summary((await poller.poll()).items)).toEqual([`trade.completed ${tradeId}`]);
		poller.restart();
		expect((await poller.poll()).items).toBeNull();
		expect((await poller.poll()).items).toBeNull();
	});

	test('"Fetch Test Event" returns the most recent matching event and leaves the state alone', async () => {
		const first = await deposit();
		await client.sandbox.settle();
		await deposit();
		const poller = await Poller.create(
			{ source: 'records', events: ['trade.completed'] },
			credentials,
		);
		const manual = await poller.poll('manual');
		expect(manual.error).toBeUndefined();
		expect(summary(manual.items)).toEqual([`trade.completed ${first}`]);
		expect(manual.items![0].source).toBe('records');
		expect(poller.staticData.pollState).toBeUndefined();
		// An active poll afterwards still starts with its first-poll baseline.
		expect((await poller.poll()).items).toBeNull();
	});
});

describe('source: webhookEvents (stored deliveries)', () => {
	const parameters = { source: 'webhookEvents', events: ['*'] };

	test('first poll emits nothing; a mock deposit becomes its stored deliveries, once, with the delivery body', async () => {
		await deposit();
		await client.sandbox.settle();
		const poller = await Poller.create(parameters, credentials);
		client.sandbox.clearRequests();
		expect((await poller.poll()).items).toBeNull();
		const [first] = client.sandbox.requests;
		expect(first).toMatchObject({
			method: 'GET',
			path: '/v1/transactions/webhooks',
			query: { page: '1', size: '200' },
		});

		const tradeId = await deposit();
		await client.sandbox.settle();
		client.sandbox.clearRequests();
		const polled = await poller.poll();
		// Later polls ask from the overlap before the newest delivery read, on the service's clock (no
		// later than its answer's time, whole seconds in its Date header, less the listing lag).
		const [next] = client.sandbox.requests;
		const newestRead = Math.max(
			...client.sandbox.state.webhookEvents
				.filter((event) => event.reference !== tradeId)
				.map((event) => Date.parse(event.createdAt)),
		);
		expect(Date.parse(next.query.startDate)).toBeLessThanOrEqual(newestRead - OVERLAP_MS);
		expect(Date.parse(next.query.startDate)).toBeGreaterThanOrEqual(
			newestRead - OVERLAP_MS - LISTING_LAG_MS - 1000,
		);
		expect(summary(polled.items)).toEqual([
			`trade.pending ${tradeId}`,
			`trade.completed ${tradeId}`,
		]);
		const stored = client.sandbox.state.webhookEvents.find(
			(event) => event.reference === tradeId && event.eventType === 'trade.completed',
		)!;
		// Exactly the webhook trigger's item for this body (Confirm With API off), plus source.
		expect(polled.items![1]).toEqual({
			...stored.payload,
			event: 'trade.completed',
			verification: { source: 'read from the API', confirmedWithApi: false },
			source: 'webhookEvents',
			// What both triggers add: a delivery's body states no unit for `amount`.
			eventKey: expect.stringMatching(/^[\w-]{22}$/),
			token: 'TRX',
			network: 'Tron Shasta',
			walletLabel: 'poll',
			amountCurrency: 'not stated',
			cryptoAmountCurrency: 'TRX',
		});
		poller.restart();
		expect((await poller.poll()).items).toBeNull();
	});

	test('a 403 (no webhook inspection access) fails the poll with a message that says so and suggests Records', async () => {
		await client.sandbox.close();
		client = await start({ webhookAccess: false });
		credentials.baseUrl = client.sandbox.url;
		const poller = await Poller.create(parameters, credentials);
		const result = await poller.poll();
		expect(result.items).toBeNull();
		expect(result.error?.message).toMatch(/HTTP 403.*webhook inspection access/);
		expect((result.error as { description?: string }).description).toMatch(
			/Records \(Transactions and Withdrawals\)/,
		);
		expect(JSON.stringify(result.error)).not.toContain(client.sandbox.appSecret);
		expect(poller.staticData.pollState).toBeUndefined();
	});
});
