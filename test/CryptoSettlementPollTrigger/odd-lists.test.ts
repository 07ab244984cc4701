import type { IDataObject } from 'n8n-workflow';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { idsOf, trade } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #25, points 1, 3, 5 and 6: a future-dated record, records without `createdAt`, a list
 * sorted oldest first without `meta.pages`, and a record that stays pending while thousands of
 * events pass.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;
const day = 24 * 60 * minute;

const local = listServiceForEachTest(T0);

/** One minute of the service: `count` trades over it (undated when `dated` is false), the clock at its end. */
function aMinuteOf(count: number, { dated = true, status = 'completed' } = {}): IDataObject[] {
	const start = local.service.clock as number;
	const added: IDataObject[] = [];
	for (let i = 1; i <= count; i++) {
		local.created++;
		added.push(
			trade(
				local.created,
				dated ? start + Math.floor((i * minute) / (count + 1)) : undefined,
				status,
			),
		);
	}
	local.service.records.trades.push(...added);
	local.service.clock = start + minute;
	return added;
}

const positionOf = (poller: Poller) =>
	(
		(poller.staticData.pollState as IDataObject).lists as Record<
			string,
			{ position: { at: number | null } }
		>
	).trades.position;

describe.each(['createdAt', 'insertion'] as const)(
	'a trade dated a day ahead, in a list sorted by %s',
	(sortBy) => {
		test('is emitted once (and its status change once); the position stays at the service clock; later records keep coming', async () => {
			local.service.sortBy = sortBy;
			aMinuteOf(200);
			const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
			await poller.poll();
			const baseline = local.service.records.trades.length;
			const future = trade(999_999, (local.service.clock as number) + day, 'pending');
			local.service.records.trades.push(future);
			const emitted = new Emitted();
			for (let poll = 0; poll < 8; poll++) {
				aMinuteOf(60);
				emitted.add(await poller.poll());
				expect(positionOf(poller).at).toBeLessThanOrEqual(local.service.clock as number);
			}
			future.status = 'completed';
			for (let poll = 0; poll < 3; poll++) {
				aMinuteOf(60);
				emitted.add(await poller.poll());
			}
			emitted.expectExactly([
				...eventsOf('trade', local.service.records.trades.slice(baseline)),
				`trade.pending ${String(future.id)}`,
			]);
		});
	},
);

describe.each(['full', 'hasNextPage'] as const)(
	'2,000 old trades without createdAt (meta: %s)',
	(meta) => {
		test('nothing old is ever emitted; new trades once each, quiet polls one request', async () => {
			local.service.meta = meta;
			aMinuteOf(2000, { dated: false });
			const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
			expect((await poller.poll()).items).toBeNull();
			for (let poll = 0; poll < 5; poll++) {
				local.service.clearRequests();
				expect((await poller.poll()).items).toBeNull();
				expect(local.service.pagesOf('trades')).toEqual([1]);
			}
			const emitted = new Emitted();
			const fresh: IDataObject[] = [];
			for (const count of [30, 250, 0, 1, 0]) {
				fresh.push(...aMinuteOf(count, { dated: false }));
				poller.restart();
				emitted.add(await poller.poll());
			}
			emitted.expectExactly(eventsOf('trade', fresh));
		});

		test('a backlog beyond Max Pages per Poll, with new trades arriving: each new trade once, none of the old', async () => {
			local.service.meta = meta;
			aMinuteOf(2000, { dated: false });
			const poller = await Poller.create(
				{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 2 } },
				local.credentials(),
			);
			await poller.poll();
			const fresh = aMinuteOf(450, { dated: false });
			const emitted = new Emitted();
			for (let poll = 0; poll < 12; poll++) {
				if (poll < 4) fresh.push(...aMinuteOf(40, { dated: false }));
				poller.restart();
				emitted.add(await poller.poll());
			}
			emitted.expectExactly(eventsOf('trade', fresh));
		});

		test('a pending trade without createdAt: its completion is emitted once, also once far down the list', async () => {
			local.service.meta = meta;
			aMinuteOf(300, { dated: false });
			const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
			await poller.poll();
			const [pending] = aMinuteOf(1, { dated: false, status: 'pending' });
			const emitted = new Emitted();
			emitted.add(await poller.poll());
			const later = aMinuteOf(250, { dated: false });
			emitted.add(await poller.poll());
			pending.status = 'completed';
			for (let poll = 0; poll < 3; poll++) {
				local.service.clock = (local.service.clock as number) + minute;
				emitted.add(await poller.poll());
			}
			emitted.expectExactly([
				`trade.pending ${String(pending.id)}`,
				...eventsOf('trade', [pending, ...later]),
			]);
		});
	},
);

test('a list sorted oldest first without meta.pages: read from its new end, even when reaching it takes several polls', async () => {
	local.service.order = 'oldestFirst';
	local.service.meta = 'hasNextPage';
	aMinuteOf(2500);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	expect((await poller.poll()).items).toBeNull();
	expect(local.service.pagesOf('trades')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
	const emitted = new Emitted();
	const fresh: IDataObject[] = [];
	for (let poll = 0; poll < 6; poll++) {
		fresh.push(...aMinuteOf(120));
		local.service.clearRequests();
		emitted.add(await poller.poll());
	}
	// Caught up: the page that held the position and the ones after it.
	const pageOf = (count: number) => Math.ceil(count / 100);
	const before = local.service.records.trades.length - 120;
	expect(local.service.pagesOf('trades')).toEqual(
		Array.from({ length: pageOf(before + 120) - pageOf(before) + 1 }, (_, i) => pageOf(before) + i),
	);
	emitted.expectExactly(eventsOf('trade', fresh));
});

test('a trade that stays pending while 6,000 others pass is never emitted again; its completion once, looked up as it ages', async () => {
	aMinuteOf(100);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	await poller.poll();
	const [pending] = aMinuteOf(1, { status: 'pending' });
	const emitted = new Emitted();
	emitted.add(await poller.poll());
	const lookups = () =>
		local.service.requests.filter(
			(request) => request.path === `/trades/transactions/${String(pending.id)}`,
		).length;
	const passed: IDataObject[] = [];
	for (let poll = 0; poll < 20; poll++) {
		passed.push(...aMinuteOf(300));
		emitted.add(await poller.poll());
	}
	// Looked up as it ages (every tenth of its age), not on every poll.
	expect(lookups()).toBeGreaterThan(0);
	expect(lookups()).toBeLessThan(20);
	pending.status = 'completed';
	let polls = 0;
	while (!emitted.events.includes(`trade.completed ${String(pending.id)}`) && polls++ < 5) {
		passed.push(...aMinuteOf(300));
		emitted.add(await poller.poll());
	}
	emitted.add(await poller.poll());
	emitted.expectExactly([
		`trade.pending ${String(pending.id)}`,
		`trade.completed ${String(pending.id)}`,
		...eventsOf('trade', passed),
	]);
	expect(idsOf((await poller.poll()).items)).toEqual([]);
});

describe.each([true, false])(
	'records removed from the list while a backlog is read (dated: %s)',
	(dated) => {
		test('older records and records already emitted removed between polls: each new trade still once', async () => {
			aMinuteOf(600, { dated });
			const poller = await Poller.create(
				{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 2 } },
				local.credentials(),
			);
			await poller.poll();
			const old = local.service.records.trades.slice();
			const fresh = aMinuteOf(700, { dated });
			const emitted = new Emitted();
			for (let poll = 0; poll < 8; poll++) {
				emitted.add(await poller.poll());
				if (poll < 3) {
					// 25 old trades and 5 already emitted ones disappear (the list moves under the gap both ways).
					const gone = new Set(
						[...old.splice(0, 25), ...fresh.slice(-(poll + 1) * 5, -poll * 5 || undefined)].map(
							(record) => record.id,
						),
					);
					local.service.records.trades = local.service.records.trades.filter(
						(record) => !gone.has(record.id),
					);
				}
			}
			emitted.expectExactly(eventsOf('trade', fresh));
		});
	},
);
