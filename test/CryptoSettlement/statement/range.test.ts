/**
 * Statement → Get over a range of whole days (docs/statement.md, "The day"; the contract's `period`
 * `range` with `from`, `to`): through n8n-core's engine against the fake API, three seeded days and a
 * refund on the day after its payout. The range's lines are the days' lines, each once and of the day
 * it moved; its summary's `days` give each day's balances (the first day's opening the range's, each
 * day's opening the day before's closing, the last day's closing the range's) and totals, as the day
 * statements give them; its files are named for the range; a range that is not one is refused naming
 * its field, before any request.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi, type SeededDay } from '../../../fake-api/src/server';
import { runNode } from '../../helpers/node';

const DAYS = ['2026-03-09', '2026-03-10', '2026-03-11'];
let fakeApi: FakeApi;
let credentials: IDataObject;
const seeded: Record<string, SeededDay> = {};
const upper = (balances: Record<string, number>) =>
	Object.fromEntries(Object.entries(balances).map(([c, v]) => [c.toUpperCase(), v]));

async function get(parameters: IDataObject) {
	const result = await runNode(
		{ resource: 'statement', operation: 'get', ...parameters },
		{ credentials },
	);
	if (result.error) throw new Error(`${result.error.message} — ${result.error.description ?? ''}`);
	return result.items;
}

beforeAll(async () => {
	fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000, requestLogLimit: 100_000 });
	credentials = sandboxCredentials(fakeApi);
	for (const day of ['2026-03-08', ...DAYS, '2026-03-12'])
		seeded[day] = fakeApi.seedDay({ day, records: 30 });
	// A payout of the 9th refunded on the 10th: its refund is on the 10th, in the range once.
	const reversed = fakeApi.state.withdrawals.find(
		(w) => w.createdAt.startsWith('2026-03-09') && w.status === 'reversed',
	);
	if (!reversed) throw new Error('no reversed payout seeded on the 9th');
	reversed.updatedAt = '2026-03-10T01:00:00.000Z';
});
afterAll(async () => await fakeApi.close());

describe('Statement → Get, Period Range', () => {
	it("the range's lines are the days' lines, each once, each of the day it moved", async () => {
		const range = (await get({ period: 'range', from: DAYS[0], to: DAYS[2], output: 'lines' })).map(
			(item) => item.json,
		);
		const days = await Promise.all(
			DAYS.map(async (day) => (await get({ day, output: 'lines' })).map((item) => item.json)),
		);
		expect(range.map((line) => [line.lineKey, line.day, line.amount])).toEqual(
			days.flat().map((line) => [line.lineKey, line.day, line.amount]),
		);
		expect(new Set(range.map((line) => line.lineKey)).size).toBe(range.length);
		expect(
			range.some((line) => String(line.lineKey).startsWith('refund:') && line.day === DAYS[1]),
		).toBe(true);
	});

	it("the summary: the range's balances, and one entry per day with its opening, closing, net and totals as that day's statement gives them", async () => {
		const openingBalances = upper(seeded[DAYS[0]].openingBalances);
		const [range] = (
			await get({
				period: 'range',
				from: DAYS[0],
				to: DAYS[2],
				output: 'summary',
				options: { openingBalances },
			})
		).map((item) => item.json);
		expect(range).toMatchObject({
			day: `${DAYS[0]}_${DAYS[2]}`,
			from: `${DAYS[0]}T00:00:00.000Z`,
			to: '2026-03-12T00:00:00.000Z',
			openingBalancesSource: 'given',
		});
		const days = range.days as IDataObject[];
		expect(days.map((day) => day.day)).toEqual(DAYS);
		let opening: IDataObject = openingBalances;
		for (const [index, day] of DAYS.entries()) {
			const [statement] = (
				await get({ day, output: 'summary', options: { openingBalances: opening } })
			).map((item) => item.json);
			expect(days[index]).toMatchObject({
				openingBalances: statement.openingBalances,
				closingBalances: statement.closingBalances,
				net: statement.net,
				totals: statement.totals,
				lines: statement.lines,
			});
			opening = statement.closingBalances as IDataObject;
		}
		expect(range.openingBalances).toEqual(days[0].openingBalances);
		expect(range.closingBalances).toEqual(days[2].closingBalances);
		expect((range.balanceCheck as IDataObject).result).toBe('balanced');
	});

	it('the files are named for the range, the currency and the format', async () => {
		const items = await get({
			period: 'range',
			from: DAYS[0],
			to: DAYS[2],
			output: 'file',
			options: {
				fileFormat: 'ofx',
				fileCurrency: 'NGN',
				openingBalances: upper(seeded[DAYS[0]].openingBalances),
			},
		});
		expect(items.map((item) => item.binary?.data?.fileName)).toEqual([
			`statement-${DAYS[0]}_${DAYS[2]}-NGN.ofx`,
		]);
		const xero = await get({
			period: 'range',
			from: DAYS[0],
			to: DAYS[2],
			output: 'file',
			options: { fileCurrency: 'NGN' },
		});
		expect(xero.map((item) => item.binary?.data?.fileName)).toEqual([
			`statement-${DAYS[0]}_${DAYS[2]}-NGN-xero.csv`,
		]);
	});

	it.each([
		[
			{ from: '2026-03-11', to: '2026-03-09' },
			/^'To' \(2026-03-09\) is before From \(2026-03-11\)/,
		],
		[
			{ from: '2026-03-01', to: '2026-04-01' },
			/'To'.*2026-03-01 to 2026-04-01 holds 32 days: at most 31/,
		],
		[{ from: '2026-02-30', to: '2026-03-01' }, /^'From' "2026-02-30" is not a day of the calendar/],
	])('%j is refused naming its field, before any request', async (range, message) => {
		const before = fakeApi.requests.length;
		const result = await runNode(
			{ resource: 'statement', operation: 'get', period: 'range', output: 'summary', ...range },
			{ credentials },
		);
		expect(`${result.error?.message ?? ''}`).toMatch(message);
		expect(fakeApi.requests.length).toBe(before);
	});

	it('From and To are required with Period Range: n8n refuses the workflow before it runs; an expression giving nothing is refused by the node', async () => {
		const before = fakeApi.requests.length;
		await expect(
			runNode(
				{ resource: 'statement', operation: 'get', period: 'range', from: '', to: '2026-03-11' },
				{ credentials },
			),
		).rejects.toThrow(/Parameter "From" is required/);
		const empty = await runNode(
			{
				resource: 'statement',
				operation: 'get',
				period: 'range',
				from: '={{ "" }}',
				to: '2026-03-11',
			},
			{ credentials },
		);
		expect(empty.error?.message).toMatch(/^'From' is required with Period Range/);
		expect(fakeApi.requests.length).toBe(before);
	});

	it('31 days are a range', async () => {
		const [summary] = (
			await get({ period: 'range', from: '2026-02-10', to: '2026-03-12', output: 'summary' })
		).map((item) => item.json);
		expect((summary.days as IDataObject[]).length).toBe(31);
	});
});
