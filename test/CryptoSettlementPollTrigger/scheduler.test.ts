import type { IDataObject } from 'n8n-workflow';
import { DurableScheduler } from '../helpers/poll/durable-scheduler';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { delivery, trade } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #48, point 9: n8n 2.x's durable scheduler does not commit the state of the poll it runs at
 * activation (docs/trigger.md, "n8n's scheduler drops the first poll's state"). Two trades created
 * right after activation must still be emitted by the first scheduled poll, once, under n8n's
 * scheduler as under its in-memory one, and nothing is emitted twice when the workflow is
 * published again or its source changes.
 */
const T0 = Date.parse('2026-03-10T09:00:00.000Z');
const minute = 60_000;
const records = { source: 'records', events: ['*'] };

const local = listServiceForEachTest(T0);

/** `count` trades created `after` ms past the service's clock, which then moves `by` on. */
function trades(count: number, after = 2000, by = minute): IDataObject[] {
	const clock = local.service.clock as number;
	const added = Array.from({ length: count }, (_, i) =>
		trade(++local.created, clock + after + i * 100),
	);
	local.service.records.trades.push(...added);
	local.service.clock = clock + by;
	return added;
}

/** Three trades from the hour before activation. */
function before(): void {
	for (const at of [T0 - 50 * minute, T0 - 20 * minute, T0 - 5 * minute])
		local.service.records.trades.push(trade(++local.created, at));
}

test("n8n's durable scheduler: the trades created right after activation are emitted by the first scheduled poll, once", async () => {
	before();
	const n8n = await DurableScheduler.create(records, local.credentials());
	const activation = await n8n.activate();
	expect(activation.error).toBeUndefined();
	expect(activation.items).toBeNull();
	// As in n8n: the row is created at activation, and the activation's state never reaches it.
	expect(n8n.row).toEqual({});
	const fresh = trades(2);
	const emitted = new Emitted();
	emitted.add(await n8n.poll());
	fresh.push(...trades(1));
	emitted.add(await n8n.poll());
	emitted.add(await n8n.poll());
	emitted.expectExactly(eventsOf('trade', fresh));
});

test("n8n's in-memory scheduler (its defaults): the same trades, once, in one process and across restarts", async () => {
	before();
	const poller = await Poller.create(records, local.credentials());
	expect((await poller.poll()).items).toBeNull();
	const fresh = trades(2);
	const emitted = new Emitted();
	emitted.add(await poller.poll());
	fresh.push(...trades(1));
	poller.restart();
	emitted.add(await poller.poll());
	emitted.add(await poller.poll());
	emitted.expectExactly(eventsOf('trade', fresh));
});

test("n8n's durable scheduler: publishing again, or a source changed and changed back, emits nothing twice", async () => {
	before();
	const n8n = await DurableScheduler.create(records, local.credentials());
	await n8n.activate();
	const fresh = trades(2);
	const emitted = new Emitted();
	emitted.add(await n8n.poll());
	fresh.push(...trades(2));
	emitted.add(await n8n.poll());
	// Published again (its scheduled job inserted anew): the activation's poll continues from the row.
	emitted.add(await n8n.activate());
	emitted.add(await n8n.poll());
	// Stored Webhook Deliveries, then Records again, published with the same Poll Times (n8n runs no
	// poll at activation then): each change is a first look of its own, never the older first look's copy.
	const deliveries = await DurableScheduler.create(
		{ ...records, source: 'webhookEvents' },
		local.credentials(),
	);
	Object.assign(deliveries, { row: n8n.row, saved: n8n.saved });
	local.service.records.deliveries.push(delivery(1, (local.service.clock as number) - 10 * minute));
	expect((await deliveries.poll()).items).toBeNull();
	expect((await deliveries.poll()).items).toBeNull();
	const back = await DurableScheduler.create(records, local.credentials());
	Object.assign(back, { row: deliveries.row, saved: deliveries.saved });
	emitted.add(await back.poll());
	fresh.push(...trades(1));
	emitted.add(await back.poll());
	emitted.expectExactly(eventsOf('trade', fresh));
});
