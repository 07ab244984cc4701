import type { IDataObject } from 'n8n-workflow';
import { STATE_MAX_BYTES } from '../../nodes/CryptoSettlementPollTrigger/cursor';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #48, point 6: a sustained backlog. 1,200 new trades a minute for 20 polls a minute apart on
 * the service's clock, with Max Pages per Poll 10 as by default (1,000 records a poll at most), then
 * 10 polls to drain: the walk leaves a gap each poll and fills it by position, and each poll reads the
 * newest records again for the listing lag (the 75 newest at this volume). The memory's bound forgets
 * records read above the gap before those the walk still reaches: each trade is emitted exactly
 * once, and the state stays within its bound.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;

// n8n's clock is the test's (list-service-per-test.ts): a poll is never cut or abandoned for the machine's speed.
const local = listServiceForEachTest(T0, { testClock: true });

const aMinuteOf = local.aMinuteOf;

describe.each([
	{ path: 'the same static-data object between polls (an active workflow)', restart: false },
	{ path: 'a restart from the saved JSON before each poll', restart: true },
])('$path', ({ restart }) => {
	test('1,200 new trades a minute for 20 polls, Max Pages per Poll 10, then 10 polls to drain: each of 24,000 once', async () => {
		aMinuteOf(300);
		const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
		expect((await poller.poll()).items).toBeNull();
		const emitted = new Emitted();
		const fresh: IDataObject[] = [];
		let largest = 0;
		for (let poll = 0; poll < 30; poll++) {
			if (poll < 20) fresh.push(...aMinuteOf(1200));
			else local.service.clock = (local.service.clock as number) + minute;
			if (restart) poller.restart();
			emitted.add(await poller.poll());
			largest = Math.max(largest, JSON.stringify(poller.staticData).length);
		}
		expect(fresh).toHaveLength(24_000);
		emitted.expectExactly(eventsOf('trade', fresh));
		expect(largest).toBeLessThanOrEqual(STATE_MAX_BYTES);
	});
});
