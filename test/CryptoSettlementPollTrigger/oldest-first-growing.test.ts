import type { IDataObject } from 'n8n-workflow';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { trade } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #42, point 5: a list sorted oldest first (by insertion) whose answers carry `meta.hasNextPage`
 * but no page count. New records are appended on its last page, the page that held the position: each
 * poll reads it there, and a record appended after the last one read before is new whatever its date
 * (a record dated when first seen and listed minutes later; older records dated in local time stamped
 * "Z" until the service fixed its clock). The service's clock is the test's (its Date header and the
 * records' dates).
 *
 * Issue #48, point 7: each case runs both ways n8n runs a poll trigger: an active workflow keeps the
 * same static-data object between polls, and a restart reads it back from the JSON n8n saved.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;
const hour = 60 * minute;

const local = listServiceForEachTest(T0, { testClock: true });

/** `count` trades over `spanMs` before the service's clock plus `shift`, appended to the list. */
function appended(count: number, spanMs: number, shift = 0): IDataObject[] {
	const end = (local.service.clock as number) + shift;
	const added = Array.from({ length: count }, (_, i) =>
		trade(++local.created, end - spanMs + Math.floor(((i + 1) * spanMs) / (count + 1))),
	);
	local.service.records.trades.push(...added);
	return added;
}

const second = 1000;

const PATHS = [
	{ path: 'the same static-data object between polls', restart: false },
	{ path: 'a restart from the saved JSON before each poll', restart: true },
];

describe.each([
	{ name: 'dated when created', oldSpan: hour, oldShift: 0, newShift: 0 },
	{
		name: 'dated when first seen, 15 minutes before they are listed',
		oldSpan: hour,
		oldShift: 0,
		newShift: -15 * minute,
	},
	{
		name: 'dated right, after older trades dated an hour ahead (local time stamped "Z")',
		oldSpan: hour,
		oldShift: hour,
		newShift: 0,
	},
	{
		name: "dated by the service's clock, after older trades dated one a second from its time at activation on",
		oldSpan: 330 * second,
		oldShift: 330 * second,
		newShift: 0,
	},
])(
	'330 trades oldest first, 100 a page, no page count; new trades $name',
	({ oldSpan, oldShift, newShift }) => {
		beforeEach(() => {
			local.service.order = 'oldestFirst';
			local.service.sortBy = 'insertion';
			local.service.meta = 'hasNextPage';
		});

		test.each(PATHS)(
			'four new trades on the last page, $path: eight polls a minute apart read page 4 and emit each once',
			async ({ restart }) => {
				appended(330, oldSpan, oldShift);
				const poller = await Poller.create(
					{ source: 'records', events: ['*'] },
					local.credentials(),
				);
				expect((await poller.poll()).items).toBeNull();
				const emitted = new Emitted();
				local.service.clock = (local.service.clock as number) + minute;
				const fresh = appended(4, minute, newShift);
				for (let poll = 0; poll < 8; poll++) {
					local.service.clearRequests();
					if (restart) poller.restart();
					emitted.add(await poller.poll());
					expect(local.service.pagesOf('trades')).toEqual([4]);
					local.service.clock = (local.service.clock as number) + minute;
				}
				emitted.expectExactly(eventsOf('trade', fresh));
			},
		);

		test.each(
			[
				{ old: 330, maxPagesPerPoll: 10 },
				{ old: 150, maxPagesPerPoll: 2 },
			].flatMap((shape) => PATHS.map((path) => ({ ...shape, ...path }))),
		)(
			'$old trades, then trades appended over several pages, Max Pages per Poll $maxPagesPerPoll, $path: each once',
			async ({ old, maxPagesPerPoll, restart }) => {
				appended(old, oldSpan, oldShift);
				const poller = await Poller.create(
					{ source: 'records', events: ['*'], options: { maxPagesPerPoll } },
					local.credentials(),
				);
				await poller.poll();
				const emitted = new Emitted();
				const fresh: IDataObject[] = [];
				for (const count of [4, 0, 250, 120, 430, 0, 3, 0, 0, 0, 0, 0]) {
					local.service.clock = (local.service.clock as number) + minute;
					fresh.push(...appended(count, minute, newShift));
					if (restart) poller.restart();
					emitted.add(await poller.poll());
				}
				emitted.expectExactly(eventsOf('trade', fresh));
			},
		);
	},
);

test.each(PATHS)(
	'a list sorted oldest first without a page count whose first page holds a bulk import (one date), $path: read from its new end, new trades once each',
	async ({ restart }) => {
		local.service.order = 'oldestFirst';
		local.service.sortBy = 'insertion';
		local.service.meta = 'hasNextPage';
		const imported = (local.service.clock as number) - 2 * hour;
		local.service.records.trades.push(
			...Array.from({ length: 150 }, () => trade(++local.created, imported)),
		);
		appended(180, hour);
		const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
		expect((await poller.poll()).items).toBeNull();
		const emitted = new Emitted();
		const fresh: IDataObject[] = [];
		for (const count of [4, 0, 120, 0]) {
			local.service.clock = (local.service.clock as number) + minute;
			fresh.push(...appended(count, minute));
			if (restart) poller.restart();
			emitted.add(await poller.poll());
		}
		emitted.expectExactly(eventsOf('trade', fresh));
	},
);
