import type { IDataObject } from 'n8n-workflow';
import { Emitted } from '../helpers/poll/exactly-once';
import { trade, withdrawal } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #48, point 8: ids that are names an ordinary JavaScript object inherits (`__proto__`,
 * `constructor`, `toString`, `hasOwnProperty`). The trigger keeps ids in tables without inherited
 * keys whose JSON form reads back the same: each record is remembered like any other, its events
 * emitted once, in one process (the same static-data object between polls) and across restarts.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;

const local = listServiceForEachTest(T0, { testClock: true });

const ODD_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe.each([
	{ path: 'the same static-data object between polls (an active workflow)', restart: false },
	{ path: 'a restart from the saved JSON before each poll', restart: true },
])('$path', ({ restart }) => {
	test.each([
		{ order: 'newestFirst', meta: 'full' },
		{ order: 'oldestFirst', meta: 'hasNextPage' },
	] as const)(
		'trades and withdrawals with ids __proto__, constructor, …, a list sorted $order: each event once',
		async ({ order, meta }) => {
			Object.assign(local.service, { order, meta, sortBy: 'insertion' });
			local.service.records.trades.push(
				trade(++local.created, (local.service.clock as number) - minute),
			);
			const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
			expect((await poller.poll()).items).toBeNull();
			const emitted = new Emitted();
			const expected: string[] = [];
			for (const [n, id] of ODD_IDS.entries()) {
				local.service.clock = (local.service.clock as number) + minute;
				const at = (local.service.clock as number) - 30_000;
				const pending = { ...trade(100 + n, at, 'pending'), id };
				local.service.records.trades.push(pending, trade(++local.created, at + 1));
				local.service.records.withdrawals.push({ ...withdrawal(100 + n, at, 'processing'), id });
				expected.push(
					`trade.pending ${id}`,
					`withdrawal.processing ${id}`,
					`trade.completed ${String(local.service.records.trades.at(-1)?.id)}`,
				);
			}
			for (let poll = 0; poll < 8; poll++) {
				local.service.clock = (local.service.clock as number) + minute;
				if (poll === 4) {
					// Their statuses move on: each change once.
					for (const record of [
						...local.service.records.trades,
						...local.service.records.withdrawals,
					]) {
						if (ODD_IDS.includes(String(record.id))) record.status = 'completed';
					}
					expected.push(
						...ODD_IDS.flatMap((id) => [`trade.completed ${id}`, `withdrawal.completed ${id}`]),
					);
				}
				if (restart) poller.restart();
				emitted.add(await poller.poll());
			}
			emitted.expectExactly(expected);
			// Nothing leaked into the prototype of JavaScript's objects.
			expect(({} as IDataObject).length).toBeUndefined();
			expect(Object.prototype.hasOwnProperty.call(Object.prototype, 0)).toBe(false);
		},
	);
});
