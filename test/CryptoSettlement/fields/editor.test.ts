/**
 * The editor as someone moving money meets it (issue 19): units on amount fields, money-routing
 * values that are chosen and never assumed, amounts kept as typed, and errors worded with the
 * labels the editor shows, raised as the node's own errors when nothing reached the service.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { loadPackage } from '../../helpers';
import {
	api,
	cryptoWithdrawal,
	fail,
	noWithdrawalsYet,
	ok,
	recordRequests,
	rl,
	runNode,
	setupNock,
} from '../../helpers/node';

setupNock();

async function properties(): Promise<INodeProperties[]> {
	const { nodeTypes } = await loadPackage();
	return nodeTypes.getByNameAndVersion('n8n-nodes-crypto-settlement.cryptoSettlement').description
		.properties;
}

/** The entries of a parameter shown for this resource → operation. */
async function fieldsOf(
	resource: string,
	operation: string,
	name: string,
): Promise<INodeProperties[]> {
	return (await properties()).filter(
		(p) =>
			p.name === name &&
			(p.displayOptions?.show?.resource ?? []).includes(resource) &&
			(p.displayOptions?.show?.operation ?? []).includes(operation),
	);
}

const bankWithdrawal = (overrides: IDataObject = {}): IDataObject => ({
	resource: 'withdrawal',
	operation: 'createBank',
	bankAccountId: rl('ba-1'),
	amount: '25.50',
	externalId: 'payout-1',
	...overrides,
});

describe('1. the bank withdrawal amount says its unit', () => {
	test("Create Bank's amount is labelled 'Amount (USD)' and says the service converts it to NGN or GHS", async () => {
		const [amount] = await fieldsOf('withdrawal', 'createBank', 'amount');
		expect(amount.displayName).toBe('Amount (USD)');
		expect(amount.description).toMatch(
			/^USD value to pay out: a decimal number .* The service converts it to the bank account's currency \(NGN or GHS\)/,
		);
		expect(amount.description).not.toMatch(/confirm with the service/);
		const [swap] = await fieldsOf('currency', 'swap', 'amount');
		expect(swap.displayName).toBe('Amount');
		expect(swap.description).toMatch(/'From' currency/);
	});

	test('the amount is sent as the USD number typed', async () => {
		noWithdrawalsYet();
		const scope = api()
			.post(
				'/payments/withdraw/bank/ba-1',
				(body) => body.amount === 25.5 && body.externalId === 'payout-1',
			)
			.reply(200, ok({ id: 'w-1' }));
		const run = await runNode(bankWithdrawal({ returnFullRecord: false }));
		expect(run.error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});
});

describe('2. money-routing values are chosen, never assumed or rounded', () => {
	test('Network and Fee Level are required and have no default', async () => {
		const all = await properties();
		const routing = all.filter((p) => p.name === 'network' || p.name === 'feeLevel');
		expect(routing.length).toBe(3);
		for (const field of routing) {
			expect(field.required).toBe(true);
			expect(field.default).toBe('');
			expect((field.options ?? []).map((o) => (o as { value: string }).value)).not.toContain('');
		}
	});

	test('amount fields are text fields: nothing rounds them on blur', async () => {
		const all = await properties();
		const amounts = all.filter((p) =>
			['amount', 'cryptoAmount', 'amountInUSD', 'cryptoReceived'].includes(p.name),
		);
		expect(amounts.length).toBe(6);
		for (const field of amounts) {
			expect(field.type).toBe('string');
			expect(field.default).toBe('');
			expect(field.description).toMatch(/Extra decimals are refused, never rounded/);
		}
		// No number field of the node rounds what is typed.
		for (const field of all) expect(field.typeOptions?.numberPrecision).toBeUndefined();
	});

	test('a USDT withdrawal without a chosen network does not run, and nothing is sent', async () => {
		const requests = recordRequests();
		const withoutNetwork = cryptoWithdrawal();
		delete withoutNetwork.network;
		await expect(runNode(withoutNetwork)).rejects.toThrow(/Parameter "Network" is required/);
		expect(requests.count()).toBe(0);
	});

	test('a BTC withdrawal without a chosen fee level does not run, and nothing is sent', async () => {
		const requests = recordRequests();
		const btc = cryptoWithdrawal({ token: 'BTC', network: undefined });
		delete btc.network;
		await expect(runNode(btc)).rejects.toThrow(/Parameter "Fee Level" is required/);
		expect(requests.count()).toBe(0);
	});

	test('a network from an expression that resolves empty is refused by the node, naming the field', async () => {
		const requests = recordRequests();
		const run = await runNode(cryptoWithdrawal({ network: '={{ $json.network }}' }), {
			items: [{}],
		});
		expect(run.error?.message).toBe("'Network' is required");
		expect(requests.count()).toBe(0);
	});

	test.each([
		[
			'Amount (USD) 10.123 typed as text',
			cryptoWithdrawal({ amount: '10.123' }),
			/^'Amount \(USD\)' must have at most 2 decimal places \(it is never rounded\), received "10\.123"$/,
		],
		[
			'Crypto Amount with 9 decimals',
			cryptoWithdrawal({ amountType: 'crypto', cryptoAmount: '0.123456789' }),
			/^'Crypto Amount' must have at most 8 decimal places/,
		],
		[
			'a bank withdrawal of 10.123',
			bankWithdrawal({ amount: '10.123' }),
			/^'Amount \(USD\)' must have at most 2 decimal places/,
		],
		[
			'a swap of 5.555',
			{ resource: 'currency', operation: 'swap', amount: '5.555', from: 'ngn', to: 'ghs' },
			/^'Amount' must have at most 2 decimal places/,
		],
		[
			'markup 2.125',
			{ resource: 'account', operation: 'setMarkupPercent', markupPercent: 2.125 },
			/^'Markup Percent' must have at most 2 decimal places/,
		],
	])('%s is refused, not rounded, and nothing is sent', async (_name, parameters, message) => {
		const requests = recordRequests();
		const run = await runNode(parameters);
		expect(run.error?.message).toMatch(message);
		expect(requests.count()).toBe(0);
	});
});

describe('6. errors speak the editor’s language', () => {
	test('a refusal before any request is the node’s own error: no HTTP code, not an API error', async () => {
		const run = await runNode(cryptoWithdrawal({ amount: '10.123' }));
		// The run data keeps the error's class by name (as the editor shows it) and its stack.
		expect(run.error?.name).toBe('NodeOperationError');
		expect(run.error?.stack).toMatch(/^NodeOperationError: 'Amount \(USD\)' must have/);
		expect((run.error as { httpCode?: unknown }).httpCode).toBeUndefined();
		expect(run.error?.description).toBe(
			"Fix 'Amount (USD)' for row 1 (order-1, n8n item 0). Nothing was sent to the service for this item.",
		);
		expect(run.error?.context?.itemIndex).toBe(0);
	});

	test('a batch refusal is the node’s own error too, and names every invalid item by label', async () => {
		const requests = recordRequests();
		const run = await runNode(
			cryptoWithdrawal({ amount: '={{ $json.amount }}', externalId: '={{ $json.ref }}' }),
			{
				items: [
					{ amount: '5', ref: 'p-1' },
					{ amount: '1.234', ref: 'p-2' },
				],
			},
		);
		expect(run.error?.name).toBe('NodeOperationError');
		expect(run.error?.message).toMatch(
			/^1 of 2 rows are invalid, so nothing was sent: row 2( \([^)]*\))?: 'Amount \(USD\)' must have at most 2 decimal places/,
		);
		expect(requests.count()).toBe(0);
	});

	test('an error from the service stays an API error with its HTTP code', async () => {
		api().get('/trades/wallets/w1').reply(404, fail(404, 'wallet not found'));
		const run = await runNode({ resource: 'wallet', operation: 'get', walletId: rl('w1') });
		expect(run.error?.name).toBe('NodeApiError');
		expect((run.error as { httpCode?: unknown }).httpCode).toBe('404');
	});

	test('under Continue On Fail the refused item carries the same node error', async () => {
		const run = await runNode(cryptoWithdrawal({ amount: '10.123' }), { continueOnFail: true });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.error).toMatch(/^'Amount \(USD\)' must have at most 2 decimal places/);
	});

	test('the hint about Token as an expression appears only when Token is an expression', async () => {
		const fixed = await runNode(cryptoWithdrawal({ token: 'USDC', network: 'TON' }));
		expect(fixed.error?.message).toBe(
			'\'Network\' must be one of ERC20, TRC20, BSC, SOL, BASE for USDC, received "TON"',
		);
		expect(fixed.error?.description).not.toMatch(/expression/);

		const mapped = await runNode(
			cryptoWithdrawal({
				token: '={{ "BTC" }}',
				network: '={{ "TRC20" }}',
				feeLevel: '={{ "low" }}',
			}),
		);
		expect(mapped.error?.message).toBe(
			'Invalid \'Network\': BTC does not support a network, received "TRC20"',
		);
		expect(mapped.error?.description).toMatch(
			/^Fix 'Network' \(set by an expression\) for row 1 \(order-1, n8n item 0\)\./,
		);
		expect(mapped.error?.description).toMatch(
			/'Token' is an expression here, so set 'Network' and 'Fee Level' to expressions too/,
		);
	});

	test('an option of Additional Fields is named by its label', async () => {
		const run = await runNode({
			resource: 'bankAccount',
			operation: 'create',
			bankId: '39',
			accountNumber: '1',
			additionalFields: { narration: 'x'.repeat(33) },
		});
		expect(run.error?.message).toMatch(/^'Narration' must be at most 32 characters \(got 33\)/);
	});
});

describe('5. Create Crypto and Create Bank output the created withdrawal', () => {
	const stored = {
		id: 'wd-7',
		externalId: 'order-7',
		status: 'pending',
		amount: 10,
		fee: 1,
		currency: 'usd',
		token: 'USDT',
		network: 'TRC20',
		walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
	};

	test('by default the record is read back by id: status, amounts, fee and destination, with externalId and alreadySubmitted', async () => {
		const lookup = api()
			.get('/payments/withdrawal/order-7')
			.reply(404, fail(404, 'withdrawal not found'));
		const post = api()
			.post('/payments/withdraw/address')
			.reply(200, ok({ id: 'wd-7' }, 'withdrawal initiated successfully'));
		const readBack = api().get('/payments/withdrawal/wd-7').reply(200, ok(stored));
		const run = await runNode(cryptoWithdrawal({ externalId: 'order-7' }));
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json)).toEqual([
			{
				...stored,
				amountCurrency: 'USD',
				feeCurrency: 'USD',
				settlementCurrency: 'USD',
				alreadySubmitted: false,
				message: 'withdrawal initiated successfully',
			},
		]);
		expect(lookup.isDone() && post.isDone() && readBack.isDone()).toBe(true);
	});

	test('a bank withdrawal is read back the same way', async () => {
		const record = {
			id: 'wd-8',
			externalId: 'payout-1',
			status: 'pending',
			amount: 25.5,
			fee: 50,
			currency: 'ngn',
			bankAccount: 'ba-1',
			payoutAmount: 38200,
		};
		noWithdrawalsYet(1);
		api()
			.post('/payments/withdraw/bank/ba-1')
			.reply(200, ok({ id: 'wd-8' }, 'withdrawal request received'));
		api().get('/payments/withdrawal/wd-8').reply(200, ok(record));
		const run = await runNode(bankWithdrawal());
		expect(run.items[0].json).toEqual({
			...record,
			amountCurrency: 'USD',
			feeCurrency: 'NGN',
			settlementCurrency: 'NGN',
			payoutCurrency: 'NGN',
			alreadySubmitted: false,
			message: 'withdrawal request received',
		});
	});

	test('a failed read-back never fails the created withdrawal: the id is output with the reason', async () => {
		noWithdrawalsYet(1);
		const post = api()
			.post('/payments/withdraw/address')
			.reply(200, ok({ id: 'wd-9' }, 'withdrawal initiated successfully'));
		api().get('/payments/withdrawal/wd-9').reply(404, fail(404, 'withdrawal not found'));
		const run = await runNode(cryptoWithdrawal({ externalId: 'order-9' }));
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toEqual({
			id: 'wd-9',
			externalId: 'order-9',
			alreadySubmitted: false,
			message: 'withdrawal initiated successfully',
			fullRecordUnavailable:
				'the withdrawal was created, but reading it back by id answered HTTP 404: withdrawal not found',
		});
		expect(post.isDone()).toBe(true);
	});

	test("with 'Return Full Record' off, only the creation answer is output and nothing is read back", async () => {
		noWithdrawalsYet(1);
		api()
			.post('/payments/withdraw/address')
			.reply(200, ok({ id: 'wd-10' }, 'withdrawal initiated successfully'));
		const requests = recordRequests();
		const run = await runNode(
			cryptoWithdrawal({ externalId: 'order-10', returnFullRecord: false }),
		);
		expect(run.items[0].json).toEqual({
			id: 'wd-10',
			externalId: 'order-10',
			alreadySubmitted: false,
			message: 'withdrawal initiated successfully',
		});
		expect(requests.count()).toBe(0);
	});

	test('a withdrawal found under its External ID is output as stored, with alreadySubmitted: true', async () => {
		api().get('/payments/withdrawal/order-7').reply(200, ok(stored));
		const run = await runNode(cryptoWithdrawal({ externalId: 'order-7' }));
		expect(run.items[0].json).toEqual({
			...stored,
			amountCurrency: 'USD',
			feeCurrency: 'USD',
			settlementCurrency: 'USD',
			alreadySubmitted: true,
			message: 'Already submitted: found under External ID order-7, not sent again',
		});
	});
});

describe('8. lists users can work with', () => {
	const page = (data: IDataObject[], hasNextPage: boolean, pageNumber: number) =>
		ok(data, 'ok', { page: pageNumber, pages: 2, hasNextPage });
	const withdrawals = [
		{
			id: 'a',
			externalId: 'ord-1',
			status: 'completed',
			token: 'USDT',
			createdAt: '2026-01-05T10:00:00Z',
		},
		{
			id: 'b',
			externalId: 'ord-2',
			status: 'pending',
			token: 'BTC',
			createdAt: '2026-01-06T10:00:00Z',
		},
		{
			id: 'c',
			externalId: 'ord-3',
			status: 'Completed',
			token: 'USDT',
			createdAt: '2026-02-01T10:00:00Z',
		},
		{
			id: 'd',
			externalId: 'ord-4',
			status: 'completed',
			token: null,
			createdAt: '2026-01-20T10:00:00Z',
		},
	];

	function twoPages(path: string) {
		api()
			.get(path)
			.query({ page: '1', size: '100' })
			.reply(200, page(withdrawals.slice(0, 2), true, 1));
		api()
			.get(path)
			.query({ page: '2', size: '100' })
			.reply(200, page(withdrawals.slice(2), false, 2));
	}

	test('Withdrawal → Get Many filters by status (any case), token and creation time across pages, and Limit counts the matches', async () => {
		twoPages('/payments/withdrawals');
		const run = await runNode({
			resource: 'withdrawal',
			operation: 'getAll',
			limit: 2,
			filters: {
				status: 'completed',
				token: 'USDT',
				createdAfter: '2026-01-01T00:00:00Z',
				createdBefore: '2026-03-01T00:00:00Z',
			},
		});
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.id)).toEqual(['a', 'c']);
	});

	test('Withdrawal → Get Many finds one External ID', async () => {
		twoPages('/payments/withdrawals');
		const run = await runNode({
			resource: 'withdrawal',
			operation: 'getAll',
			returnAll: true,
			filters: { externalId: 'ord-4' },
		});
		expect(run.items.map((item) => item.json.id)).toEqual(['d']);
	});

	test('Transaction → Get Many filters by status and creation time', async () => {
		twoPages('/trades/transactions');
		const run = await runNode({
			resource: 'transaction',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'completed', createdBefore: '2026-01-31T00:00:00Z' },
		});
		expect(run.items.map((item) => item.json.id)).toEqual(['a', 'd']);
	});

	test('a date that is not one is refused before any request', async () => {
		const requests = recordRequests();
		const run = await runNode({
			resource: 'withdrawal',
			operation: 'getAll',
			filters: { createdAfter: '={{ "last tuesday" }}' },
		});
		expect(run.error?.message).toBe(
			'\'Created After\' must be a date and time, such as 2026-01-31T00:00:00Z, received "last tuesday"',
		);
		expect(requests.count()).toBe(0);
	});

	test('the filters say they are applied after fetching', async () => {
		const [filters] = await fieldsOf('withdrawal', 'getAll', 'filters');
		expect(filters.description).toMatch(/^Applied by this node after fetching, not by the service/);
		expect((filters.options as INodeProperties[]).map((o) => o.name).sort()).toEqual([
			'createdAfter',
			'createdBefore',
			'externalId',
			'status',
			'token',
		]);
	});
});
