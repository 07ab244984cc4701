/**
 * Every line's words agree with its amount (docs/statement.md, "Lines"; issue 71 point 3): a payout's
 * line says what left the balance on it (the payout, in its currency), and separately what the record
 * says the recipient was sent and in which unit; a fee line names the line of the payment it belongs
 * to; and both say the whole they make, so an accountant matching a bill of the gross amount sees
 * which lines make it up. Through n8n-core's engine against a local service (exact words), and over a
 * seeded day of the fake API (every line that moved money names its own amount). lineKeys unchanged.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi } from '../../../fake-api/src/server';
import { runNode, serversClosedAfterEach } from '../../helpers/node';
import { localService } from '../../helpers/local-service';

const DAY = '2026-03-10';
const at = (minutes: number) =>
	new Date(Date.parse(`${DAY}T00:00:00Z`) + minutes * 60_000).toISOString();
const servers = serversClosedAfterEach();

const page = (data: IDataObject[]) => ({
	status: 200,
	body: {
		success: true,
		message: 'ok',
		data,
		meta: { page: 1, pages: 1, hasNextPage: false, totalDocs: data.length },
	},
});

async function linesOf(lists: {
	transactions?: IDataObject[];
	withdrawals?: IDataObject[];
	wallets?: IDataObject[];
}) {
	const server = await localService((seen) => {
		if (seen.path === '/v1/trades/transactions') return page(lists.transactions ?? []);
		if (seen.path === '/v1/payments/withdrawals') return page(lists.withdrawals ?? []);
		if (seen.path === '/v1/trades/wallets') return page(lists.wallets ?? []);
		if (seen.path === '/v1/trades/assets')
			return page([
				{ id: 'a1', identifier: 'USDT_TRX_TEST', symbol: 'USDT', network: 'Tron Shasta' },
			]);
		return {
			status: 200,
			body: { success: true, data: { fiatWallets: { ngn: 100_000, usd: 500 } } },
		};
	});
	servers.push(server);
	const run = await runNode(
		{ resource: 'statement', operation: 'get', day: DAY, output: 'lines' },
		{ credentials: { baseUrl: server.baseUrl } },
	);
	if (run.error) throw new Error(run.error.message);
	return Object.fromEntries(run.items.map((item) => [String(item.json.lineKey), item.json]));
}

describe("every line's words agree with its amount", () => {
	it('a crypto payout: the payout that left the balance, what the record says was sent (token and network), the fee on its own line, the whole', async () => {
		const lines = await linesOf({
			withdrawals: [
				{
					id: 'u1',
					externalId: 'INV-1',
					status: 'completed',
					amount: 12.5,
					payoutAmount: 11,
					fee: 1.5,
					cryptoAmount: '12.5',
					token: 'USDT',
					network: 'TRC20',
					currency: 'usd',
					walletAddress: 'TRecipient1',
					createdAt: at(60),
				},
			],
		});
		expect(Object.keys(lines)).toEqual(['cryptoWithdrawal:u1', 'withdrawalFee:u1']);
		expect([lines['cryptoWithdrawal:u1'].amount, lines['cryptoWithdrawal:u1'].description]).toEqual(
			[
				-11,
				"Crypto withdrawal to TRecipient1: 11.00 USD paid out, what the recipient receives (the record's crypto amount: 12.5 USDT on TRC20); with its fee 1.50 USD (line withdrawalFee:u1), 12.50 USD in all; asked as 12.5 USD",
			],
		);
		expect([lines['withdrawalFee:u1'].amount, lines['withdrawalFee:u1'].description]).toEqual([
			-1.5,
			'Fee of the withdrawal to TRecipient1 (line cryptoWithdrawal:u1): 1.50 USD; with its payout 11.00 USD, 12.50 USD in all',
		]);
	});

	it('a refunded bank payout: the refund names what came back and the lines it gives back', async () => {
		const lines = await linesOf({
			withdrawals: [
				{
					id: 'n1',
					externalId: 'INV-2',
					status: 'reversed',
					reason: 'account closed',
					amount: 20,
					payoutAmount: 29_950,
					fee: 50,
					currency: 'ngn',
					bankName: 'Access Bank',
					accountNumber: '0123456789',
					createdAt: at(60),
					updatedAt: at(120),
				},
			],
		});
		expect(
			Object.values(lines).map((line) => [line.lineKey, line.amount, line.description]),
		).toEqual([
			[
				'bankWithdrawal:n1',
				-29_950,
				'Bank withdrawal to Access Bank 0123456789: 29950.00 NGN paid out, what the recipient receives; with its fee 50.00 NGN (line withdrawalFee:n1), 30000.00 NGN in all; asked as 20 USD',
			],
			[
				'withdrawalFee:n1',
				-50,
				'Fee of the withdrawal to Access Bank 0123456789 (line bankWithdrawal:n1): 50.00 NGN; with its payout 29950.00 NGN, 30000.00 NGN in all',
			],
			[
				'refund:n1',
				30_000,
				'Refund of the reversed withdrawal to Access Bank 0123456789: 30000.00 NGN back in the balance, its payout 29950.00 NGN (line bankWithdrawal:n1) and fee 50.00 NGN (line withdrawalFee:n1)',
			],
		]);
	});

	it('a deposit: the value converted on its line, what it was converted from, the fee line naming it, what was credited', async () => {
		const lines = await linesOf({
			wallets: [
				{
					id: 'w1',
					label: 'shop-customer-1',
					address: 'TAddr1',
					asset: 'a1',
					identifier: 'USDT_TRX_TEST',
				},
			],
			transactions: [
				{
					id: 't1',
					wallet: 'w1',
					status: 'completed',
					currency: 'ngn',
					amount: 74_625,
					feeAmount: 375,
					amountReceived: 50,
					cryptoReceived: '50',
					rate: 1500,
					createdAt: at(60),
					updatedAt: at(61),
				},
				{
					id: 't2',
					wallet: 'w1',
					status: 'pending',
					currency: 'ngn',
					amountReceived: 10,
					cryptoReceived: '10',
					createdAt: at(90),
				},
			],
		});
		expect(
			Object.values(lines).map((line) => [line.lineKey, line.amount, line.description]),
		).toEqual([
			[
				'deposit:t1',
				75_000,
				'Deposit to wallet shop-customer-1: 75000.00 NGN converted from 50 USDT on Tron Shasta (50 USD at 1500 NGN per USD); less its platform fee 375.00 NGN (line depositFee:t1), 74625.00 NGN credited',
			],
			[
				'depositFee:t1',
				-375,
				'Platform fee of the deposit to wallet shop-customer-1 (line deposit:t1): 375.00 NGN of its 75000.00 NGN converted, 74625.00 NGN credited',
			],
			[
				'deposit:t2',
				0,
				'Deposit to wallet shop-customer-1: 10 USDT on Tron Shasta (10 USD) received, pending, not credited',
			],
		]);
	});

	it('on a seeded day, every line that moved money names its own amount in its currency, and every fee line names the line of its payment', async () => {
		const fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000 });
		try {
			fakeApi.seedDay({ day: DAY, records: 200 });
			const credentials = sandboxCredentials(fakeApi);
			const run = await runNode(
				{ resource: 'statement', operation: 'get', day: DAY, output: 'lines' },
				{ credentials },
			);
			expect(run.error).toBeUndefined();
			const lines = run.items.map((item) => item.json);
			const keys = new Set(lines.map((line) => String(line.lineKey)));
			const moved = lines.filter((line) => line.amount !== 0);
			expect(moved.length).toBeGreaterThan(50);
			const silent = moved.filter(
				(line) =>
					!String(line.description).includes(
						`${Math.abs(Number(line.amount)).toFixed(2)} ${String(line.currency)}`,
					),
			);
			expect(silent.map((line) => [line.lineKey, line.amount, line.description])).toEqual([]);
			for (const fee of lines.filter(
				(line) => line.kind === 'withdrawalFee' || line.kind === 'depositFee',
			)) {
				const named = /\(line ([A-Za-z]+:[^)]+)\)/.exec(String(fee.description))?.[1];
				expect(named && keys.has(named) && named.endsWith(`:${String(fee.recordId)}`)).toBe(true);
			}
		} finally {
			await fakeApi.close();
		}
	});
});
