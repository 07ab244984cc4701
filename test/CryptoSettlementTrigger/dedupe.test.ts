/** At-least-once, out-of-order delivery: duplicates are dropped, bounded, and remembered across restarts. */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import {
	DEDUPE_CAPACITY,
	DEDUPE_STATIC_KEY,
	hourOf,
	keysOf,
	remember,
	wasEmitted,
} from '../../nodes/CryptoSettlementTrigger/dedupe';
import { deliveryKey, eventIdentity, KEY_LENGTH } from '../../nodes/events/identity';
import {
	addressPayload,
	BASE_URL,
	captureLogs,
	TriggerHarness,
	tradePayload,
	WEBHOOK_SECRET,
	withdrawalPayload,
	mulberry32,
	TRIGGER_NAME,
	WITHOUT_CONFIRMATION,
} from '../helpers/webhook';

function shuffle<T>(items: T[], random: () => number): T[] {
	const copy = [...items];
	for (let i = copy.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[copy[i], copy[j]] = [copy[j], copy[i]];
	}
	return copy;
}

/**
 * 200 distinct deliveries shaped like the service's: trades moving through pending (rising
 * confirmations) to completed or flagged, withdrawals through their states, and address events.
 */
function distinctDeliveries(): IDataObject[] {
	const out: IDataObject[] = [];
	for (let t = 0; out.length < 120; t++) {
		const trade = tradePayload('trade.pending');
		for (let c = 0; c < 3 && out.length < 120; c++) out.push({ ...trade, confirmations: c });
		if (out.length < 120) {
			const final = t % 4 === 0 ? 'flagged' : 'completed';
			out.push({ ...trade, event: `trade.${final}`, status: final, confirmations: 32 });
		}
	}
	for (let w = 0; out.length < 180; w++) {
		const withdrawal = withdrawalPayload('withdrawal.pending');
		out.push(withdrawal);
		const final = ['completed', 'reversed', 'rejected'][w % 3];
		if (out.length < 180) out.push({ ...withdrawal, event: `withdrawal.${final}`, status: final });
	}
	while (out.length < 200) out.push(addressPayload());
	return out;
}

/** Each distinct delivery 5 times (1000), retries carrying changed noise fields, shuffled. */
function deliveries(distinct: IDataObject[], random: () => number): IDataObject[] {
	const all: IDataObject[] = [];
	for (const body of distinct) {
		for (let copy = 0; copy < 5; copy++)
			all.push(
				copy === 0 ? body : { ...body, updatedAt: 1732250060000 + copy, note: `retry ${copy}` },
			);
	}
	return shuffle(all, random);
}

/** What distinguishes a delivery; for a confirmed item, the confirmations are those the body carried. */
const identity = (b: IDataObject) => {
	const sent = (b.unconfirmedBody as IDataObject | undefined) ?? b;
	return JSON.stringify([
		b.event,
		b.id,
		b.status,
		b.event === 'trade.pending' ? sent.confirmations : null,
	]);
};

beforeEach(() => {
	captureLogs();
});

test('1000 deliveries of 200 distinct events in random order emit exactly 200 items', async () => {
	const distinct = distinctDeliveries();
	expect(new Set(distinct.map(identity)).size).toBe(200);
	const all = deliveries(distinct, mulberry32(4));
	expect(all).toHaveLength(1000);

	const h = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		options: { ignoreDuplicates: true },
	});
	const emitted: IDataObject[] = [];
	for (const body of all) {
		const r = await h.deliver({ body });
		expect(r.status).toBe(200);
		emitted.push(...r.items);
	}
	expect(emitted).toHaveLength(200);
	expect(new Set(emitted.map(identity))).toEqual(new Set(distinct.map(identity)));
});

test('the same with every option on and the API confirming each record', async () => {
	const distinct = distinctDeliveries();
	const status = new Map(distinct.map((b) => [String(b.id), String(b.status ?? '')]));
	// Deliveries arrive out of order, so compare with the status the delivery itself claims
	// (the API is consulted per delivery; a fixed "current" status would drop superseded states).
	nock.disableNetConnect();
	const reply = (uri: string) => {
		const id = decodeURIComponent(uri.split('/').pop() ?? '');
		return [
			200,
			{ success: true, data: { id, status: status.get(id) ?? '', address: undefined } },
		] as const;
	};
	const scopes = [
		nock(BASE_URL)
			.persist()
			.get(/\/trades\/transactions\/.+/)
			.reply((uri) => [...reply(uri)]),
		nock(BASE_URL)
			.persist()
			.get(/\/payments\/withdrawal\/.+/)
			.reply((uri) => [...reply(uri)]),
		nock(BASE_URL)
			.persist()
			.get(/\/trades\/wallets\/.+/)
			.reply((uri) => [...reply(uri)]),
	];
	const h = await TriggerHarness.create({
		events: ['*'],
		options: {
			ignoreDuplicates: true,
			confirmWithApi: true,
			verifySecret: true,
			allowedIps: '46.101.201.155',
			includeHeaders: true,
		},
	});
	let count = 0;
	const seen = new Set<string>();
	for (const body of deliveries(distinct, mulberry32(11))) {
		// The fake API answers with the status this particular delivery claims for its id.
		status.set(String(body.id), String(body.status ?? ''));
		const r = await h.deliver({ body, secret: WEBHOOK_SECRET });
		count += r.items.length;
		for (const item of r.items) seen.add(identity(item));
	}
	expect(count).toBe(200);
	expect(seen.size).toBe(200);
	for (const scope of scopes) scope.persist(false);
	nock.cleanAll();
	nock.enableNetConnect();
});

/** The stored memory is a list of hour buckets, `<hour>:<keys>`, one per hour, oldest first. */
function expectBucketList(stored: unknown): void {
	expect(Array.isArray(stored)).toBe(true);
	const hours = (stored as string[]).map((bucket) => {
		expect(bucket).toMatch(/^[0-9a-z]+:([A-Za-z0-9_-]{10})+$/);
		return parseInt(bucket.split(':')[0], 36);
	});
	expect(hours).toEqual([...new Set(hours)].sort((a, b) => a - b));
}

test('a memory saved by an earlier version (an array of keys) is still read, and written as the list of hour buckets', async () => {
	const old = await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION });
	const body = withdrawalPayload('withdrawal.completed');
	expect((await old.deliver({ body })).started).toBe(true);
	const legacy = {
		'node:Crypto Settlement Trigger': { emittedDeliveries: keysOf(old.nodeStaticData()) },
	};
	const upgraded = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		staticData: legacy,
	});
	expect((await upgraded.deliver({ body })).started).toBe(false);
	expect(
		(await upgraded.deliver({ body: withdrawalPayload('withdrawal.completed') })).started,
	).toBe(true);
	expect(keysOf(upgraded.nodeStaticData())).toHaveLength(2);
	expectBucketList(upgraded.nodeStaticData().emittedDeliveries);
});

test('a memory saved as one string of hour buckets (the form before the list) is still read, every hour of it', async () => {
	const now = Date.now();
	const earlier = { [DEDUPE_STATIC_KEY]: undefined } as IDataObject;
	const before = withdrawalPayload('withdrawal.completed');
	const key = deliveryKey(eventIdentity('withdrawal.completed', before));
	remember(earlier, ['aaaaaaaaaa', 'bbbbbbbbbb'], now - 5 * 3_600_000);
	remember(earlier, key, now - 2 * 3_600_000);
	remember(earlier, 'cccccccccc', now);
	const oneString = (earlier[DEDUPE_STATIC_KEY] as string[]).join(' ');
	const h = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		staticData: { 'node:Crypto Settlement Trigger': { emittedDeliveries: oneString } },
	});
	expect((await h.deliver({ body: before })).started).toBe(false);
	expect((await h.deliver({ body: withdrawalPayload('withdrawal.completed') })).started).toBe(true);
	const stored = h.nodeStaticData().emittedDeliveries;
	expectBucketList(stored);
	expect(stored).toHaveLength(3);
	expect(keysOf(h.nodeStaticData())).toEqual(
		expect.arrayContaining(['aaaaaaaaaa', 'bbbbbbbbbb', key.slice(0, 10), 'cccccccccc']),
	);
	expect(keysOf(h.nodeStaticData())).toHaveLength(5);
});

test('a list holding an hour twice and keys of no hour keeps every key, one bucket per hour', () => {
	const hour = hourOf(Date.now()).toString(36);
	const staticData: IDataObject = {
		[DEDUPE_STATIC_KEY]: [`${hour}:aaaaaaaaaa`, `${hour}:bbbbbbbbbb`, 'cccccccccc-an-older-key'],
	};
	for (const key of ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc'])
		expect(wasEmitted(staticData, key)).toBe(true);
	remember(staticData, 'dddddddddd', Date.now());
	expectBucketList(staticData[DEDUPE_STATIC_KEY]);
	expect(keysOf(staticData).sort()).toEqual([
		'aaaaaaaaaa',
		'bbbbbbbbbb',
		'cccccccccc',
		'dddddddddd',
	]);
});

test("an emitted delivery changes only its own hour's bucket: the older hours are stored as they were read", () => {
	const now = Date.now();
	const staticData: IDataObject = {};
	for (let back = 24; back >= 1; back--) {
		remember(
			staticData,
			Array.from(
				{ length: 50 },
				(_, i) => `${String(back).padStart(2, '0')}${String(i).padStart(8, '0')}`,
			),
			now - back * 3_600_000,
		);
	}
	const read = JSON.parse(JSON.stringify(staticData)) as IDataObject;
	const older = [...(read[DEDUPE_STATIC_KEY] as string[])];
	remember(read, 'newkey0001', now);
	const stored = read[DEDUPE_STATIC_KEY] as string[];
	expect(stored).toHaveLength(25);
	expect(stored.slice(0, 24)).toEqual(older);
	expect(stored[24]).toBe(`${hourOf(now).toString(36)}:newkey0001`);
	expect(keysOf(read)).toHaveLength(24 * 50 + 1);
});

test('the memory survives a restart through the workflow static data', async () => {
	const all = deliveries(distinctDeliveries(), mulberry32(7));
	const first = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		options: { ignoreDuplicates: true },
	});
	let emitted = 0;
	for (const body of all.slice(0, 500)) emitted += (await first.deliver({ body })).items.length;
	// n8n saves static data only when it is marked changed, and starting an execution marks it
	// unchanged (n8n 2.x): every emitted delivery must still reach the saved memory.
	expect(keysOf(first.nodeStaticData())).toHaveLength(emitted);

	// A new process: the workflow is rebuilt from the saved (JSON) static data.
	const saved = first.savedStaticData();
	const second = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		options: { ignoreDuplicates: true },
		staticData: saved,
	});
	for (const body of all.slice(500)) emitted += (await second.deliver({ body })).items.length;
	expect(emitted).toBe(200);
});

test('deliveries without an id are deduplicated on their whole body', async () => {
	const h = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		options: { ignoreDuplicates: true },
	});
	expect(
		(await h.deliver({ body: { event: 'trade.address.created', address: 'A1' } })).started,
	).toBe(true);
	expect(
		(await h.deliver({ body: { event: 'trade.address.created', address: 'A1' } })).started,
	).toBe(false);
	expect(
		(await h.deliver({ body: { event: 'trade.address.created', address: 'A2' } })).started,
	).toBe(true);
});

test('filtered-out and refused deliveries are not remembered', async () => {
	const h = await TriggerHarness.create({
		events: ['trade.completed'],
		parameters: WITHOUT_CONFIRMATION,
		options: { ignoreDuplicates: true, verifySecret: true },
	});
	const body = tradePayload('trade.completed');
	await h.deliver({ body: tradePayload('trade.pending'), secret: WEBHOOK_SECRET });
	await h.deliver({ body, secret: 'wrong' });
	expect(h.nodeStaticData().emittedDeliveries).toBeUndefined();
	expect((await h.deliver({ body, secret: WEBHOOK_SECRET })).started).toBe(true);
});

describe('keys are normalised: event kind, id and status, case-insensitive (case 5)', () => {
	test.each([
		['status in capitals', { status: 'COMPLETED' }],
		['no status (taken from the event name)', { status: undefined }],
		['an empty status', { status: '' }],
		['the event in mixed case', { event: 'Trade.Completed' }],
		[
			'the event with spaces and the status in mixed case',
			{ event: ' TRADE.COMPLETED ', status: 'Completed' },
		],
	])('after trade.completed for t-1, a replay with %s is a duplicate', async (_name, change) => {
		const h = await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION });
		const body: IDataObject = {
			event: 'trade.completed',
			id: 't-1',
			status: 'completed',
			amountInUSD: 21.38,
		};
		expect((await h.deliver({ body })).started).toBe(true);
		const replay: IDataObject = { ...body, ...change };
		for (const [key, value] of Object.entries(change)) if (value === undefined) delete replay[key];
		const r = await h.deliver({ body: replay });
		expect(r).toMatchObject({
			status: 200,
			started: false,
			response: { ignored: 'duplicate delivery' },
		});
	});

	test('a mixed-case event is selected and emitted under its lowercase name', async () => {
		const h = await TriggerHarness.create({
			events: ['trade.completed'],
			parameters: WITHOUT_CONFIRMATION,
		});
		const r = await h.deliver({ body: { event: 'Trade.Completed', id: 't-2' } });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].event).toBe('trade.completed');
	});

	test('another status or another id is still a new delivery', async () => {
		const h = await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION });
		expect((await h.deliver({ body: { event: 'trade.completed', id: 't-3' } })).started).toBe(true);
		expect((await h.deliver({ body: { event: 'trade.flagged', id: 't-3' } })).started).toBe(true);
		expect((await h.deliver({ body: { event: 'trade.completed', id: 't-4' } })).started).toBe(true);
	});

	test('with confirmation on, the normalised replay is answered without asking the API again', async () => {
		const h = await TriggerHarness.create({ events: ['*'] });
		nock.disableNetConnect();
		const scope = nock(BASE_URL)
			.get('/trades/transactions/t-5')
			.once()
			.reply(200, { success: true, data: { id: 't-5', status: 'completed' } });
		expect(
			(await h.deliver({ body: { event: 'trade.completed', id: 't-5', status: 'completed' } }))
				.started,
		).toBe(true);
		expect((await h.deliver({ body: { event: 'TRADE.COMPLETED', id: 't-5' } })).started).toBe(
			false,
		);
		expect(scope.isDone()).toBe(true);
		nock.cleanAll();
		nock.enableNetConnect();
	});
});

test('two calls saving their static data at once cannot lose a key: the next call writes it back', async () => {
	// n8n loads the static data for each call and saves it whole afterwards. Calls A and B run at
	// once from the same loaded data: B checks its key, A emits a and saves, then B emits b and saves
	// last: the saved data lacks a.
	const before = (
		await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION })
	).savedStaticData();
	const a = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		workflowId: 'wf-lost-update',
		staticData: before,
	});
	const b = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		workflowId: 'wf-lost-update',
		staticData: before,
	});
	const first = { event: 'withdrawal.completed', id: 'w-a', status: 'completed' };
	expect(
		(await b.deliver({ body: { event: 'withdrawal.completed', id: 'w-b', status: 'completed' } }))
			.started,
	).toBe(true);
	expect((await a.deliver({ body: first })).started).toBe(true);
	const lost = b.savedStaticData();
	expect(JSON.stringify(lost)).not.toContain(String(keysOf(a.nodeStaticData()).slice(-1)[0]));

	// The next call starts from what B saved; it restores a, so the memory is whole again.
	const c = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		workflowId: 'wf-lost-update',
		staticData: lost,
	});
	expect(await c.deliver({ body: first })).toMatchObject({
		status: 200,
		started: false,
		response: { ignored: 'duplicate delivery' },
	});
	const restored = c.savedStaticData();
	const d = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		workflowId: 'wf-other-process',
		staticData: restored,
	});
	expect((await d.deliver({ body: first })).started).toBe(false);
});

describe("n8n's answer settles a handed-over delivery (n8n 2.x answers after starting the execution)", () => {
	test('a copy arriving before n8n answered is told to retry (503); after the 200 it is a duplicate', async () => {
		// Each call loads the static data n8n saved last: a copy's call does not see the first's key yet.
		const call = (staticData?: IDataObject) =>
			TriggerHarness.create({
				events: ['*'],
				parameters: WITHOUT_CONFIRMATION,
				workflowId: 'wf-held-answer',
				staticData,
			});
		const h = await call();
		const saved = h.savedStaticData();
		const body = withdrawalPayload('withdrawal.completed');
		const first = await h.deliverHeld({ body });
		expect(first.items).toHaveLength(1);
		expect(await (await call(saved)).deliver({ body })).toMatchObject({
			status: 503,
			started: false,
		});
		first.answer(200);
		expect(await (await call(saved)).deliver({ body })).toMatchObject({
			status: 200,
			started: false,
			response: { ignored: 'duplicate delivery' },
		});
	});

	test('when n8n could not start the execution (an error answer), the retry is emitted', async () => {
		const h = await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION });
		const body = withdrawalPayload('withdrawal.completed');
		(await h.deliverHeld({ body })).answer(500);
		const retry = await h.deliver({ body });
		expect(retry).toMatchObject({ status: 200, started: true, response: { received: true } });
		expect(await h.deliver({ body })).toMatchObject({ status: 200, started: false });
	});

	test("a failed hand-over written into a concurrent call's static data is taken back by the next call", async () => {
		const call = (staticData?: IDataObject) =>
			TriggerHarness.create({
				events: ['*'],
				parameters: WITHOUT_CONFIRMATION,
				workflowId: 'wf-failed-hand-over',
				staticData,
			});
		const h = await call();
		const failed = withdrawalPayload('withdrawal.completed');
		const pending = await h.deliverHeld({ body: failed });
		// Another call of the same workflow runs (and saves) while n8n has not answered yet.
		const other = await call(h.savedStaticData());
		expect((await other.deliver({ body: withdrawalPayload('withdrawal.completed') })).started).toBe(
			true,
		);
		pending.answer(500);
		// The next call starts from what the other call saved, and saves without the failed key:
		// a new process starting from that emits the failed delivery's retry.
		const next = await call(other.savedStaticData());
		expect((await next.deliver({ body: withdrawalPayload('withdrawal.completed') })).started).toBe(
			true,
		);
		const restarted = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			workflowId: 'wf-restarted',
			staticData: next.savedStaticData(),
		});
		expect((await restarted.deliver({ body: failed })).started).toBe(true);
	});

	test('a call that waited for its hand-over saves the keys handed over meanwhile', async () => {
		const call = (staticData?: IDataObject) =>
			TriggerHarness.create({
				events: ['*'],
				parameters: WITHOUT_CONFIRMATION,
				workflowId: 'wf-waiting-call',
				staticData,
			});
		const empty = (await call()).savedStaticData();
		// X loads the static data and hands its delivery over; n8n has not saved X's data yet.
		const x = await call(empty);
		const held = await x.deliverHeld({ body: withdrawalPayload('withdrawal.completed') });
		// Meanwhile k is emitted and saved by another call.
		const k = withdrawalPayload('withdrawal.completed');
		expect((await (await call(empty)).deliver({ body: k })).started).toBe(true);
		// X's save comes last: it must not lose k (a new process starting from it knows k).
		held.answer(200);
		const restarted = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			workflowId: 'wf-waiting-restarted',
			staticData: x.savedStaticData(),
		});
		expect((await restarted.deliver({ body: k })).started).toBe(false);
	});

	test('a key lost to a concurrent save is written back by the next call, even after n8n saw it saved', async () => {
		const call = (staticData?: IDataObject) =>
			TriggerHarness.create({
				events: ['*'],
				parameters: WITHOUT_CONFIRMATION,
				workflowId: 'wf-late-overwrite',
				staticData,
			});
		const empty = (await call()).savedStaticData();
		const k = withdrawalPayload('withdrawal.completed');
		// X loads the static data before k is emitted, and saves after everyone else.
		const x = await call(empty);
		const a = await call(empty);
		expect((await a.deliver({ body: k })).started).toBe(true);
		// Y loads what a saved (k is there) and runs.
		const y = await call(a.savedStaticData());
		expect((await y.deliver({ body: withdrawalPayload('withdrawal.completed') })).started).toBe(
			true,
		);
		expect((await x.deliver({ body: withdrawalPayload('withdrawal.completed') })).started).toBe(
			true,
		);
		// X saved last (a saved data that lacked k would lose it): the next call restores k for good.
		const z = await call(x.savedStaticData());
		expect(await z.deliver({ body: k })).toMatchObject({
			status: 200,
			started: false,
			response: { ignored: 'duplicate delivery' },
		});
		const restarted = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			workflowId: 'wf-restarted-2',
			staticData: z.savedStaticData(),
		});
		expect((await restarted.deliver({ body: k })).started).toBe(false);
	});
});

/** Keys of this hour that this process never handed over: 600 emitted by another process, or a full memory. */
async function filledElsewhere(full: boolean): Promise<IDataObject> {
	if (full) {
		const memory: IDataObject = {};
		remember(
			memory,
			Array.from(
				{ length: DEDUPE_CAPACITY },
				(_, i) => `f${String(i).padStart(KEY_LENGTH - 1, '0')}`,
			),
			Date.now(),
		);
		return { [`node:${TRIGGER_NAME}`]: memory };
	}
	const filler = await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION });
	for (let i = 0; i < 600; i++)
		await filler.deliver({ body: withdrawalPayload('withdrawal.completed') });
	return filler.savedStaticData();
}

test.each([
	['600 deliveries', false],
	[`${DEDUPE_CAPACITY} deliveries (full: each save forgets the oldest)`, true],
])(
	'a burst whose saves land out of order, over a memory another process filled with %s: each delivery runs once, and the memory ends whole with each key once',
	async (_, full) => {
		const random = mulberry32(52);
		const pick = <T>(list: T[], recent = list.length) =>
			list[list.length - 1 - Math.floor(random() * Math.min(list.length, recent))];
		const call = (staticData: IDataObject) =>
			TriggerHarness.create({
				events: ['*'],
				parameters: WITHOUT_CONFIRMATION,
				workflowId: `wf-burst-${String(full)}`,
				staticData,
			});
		// Every save n8n made, oldest first: a call loads one of the last 20 (saves land out of order).
		const saves = [await filledElsewhere(full)];
		const held: Array<{
			harness: TriggerHarness;
			pending: { answer(status: number): void };
			body: IDataObject;
		}> = [];
		const accepted: IDataObject[] = [];
		const failed = new Set<IDataObject>();
		const settle = ({ harness, pending, body }: (typeof held)[number]) => {
			const handedOver = random() > 0.1;
			pending.answer(handedOver ? 200 : 500);
			if (!handedOver) {
				failed.add(body);
				return;
			}
			accepted.push(body);
			saves.push(harness.savedStaticData());
		};
		for (let i = 0; i < 300; i++) {
			const harness = await call(pick(saves, 20));
			const body = withdrawalPayload('withdrawal.completed');
			held.push({ harness, pending: await harness.deliverHeld({ body }), body });
			while (held.length > 0 && random() < 0.6)
				settle(held.splice(Math.floor(random() * held.length), 1)[0]);
			if (i % 10 === 9 && accepted.length > 0) {
				// A copy of a delivery n8n took, to a call that loaded a save from before it.
				expect(
					(
						await (
							await call(saves[Math.floor(random() * saves.length)])
						).deliver({ body: pick(accepted) })
					).started,
				).toBe(false);
			}
			if (i % 25 === 24 && failed.size > 0) {
				// The service retries a delivery n8n could not take: it runs, once.
				const retry = [...failed][0];
				const harness = await call(pick(saves, 20));
				expect((await harness.deliver({ body: retry })).started).toBe(true);
				failed.delete(retry);
				accepted.push(retry);
				saves.push(harness.savedStaticData());
			}
		}
		while (held.length > 0) settle(held.shift() as (typeof held)[number]);
		expect(failed.size).toBeGreaterThan(0);

		// The next call loads the last save and writes back what concurrent saves lost.
		const last = await call(saves[saves.length - 1]);
		expect((await last.deliver({ body: withdrawalPayload('withdrawal.completed') })).started).toBe(
			true,
		);
		const memory = keysOf(last.nodeStaticData());
		expect(new Set(memory).size).toBe(memory.length);
		if (full) expect(memory).toHaveLength(DEDUPE_CAPACITY);
		// A new process starting from that save knows every delivery n8n took, and none it could not.
		const restarted = await TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			workflowId: `wf-burst-restarted-${String(full)}`,
			staticData: last.savedStaticData(),
		});
		for (const body of accepted) expect((await restarted.deliver({ body })).started).toBe(false);
		for (const body of failed) expect((await restarted.deliver({ body })).started).toBe(true);
	},
);

test('keys remembered at once beyond the capacity: the oldest go first, older hours before the keys just added', () => {
	const now = Date.UTC(2026, 10, 28, 12, 30);
	const keys = (prefix: string, count: number) =>
		Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(KEY_LENGTH - 1, '0')}`);
	const empty: IDataObject = {};
	expect(remember(empty, keys('a', 30), now, 20)).toBe(10);
	expect(keysOf(empty, now)).toEqual(keys('a', 30).slice(10));

	const older: IDataObject = {};
	remember(older, keys('b', 10), now - 3_600_000, 20);
	expect(remember(older, keys('c', 25), now, 20)).toBe(15);
	expect(keysOf(older, now)).toEqual(keys('c', 25).slice(5));
});
