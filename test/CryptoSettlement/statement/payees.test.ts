/**
 * The Payee of a statement line by default (docs/statement.md, "The files"; issue 71 point 4): the
 * vendor or customer the record names, before any reference: a bank payout's account holder as the
 * saved bank accounts list gives it, a crypto payout's saved address label, a deposit's wallet label.
 * Payee Names still overrides. The two lists are read once per node run, whatever the number of
 * items; a list that cannot be read leaves the references, and the statement is still made. Through
 * n8n-core's engine against a local service; the files read back by csv-parse and node-ofx-parser.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { parse as parseOfx } from 'node-ofx-parser';
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

const WITHDRAWALS = [
	// A bank payout to a saved account, by its id.
	{
		id: 'n1',
		externalId: 'INV-1',
		status: 'completed',
		amount: 20,
		payoutAmount: 29_950,
		fee: 50,
		currency: 'ngn',
		bankAccount: 'ba1',
		bankName: 'Access Bank',
		accountNumber: '0123456789',
		createdAt: at(60),
	},
	// A bank payout whose record names no account id: found by its bank and number.
	{
		id: 'n2',
		externalId: 'INV-2',
		status: 'completed',
		amount: 10,
		payoutAmount: 14_950,
		fee: 50,
		currency: 'ngn',
		bankName: 'GTBank',
		accountNumber: '9876543210',
		createdAt: at(70),
	},
	// A crypto payout to a saved address (an EVM one, written in another letter case).
	{
		id: 'u1',
		externalId: 'INV-3',
		status: 'completed',
		amount: 12.5,
		payoutAmount: 11,
		fee: 1.5,
		cryptoAmount: '12.5',
		token: 'USDT',
		network: 'BSC',
		currency: 'usd',
		walletAddress: '0xAbC0000000000000000000000000000000000001',
		createdAt: at(80),
	},
	// A crypto payout to an address not saved: its reference.
	{
		id: 'u2',
		externalId: 'INV-4',
		status: 'completed',
		amount: 5,
		payoutAmount: 3.5,
		fee: 1.5,
		cryptoAmount: '5',
		token: 'USDT',
		network: 'TRC20',
		currency: 'usd',
		walletAddress: 'TNotSaved',
		createdAt: at(90),
	},
];
const BANK_ACCOUNTS = [
	{
		id: 'ba1',
		accountName: 'Acme Supplies Ltd',
		accountNumber: '0123456789',
		bankName: 'Access Bank',
		currency: 'ngn',
	},
	{
		id: 'ba2',
		accountName: 'Bolu Logistics',
		accountNumber: '9876543210',
		bankName: 'GTBank',
		currency: 'ngn',
	},
];
const PAYOUT_ADDRESSES = [
	{
		id: 'pa1',
		address: '0xabc0000000000000000000000000000000000001',
		token: 'USDT',
		network: 'BSC',
		label: 'Chidi Hardware',
	},
];

async function service(options: { lists?: boolean } = {}) {
	const server = await localService((seen) => {
		if (seen.path === '/v1/payments/withdrawals') return page(WITHDRAWALS);
		if (seen.path === '/v1/trades/transactions') return page([]);
		if (seen.path === '/v1/trades/wallets') return page([]);
		if (seen.path === '/v1/payments/integration-banks')
			return options.lists === false
				? { status: 404, body: { success: false, message: 'not found' } }
				: page(BANK_ACCOUNTS);
		if (seen.path === '/v1/payments/wallet-addresses')
			return options.lists === false
				? { status: 404, body: { success: false, message: 'not found' } }
				: page(PAYOUT_ADDRESSES);
		if (seen.path === '/v1/users/fetch-integration')
			return {
				status: 200,
				body: { success: true, data: { id: 'acc1', fiatWallets: { ngn: 100_000, usd: 500 } } },
			};
		return { status: 404, body: { success: false, message: 'not found' } };
	});
	servers.push(server);
	return server;
}

const fileText = (item: INodeExecutionData) =>
	Buffer.from(String(item.binary?.data?.data), 'base64').toString('utf8');
const payees = (items: INodeExecutionData[]) =>
	Object.fromEntries(
		items.flatMap((item) =>
			(parseCsv(fileText(item), { columns: true }) as Array<Record<string, string>>).map((row) => [
				row.Reference,
				row.Payee,
			]),
		),
	);

describe("a line's Payee is the vendor the record names, before any reference", () => {
	it("the bank account's holder, the payout address's saved label; a payout to an address not saved keeps its reference; the fee lines too", async () => {
		const server = await service();
		const run = await runNode(
			{ resource: 'statement', operation: 'get', day: DAY, output: 'file' },
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(run.error).toBeUndefined();
		expect(payees(run.items)).toEqual({
			'bankWithdrawal:n1': 'Acme Supplies Ltd',
			'withdrawalFee:n1': 'Acme Supplies Ltd',
			'bankWithdrawal:n2': 'Bolu Logistics',
			'withdrawalFee:n2': 'Bolu Logistics',
			'cryptoWithdrawal:u1': 'Chidi Hardware',
			'withdrawalFee:u1': 'Chidi Hardware',
			'cryptoWithdrawal:u2': 'INV-4',
			'withdrawalFee:u2': 'INV-4',
		});
		const lines = await runNode(
			{ resource: 'statement', operation: 'get', day: DAY, output: 'lines' },
			{ credentials: { baseUrl: server.baseUrl } },
		);
		const n1 = lines.items
			.map((item) => item.json)
			.find((line) => line.lineKey === 'bankWithdrawal:n1');
		expect([n1?.payee, n1?.reference]).toEqual(['Acme Supplies Ltd', 'INV-1']);
	});

	it('Payee Names still overrides; the OFX NAME is the same Payee', async () => {
		const server = await service();
		const csv = await runNode(
			{
				resource: 'statement',
				operation: 'get',
				day: DAY,
				output: 'file',
				options: { payeeNames: { 'INV-1': 'ACME (our name)' } },
			},
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(payees(csv.items)['bankWithdrawal:n1']).toBe('ACME (our name)');
		expect(payees(csv.items)['bankWithdrawal:n2']).toBe('Bolu Logistics');
		const ofx = await runNode(
			{
				resource: 'statement',
				operation: 'get',
				day: DAY,
				output: 'file',
				options: { fileFormat: 'ofx', fileCurrency: 'USD' },
			},
			{ credentials: { baseUrl: server.baseUrl } },
		);
		const statement = (
			((parseOfx(fileText(ofx.items[0])) as { OFX: IDataObject }).OFX.BANKMSGSRSV1 as IDataObject)
				.STMTTRNRS as IDataObject
		).STMTRS as IDataObject;
		const transactions = (statement.BANKTRANLIST as IDataObject).STMTTRN as Array<
			Record<string, string>
		>;
		expect(transactions.map((t) => [t.FITID, t.NAME])).toEqual([
			['cryptoWithdrawal:u1', 'Chidi Hardware'],
			['withdrawalFee:u1', 'Chidi Hardware'],
			['cryptoWithdrawal:u2', 'INV-4'],
			['withdrawalFee:u2', 'INV-4'],
		]);
	});

	it('the two lists are read once per run for every item; lists that cannot be read leave the references and the statement is made', async () => {
		const server = await service();
		const run = await runNode(
			{ resource: 'statement', operation: 'get', day: DAY, output: 'file' },
			{ credentials: { baseUrl: server.baseUrl }, items: [{}, {}, {}] },
		);
		expect(run.error).toBeUndefined();
		expect(run.items.length).toBe(6);
		expect([
			server.sent('GET', '/payments/integration-banks').length,
			server.sent('GET', '/payments/wallet-addresses').length,
		]).toEqual([1, 1]);
		const without = await service({ lists: false });
		const bare = await runNode(
			{ resource: 'statement', operation: 'get', day: DAY, output: 'file' },
			{ credentials: { baseUrl: without.baseUrl } },
		);
		expect(bare.error).toBeUndefined();
		expect(Object.values(payees(bare.items))).toEqual([
			'INV-1',
			'INV-1',
			'INV-2',
			'INV-2',
			'INV-3',
			'INV-3',
			'INV-4',
			'INV-4',
		]);
	});
});
