/**
 * @jest-environment ./test/setup/time-zone-environment.js
 * @jest-environment-options {"timeZone": "America/New_York"}
 */
import type { IDataObject } from 'n8n-workflow';
import { Emitted } from '../helpers/poll/exactly-once';
import { trade, withdrawal } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #34, point 4: dates without a time zone, with n8n (this test's process) running under
 * TZ=America/New_York. The trades list writes UTC dates without a zone, the withdrawals list the
 * same instants with "Z": both are read alike, so nothing old is emitted and the items come in the
 * order the records were created.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;

const local = listServiceForEachTest(T0);

const withoutZone = (record: IDataObject): IDataObject => ({
	...record,
	createdAt: String(record.createdAt).replace(/Z$/, ''),
});

/** `count` trades and as many withdrawals, interleaved over the next minute. */
function aMinuteOf(count: number): IDataObject[] {
	const start = local.service.clock as number;
	const added: IDataObject[] = [];
	for (let i = 1; i <= count; i++) {
		const at = start + Math.floor((i * minute) / (count + 1));
		const n = ++local.created;
		local.service.records.trades.push(withoutZone(trade(n, at)));
		local.service.records.withdrawals.push(withdrawal(n, at + 1));
		added.push(
			local.service.records.trades.at(-1) as IDataObject,
			local.service.records.withdrawals.at(-1) as IDataObject,
		);
	}
	local.service.clock = start + minute;
	return added;
}

test('the test really runs in New York time', () => {
	expect(new Date(T0).getTimezoneOffset()).toBe(300);
	expect(Date.parse('2026-03-01T12:00:00.000')).toBe(T0 + 5 * 60 * minute);
});

test("dates without a time zone are read as UTC whatever n8n's time zone: nothing old, each event once, in creation order", async () => {
	for (let m = 0; m < 6; m++) aMinuteOf(200);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	expect((await poller.poll()).items).toBeNull();
	const emitted = new Emitted();
	const fresh: IDataObject[] = [];
	for (let poll = 0; poll < 5; poll++) {
		fresh.push(...aMinuteOf(30));
		poller.restart();
		const items = emitted.add(await poller.poll());
		// One execution per poll, its items oldest first across both lists.
		expect(items.map((item) => item.id)).toEqual(fresh.slice(-60).map((record) => record.id));
	}
	emitted.expectExactly(
		fresh.map(
			(record) =>
				`${String(record.id).startsWith('t') ? 'trade' : 'withdrawal'}.completed ${String(record.id)}`,
		),
	);
});
