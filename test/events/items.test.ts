import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { ASSET_IDS, start, type Client } from '../../fake-api/test/helpers';
import { startListService, type ListService } from '../helpers/poll/list-service';
import { Poller, startLocalServer } from '../helpers/poll/poll-harness';
import { captureLogs, CREDENTIALS, TriggerHarness, WITHOUT_CONFIRMATION } from '../helpers/webhook';

/**
 * The items of both triggers (docs/trigger.md, "The item"; issue #42 point 9, issue #45 point 2),
 * through n8n-core's WebhookContext and PollContext: `eventKey` is the same text for the same event
 * and status whichever trigger, source or setting emits it, and another for another status; a
 * deposit's item names its token, each amount's unit and the wallet's label, with bulky texts last.
 */

const KEY = /^[\w-]{22}$/;
/** The fields an item starts with, in this order (docs/trigger.md, "The item"). */
const LEAD = ['event', 'eventKey', 'id', 'status', 'token', 'network', 'walletLabel'];

beforeEach(() => {
	captureLogs();
});

describe('against the fake API: a USDT deposit and a withdrawal through both triggers', () => {
	let client: Client;
	let credentials: ICredentialDataDecryptedObject;
	let wallet: { id: string; address: string };

	beforeEach(async () => {
		client = await start();
		credentials = {
			...CREDENTIALS,
			appId: client.sandbox.appId,
			appSecret: client.sandbox.appSecret,
			baseUrl: client.sandbox.url,
		};
		wallet = (
			await client.call('POST', `/trades/sell/assets/${ASSET_IDS.USDT_TRX_TEST}/generate-address`, {
				label: 'customer-7',
			})
		).body.data;
	});
	afterEach(async () => await client.sandbox.close());

	/** The bodies the service stored for (and sent as) an event of a record. */
	const sent = (reference: string, eventType: string) =>
		client.sandbox.state.webhookEvents
			.filter((event) => event.reference === reference && event.eventType === eventType)
			.map((event) => event.payload as IDataObject);

	async function triggers() {
		const confirmed = await TriggerHarness.create({ events: ['*'], credentials });
		const unconfirmed = await TriggerHarness.create({
			events: ['*'],
			credentials,
			parameters: WITHOUT_CONFIRMATION,
		});
		const records = await Poller.create({ source: 'records', events: ['*'] }, credentials);
		const stored = await Poller.create({ source: 'webhookEvents', events: ['*'] }, credentials);
		// The first poll of each source records where the lists stand and emits nothing.
		expect((await records.poll()).items).toBeNull();
		expect((await stored.poll()).items).toBeNull();
		/** Every item of `event` for `id` that each trigger emits now (the webhook one for each body sent). */
		const emitted = async (id: string, event: string): Promise<Record<string, IDataObject[]>> => {
			const out: Record<string, IDataObject[]> = {
				confirmed: [],
				unconfirmed: [],
				records: [],
				stored: [],
			};
			for (const body of sent(id, event)) {
				out.confirmed.push(...(await confirmed.deliver({ body })).items);
				out.unconfirmed.push(...(await unconfirmed.deliver({ body })).items);
			}
			const mine = (items: IDataObject[] | null) =>
				(items ?? []).filter((item) => item.id === id && item.event === event);
			out.records.push(...mine((await records.poll()).items));
			out.stored.push(...mine((await stored.poll()).items));
			return out;
		};
		return { confirmed, emitted };
	}

	test('eventKey: one text per event and status from both triggers, both sources, with or without Confirm With API; a repeated trade.pending keeps it', async () => {
		const { confirmed, emitted } = await triggers();
		const deposit = await client.call('POST', '/trades/sell/mock-trade', {
			walletAddress: wallet.address,
			asset: 'USDT_TRX_TEST',
			amountInUSD: 25,
			cryptoReceived: '25',
			reference: 'items-ref-1',
			txHash: 'items-hash-1',
		});
		const tradeId = String(deposit.body.data.id);

		const pending = await emitted(tradeId, 'trade.pending');
		for (const items of Object.values(pending)) expect(items).toHaveLength(1);
		const pendingKeys = new Set(
			Object.values(pending)
				.flat()
				.map((item) => item.eventKey),
		);
		expect(pendingKeys.size).toBe(1);
		const [pendingKey] = [...pendingKeys];
		expect(pendingKey).toMatch(KEY);

		// The service repeats trade.pending as confirmations rise: emitted again (a new delivery), same event.
		const [firstPending] = sent(tradeId, 'trade.pending');
		const repeat = await confirmed.deliver({ body: { ...firstPending, confirmations: 7 } });
		expect(repeat.started).toBe(true);
		expect(repeat.items[0].eventKey).toBe(pendingKey);

		await client.sandbox.settle();
		const completed = await emitted(tradeId, 'trade.completed');
		for (const items of Object.values(completed)) expect(items).toHaveLength(1);
		const completedKeys = new Set(
			Object.values(completed)
				.flat()
				.map((item) => item.eventKey),
		);
		expect(completedKeys.size).toBe(1);
		expect([...completedKeys][0]).toMatch(KEY);
		expect(completedKeys.has(pendingKey)).toBe(false);

		// A withdrawal's statuses: the same rule.
		const payout = await client.call('POST', '/payments/withdraw/address', {
			pin: client.sandbox.pin,
			token: 'USDT',
			network: 'TRC20',
			amount: 10,
			walletAddress: 'TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9',
			externalId: 'items-w-1',
		});
		const withdrawalId = String(payout.body.data.id);
		const queued = Object.values(await emitted(withdrawalId, 'withdrawal.pending')).flat();
		await client.sandbox.settle();
		const done = Object.values(await emitted(withdrawalId, 'withdrawal.completed')).flat();
		expect(queued).toHaveLength(4);
		expect(done).toHaveLength(4);
		expect(new Set(queued.map((item) => item.eventKey)).size).toBe(1);
		expect(new Set(done.map((item) => item.eventKey)).size).toBe(1);
		expect(queued[0].eventKey).not.toBe(done[0].eventKey);
		expect(new Set([pendingKey, ...completedKeys, queued[0].eventKey, done[0].eventKey]).size).toBe(
			4,
		);
	});

	test('the same delivery on two n8n processes at the same moment: both emit it (nothing atomic spans processes), with one eventKey', async () => {
		// A second n8n process: the package loaded again in its own module registry, so nothing of the
		// first process's memory (its in-flight claims, the keys it handed over) is shared.
		const deposit = await client.call('POST', '/trades/sell/mock-trade', {
			walletAddress: wallet.address,
			asset: 'USDT_TRX_TEST',
			amountInUSD: 25,
			cryptoReceived: '25',
			reference: 'items-ref-3',
			txHash: 'items-hash-3',
		});
		await client.sandbox.settle();
		const [body] = sent(String(deposit.body.data.id), 'trade.completed');
		// One workflow (the same id, node and static data as loaded) published on both processes.
		const setup = {
			events: ['trade.completed'],
			credentials,
			workflowId: 'one-workflow-two-processes',
		};
		const first = await TriggerHarness.create(setup);
		let second!: TriggerHarness;
		await jest.isolateModulesAsync(async () => {
			const other = await import('../helpers/webhook');
			other.captureLogs();
			second = (await other.TriggerHarness.create(setup)) as unknown as TriggerHarness;
		});
		const [a, b] = await Promise.all([first.deliver({ body }), second.deliver({ body })]);
		expect([a.status, b.status]).toEqual([200, 200]);
		expect([a.started, b.started]).toEqual([true, true]);
		expect(a.items[0].eventKey).toMatch(KEY);
		expect(b.items[0].eventKey).toBe(a.items[0].eventKey);

		// Within one process the same two copies at once: one emitted, the other answered 503 (retry).
		const alone = await TriggerHarness.create({ ...setup, workflowId: 'one-process' });
		const statuses = (await Promise.all([alone.deliver({ body }), alone.deliver({ body })]))
			.map((r) => r.status)
			.sort();
		expect(statuses).toEqual([200, 503]);
	});

	test('a new deposit address (trade.address.created) names its token and label, confirmed or not, with one eventKey', async () => {
		const [body] = sent(wallet.id, 'trade.address.created');
		const confirmed = await TriggerHarness.create({ events: ['*'], credentials });
		const unconfirmed = await TriggerHarness.create({
			events: ['*'],
			credentials,
			parameters: WITHOUT_CONFIRMATION,
		});
		const [fromApi] = (await confirmed.deliver({ body })).items;
		const [asSent] = (await unconfirmed.deliver({ body })).items;
		for (const item of [fromApi, asSent])
			expect(item).toMatchObject({
				id: wallet.id,
				token: 'USDT',
				network: 'Tron Shasta',
				walletLabel: 'customer-7',
			});
		expect(fromApi.verification).toMatchObject({ confirmedWithApi: true });
		expect(asSent.eventKey).toBe(fromApi.eventKey);
	});

	test('a deposit says what arrived: token, each amount with its unit, the wallet label; the data-URI avatar last', async () => {
		const { emitted } = await triggers();
		const deposit = await client.call('POST', '/trades/sell/mock-trade', {
			walletAddress: wallet.address,
			asset: 'USDT_TRX_TEST',
			amountInUSD: 25,
			cryptoReceived: '25',
			reference: 'items-ref-2',
			txHash: 'items-hash-2',
		});
		const tradeId = String(deposit.body.data.id);
		await client.sandbox.settle();
		const { confirmed, unconfirmed, records, stored } = await emitted(tradeId, 'trade.completed');
		const record = (await client.call('GET', `/trades/transactions/${tradeId}`)).body
			.data as IDataObject;
		expect(String(record.avatar)).toMatch(/^data:/);

		// Read from the API (Confirm With API, the poll's records): the units the record's fields have.
		for (const item of [confirmed[0], records[0]]) {
			expect(item).toMatchObject({
				token: 'USDT',
				network: 'Tron Shasta',
				walletLabel: 'customer-7',
				amount: record.amount,
				amountCurrency: 'NGN',
				feeAmount: record.feeAmount,
				feeAmountCurrency: 'NGN',
				amountReceived: 25,
				amountReceivedCurrency: 'USD',
				amountInUSD: 25,
				cryptoAmount: '25',
				cryptoAmountCurrency: 'USDT',
			});
			// every crypto amount names its token right after it (issue 50: "416.5" alone said nothing)
			for (const [field, unit] of [
				['cryptoAmount', 'cryptoAmountCurrency'],
				['cryptoReceived', 'cryptoReceivedCurrency'],
			]) {
				if (item[field] === undefined) continue;
				const keys = Object.keys(item);
				expect({ field, unit: item[unit], next: keys[keys.indexOf(field) + 1] }).toEqual({
					field,
					unit: 'USDT',
					next: unit,
				});
			}
			expect(Object.keys(item).slice(0, LEAD.length)).toEqual(LEAD);
			// The inlined image is kept, at the end, out of the way; `record` stays as the API returned it.
			expect(Object.keys(item).at(-1)).toBe('avatar');
			expect(item.avatar).toBe(record.avatar);
			expect(item.record).toEqual(record);
		}
		// The body as sent (nothing confirmed): its `amount` states no unit; the label is the body's.
		for (const item of [unconfirmed[0], stored[0]]) {
			expect(item).toMatchObject({
				token: 'USDT',
				network: 'Tron Shasta',
				walletLabel: 'customer-7',
				amountCurrency: 'not stated',
				amountInUSD: 25,
				cryptoAmountCurrency: 'USDT',
			});
			expect(Object.keys(item).slice(0, LEAD.length)).toEqual(LEAD);
		}
	});
});

describe('against a local service', () => {
	let service: ListService;
	const asked = (path: string) =>
		service.requests.filter((request) => request.path === path).length;
	const credentials = (appId: string): ICredentialDataDecryptedObject => ({
		...CREDENTIALS,
		appId,
		baseUrl: service.url,
	});

	beforeEach(async () => {
		service = await startListService();
	});
	afterEach(async () => await service.close());

	const now = () => new Date(Date.now()).toISOString();
	const envelope = (data: unknown) => ({
		status: 200,
		body: { success: true, message: 'ok', data, meta: {}, summary: {}, stats: {} },
	});
	const trade = (n: number, extra: IDataObject = {}): IDataObject => ({
		id: `66f1c0ffee00000000000${String(n).padStart(3, '0')}`,
		status: 'completed',
		asset: 'a-usdt',
		wallet: 'w-1',
		amount: 37305,
		currency: 'ngn',
		amountReceived: 25,
		cryptoReceived: '25',
		createdAt: now(),
		updatedAt: now(),
		...extra,
	});

	test('the asset list failing never drops an event (token null), and is asked at most once a minute; the wallet label is read once per wallet', async () => {
		service.fault = (path) =>
			path === '/trades/assets'
				? { status: 500, body: { success: false, message: 'down' } }
				: path === '/trades/wallets/w-1'
					? envelope({ id: 'w-1', label: 'customer-9' })
					: undefined;
		const h = await TriggerHarness.create({
			events: ['*'],
			credentials: credentials('app-assets-down'),
		});
		for (const n of [1, 2]) {
			service.records.trades.push(trade(n));
			const r = await h.deliver({
				body: { event: 'trade.completed', id: trade(n).id, status: 'completed' },
			});
			expect(r).toMatchObject({ status: 200, started: true });
			expect(r.items[0]).toMatchObject({
				token: null,
				walletLabel: 'customer-9',
				amountCurrency: 'NGN',
			});
		}
		expect(asked('/trades/assets')).toBe(1);
		expect(asked('/trades/wallets/w-1')).toBe(1);

		// The list answers again: a new credential's first event reads it and names the token.
		service.fault = (path) =>
			path === '/trades/assets'
				? envelope([{ id: 'a-usdt', identifier: 'USDT_TRX', symbol: 'USDT' }])
				: undefined;
		const other = await TriggerHarness.create({
			events: ['*'],
			credentials: credentials('app-assets-up'),
		});
		service.records.trades.push(trade(3));
		const r = await other.deliver({
			body: { event: 'trade.completed', id: trade(3).id, status: 'completed' },
		});
		// The wallet cannot be read now: the label is null, the event is emitted all the same.
		expect(r.items[0]).toMatchObject({ token: 'USDT', walletLabel: null });
	});

	test('a withdrawal read from the API names each amount’s currency as the action node does; the same eventKey from both triggers', async () => {
		const record = {
			id: 'w000001',
			status: 'completed',
			amount: 20,
			fee: 50,
			payoutAmount: 29950,
			currency: 'ngn',
			createdAt: now(),
		};
		const poller = await Poller.create(
			{ source: 'records', events: ['*'] },
			credentials('app-withdrawals'),
		);
		expect((await poller.poll()).items).toBeNull();
		service.records.withdrawals.push(record);
		const [polled] = (await poller.poll()).items ?? [];
		const h = await TriggerHarness.create({
			events: ['*'],
			credentials: credentials('app-withdrawals'),
		});
		const [delivered] = (
			await h.deliver({ body: { event: 'withdrawal.completed', id: record.id } })
		).items;
		for (const item of [polled, delivered]) {
			expect(item).toMatchObject({
				amountCurrency: 'USD',
				feeCurrency: 'NGN',
				payoutCurrency: 'NGN',
				settlementCurrency: 'NGN',
			});
		}
		expect(polled.eventKey).toMatch(KEY);
		expect(delivered.eventKey).toBe(polled.eventKey);
	});

	test('an event without an id: keyed on its body, whatever its key order or the case of its name, alike from both triggers', async () => {
		const body = {
			event: 'trade.completed',
			status: 'completed',
			amountInUSD: 12,
			destinationDescription: 'customer-3',
		};
		const h = await TriggerHarness.create({
			events: ['*'],
			credentials: credentials('app-no-id'),
			parameters: { confirmWithApi: false, ignoreDuplicates: false },
		});
		const first = (await h.deliver({ body })).items[0];
		const reordered = (
			await h.deliver({
				raw: `{"amountInUSD":12,"destinationDescription":"customer-3","status":"completed","event":"Trade.Completed"}`,
				contentType: 'application/json',
			})
		).items[0];
		const other = (await h.deliver({ body: { ...body, amountInUSD: 13 } })).items[0];
		expect(first.eventKey).toMatch(KEY);
		expect(reordered.eventKey).toBe(first.eventKey);
		expect(other.eventKey).not.toBe(first.eventKey);

		service.clock = Date.now();
		const poller = await Poller.create(
			{ source: 'webhookEvents', events: ['*'] },
			credentials('app-no-id'),
		);
		expect((await poller.poll()).items).toBeNull();
		service.clock = Date.now() + 2_000;
		// A stored delivery that names no record either (no `reference`): keyed on its body as the webhook trigger keys it.
		service.records.deliveries.push({
			id: 'd1',
			eventType: 'trade.completed',
			status: 'delivered',
			payload: body,
			createdAt: new Date(Date.now()).toISOString(),
		});
		const [stored] = (await poller.poll()).items ?? [];
		expect(stored).toMatchObject({ source: 'webhookEvents', walletLabel: 'customer-3' });
		expect(stored.eventKey).toBe(first.eventKey);
	});

	test('a stored delivery whose body names the trade only through its reference: one eventKey from the webhook trigger, Records and Stored Webhook Deliveries', async () => {
		const record = trade(21);
		const tradeId = String(record.id);
		service.clock = Date.now();
		const records = await Poller.create(
			{ source: 'records', events: ['*'] },
			credentials('app-reference'),
		);
		const stored = await Poller.create(
			{ source: 'webhookEvents', events: ['*'] },
			credentials('app-reference'),
		);
		expect((await records.poll()).items).toBeNull();
		expect((await stored.poll()).items).toBeNull();
		service.clock = Date.now() + 2_000;
		service.records.trades.push(record);
		// Issue #48, point 5: the stored body has no `id`; the delivery's `reference` is the trade's.
		service.records.deliveries.push({
			id: 'd21',
			reference: tradeId,
			eventType: 'trade.completed',
			status: 'delivered',
			payload: { event: 'trade.completed', status: 'completed' },
			createdAt: new Date(Date.now()).toISOString(),
		});
		const h = await TriggerHarness.create({
			events: ['*'],
			credentials: credentials('app-reference'),
		});
		const delivered = await h.deliver({
			body: { event: 'trade.completed', id: tradeId, status: 'completed' },
		});
		expect(delivered).toMatchObject({ status: 200, started: true });
		const [fromRecords] = (await records.poll()).items ?? [];
		const [fromStored] = (await stored.poll()).items ?? [];
		expect(fromRecords).toMatchObject({ source: 'records', event: 'trade.completed', id: tradeId });
		expect(fromStored).toMatchObject({ source: 'webhookEvents', event: 'trade.completed' });
		expect(delivered.items[0].eventKey).toMatch(KEY);
		expect(fromRecords.eventKey).toBe(delivered.items[0].eventKey);
		expect(fromStored.eventKey).toBe(delivered.items[0].eventKey);
		// Another status of the same trade is another event.
		service.clock = Date.now() + 4_000;
		service.records.deliveries.push({
			id: 'd22',
			reference: tradeId,
			eventType: 'trade.flagged',
			status: 'delivered',
			payload: { event: 'trade.flagged', status: 'flagged' },
			createdAt: new Date(Date.now() + 3_000).toISOString(),
		});
		const [flagged] = (await stored.poll()).items ?? [];
		expect(flagged).toMatchObject({ event: 'trade.flagged' });
		expect(flagged.eventKey).not.toBe(fromStored.eventKey);
	});

	test('a bulky text of the record goes to the end of the item; the lead fields come first', async () => {
		const blob = 'x'.repeat(5_000);
		service.fault = (path) =>
			path === '/trades/assets' ? envelope([{ id: 'a-usdt', symbol: 'USDT' }]) : undefined;
		service.records.trades.push(
			trade(9, { avatar: 'https://assets.example/usdt.png', reason: blob, label: 'customer-5' }),
		);
		const h = await TriggerHarness.create({ events: ['*'], credentials: credentials('app-bulky') });
		const [item] = (await h.deliver({ body: { event: 'trade.completed', id: trade(9).id } })).items;
		expect(Object.keys(item).slice(0, LEAD.length - 1)).toEqual(
			LEAD.filter((key) => key !== 'network'),
		);
		expect(Object.keys(item).at(-1)).toBe('reason');
		expect(item.reason).toBe(blob);
		// An image URL is not bulky: it stays where the record has it.
		expect(Object.keys(item).indexOf('avatar')).toBeLessThan(Object.keys(item).indexOf('record'));
		expect(item).toMatchObject({ token: 'USDT', walletLabel: 'customer-5' });
	});
});

test("an asset list that never answers: the delivery is still emitted, its token null, within the lookups' bound", async () => {
	const record = {
		id: '66f1c0ffee0000000000abc1',
		status: 'completed',
		asset: 'a-usdt',
		amount: 100,
		currency: 'ngn',
	};
	const hanging = await startLocalServer((_method, path) =>
		path === '/trades/assets'
			? new Promise(() => undefined)
			: path === `/trades/transactions/${record.id}`
				? { status: 200, body: { success: true, message: 'ok', data: record } }
				: { status: 404, body: { success: false, message: 'not found' } },
	);
	try {
		const h = await TriggerHarness.create({
			events: ['*'],
			credentials: { ...CREDENTIALS, appId: 'app-hanging', baseUrl: hanging.url },
		});
		const r = await h.deliver({ body: { event: 'trade.completed', id: record.id } });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0]).toMatchObject({ id: record.id, token: null, amountCurrency: 'NGN' });
	} finally {
		await hanging.close();
	}
});

test('fields of any name survive the shaping: `constructor`, `toString` and `__proto__` in a delivery stay ordinary fields', async () => {
	const h = await TriggerHarness.create({
		events: ['*'],
		credentials: { ...CREDENTIALS, appId: 'app-odd-names' },
		parameters: WITHOUT_CONFIRMATION,
	});
	const raw =
		'{"event":"withdrawal.completed","id":"w-odd-1","constructor":"c","toString":"t","__proto__":{"polluted":true},"amount":5}';
	const [item] = (await h.deliver({ raw, contentType: 'application/json' })).items;
	expect(Object.keys(item)).toEqual(
		expect.arrayContaining(['constructor', 'toString', '__proto__', 'amount', 'amountCurrency']),
	);
	expect(Object.getOwnPropertyDescriptor(item, '__proto__')?.value).toEqual({ polluted: true });
	expect(item).toMatchObject({ constructor: 'c', toString: 't', amountCurrency: 'not stated' });
	expect(({} as IDataObject).polluted).toBeUndefined();
});
