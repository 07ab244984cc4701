import type { IDataObject } from 'n8n-workflow';
import { LISTING_LAG_MIN_MS, LISTING_LAG_MS } from '../../nodes/CryptoSettlementPollTrigger/cursor';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { trade } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #42, point 6: a busy list on a lagging read replica. About 5 trades a second, every 7th one
 * listed seconds after trades dated later, 22 polls a minute apart on the service's clock: each
 * trade once. The lag is the list service's own clock (its Date header and the trades' dates): a
 * trade is listed once the clock has passed its creation date plus its lag, whatever the machine's speed.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const minute = 60_000;
/** About 5 trades a second: trade n comes 150 to 250 ms after trade n - 1, so the pages fall differently at each poll. */
const gapBefore = (n: number) => 150 + ((n * 37) % 101);

// n8n's clock is the test's (list-service-per-test.ts): a poll is never cut or abandoned for the machine's speed.
const local = listServiceForEachTest(T0, { testClock: true });

describe.each([2_000, 3_000, 5_000, 10_000, 14_000])(
	'every 7th trade listed %i ms late',
	(lagMs) => {
		test('about 5 trades a second, 22 polls a minute apart: each trade emitted once', async () => {
			expect(lagMs).toBeLessThan(LISTING_LAG_MS);
			const lagOf = (record: IDataObject) =>
				Number(String(record.id).slice(1)) % 7 === 0 ? lagMs : 0;
			const listed = (record: IDataObject) =>
				Date.parse(String(record.createdAt)) + lagOf(record) <= (local.service.clock as number);
			/** The trades created up to the service's clock a minute on. */
			const aMinute = () => {
				const end = (local.service.clock as number) + minute;
				const added: IDataObject[] = [];
				for (
					let at = next + gapBefore(local.created + 1);
					at <= end;
					at += gapBefore(local.created + 1)
				) {
					added.push(trade(++local.created, at));
					next = at;
				}
				local.service.records.trades.push(...added);
				local.service.clock = end;
				return added;
			};
			let next = T0;
			local.service.view = (_list, record) => (listed(record) ? record : undefined);
			aMinute();
			// Old: what the list shows at activation, and what was created before it (its answer less the shortest listing lag).
			const activation = (local.service.clock as number) - LISTING_LAG_MIN_MS;
			const old = new Set(
				local.service.records.trades.filter(
					(record) => listed(record) || Date.parse(String(record.createdAt)) <= activation,
				),
			);
			const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
			expect((await poller.poll()).items).toBeNull();
			const emitted = new Emitted();
			let hidden = 0;
			for (let poll = 0; poll < 22; poll++) {
				aMinute();
				hidden += local.service.records.trades.filter((record) => !listed(record)).length;
				poller.restart();
				emitted.add(await poller.poll());
			}
			// The case is exercised: at every poll trades were missing from answers that listed trades dated after them.
			expect(hidden).toBeGreaterThanOrEqual(22);
			// The last trades listed late are listed by the next poll.
			local.service.clock = (local.service.clock as number) + minute;
			emitted.add(await poller.poll());
			const fresh = local.service.records.trades.filter((record) => !old.has(record));
			expect(fresh.length).toBeGreaterThan(5_900);
			emitted.expectExactly(eventsOf('trade', fresh));
		});
	},
);
