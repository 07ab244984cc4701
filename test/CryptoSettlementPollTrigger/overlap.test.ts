import { sleep } from 'n8n-workflow';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller, type PollResult } from '../helpers/poll/poll-harness';

/**
 * Issue #42, point 8: n8n-core starts a poll on schedule even while the previous one still runs (it
 * counts it as "overlapped" and runs it anyway). Both would read the same state and emit the same
 * events; with n8n 2.x's durable poll cursors each also commits its own copy of the state, the later
 * over the earlier. The first answer is held by the test (3 s on the test's clock once let go), so the
 * second poll starts while the first one waits, whatever the machine's speed.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

const local = listServiceForEachTest(T0, { testClock: true });

/** Lets the event loop run until `done()` holds, at most `turns` times (sockets and timers are real). */
async function until(done: () => boolean, turns = 2_000): Promise<void> {
	for (let turn = 0; turn < turns && !done(); turn++) await sleep(1);
}

const aMinuteOf = local.aMinuteOf;

describe.each([
	{ name: 'one static data object (n8n 1.x, n8n 2.x without durable cursors)', stateCopies: false },
	{
		name: "each poll's own copy of the state, committed when it returns (n8n 2.x durable poll cursors)",
		stateCopies: true,
	},
])('two polls at once: $name', ({ stateCopies }) => {
	test('the first answer takes 3 s and a second poll starts meanwhile: each trade emitted once, none lost after', async () => {
		aMinuteOf(120);
		const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials(), {
			stateCopies,
		});
		expect((await poller.poll()).items).toBeNull();
		const emitted = new Emitted();
		const fresh = aMinuteOf(3);
		// Every answer waits until the test lets go, then takes 3 s on the test's clock.
		let letGo!: () => void;
		const held = new Promise<void>((resolve) => (letGo = resolve));
		local.service.latencyMs = 3_000;
		local.service.wait = async (ms) => {
			await held;
			jest.setSystemTime(Date.now() + ms);
		};
		const first = poller.poll();
		await until(() => local.service.requests.length > 0);
		expect(local.service.requests.length).toBeGreaterThan(0);
		let second: PollResult | undefined;
		const secondDone = poller.poll().then((result) => (second = result));
		// The second poll ends at once (it reads nothing), or it is waiting for its own answers.
		await until(() => second !== undefined || local.service.requests.length > 1);
		letGo();
		await secondDone;
		emitted.add(second as PollResult);
		emitted.add(await first);
		// Later polls continue from the first one's state: nothing again, nothing lost.
		local.service.latencyMs = 0;
		for (let poll = 0; poll < 3; poll++) {
			fresh.push(...aMinuteOf(poll === 1 ? 0 : 40));
			poller.restart();
			emitted.add(await poller.poll());
		}
		emitted.expectExactly(eventsOf('trade', fresh));
		// The second poll was the one that stood back, and said so.
		expect(second?.items).toBeNull();
		expect(
			second?.logs.some((log) => log.level === 'warn' && log.message.includes('still running')),
		).toBe(true);
	});

	test('after the overlapping poll the gate is open again: the next poll reads and emits', async () => {
		aMinuteOf(50);
		const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials(), {
			stateCopies,
		});
		await poller.poll();
		const emitted = new Emitted();
		const fresh = aMinuteOf(5);
		const [a, b] = await Promise.all([poller.poll(), poller.poll()]);
		emitted.add(a);
		emitted.add(b);
		fresh.push(...aMinuteOf(5));
		emitted.add(await poller.poll());
		emitted.expectExactly(eventsOf('trade', fresh));
	});
});

/**
 * n8n 2.x with durable poll cursors abandons a poll past its budget (its copy of the state is not
 * committed): a poll held past twice the budget no longer holds the next one back.
 */
test("a poll held past twice n8n's budget no longer holds the next one back; n8n abandons it, so each trade is emitted once", async () => {
	aMinuteOf(60);
	const budgetMs = 36_000;
	const poller = await Poller.create({ source: 'records', events: ['*'] }, local.credentials(), {
		stateCopies: true,
		budgetMs,
	});
	await poller.poll();
	const emitted = new Emitted();
	const fresh = aMinuteOf(3);
	let letGo!: () => void;
	const held = new Promise<void>((resolve) => (letGo = resolve));
	local.service.latencyMs = 1_000;
	local.service.wait = async (ms) => {
		await held;
		jest.setSystemTime(Date.now() + ms);
	};
	const first = poller.poll();
	await until(() => local.service.requests.length > 0);
	expect(local.service.requests.length).toBeGreaterThan(0);
	// The first poll's answer does not come: n8n's clock passes twice its budget, and the next poll starts.
	jest.setSystemTime(Date.now() + 2 * budgetMs + 1_000);
	local.service.wait = async (ms) => void jest.setSystemTime(Date.now() + ms);
	// It reads and emits: the held poll no longer holds it back.
	expect(emitted.add(await poller.poll())).toHaveLength(3);
	letGo();
	expect((await first).abandoned).toBe(true);
	fresh.push(...aMinuteOf(4));
	emitted.add(await poller.poll());
	emitted.expectExactly(eventsOf('trade', fresh));
});
