import type { IDataObject } from 'n8n-workflow';
import { FALLBACK_BUDGET_MS } from '../../nodes/CryptoSettlementPollTrigger/client';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { idsOf, trade, withdrawal } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #25, point 7: n8n's poll budget. A slow list that would take longer than the budget is
 * read over several polls, each within it; a 429 in the middle of a walk; a poll n8n abandons
 * (its items never run, its state is not committed) followed by a normal one; n8n 1.x, which
 * gives a poll no budget.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

// n8n's clock is the test's: a poll's time is its answers' latency, whatever the machine's speed.
const local = listServiceForEachTest(T0, { testClock: true });

function addTrades(count: number): IDataObject[] {
	const added: IDataObject[] = [];
	for (let i = 0; i < count; i++)
		added.push(trade(++local.created, (local.service.clock as number) + local.created));
	local.service.records.trades.push(...added);
	local.service.clock = (local.service.clock as number) + 60_000;
	return added;
}

test("a slow list that would exceed n8n's poll budget: each poll stops in time and makes progress, the lists take turns; each trade once", async () => {
	// n8n 2.x's default budget; each answer takes 1.5 s on n8n's clock.
	const budgetMs = 36_000;
	addTrades(10);
	const poller = await Poller.create(
		{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 100 } },
		local.credentials(),
		{ budgetMs },
	);
	await poller.poll();
	const fresh = addTrades(4500);
	local.service.records.withdrawals.push(withdrawal(1, (local.service.clock as number) - 1000));
	local.service.latencyMs = 1500;
	const expected = [
		...eventsOf('trade', fresh),
		...eventsOf('withdrawal', local.service.records.withdrawals),
	];
	// Reading every new page in one poll would take longer than the budget.
	const pages = Math.ceil(fresh.length / 100) + 1;
	expect(pages * local.service.latencyMs).toBeGreaterThan(budgetMs);
	const emitted = new Emitted();
	const durations: number[] = [];
	for (let poll = 0; poll < pages && emitted.events.length < expected.length; poll++) {
		const before = emitted.events.length;
		const result = await poller.poll();
		durations.push(result.ms);
		// Committed (not abandoned past the budget), and progress in every poll.
		emitted.add(result);
		expect(emitted.events.length).toBeGreaterThan(before);
		if (poll === 0) {
			expect(
				result.logs.some(
					(log) => log.level === 'warn' && log.message.includes("n8n's time for one poll"),
				),
			).toBe(true);
			// The lists take the time in turn: the busy one does not starve the other.
			expect(emitted.events).toContain(
				eventsOf('withdrawal', local.service.records.withdrawals)[0],
			);
		}
	}
	expect(durations.length).toBeGreaterThan(2);
	expect(Math.max(...durations)).toBeLessThan(budgetMs);
	emitted.expectExactly(expected);
});

test('a 429 in the middle of a walk: the pages read before it are emitted, the next poll reads on; each trade once', async () => {
	addTrades(10);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials());
	await poller.poll();
	const fresh = addTrades(450);
	let limited = 0;
	local.service.fault = (path, query) => {
		if (path !== '/trades/transactions' || query.get('page') !== '3' || limited++ > 0)
			return undefined;
		return {
			status: 429,
			body: { success: false, message: 'too many requests' },
			headers: { 'retry-after': '0' },
		};
	};
	const emitted = new Emitted();
	const first = await poller.poll();
	expect(first.logs.some((log) => log.level === 'warn' && log.message.includes('429'))).toBe(true);
	expect(idsOf(emitted.add(first))).toEqual(fresh.slice(-200).map((record) => String(record.id)));
	emitted.add(await poller.poll());
	emitted.add(await poller.poll());
	emitted.expectExactly(eventsOf('trade', fresh));
});

test('a poll n8n abandons (its items never run, its state is not committed), then a normal poll: each trade once', async () => {
	addTrades(10);
	const poller = await Poller.create(
		{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 2 } },
		local.credentials(),
	);
	await poller.poll();
	const fresh = addTrades(350);
	const before = poller.staticData;
	expect((await poller.poll('trigger', { commit: false })).abandoned).toBe(true);
	expect(poller.staticData).toEqual(before);
	const emitted = new Emitted();
	emitted.add(await poller.poll());
	// Abandoned again in the middle of reading the gap the first walk left.
	const mid = poller.staticData;
	expect((await poller.poll('trigger', { commit: false })).abandoned).toBe(true);
	expect(poller.staticData).toEqual(mid);
	for (let poll = 0; poll < 3; poll++) emitted.add(await poller.poll());
	emitted.expectExactly(eventsOf('trade', fresh));
});

test('n8n 1.x (no getPollBudgetMs): a fixed budget applies; polls work as on 2.x', async () => {
	expect(FALLBACK_BUDGET_MS).toBe(36_000);
	addTrades(10);
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials(), {
		withoutBudget: true,
	});
	await poller.poll();
	const fresh = addTrades(120);
	const emitted = new Emitted();
	emitted.add(await poller.poll());
	emitted.add(await poller.poll());
	emitted.expectExactly(eventsOf('trade', fresh));
});
