/**
 * The range statement's summary is the node's own words (docs/statement.md, "The day";
 * docs/guardrails.md, "Secrets: what is hidden where"): its `days` (net, lines, totals, balances),
 * its exceptions' ids and references, its dates are the same bytes whatever the PIN, even a PIN that
 * is one of its figures (opening balances of 1000, 2026 and 9000; payouts whose ids and External IDs
 * are 1000, 2026, 9000, 0000, 000000; dates in 2026); a withdrawal reason of the service that echoes
 * the PIN and the app secret is still hidden. Through n8n-core's engine against the fake API.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi } from '../../../fake-api/src/server';
import { runNode } from '../../helpers/node';

const DAYS = ['2026-03-09', '2026-03-10', '2026-03-11'];
/** A PIN that is none of the output's figures: the run every other is compared with. */
const NOWHERE = 'pin-nowhere-8c55';
const PINS = ['1000', '2026', '9000', '0000', '000000'];
const OPENING = { USD: 1000, NGN: 2026, GHS: 9000 };
let fakeApi: FakeApi;
let credentials: IDataObject;
/** A refunded payout of the range, whose reason (the service's text) the summary's exception quotes. */
let echoing: { reason: string | null };

beforeAll(async () => {
	fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000, requestLogLimit: 100_000 });
	credentials = sandboxCredentials(fakeApi);
	for (const day of ['2026-03-08', ...DAYS]) fakeApi.seedDay({ day, records: 30 });
	// Exceptions (refunded and pending payouts) whose ids and External IDs are the PINs.
	const exceptional = fakeApi.state.withdrawals.filter(
		(w) => DAYS.some((day) => w.createdAt.startsWith(day)) && w.status !== 'completed',
	);
	expect(exceptional.length).toBeGreaterThanOrEqual(PINS.length);
	PINS.forEach((pin, index) =>
		Object.assign(exceptional[index], { id: pin, externalId: PINS[(index + 1) % PINS.length] }),
	);
	const refunded = exceptional.find((w) => w.reason);
	if (!refunded) throw new Error('no refunded payout seeded');
	echoing = refunded;
});
afterAll(async () => await fakeApi.close());

/** The range's summary with `pin`, without the moment it was read (`readAt`) and a pending payout's age in hours (both run on with time). */
async function summary(pin: string): Promise<string> {
	const result = await runNode(
		{
			resource: 'statement',
			operation: 'get',
			period: 'range',
			from: DAYS[0],
			to: DAYS[2],
			output: 'summary',
			options: { openingBalances: OPENING },
		},
		{ credentials: { ...credentials, pin } },
	);
	if (result.error) throw new Error(result.error.message);
	expect(result.items).toHaveLength(1);
	const json = { ...result.items[0].json, readAt: undefined };
	return JSON.stringify(json).replace(/Not final after \d+ hours/g, 'Not final after <n> hours');
}

test('the range summary is the same bytes whatever the PIN, a PIN that is one of its figures included', async () => {
	const without = await summary(NOWHERE);
	const range = JSON.parse(without) as IDataObject;
	const days = range.days as IDataObject[];
	expect(days.map((day) => day.day)).toEqual(DAYS);
	expect(days[0].openingBalances).toEqual(OPENING);
	for (const day of days) {
		expect(day.lines).toEqual(expect.any(Number));
		expect(Object.keys(day.net as IDataObject).length).toBeGreaterThan(0);
	}
	const exceptions = range.exceptions as IDataObject[];
	for (const pin of PINS) {
		expect(exceptions.find((line) => line.recordId === pin)).toMatchObject({
			lineKey: expect.stringMatching(new RegExp(`^\\w+Withdrawal:${pin}$`)),
			reference: expect.any(String),
		});
		expect(exceptions.some((line) => line.reference === pin)).toBe(true);
	}
	// Also PINs that are the range's and a day's count of lines.
	for (const pin of [...PINS, String(range.lines), String(days[0].lines)])
		expect(await summary(pin)).toBe(without);
});

test("a withdrawal reason that echoes the PIN and the app secret is hidden in the summary's exception, and the rest is the same bytes", async () => {
	const before = echoing.reason;
	const withEcho = async (pin: string) => {
		echoing.reason = `refused: pin ${pin} is wrong for ${String(credentials.appSecret)}`;
		return await summary(pin);
	};
	try {
		const without = await withEcho(NOWHERE);
		expect(without).toContain('refused: pin [redacted] is wrong for [redacted]');
		for (const pin of PINS) {
			const text = await withEcho(pin);
			expect(text).toBe(without);
			expect(text).not.toContain(String(credentials.appSecret));
		}
	} finally {
		echoing.reason = before;
	}
});
