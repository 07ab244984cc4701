import type { IDataObject } from 'n8n-workflow';
import { STATE_MAX_BYTES } from '../../nodes/CryptoSettlementPollTrigger/cursor';
import { Emitted, eventsOf } from '../helpers/poll/exactly-once';
import { trade } from '../helpers/poll/list-service';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #34, point 7: n8n writes the trigger's state to its database with every poll, so it stays
 * bounded at any volume: 50,000 events (ids as long as the service's, 24 characters), 6,000 a
 * minute on the service's clock, one trade in 100 pending for three polls, each event exactly once and the
 * state at most 512 KB after every poll.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const PER_POLL = 1000;
const POLLS = 50;
/** Polls this far apart on the service's clock: 6,000 records a minute. */
const INTERVAL_MS = 10_000;

// n8n's clock is the test's (list-service-per-test.ts): a poll is never cut or abandoned for the machine's speed.
const local = listServiceForEachTest(T0, { testClock: true });

const serviceId = (n: number) => `66f1c0ffee${String(n).padStart(14, '0')}`;

test(`${PER_POLL * POLLS} trades, ${PER_POLL} per poll: every event once, the state at most 512 KB`, async () => {
	expect(STATE_MAX_BYTES).toBeLessThanOrEqual(512 * 1024);
	const add = (count: number, status: (n: number) => string = () => 'completed') => {
		const start = local.service.clock as number;
		const added = Array.from({ length: count }, (_, i): IDataObject => {
			const n = ++local.created;
			return {
				...trade(n, start + Math.floor(((i + 1) * INTERVAL_MS) / (count + 1)), status(n)),
				id: serviceId(n),
			};
		});
		local.service.records.trades.push(...added);
		local.service.clock = start + INTERVAL_MS;
		return added;
	};
	add(300);
	const poller = await Poller.create(
		{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 20 } },
		local.credentials(),
	);
	await poller.poll();
	const baseline = local.service.records.trades.length;
	const emitted = new Emitted();
	const pending: IDataObject[][] = [];
	let largest = 0;
	for (let poll = 0; poll < POLLS; poll++) {
		// One trade in 100 is pending and completes three polls later (looked up by id: within Max Pages per Poll lookups a poll).
		pending.push(
			add(PER_POLL, (n) => (n % 100 === 0 ? 'pending' : 'completed')).filter(
				(record) => record.status === 'pending',
			),
		);
		for (const record of pending.at(-4) ?? []) record.status = 'completed';
		emitted.add(await poller.poll());
		largest = Math.max(largest, JSON.stringify(poller.staticData).length);
	}
	for (const records of pending) for (const record of records) record.status = 'completed';
	for (let poll = 0; poll < 3; poll++) {
		local.service.clock = (local.service.clock as number) + 60_000;
		emitted.add(await poller.poll());
	}
	const fresh = local.service.records.trades.slice(baseline);
	emitted.expectExactly([
		...eventsOf('trade', fresh),
		...pending.flat().map((record) => `trade.pending ${String(record.id)}`),
	]);
	expect(largest).toBeLessThanOrEqual(512 * 1024);
});
