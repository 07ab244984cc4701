/**
 * Statement → Get on the day the money moved (docs/statement.md, "The day"), through n8n-core's
 * engine against the fake API: a week of consecutive days, with a refund the next day, a deposit
 * credited after midnight and a record refunded a week after it was created. Each movement is on
 * exactly one day's statement; the opening balances are derived on day one and carried from day
 * two, and every later day balances. Expected days are worked out here from the fake API's records
 * with the test's own rules, never with the node's code.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi, type SeededDay } from '../../../fake-api/src/server';
import { runNode } from '../../helpers/node';

const DAYS = [
	'2026-03-02',
	'2026-03-03',
	'2026-03-04',
	'2026-03-05',
	'2026-03-06',
	'2026-03-07',
	'2026-03-08',
];
const REFUNDED = new Set(['rejected', 'reversed', 'cancelled']);
const dayOf = (iso: string) => iso.slice(0, 10);

let fakeApi: FakeApi;
let credentials: IDataObject;
const seeded: Record<string, SeededDay> = {};

async function get(day: string, parameters: IDataObject) {
	const result = await runNode(
		{ resource: 'statement', operation: 'get', day, ...parameters },
		{ credentials },
	);
	if (result.error) throw new Error(`${result.error.message} — ${result.error.description ?? ''}`);
	return result.items.map((item) => item.json);
}

/** Every movement the fake API's records hold, keyed as the docs name lines, with the day it moved. */
function movements(): Map<string, string> {
	const moved = new Map<string, string>();
	for (const trade of fakeApi.state.trades) {
		if (trade.status !== 'completed') continue;
		moved.set(`deposit:${trade.id}`, dayOf(trade.updatedAt));
		if (trade.feeAmount > 0) moved.set(`depositFee:${trade.id}`, dayOf(trade.updatedAt));
	}
	for (const w of fakeApi.state.withdrawals) {
		const kind = w.trade
			? 'autoSettlement'
			: w.type === 'crypto'
				? 'cryptoWithdrawal'
				: 'bankWithdrawal';
		moved.set(`${kind}:${w.id}`, dayOf(w.createdAt));
		if (w.fee > 0) moved.set(`withdrawalFee:${w.id}`, dayOf(w.createdAt));
		if (REFUNDED.has(w.status)) moved.set(`refund:${w.id}`, dayOf(w.updatedAt));
	}
	return moved;
}

describe('Statement → Get over a week of consecutive days: every movement on the day it moved', () => {
	let refundedNextDay: { id: string; createdAt: string };
	let creditedAfterMidnight: { id: string; createdAt: string };
	let refundedAWeekLater: {
		id: string;
		createdAt: string;
		currency: string;
		payoutAmount: number;
		fee: number;
	};

	beforeAll(async () => {
		fakeApi = await startFakeApi({
			lifecycleDelayMs: 60_000,
			requestLogLimit: 100_000,
			maxPageSize: 25,
		});
		credentials = sandboxCredentials(fakeApi);
		for (const day of ['2026-03-01', ...DAYS, '2026-03-09'])
			seeded[day] = fakeApi.seedDay({ day, records: 40 });
		const { trades, withdrawals } = fakeApi.state;
		// A refund on the next day: a payout of the 3rd reversed at 01:00 on the 4th.
		const reversed = withdrawals.find(
			(w) => dayOf(w.createdAt) === '2026-03-03' && w.status === 'reversed',
		);
		if (!reversed) throw new Error('no reversed payout seeded on the 3rd');
		reversed.updatedAt = '2026-03-04T01:00:00.000Z';
		refundedNextDay = reversed;
		// A deposit created before midnight and credited after: the last completed deposit of the 4th.
		const late = trades
			.filter((t) => dayOf(t.createdAt) === '2026-03-04' && t.status === 'completed')
			.pop();
		if (!late) throw new Error('no completed deposit seeded on the 4th');
		late.updatedAt = '2026-03-05T00:03:00.000Z';
		creditedAfterMidnight = late;
		// A record that moved on the 8th but was created a week earlier (on the 1st).
		const old = withdrawals.find(
			(w) => dayOf(w.createdAt) === '2026-03-01' && w.status === 'rejected',
		);
		if (!old) throw new Error('no rejected payout seeded on the 1st');
		old.updatedAt = '2026-03-08T10:00:00.000Z';
		refundedAWeekLater = old;
	});
	afterAll(async () => await fakeApi.close());

	it('puts each movement on exactly one day, the day it moved, whatever day its record was created', async () => {
		const seen = new Map<string, string[]>();
		for (const day of DAYS) {
			for (const line of await get(day, { output: 'lines' })) {
				expect(String(line.time).slice(0, 10)).toBe(day);
				if (line.amount === 0) continue;
				seen.set(String(line.lineKey), [...(seen.get(String(line.lineKey)) ?? []), day]);
			}
		}
		const expected = [...movements()].filter(([, day]) => DAYS.includes(day));
		expect(Object.fromEntries([...seen].map(([key, days]) => [key, days.join(',')]))).toEqual(
			Object.fromEntries(expected),
		);
		// The three movements the issue names, each on the day the money moved.
		expect(seen.get(`refund:${refundedNextDay.id}`)).toEqual(['2026-03-04']);
		expect(
			[...seen]
				.filter(([key]) => key.endsWith(refundedNextDay.id) && !key.startsWith('refund:'))
				.map(([, days]) => days),
		).toEqual([['2026-03-03'], ['2026-03-03']]);
		expect(seen.get(`deposit:${creditedAfterMidnight.id}`)).toEqual(['2026-03-05']);
		expect(seen.get(`depositFee:${creditedAfterMidnight.id}`)).toEqual(['2026-03-05']);
		expect(seen.get(`refund:${refundedAWeekLater.id}`)).toEqual(['2026-03-08']);
	});

	it("derives the opening balances on day one, carries yesterday's closing balances from day two, and every later day balances", async () => {
		let opening: IDataObject | undefined;
		for (const [index, day] of DAYS.entries()) {
			const [summary] = await get(day, {
				output: 'summary',
				options: opening ? { openingBalances: opening } : {},
			});
			expect(summary.lookBack).toMatchObject({
				days: expect.any(Number),
				cannotSee: expect.stringMatching(
					/^A movement on this day of a record created before \d{4}-\d{2}-\d{2}/,
				),
			});
			if (index === 0) {
				expect(summary.openingBalancesSource).toBe('derived');
				expect(summary.balanceCheck).toMatchObject({
					result: 'notCheckable',
					why: expect.stringMatching(/^First statement: the opening balances \(.*\) were derived/),
				});
				// The fake API's balances before the day, less the payout of the 1st refunded only on the 8th.
				const start = seeded[day].openingBalances;
				const held = refundedAWeekLater.payoutAmount + refundedAWeekLater.fee;
				const currency = refundedAWeekLater.currency;
				const want = Object.fromEntries(
					Object.entries(start).map(([c, v]) => [
						c.toUpperCase(),
						Math.round((v - (c === currency ? held : 0)) * 100) / 100,
					]),
				);
				expect(summary.openingBalances).toEqual(want);
			} else {
				expect(summary.openingBalancesSource).toBe('given');
				expect(summary.openingBalances).toEqual(opening);
				expect(summary.balanceCheck).toMatchObject({ result: 'balanced' });
				expect(String((summary.balanceCheck as IDataObject).why)).not.toMatch(/[{}"]/);
			}
			expect(summary.closingBalances).toEqual(expect.any(Object));
			opening = summary.closingBalances as IDataObject;
		}
	});
});
