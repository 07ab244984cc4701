/**
 * A movement is never dated before its record was created (docs/statement.md, "The day"; issue #69
 * point 5), through n8n-core's engine against a local service whose clocks disagree by minutes: the
 * records' `updatedAt` is stamped by another clock than their `createdAt`, behind it and ahead of it,
 * across midnight. The service lists a record only once it exists (its creation, on the service's
 * own clock), and shows it as it stood then; each day's statement is run at 00:05 the next day. Each
 * movement lands on exactly one of the two consecutive days' statements.
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode, serversClosedAfterEach } from '../../helpers/node';
import { localService } from '../../helpers/local-service';

const servers = serversClosedAfterEach();
const T = (iso: string) => Date.parse(iso);

/** A record as the service shows it from `from` (the service's real time) on. */
interface Version {
	from: number;
	record: IDataObject;
}

const bank = {
	externalId: 'p',
	amount: 10,
	currency: 'ngn',
	bankName: 'Access Bank',
	accountNumber: '0123456789',
};
const deposit = {
	amount: 15_000,
	feeAmount: 75,
	amountReceived: 10,
	currency: 'ngn',
	wallet: 'w1',
	address: 'addr-1',
};

/** Each record's versions: created (pending), then its money moving, with updatedAt from a clock minutes off. */
const TRADES: Record<string, Version[]> = {
	// Created 00:10 on the 11th, credited at once; the other clock stamps the credit 23:50 on the 10th.
	'dep-behind': [
		{
			from: T('2026-03-11T00:10:00Z'),
			record: {
				...deposit,
				status: 'completed',
				createdAt: '2026-03-11T00:10:00.000Z',
				updatedAt: '2026-03-10T23:50:00.000Z',
			},
		},
	],
	// Created 23:50 on the 10th, credited 00:03 on the 11th (the other clock says 00:03 too, ahead).
	'dep-ahead': [
		{
			from: T('2026-03-10T23:50:00Z'),
			record: {
				...deposit,
				status: 'pending',
				createdAt: '2026-03-10T23:50:00.000Z',
				updatedAt: '2026-03-10T23:50:00.000Z',
			},
		},
		{
			from: T('2026-03-11T00:03:00Z'),
			record: {
				...deposit,
				status: 'completed',
				createdAt: '2026-03-10T23:50:00.000Z',
				updatedAt: '2026-03-11T00:03:00.000Z',
			},
		},
	],
	// Created at noon on the 10th, credited at once; the other clock says 11:58.
	'dep-noon': [
		{
			from: T('2026-03-10T12:00:00Z'),
			record: {
				...deposit,
				status: 'completed',
				createdAt: '2026-03-10T12:00:00.000Z',
				updatedAt: '2026-03-10T11:58:00.000Z',
			},
		},
	],
};
const WITHDRAWALS: Record<string, Version[]> = {
	// Asked 00:10 on the 11th and refused at once; the other clock stamps the refund 23:55 on the 10th.
	'wd-behind': [
		{
			from: T('2026-03-11T00:10:00Z'),
			record: {
				...bank,
				status: 'rejected',
				payoutAmount: 5_000,
				fee: 50,
				createdAt: '2026-03-11T00:10:00.000Z',
				updatedAt: '2026-03-10T23:55:00.000Z',
			},
		},
	],
	// Asked 23:58 on the 10th, reversed 00:02 on the 11th.
	'wd-ahead': [
		{
			from: T('2026-03-10T23:58:00Z'),
			record: {
				...bank,
				status: 'pending',
				payoutAmount: 7_000,
				fee: 50,
				createdAt: '2026-03-10T23:58:00.000Z',
				updatedAt: '2026-03-10T23:58:00.000Z',
			},
		},
		{
			from: T('2026-03-11T00:02:00Z'),
			record: {
				...bank,
				status: 'reversed',
				payoutAmount: 7_000,
				fee: 50,
				createdAt: '2026-03-10T23:58:00.000Z',
				updatedAt: '2026-03-11T00:02:00.000Z',
			},
		},
	],
};

/** The records as the service lists them at `now` (its clock): those that exist, each as it stood. */
function listedAt(versions: Record<string, Version[]>, now: number): IDataObject[] {
	return Object.entries(versions).flatMap(([id, history]) => {
		const shown = history.filter((version) => version.from <= now).pop();
		return shown
			? [
					{
						id,
						...shown.record,
						...('externalId' in shown.record ? { externalId: `x-${id}` } : {}),
					},
				]
			: [];
	});
}

/** The lines of `day` that moved money, read at `now` (the service's clock). */
async function movedOn(day: string, now: number): Promise<string[]> {
	const server = await localService((seen) => {
		const listed =
			seen.path === '/v1/payments/withdrawals'
				? listedAt(WITHDRAWALS, now)
				: seen.path === '/v1/trades/transactions'
					? listedAt(TRADES, now)
					: seen.path === '/v1/trades/wallets'
						? [{ id: 'w1', label: 'alice', address: 'addr-1' }]
						: undefined;
		if (!listed) return { status: 200, body: { success: true, data: { fiatWallets: { ngn: 0 } } } };
		return {
			status: 200,
			body: {
				success: true,
				message: 'ok',
				data: listed,
				meta: { page: 1, pages: 1, hasNextPage: false, totalDocs: listed.length },
			},
		};
	});
	servers.push(server);
	const run = await runNode(
		{ resource: 'statement', operation: 'get', day, output: 'lines' },
		{ credentials: { baseUrl: server.baseUrl } },
	);
	if (run.error) throw new Error(`${run.error.message} — ${run.error.description ?? ''}`);
	return run.items
		.map((item) => item.json)
		.filter((line) => line.amount !== 0)
		.map((line) => String(line.lineKey));
}

describe('a movement dated before its record existed is on no statement (#69 point 5): never dated before its creation', () => {
	it('with updatedAt minutes behind and ahead of createdAt, across midnight, each movement is on exactly one of two consecutive days, each day run at 00:05 the next day', async () => {
		const tenth = await movedOn('2026-03-10', T('2026-03-11T00:05:00Z'));
		const eleventh = await movedOn('2026-03-11', T('2026-03-12T00:05:00Z'));
		const movements = [
			'deposit:dep-behind',
			'depositFee:dep-behind',
			'deposit:dep-ahead',
			'depositFee:dep-ahead',
			'deposit:dep-noon',
			'depositFee:dep-noon',
			'bankWithdrawal:wd-behind',
			'withdrawalFee:wd-behind',
			'refund:wd-behind',
			'bankWithdrawal:wd-ahead',
			'withdrawalFee:wd-ahead',
			'refund:wd-ahead',
		];
		const where = Object.fromEntries(
			movements.map((key) => [
				key,
				[tenth.includes(key) && '2026-03-10', eleventh.includes(key) && '2026-03-11']
					.filter(Boolean)
					.join(','),
			]),
		);
		expect(where).toEqual({
			// Created on the 11th: on the 11th, whatever the other clock says of its update.
			'deposit:dep-behind': '2026-03-11',
			'depositFee:dep-behind': '2026-03-11',
			'bankWithdrawal:wd-behind': '2026-03-11',
			'withdrawalFee:wd-behind': '2026-03-11',
			'refund:wd-behind': '2026-03-11',
			// Credited and refunded after midnight: on the 11th; asked before it: on the 10th.
			'deposit:dep-ahead': '2026-03-11',
			'depositFee:dep-ahead': '2026-03-11',
			'bankWithdrawal:wd-ahead': '2026-03-10',
			'withdrawalFee:wd-ahead': '2026-03-10',
			'refund:wd-ahead': '2026-03-11',
			// Updated "before" its creation within the day: on that day.
			'deposit:dep-noon': '2026-03-10',
			'depositFee:dep-noon': '2026-03-10',
		});
		// Nothing else moved, and nothing is on both days.
		expect([...tenth, ...eleventh].sort()).toEqual([...movements].sort());
	});

	it('the 10th read again later gives the same movements as at 00:05 on the 11th: a record created on the 11th never moves onto it', async () => {
		expect((await movedOn('2026-03-10', T('2026-03-12T00:05:00Z'))).sort()).toEqual(
			(await movedOn('2026-03-10', T('2026-03-11T00:05:00Z'))).sort(),
		);
	});
});
