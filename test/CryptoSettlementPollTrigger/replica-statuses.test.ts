import type { IDataObject } from 'n8n-workflow';
import { Emitted } from '../helpers/poll/exactly-once';
import { trade, withdrawal } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #42, point 7: a lagging read replica answers a record's earlier status again, back and forth.
 * Statuses the life-cycle table does not know (a trade `deleted`, a withdrawal `failed`) and two final
 * statuses of the same rank (`completed`, then `reversed`) cannot be ordered by the table: each status
 * of a record is still emitted once. The replica is the list service's view, switched per poll on the
 * service's clock.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;

const local = listServiceForEachTest(T0, { testClock: true });

test('pending → deleted, pending → failed, completed → reversed, read back and forth by a replica: each status once', async () => {
	const clock = () => local.service.clock as number;
	local.service.records.trades.push(
		...Array.from({ length: 50 }, (_, i) => trade(++local.created, clock() - minute + i * 1000)),
	);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	expect((await poller.poll()).items).toBeNull();
	const deleted = trade(++local.created, clock() + 10_000, 'pending');
	const failed = withdrawal(++local.created, clock() + 20_000, 'pending');
	const reversed = withdrawal(++local.created, clock() + 30_000, 'completed');
	local.service.records.trades.push(deleted);
	local.service.records.withdrawals.push(failed, reversed);
	const before = new Map<unknown, string>();
	/** What the lagging replica answers: each record's status before its change. */
	let replica = false;
	local.service.view = (_list, record) =>
		replica && before.has(record.id) ? { ...record, status: before.get(record.id) } : record;
	const emitted = new Emitted();
	const poll = async () => {
		local.service.clock = clock() + minute;
		poller.restart();
		emitted.add(await poller.poll());
	};
	await poll();
	for (const [record, status] of [
		[deleted, 'deleted'],
		[failed, 'failed'],
		[reversed, 'reversed'],
	] as Array<[IDataObject, string]>) {
		before.set(record.id, String(record.status));
		record.status = status;
	}
	for (const answer of [false, true, false, true, false, true, true, false, false]) {
		replica = answer;
		await poll();
	}
	emitted.expectExactly([
		`trade.pending ${String(deleted.id)}`,
		`trade.deleted ${String(deleted.id)}`,
		`withdrawal.pending ${String(failed.id)}`,
		`withdrawal.failed ${String(failed.id)}`,
		`withdrawal.completed ${String(reversed.id)}`,
		`withdrawal.reversed ${String(reversed.id)}`,
	]);
});
