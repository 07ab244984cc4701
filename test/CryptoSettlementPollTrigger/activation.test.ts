import type { IDataObject } from 'n8n-workflow';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { trade } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #34, points 3 and 5: where the first poll (activation) puts "now". A list dated ahead of
 * the service's clock (local time stamped "Z": every record an hour ahead of the `Date` header),
 * and an empty list at activation, later showing records from hours before it: nothing that
 * existed before activation is ever emitted, and what is not needed is not remembered.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;
const hour = 60 * minute;

const local = listServiceForEachTest(T0);

/** `count` trades over the last minute of the service's clock (dated `ahead` later), the clock then a minute on. */
function aMinuteOf(count: number, ahead = 0, from = local.service.clock as number): IDataObject[] {
	const added = Array.from({ length: count }, (_, i) =>
		trade(++local.created, from + ahead + Math.floor(((i + 1) * minute) / (count + 1))),
	);
	local.service.records.trades.push(...added);
	local.service.clock = Math.max(local.service.clock as number, from + minute);
	return added;
}

test('a list dated an hour ahead of the service clock: nothing from before activation, each new trade once', async () => {
	// 1,000 trades over the five hours before activation, each dated an hour ahead.
	for (let m = 0; m < 300; m++) aMinuteOf(m % 3 === 0 ? 10 : 0, hour, T0 - 5 * hour + m * minute);
	aMinuteOf(0);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	expect((await poller.poll()).items).toBeNull();
	const emitted = new Emitted();
	const fresh: IDataObject[] = [];
	for (let poll = 0; poll < 8; poll++) {
		fresh.push(...aMinuteOf([60, 0, 130, 1, 250, 0, 7, 0][poll], hour));
		poller.restart();
		local.service.clearRequests();
		emitted.add(await poller.poll());
		// Reads what is new, not the hour of records above "now".
		expect(local.service.pagesOf('trades').length).toBeLessThanOrEqual(4);
	}
	emitted.expectExactly(eventsOf('trade', fresh));
});

test('an empty list at activation: records from hours before it appearing later are not emitted nor kept', async () => {
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	expect((await poller.poll()).items).toBeNull();
	const emitted = new Emitted();
	local.service.clock = (local.service.clock as number) + 5 * minute;
	// 250 trades from three hours before activation show up (an import, a replica catching up).
	const old = Array.from({ length: 250 }, (_, i) =>
		trade(++local.created, T0 - 3 * hour + i * 1000),
	);
	local.service.records.trades.push(...old);
	emitted.add(await poller.poll());
	const fresh: IDataObject[] = [];
	for (let poll = 0; poll < 4; poll++) {
		fresh.push(...aMinuteOf(40));
		poller.restart();
		emitted.add(await poller.poll());
	}
	emitted.expectExactly(eventsOf('trade', fresh));
	// Forgotten: none of the old trades is in the state n8n saves.
	const saved = JSON.stringify(poller.staticData);
	expect(old.filter((record) => saved.includes(String(record.id)))).toEqual([]);
});
