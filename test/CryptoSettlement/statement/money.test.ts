/**
 * Money in the statement (docs/statement.md, "Money: one reading, one rounding"; issue #69 point 4),
 * through n8n-core's engine against a local HTTP service: each amount rounded once to its currency's
 * minor unit, half away from zero on its decimal text, a record's lines netting exactly (a refund
 * credits what its payout and fee debited), and the one reading of a stated amount, the same in the
 * statement and in Max per Day. Expected figures are written here by hand.
 */
import type { IDataObject } from 'n8n-workflow';
import { tronAddress } from '../../helpers/addresses';
import { runNode, serversClosedAfterEach } from '../../helpers/node';
import {
	envelope,
	localService,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';
import { onlyDateAt } from '../../helpers/clock';

const DAY = '2026-03-10';
const at = (minutes: number) =>
	new Date(Date.parse(`${DAY}T00:00:00Z`) + minutes * 60_000).toISOString();
const servers = serversClosedAfterEach();

const reversed = (id: string, fields: IDataObject) => ({
	id,
	externalId: `x-${id}`,
	status: 'reversed',
	reason: 'bank refused',
	amount: 1,
	currency: 'ngn',
	bankName: 'Access Bank',
	accountNumber: '0123456789',
	createdAt: at(60),
	updatedAt: at(120),
	...fields,
});

/** A service listing `withdrawals` and `trades` on one page each, with the account's balances `balances`. */
async function statementService(
	withdrawals: IDataObject[],
	trades: IDataObject[],
	balances: IDataObject,
) {
	const server = await localService((seen) => {
		const listed =
			seen.path === '/v1/payments/withdrawals'
				? withdrawals
				: seen.path === '/v1/trades/transactions'
					? trades
					: seen.path === '/v1/trades/wallets'
						? [{ id: 'w1', label: 'alice', address: 'addr-1' }]
						: undefined;
		if (!listed) return { status: 200, body: { success: true, data: { fiatWallets: balances } } };
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
	return {
		appId: 'app-money',
		appSecret: 'money-secret',
		environment: 'sandbox',
		baseUrl: server.baseUrl,
	};
}

async function statement(credentials: IDataObject, parameters: IDataObject) {
	const run = await runNode(
		{ resource: 'statement', operation: 'get', day: DAY, ...parameters },
		{ credentials },
	);
	if (run.error) throw new Error(`${run.error.message} — ${run.error.description ?? ''}`);
	return run.items;
}

describe("a record's lines are rounded once and net exactly (#69 point 4)", () => {
	it('a reversed withdrawal of payoutAmount 100.005 and fee 0.005 debits 100.01 and 0.01 and refunds exactly 100.02: the day nets 0 and balances', async () => {
		const credentials = await statementService(
			[reversed('r1', { payoutAmount: 100.005, fee: 0.005 })],
			[],
			{ ngn: 1000 },
		);
		const lines = (await statement(credentials, { output: 'lines' })).map((item) => item.json);
		expect(lines.map((line) => [line.kind, line.amount])).toEqual([
			['bankWithdrawal', -100.01],
			['withdrawalFee', -0.01],
			['refund', 100.02],
		]);
		// In whole kobo, the lines net to nothing.
		expect(lines.reduce((sum, line) => sum + Math.round(Number(line.amount) * 100), 0)).toBe(0);
		const [summary] = (
			await statement(credentials, {
				output: 'summary',
				options: { openingBalances: { NGN: 1000 } },
			})
		).map((item) => item.json);
		expect(summary.net).toEqual({ NGN: 0 });
		expect(summary.closingBalances).toEqual({ NGN: 1000 });
		expect(summary.balanceCheck).toMatchObject({ result: 'balanced' });
		const [file] = await statement(credentials, { output: 'file' });
		const rows = Buffer.from(String(file.binary?.data?.data), 'base64')
			.toString('utf8')
			.trimEnd()
			.split('\r\n')
			.slice(1);
		expect(rows.map((row) => row.split(',')[1])).toEqual(['-100.01', '-0.01', '100.02']);
	});

	it.each([
		// [payoutAmount, fee, payout line, fee line, refund]
		[1.005, 0.015, -1.01, -0.02, 1.03],
		['2.675', '0.125', -2.68, -0.13, 2.81],
		[0.004, 0.004, 0, 0, 0],
		[10000.045, 50, -10000.05, -50, 10050.05],
	])(
		'payoutAmount %p and fee %p: lines %p, %p and refund %p, half away from zero on the decimal text',
		async (payoutAmount, fee, payout, feeLine, refund) => {
			const credentials = await statementService([reversed('r2', { payoutAmount, fee })], [], {
				ngn: 0,
			});
			const lines = (await statement(credentials, { output: 'lines' })).map((item) => item.json);
			const amountOf = (kind: string) => lines.find((line) => line.kind === kind)?.amount ?? 0;
			expect([amountOf('bankWithdrawal'), amountOf('withdrawalFee'), amountOf('refund')]).toEqual([
				payout,
				feeLine,
				refund,
			]);
			expect(lines.reduce((sum, line) => sum + Math.round(Number(line.amount) * 100), 0)).toBe(0);
		},
	);

	it('a deposit crediting 20000.005 with a fee of 100.005: the deposit line credits 20100.02 and the fee line debits 100.01, netting the credit rounded once (20000.01)', async () => {
		const deposit = {
			id: 'd1',
			status: 'completed',
			amount: 20_000.005,
			feeAmount: 100.005,
			amountReceived: 14,
			currency: 'ngn',
			wallet: 'w1',
			address: 'addr-1',
			createdAt: at(90),
			updatedAt: at(90),
		};
		const credentials = await statementService([], [deposit], { ngn: 20_000.01 });
		const lines = (await statement(credentials, { output: 'lines' })).map((item) => item.json);
		expect(lines.map((line) => [line.kind, line.amount])).toEqual([
			['deposit', 20_100.02],
			['depositFee', -100.01],
		]);
		const [summary] = (
			await statement(credentials, { output: 'summary', options: { openingBalances: { NGN: 0 } } })
		).map((item) => item.json);
		expect(summary.net).toEqual({ NGN: 20_000.01 });
		expect(summary.balanceCheck).toMatchObject({ result: 'balanced' });
	});
});

describe('one reading of a stated amount: the statement and Max per Day read the same text the same way (#69 "one reading of each value")', () => {
	const NOW = Date.parse(`${DAY}T12:00:00Z`);
	beforeEach(() => {
		onlyDateAt(NOW);
	});
	afterEach(() => jest.useRealTimers());

	/** Max per Day over today's list of one withdrawal stating `amount` (USD), before a payment of 10 USD under a limit of 100,000. */
	async function maxPerDay(amount: unknown) {
		const withdrawals = withdrawalService();
		const server = await localService((request: Seen): Reply => {
			if (request.method === 'GET' && request.path === '/v1/payments/withdrawals') {
				const listed = [{ id: 'odd', status: 'completed', amount, createdAt: at(60) }];
				return {
					status: 200,
					body: { ...envelope(listed), meta: { page: 1, hasNextPage: false, totalDocs: 1 } },
					headers: { date: new Date(NOW).toUTCString() },
				};
			}
			return withdrawals.handler(request);
		});
		servers.push(server);
		const run = await runNode(
			{
				resource: 'withdrawal',
				operation: 'createCrypto',
				token: 'USDT',
				network: 'TRC20',
				walletAddress: tronAddress('one-reading'),
				amountType: 'usd',
				amount: 10,
				externalId: 'one-reading-1',
			},
			{ credentials: { baseUrl: server.baseUrl, maxPerDayUsd: 100_000 } },
		);
		return run.error?.message;
	}

	it.each([
		['12.5', 'read'],
		[' 40 ', 'read'],
		['1e3', 'refused'],
		['0x10', 'refused'],
		['1,000', 'refused'],
		['-3', 'refused'],
		['Infinity', 'refused'],
	])('the text %p is %s by both', async (text, outcome) => {
		const refusal = await maxPerDay(text);
		const credentials = await statementService(
			[reversed('odd', { status: 'completed', payoutAmount: text, fee: 0 })],
			[],
			{ ngn: 0 },
		);
		const [line] = (await statement(credentials, { output: 'lines' })).map((item) => item.json);
		if (outcome === 'read') {
			expect(refusal).toBeUndefined();
			expect(line.amount).toBe(-Number(text));
			expect(line.exception).not.toMatch(/states no payout/);
		} else {
			expect(refusal).toBe(
				`Max per day could not be checked, so nothing is sent: withdrawal odd states an amount of ${JSON.stringify(text)}, which is not a USD amount of 0 or more, so it cannot be valued`,
			);
			expect(line.amount).toBe(0);
			expect(String(line.exception)).toMatch(
				/^The record states no payout and fee the node can read \(payoutAmount /,
			);
		}
	});
});
