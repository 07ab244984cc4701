/**
 * The service retries a delivery for up to 24 hours (docs/trigger.md, "How long the service
 * retries"): the duplicate memory keeps every emitted delivery for the window, at the volume
 * docs/trigger.md states, in bounded static data, across restarts (issue 34, point 9).
 */
import type { IDataObject } from 'n8n-workflow';
import {
	DEDUPE_CAPACITY,
	DEDUPE_WINDOW_HOURS,
	keysOf,
	remember,
} from '../../nodes/CryptoSettlementTrigger/dedupe';
import { deliveryKey, eventIdentity } from '../../nodes/events/identity';
import { triggerTestSetup, TriggerHarness, WITHOUT_CONFIRMATION } from '../helpers/webhook';

const logs = triggerTestSetup();

const HOUR = 3_600_000;
/** The volume docs/trigger.md states: the capacity spread over the hours a key can be kept (the window and the hour it was emitted in). */
const PER_HOUR = DEDUPE_CAPACITY / (DEDUPE_WINDOW_HOURS + 1);
const PER_DAY = 24 * PER_HOUR;
/** The bound docs/trigger.md states for the saved static data. */
const SIZE_BOUND = 256 * 1024;
/** A UTC hour boundary (the memory keeps deliveries by the hour n8n emitted them). */
const T0 = Date.UTC(2026, 10, 2, 0, 0, 0);

let clock = T0;
beforeEach(() => {
	clock = T0;
	jest.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => jest.restoreAllMocks());

const completed = (id: string): IDataObject => ({
	event: 'trade.completed',
	id,
	status: 'completed',
	amountInUSD: 21.38,
});
const savedSize = (h: TriggerHarness) => JSON.stringify(h.savedStaticData()).length;

/** A new n8n process: the workflow built from the static data n8n saved last (its own process memory). */
const restart = (h?: TriggerHarness) =>
	TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		staticData: h?.savedStaticData(),
	});

async function expectEmitted(
	h: TriggerHarness,
	body: IDataObject,
	emitted: boolean,
): Promise<void> {
	const r = await h.deliver({ body });
	expect(r.status).toBe(200);
	expect(r.started).toBe(emitted);
	if (!emitted) expect(r.response).toMatchObject({ ignored: 'duplicate delivery' });
}

test('a retry after 2,500 other events is not emitted, across a restart', async () => {
	let h = await restart();
	const first = completed('t-first');
	await expectEmitted(h, first, true);
	for (let i = 0; i < 2500; i++) {
		clock += 1000;
		if (i === 1250) h = await restart(h);
		await expectEmitted(h, completed(`t-${i}`), true);
	}
	h = await restart(h);
	await expectEmitted(h, first, false);
	expect(logs.filter((entry) => entry.level === 'warn')).toEqual([]);
});

test(`a retry 24 hours later, after a day at the stated volume (${PER_DAY} events), is not emitted; the static data stays within ${SIZE_BOUND} bytes`, async () => {
	// Deliveries at the stated rate from two hours before the first one (so the memory reaches its
	// most, 26 hours' worth, within the day) to a day after it, with a restart every 6 hours.
	let h = await restart();
	const first = completed('t-first');
	let largest = 0;
	for (let i = -2 * PER_HOUR; i < PER_DAY; i++) {
		clock = T0 + Math.floor((i * HOUR) / PER_HOUR);
		await expectEmitted(h, i === 0 ? first : completed(`t-${i}`), true);
		if (i > 0 && i % (6 * PER_HOUR) === 0) {
			largest = Math.max(largest, savedSize(h));
			h = await restart(h);
		}
	}
	largest = Math.max(largest, savedSize(h));
	// Every delivery of the 26 hours is held: the memory is at its capacity, and nothing was pushed out.
	expect(keysOf(h.nodeStaticData(), clock)).toHaveLength(DEDUPE_CAPACITY);
	expect(largest).toBeLessThanOrEqual(SIZE_BOUND);
	expect(logs.filter((entry) => entry.level === 'warn')).toEqual([]);

	clock = T0 + 24 * HOUR;
	h = await restart(h);
	await expectEmitted(h, first, false);
	await expectEmitted(h, completed(`t-${PER_DAY - 1}`), false);
}, 1_800_000);

test(`a delivery is remembered at least ${DEDUPE_WINDOW_HOURS} hours and less than ${DEDUPE_WINDOW_HOURS + 1}: a copy sent later (a Resend) is emitted again`, async () => {
	// Emitted in the last second of its hour: kept until that hour's bucket leaves the window.
	clock = T0 + HOUR - 1000;
	let h = await restart();
	const first = completed('t-first');
	await expectEmitted(h, first, true);
	clock += DEDUPE_WINDOW_HOURS * HOUR;
	h = await restart(h);
	await expectEmitted(h, first, false);
	clock += HOUR;
	h = await restart(h);
	await expectEmitted(h, first, true);
	// Emitted again, it is remembered again.
	await expectEmitted(h, first, false);
});

test('above the stated volume the oldest deliveries are forgotten first, within the bound, and a warning says how far back the memory reaches', async () => {
	// A full memory: the capacity's worth in every hour of the window, each of a delivery the test knows.
	const seeded: IDataObject = {};
	const hours = DEDUPE_WINDOW_HOURS + 1;
	const bodies = Array.from({ length: DEDUPE_CAPACITY }, (_, i) => completed(`seed-${i}`));
	for (let hour = 0; hour < hours; hour++) {
		const share = bodies.slice(hour * PER_HOUR, (hour + 1) * PER_HOUR);
		remember(
			seeded,
			share.map((body) => deliveryKey(eventIdentity('trade.completed', body))),
			T0 + hour * HOUR,
		);
	}
	clock = T0 + (hours - 1) * HOUR + 1000;
	let h = await TriggerHarness.create({
		events: ['*'],
		parameters: WITHOUT_CONFIRMATION,
		staticData: { 'node:Crypto Settlement Trigger': seeded },
	});
	await expectEmitted(h, bodies[0], false);

	// Two more deliveries than the capacity holds push out the two oldest, once with a warning.
	await expectEmitted(h, completed('t-over-1'), true);
	await expectEmitted(h, completed('t-over-2'), true);
	const warnings = logs.filter((entry) => entry.level === 'warn');
	expect(warnings).toHaveLength(1);
	expect(warnings[0].message).toMatch(
		/duplicate memory is full \(26000 deliveries within 25 hours\): it now reaches back about 25 hour\(s\)/,
	);
	expect(savedSize(h)).toBeLessThanOrEqual(SIZE_BOUND);

	h = await restart(h);
	await expectEmitted(h, bodies[2], false);
	await expectEmitted(h, bodies[DEDUPE_CAPACITY - 1], false);
	await expectEmitted(h, completed('t-over-1'), false);
	// Documented: a retry of a delivery pushed out runs again.
	await expectEmitted(h, bodies[0], true);
});

test("keys lost to saves landing out of order, across an hour's end and a clock set back two hours, are written back once each", async () => {
	const call = (staticData?: IDataObject) =>
		TriggerHarness.create({
			events: ['*'],
			parameters: WITHOUT_CONFIRMATION,
			workflowId: 'wf-clock-burst',
			staticData,
		});
	const saves = [(await call()).savedStaticData()];
	const sent: IDataObject[] = [];
	// 10:55 to 11:05, then the clock set back to 09:01: keys join the newest bucket, not their hour's.
	const times = [
		...Array.from({ length: 10 }, (_, i) => T0 + HOUR - 5 * 60_000 + i * 60_000),
		...Array.from({ length: 10 }, (_, i) => T0 - HOUR + 60_000 + i * 1000),
	];
	for (const [i, at] of times.entries()) {
		clock = at;
		// Every other call loads the save of three calls before (saves landing out of order).
		const h = await call(saves[i % 2 === 0 ? saves.length - 1 : Math.max(saves.length - 4, 0)]);
		const body = completed(`t-burst-${i}`);
		await expectEmitted(h, body, true);
		sent.push(body);
		saves.push(h.savedStaticData());
		const memory = keysOf(h.nodeStaticData(), clock);
		expect(new Set(memory).size).toBe(memory.length);
		expect(memory).toHaveLength(i + 1);
	}
	const restarted = await restart(await call(saves[saves.length - 1]));
	for (const body of sent) await expectEmitted(restarted, body, false);
});
