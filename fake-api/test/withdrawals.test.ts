import { ADDRESSES, cryptoWithdrawal, start, type Client } from './helpers';

describe('sandbox: crypto withdrawals (spec 4.6, 7.5)', () => {
	let client: Client;
	beforeEach(async () => {
		client = await start({
			balances: { usd: 1000 },
			rejectAddresses: ['TRoeER5eVVDSDJUQgM9FP8QoUmPHu7w6HE'],
			reverseAddresses: [ADDRESSES.ERC20],
		});
	});
	afterEach(() => client.sandbox.close());
	const usd = () => client.sandbox.state.account.fiatWallets.usd;

	it('initiates a withdrawal, debits the balance and completes it', async () => {
		const response = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ externalId: 'order-1' }),
		);
		expect(response.status).toBe(200);
		expect(response.body).toEqual({
			message: 'withdrawal initiated successfully',
			success: true,
			data: { id: expect.stringMatching(/^[0-9a-f]{24}$/) },
			meta: {},
			summary: {},
			stats: {},
		});
		expect(usd()).toBe(990);
		const id = response.body.data.id as string;
		const pending = await client.call('GET', `/payments/withdrawal/${id}`);
		expect(pending.body.data).toMatchObject({
			id,
			externalId: 'order-1',
			status: 'pending',
			amount: 10,
			amountCurrency: 'USD',
			fee: 1.5,
			feeCurrency: 'USD',
			currency: 'usd',
			cryptoAmount: 10,
			token: 'USDT',
			network: 'TRC20',
			walletAddress: ADDRESSES.TRC20,
			txHash: null,
			reason: null,
			payoutAmount: 8.5,
			payoutCurrency: 'USD',
		});
		await client.sandbox.settle();
		const byExternalId = await client.call('GET', '/payments/withdrawal/order-1');
		expect(byExternalId.status).toBe(200);
		expect(byExternalId.body.data).toMatchObject({
			id,
			status: 'completed',
			txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
		});
		expect(usd()).toBe(990);
	});

	it('the business fee bearer pays amount + fee', async () => {
		await client.call('PUT', '/users/withdrawal-fee-bearer', { withdrawalFeeBearer: 'business' });
		const response = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({
				token: 'BTC',
				network: undefined,
				feeLevel: 'high',
				walletAddress: ADDRESSES.BTC,
				amount: 100,
			}),
		);
		expect(response.status).toBe(200);
		expect(usd()).toBe(1000 - 100 - 7);
		const record = client.sandbox.state.withdrawals[0];
		expect(record).toMatchObject({
			token: 'BTC',
			network: null,
			feeLevel: 'high',
			fee: 7,
			payoutAmount: 100,
			cryptoAmount: 0.00166667,
		});
	});

	it('cryptoAmount is priced in USD', async () => {
		const response = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({
				amount: undefined,
				cryptoAmount: 0.001,
				token: 'BTC',
				network: undefined,
				feeLevel: 'low',
				walletAddress: ADDRESSES.BTC,
			}),
		);
		expect(response.status).toBe(200);
		expect(client.sandbox.state.withdrawals[0]).toMatchObject({ amount: 60, cryptoAmount: 0.001 });
		expect(usd()).toBe(940);
	});

	it('neither amount nor cryptoAmount: 422 with eight entries and no effect', async () => {
		const response = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ amount: undefined }),
		);
		expect(response.status).toBe(422);
		expect(response.body.message).toBe('validation errors');
		expect(response.body.errors).toHaveLength(8);
		for (const entry of response.body.errors) {
			expect(Object.keys(entry).sort()).toEqual(['field', 'location', 'message']);
			expect(entry.location).toBe('body');
		}
		expect(response.body.errors[0]).toEqual({
			message: 'either amount or cryptoAmount is required',
			field: 'amount',
			location: 'body',
		});
		expect(client.sandbox.state.withdrawals).toHaveLength(0);
		expect(usd()).toBe(1000);
	});

	it.each([
		[{ amount: 10, cryptoAmount: 1 }, 'amount'],
		[{ amount: 10.123 }, 'amount'],
		[{ amount: undefined, cryptoAmount: 0.123456789 }, 'cryptoAmount'],
		[{ token: 'XRP' }, 'token'],
		[{ network: undefined }, 'network'],
		[{ token: 'USDT', network: 'BASE' }, 'network'],
		[{ token: 'USDC', network: 'TON' }, 'network'],
		[{ token: 'BTC', network: 'ERC20', feeLevel: 'low', walletAddress: ADDRESSES.BTC }, 'network'],
		[{ token: 'BTC', network: undefined, walletAddress: ADDRESSES.BTC }, 'feeLevel'],
		[{ walletAddress: undefined }, 'walletAddress'],
		[{ walletAddress: 'not-an-address' }, 'walletAddress'],
		[{ pin: undefined }, 'pin'],
	])('422 for %j (field %s), nothing debited', async (overrides, field) => {
		const response = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal(overrides),
		);
		expect(response.status).toBe(422);
		expect(response.body.errors.map((entry: { field: string }) => entry.field)).toContain(field);
		expect(client.sandbox.state.withdrawals).toHaveLength(0);
		expect(usd()).toBe(1000);
	});

	it('a wrong PIN is a 400 with no effect', async () => {
		const response = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ pin: '9999' }),
		);
		expect(response.status).toBe(400);
		expect(response.body).toMatchObject({ success: false, errors: [], data: {} });
		expect(client.sandbox.state.withdrawals).toHaveLength(0);
		expect(usd()).toBe(1000);
	});

	it('a repeated externalId is a 400 that creates nothing', async () => {
		expect(
			(
				await client.call(
					'POST',
					'/payments/withdraw/address',
					cryptoWithdrawal({ externalId: 'dup' }),
				)
			).status,
		).toBe(200);
		const repeat = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ externalId: 'dup' }),
		);
		expect(repeat.status).toBe(400);
		expect(repeat.body.success).toBe(false);
		expect(client.sandbox.state.withdrawals).toHaveLength(1);
		expect(usd()).toBe(990);
	});

	it('insufficient balance is a 400 that debits nothing; balances never go negative', async () => {
		client.sandbox.setBalances({ usd: 25 });
		const results: number[] = [];
		for (let index = 0; index < 4; index++) {
			results.push(
				(await client.call('POST', '/payments/withdraw/address', cryptoWithdrawal({ amount: 10 })))
					.status,
			);
			expect(usd()).toBeGreaterThanOrEqual(0);
		}
		expect(results).toEqual([200, 200, 400, 400]);
		expect(usd()).toBe(5);
		expect(client.sandbox.state.withdrawals).toHaveLength(2);
	});

	it('limits and availability are 403; payout capacity is 400 (spec 7.5)', async () => {
		client.sandbox.setBalances({ usd: 1000000 });
		const below = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ amount: 1 }),
		);
		expect(below.status).toBe(403);
		const above = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ amount: 200000 }),
		);
		expect(above.status).toBe(403);
		const capacity = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ amount: 60000 }),
		);
		expect(capacity.status).toBe(400);
		expect(capacity.body.message).toMatch(/capacity/);
		const estimate = await client.call('POST', '/payments/estimate-network-fee', {
			token: 'USDT',
			network: 'TRC20',
			amount: 60000,
		});
		expect(estimate.status).toBe(400);
		expect(client.sandbox.state.withdrawals).toHaveLength(0);
		expect(usd()).toBe(1000000);
	});

	it('rejected and reversed withdrawals are refunded in full', async () => {
		await client.call('PUT', '/users/withdrawal-fee-bearer', { withdrawalFeeBearer: 'business' });
		const reject = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ walletAddress: 'TRoeER5eVVDSDJUQgM9FP8QoUmPHu7w6HE' }),
		);
		const reverse = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ network: 'ERC20', walletAddress: ADDRESSES.ERC20 }),
		);
		expect([reject.status, reverse.status]).toEqual([200, 200]);
		expect(usd()).toBe(1000 - 11.5 - 15);
		await client.sandbox.settle();
		const [rejected, reversed] = client.sandbox.state.withdrawals;
		expect(rejected).toMatchObject({
			status: 'rejected',
			reason: expect.any(String),
			txHash: null,
		});
		expect(reversed).toMatchObject({ status: 'reversed', reason: expect.any(String) });
		expect(usd()).toBe(1000);
	});

	it('GET /payments/withdrawal/{id} is 404 for an unknown id', async () => {
		const response = await client.call('GET', '/payments/withdrawal/unknown-id');
		expect(response.status).toBe(404);
		expect(response.body).toMatchObject({ success: false, data: {}, errors: [] });
	});

	it('estimates fees per level for UTXO and a flat fee for stablecoins', async () => {
		const utxo = await client.call('POST', '/payments/estimate-network-fee', {
			token: 'BTC',
			feeLevel: 'medium',
		});
		expect(utxo.status).toBe(200);
		expect(utxo.body.data).toMatchObject({
			token: 'BTC',
			fees: { low: 2, medium: 4, high: 7 },
			fee: 4,
			feeLevel: 'medium',
		});
		const stable = await client.call('POST', '/payments/estimate-network-fee', {
			token: 'USDC',
			network: 'BASE',
		});
		expect(stable.body.data).toMatchObject({ token: 'USDC', network: 'BASE', fee: 0.2 });
		const invalid = await client.call('POST', '/payments/estimate-network-fee', { token: 'USDT' });
		expect(invalid.status).toBe(422);
		expect(invalid.body.errors).toEqual([
			{ message: 'network is required', field: 'network', location: 'body' },
		]);
	});

	it('blocks withdrawals from IPs outside the whitelist', async () => {
		client.sandbox.state.account.ipWhitelist = ['10.0.0.1'];
		const response = await client.call('POST', '/payments/withdraw/address', cryptoWithdrawal());
		expect(response.status).toBe(403);
		expect(client.sandbox.state.withdrawals).toHaveLength(0);
	});
});

describe('sandbox: bank withdrawals and swaps', () => {
	let client: Client;
	let bankAccountId: string;
	beforeEach(async () => {
		client = await start({ balances: { ngn: 100000, ghs: 1000 }, rejectAddresses: ['0123456789'] });
		const added = await client.call('POST', '/payments/banks/add', {
			id: '39',
			accountNumber: '2158421234',
			narration: 'payout',
		});
		bankAccountId = added.body.data.id;
	});
	afterEach(() => client.sandbox.close());
	const balances = () => client.sandbox.state.account.fiatWallets;

	it('withdraws to a saved bank: USD amount converted and debited from the local balance', async () => {
		const response = await client.call('POST', `/payments/withdraw/bank/${bankAccountId}`, {
			amount: 10,
			pin: '1234',
			externalId: 'bank-1',
			narration: 'rent',
		});
		expect(response.status).toBe(200);
		expect(response.body).toMatchObject({
			message: 'withdrawal request received',
			data: { id: expect.any(String) },
		});
		expect(balances().ngn).toBe(100000 - 15000);
		const record = await client.call('GET', '/payments/withdrawal/bank-1');
		expect(record.body.data).toMatchObject({
			type: 'bank',
			status: 'pending',
			amount: 10,
			currency: 'ngn',
			fee: 50,
			payoutAmount: 14950,
			narration: 'rent',
			bankAccount: bankAccountId,
		});
		// Each amount names its currency, right after it (docs/api.md, "Withdrawal records").
		const keys = Object.keys(record.body.data);
		expect(record.body.data).toMatchObject({
			amountCurrency: 'USD',
			feeCurrency: 'NGN',
			payoutCurrency: 'NGN',
		});
		for (const [amount, currency] of [
			['amount', 'amountCurrency'],
			['fee', 'feeCurrency'],
			['payoutAmount', 'payoutCurrency'],
		]) {
			expect(keys.indexOf(currency)).toBe(keys.indexOf(amount) + 1);
		}
		await client.sandbox.settle();
		expect((await client.call('GET', '/payments/withdrawal/bank-1')).body.data.status).toBe(
			'completed',
		);
	});

	it('bank withdrawals share the duplicate and balance rules', async () => {
		expect(
			(
				await client.call('POST', `/payments/withdraw/bank/${bankAccountId}`, {
					amount: 10,
					pin: '1234',
					externalId: 'x',
				})
			).status,
		).toBe(200);
		expect(
			(
				await client.call('POST', `/payments/withdraw/bank/${bankAccountId}`, {
					amount: 10,
					pin: '1234',
					externalId: 'x',
				})
			).status,
		).toBe(400);
		expect(
			(
				await client.call('POST', `/payments/withdraw/bank/${bankAccountId}`, {
					amount: 1000,
					pin: '1234',
				})
			).status,
		).toBe(400);
		expect(
			(
				await client.call('POST', `/payments/withdraw/bank/${bankAccountId}`, {
					amount: 1,
					pin: '0000',
				})
			).status,
		).toBe(400);
		expect(
			(await client.call('POST', `/payments/withdraw/bank/${bankAccountId}`, { pin: '1234' }))
				.status,
		).toBe(422);
		expect(
			(
				await client.call('POST', '/payments/withdraw/bank/000000000000000000000000', {
					amount: 1,
					pin: '1234',
				})
			).status,
		).toBe(404);
		expect(client.sandbox.state.withdrawals).toHaveLength(1);
		expect(balances().ngn).toBe(85000);
	});

	it('a rejected bank payout is refunded', async () => {
		const added = await client.call('POST', '/payments/banks/add', {
			id: '44',
			accountNumber: '0123456789',
		});
		await client.call('POST', `/payments/withdraw/bank/${added.body.data.id}`, {
			amount: 10,
			pin: '1234',
		});
		expect(balances().ngn).toBe(85000);
		await client.sandbox.settle();
		expect(client.sandbox.state.withdrawals[0].status).toBe('rejected');
		expect(balances().ngn).toBe(100000);
	});

	it('swaps NGN and GHS with the short envelope', async () => {
		const response = await client.call('POST', '/payments/swap-currency', {
			amount: 1500,
			from: 'ngn',
			to: 'ghs',
			pin: '1234',
		});
		expect(response.status).toBe(200);
		expect(response.body).toEqual({ message: 'currency swap successful', success: true, data: {} });
		expect(balances()).toMatchObject({ ngn: 98500, ghs: 1015 });
	});

	it('swap errors: same currency 422, wrong pin 400, insufficient 400', async () => {
		const same = await client.call('POST', '/payments/swap-currency', {
			amount: 1,
			from: 'ngn',
			to: 'ngn',
			pin: '1234',
		});
		expect(same.status).toBe(422);
		expect(same.body.errors[0]).toMatchObject({ field: 'to', location: 'body' });
		expect(
			(
				await client.call('POST', '/payments/swap-currency', {
					amount: 1,
					from: 'ngn',
					to: 'ghs',
					pin: '1',
				})
			).status,
		).toBe(400);
		expect(
			(
				await client.call('POST', '/payments/swap-currency', {
					amount: 5000,
					from: 'ghs',
					to: 'ngn',
					pin: '1234',
				})
			).status,
		).toBe(400);
		expect(balances()).toMatchObject({ ngn: 100000, ghs: 1000 });
	});
});
