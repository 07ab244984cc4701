import { ADDRESSES, ASSET_IDS, start, type Client } from './helpers';

describe('sandbox: account, assets, rates', () => {
	let client: Client;
	beforeAll(async () => {
		client = await start();
	});
	afterAll(() => client.sandbox.close());

	it('GET /users/fetch-integration returns balances and settings, never the webhook secret', async () => {
		const response = await client.call('GET', '/users/fetch-integration');
		expect(response.status).toBe(200);
		expect(response.body.data).toMatchObject({
			fiatWallets: { usd: 10000, ngn: 5000000, ghs: 50000 },
			markupPercent: 0,
			withdrawalFeeBearer: 'user',
		});
		expect(JSON.stringify(response.body)).not.toContain(client.sandbox.webhookSecret);
	});

	it('PUT /users/withdrawal-fee-bearer', async () => {
		const response = await client.call('PUT', '/users/withdrawal-fee-bearer', {
			withdrawalFeeBearer: 'business',
		});
		expect(response.status).toBe(200);
		expect(response.body).toMatchObject({
			message: 'withdrawal fee bearer set successfully',
			data: { withdrawalFeeBearer: 'business' },
		});
		const invalid = await client.call('PUT', '/users/withdrawal-fee-bearer', {
			withdrawalFeeBearer: 'nobody',
		});
		expect(invalid.status).toBe(422);
		expect(invalid.body.errors[0]).toMatchObject({
			field: 'withdrawalFeeBearer',
			location: 'body',
		});
		expect(client.sandbox.state.account.withdrawalFeeBearer).toBe('business');
	});

	it('PUT /users/markup-percent accepts 0 to 10', async () => {
		for (const value of [0, 10, 2.5]) {
			const response = await client.call('PUT', '/users/markup-percent', { markupPercent: value });
			expect(response.status).toBe(200);
			expect(response.body).toMatchObject({
				message: 'markup percentage set successfully',
				data: { markupPercent: value },
			});
		}
		for (const value of [-1, 10.5, 'abc', undefined]) {
			expect(
				(await client.call('PUT', '/users/markup-percent', { markupPercent: value })).status,
			).toBe(422);
		}
		expect(client.sandbox.state.account.markupPercent).toBe(2.5);
	});

	it('GET /trades/assets lists deposit assets with testnet identifiers (spec 2.4)', async () => {
		const response = await client.call('GET', '/trades/assets');
		const identifiers = response.body.data.map((asset: { identifier: string }) => asset.identifier);
		expect(identifiers).toEqual(expect.arrayContaining(['SOL_TEST', 'TRX_TEST']));
		for (const asset of response.body.data) {
			expect(asset.id).toMatch(/^[0-9a-f]{24}$/);
			expect(Object.keys(asset).sort()).toEqual(
				[
					'confirmations',
					'flagFeeUSD',
					'icon',
					'id',
					'identifier',
					'isAccountBased',
					'minimum',
					'name',
					'network',
					'rate',
					'symbol',
					'txLink',
					'type',
				].sort(),
			);
			expect(['BASE_ASSET', 'ERC20']).toContain(asset.type);
			expect(asset.rate).toEqual({ NGN: expect.any(Number), GHS: expect.any(Number) });
		}
	});

	it('GET /payments/supported-assets-info (spec 2.5)', async () => {
		const response = await client.call('GET', '/payments/supported-assets-info');
		expect(response.body.message).toBe('data fetched');
		const { tokens, limits, rate } = response.body.data;
		expect(tokens.map((token: { symbol: string }) => token.symbol)).toEqual([
			'USDT',
			'USDC',
			'BTC',
			'LTC',
			'DOGE',
			'BCH',
		]);
		const usdt = tokens[0];
		expect(usdt.networks.map((n: { network: string }) => n.network)).toEqual([
			'ERC20',
			'TRC20',
			'BSC',
			'SOL',
			'TON',
		]);
		expect('fee' in usdt).toBe(false);
		expect(tokens[1].networks.map((n: { network: string }) => n.network)).toContain('BASE');
		expect(tokens[2]).toMatchObject({
			symbol: 'BTC',
			networks: [],
			fee: null,
			isTestnet: true,
			enabled: true,
		});
		expect(limits).toEqual({ minimum: expect.any(Number), maximum: expect.any(Number) });
		expect(typeof rate).toBe('number');
	});

	it('rate calculator and market converter errors', async () => {
		const unknownAsset = await client.call(
			'POST',
			'/trades/pbc/sell/rate-calculator/000000000000000000000000',
			{ amountInUSD: 1, currency: 'ngn' },
		);
		expect(unknownAsset.status).toBe(404);
		const invalid = await client.call(
			'POST',
			`/trades/pbc/sell/rate-calculator/${ASSET_IDS.SOL_TEST}`,
			{ amountInUSD: -1, currency: 'usd' },
		);
		expect(invalid.status).toBe(422);
		expect(invalid.body.errors.map((e: { field: string }) => e.field)).toEqual([
			'amountInUSD',
			'currency',
		]);
		const noFrom = await client.call('GET', '/trades/pbc/sell/assets/market/converter?to=usd');
		expect(noFrom.status).toBe(422);
		expect(noFrom.body.errors[0]).toMatchObject({ field: 'from', location: 'query' });
		const ngn = await client.call(
			'GET',
			'/trades/pbc/sell/assets/market/converter?from=usdt&to=ngn',
		);
		expect(ngn.body.data.quote.NGN.price).toBe(1500);
	});
});

describe('sandbox: wallets (spec 2.2, 4.2, 4.8)', () => {
	let client: Client;
	beforeEach(async () => {
		client = await start();
	});
	afterEach(() => client.sandbox.close());

	const generate = (
		label: string,
		body: Record<string, unknown> = {},
		assetId = ASSET_IDS.SOL_TEST,
	) => client.call('POST', `/trades/sell/assets/${assetId}/generate-address`, { label, ...body });

	it('generates a wallet; GET by id returns it without bank fields', async () => {
		const created = await generate('customer-1');
		expect(created.status).toBe(200);
		expect(created.body).toMatchObject({
			message: 'wallet address generated successfully',
			data: { id: expect.any(String), address: expect.any(String) },
		});
		expect(Object.keys(created.body.data).sort()).toEqual(['address', 'id']);
		const fetched = await client.call('GET', `/trades/wallets/${created.body.data.id}`);
		expect(fetched.status).toBe(200);
		expect(fetched.body.message).toBe('wallets retrieved successfully');
		expect(Object.keys(fetched.body.data).sort()).toEqual(
			[
				'address',
				'asset',
				'avatar',
				'createdAt',
				'currency',
				'id',
				'identifier',
				'isAccountBased',
				'isActive',
				'label',
				'name',
				'type',
				'updatedAt',
				'vaultId',
			].sort(),
		);
		expect(fetched.body.data).toMatchObject({
			label: 'customer-1',
			identifier: 'SOL_TEST',
			asset: ASSET_IDS.SOL_TEST,
			type: 'crypto',
			currency: 'ngn',
			isActive: true,
		});
		expect(fetched.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
	});

	it('a label is unique per asset: 400 on a repeat, allowed on another asset', async () => {
		expect((await generate('same')).status).toBe(200);
		const repeat = await generate('same');
		expect(repeat.status).toBe(400);
		expect(repeat.body.message).toBe('SOL_TEST for same already exists in your wallets');
		expect((await generate('same', {}, ASSET_IDS.TRX_TEST)).status).toBe(200);
		expect(client.sandbox.state.wallets).toHaveLength(2);
	});

	it('generate-address errors: invalid id 422, unknown asset 404, missing label 422, auto-settlement without bank 422', async () => {
		expect((await generate('x', {}, 'SOL_TEST')).status).toBe(422);
		expect((await generate('x', {}, '000000000000000000000000')).status).toBe(404);
		const noLabel = await client.call(
			'POST',
			`/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`,
			{},
		);
		expect(noLabel.status).toBe(422);
		expect(noLabel.body.errors[0]).toMatchObject({ field: 'label', location: 'body' });
		expect((await generate('y', { autoSettlement: true })).status).toBe(422);
		expect(
			(
				await generate('z', {
					bankId: '39',
					accountNumber: '2158421234',
					narration: 'x'.repeat(33),
				})
			).status,
		).toBe(422);
		expect(client.sandbox.state.wallets).toHaveLength(0);
	});

	it('generate-address with a bank and auto-settlement', async () => {
		const created = await generate('settled', {
			bankId: '39',
			accountNumber: '2158421234',
			narration: 'settle',
			autoSettlement: true,
		});
		expect(created.status).toBe(200);
		const wallet = client.sandbox.state.wallets[0];
		expect(wallet.bank).toMatchObject({
			bankId: '39',
			accountNumber: '2158421234',
			narration: 'settle',
		});
		expect(wallet.autoSettlement).toBe(true);
	});

	it('GET /trades/wallets/{id} is 404 for an unknown wallet', async () => {
		const response = await client.call('GET', '/trades/wallets/000000000000000000000000');
		expect(response.status).toBe(404);
		expect(response.body).toMatchObject({ success: false, errors: [], data: {}, meta: {} });
	});

	it('PUT /trades/wallets/{id}/bank links a bank; 422 auto-settlement without bank; 404 unknown wallet', async () => {
		const id = (await generate('w')).body.data.id;
		const noBank = await client.call('PUT', `/trades/wallets/${id}/bank`, { autoSettlement: true });
		expect(noBank.status).toBe(422);
		expect(noBank.body.message).toBe('validation errors');
		const linked = await client.call('PUT', `/trades/wallets/${id}/bank`, {
			id: '39',
			accountNumber: '2158421234',
			narration: 'n',
			autoSettlement: true,
		});
		expect(linked.status).toBe(200);
		expect(linked.body).toMatchObject({ message: 'bank added to wallet successfully', data: {} });
		expect(client.sandbox.state.wallets[0]).toMatchObject({
			autoSettlement: true,
			bank: { bankName: 'Access Bank' },
		});
		expect(
			(
				await client.call('PUT', '/trades/wallets/000000000000000000000000/bank', {
					id: '39',
					accountNumber: '2158421234',
				})
			).status,
		).toBe(404);
		expect(
			(
				await client.call('PUT', `/trades/wallets/${id}/bank`, {
					id: '39',
					accountNumber: '2158421234',
					narration: 'n'.repeat(33),
				})
			).status,
		).toBe(422);
	});

	it('PUT /trades/wallets/{id}/auto-settlement', async () => {
		const id = (await generate('w')).body.data.id;
		expect(
			(await client.call('PUT', `/trades/wallets/${id}/auto-settlement`, { autoSettlement: true }))
				.status,
		).toBe(422);
		const off = await client.call('PUT', `/trades/wallets/${id}/auto-settlement`, {
			autoSettlement: false,
		});
		expect(off.status).toBe(200);
		expect(off.body.data).toEqual({ walletId: id, autoSettlement: false });
		await client.call('PUT', `/trades/wallets/${id}/bank`, {
			id: '39',
			accountNumber: '2158421234',
		});
		const on = await client.call('PUT', `/trades/wallets/${id}/auto-settlement`, {
			autoSettlement: true,
		});
		expect(on.status).toBe(200);
		expect(on.body).toMatchObject({
			message: 'auto settlement enabled successfully',
			data: { walletId: id, autoSettlement: true },
		});
		expect(
			(
				await client.call('PUT', '/trades/wallets/000000000000000000000000/auto-settlement', {
					autoSettlement: false,
				})
			).status,
		).toBe(404);
	});
});

describe('sandbox: payout addresses (spec 2.3, 4.1, 4.11)', () => {
	let client: Client;
	beforeEach(async () => {
		client = await start();
	});
	afterEach(() => client.sandbox.close());

	it('validates an address (spec 4.1)', async () => {
		const valid = await client.call('POST', '/payments/wallet-addresses/validate', {
			address: ADDRESSES.TRC20,
			token: 'USDT',
			network: 'TRC20',
		});
		expect(valid.status).toBe(200);
		expect(valid.body).toMatchObject({
			message: 'wallet address is valid',
			data: { address: ADDRESSES.TRC20, token: 'USDT', network: 'TRC20', valid: true },
		});
		const utxo = await client.call('POST', '/payments/wallet-addresses/validate', {
			address: ADDRESSES.BTC,
			token: 'BTC',
		});
		expect(utxo.status).toBe(200);
		expect('network' in utxo.body.data).toBe(false);
	});

	it.each([
		[
			{ address: ADDRESSES.ERC20, token: 'USDT', network: 'TRC20' },
			[{ field: 'address', message: 'invalid wallet address' }],
		],
		[
			{ address: ADDRESSES.ERC20, token: 'USDT', network: 'BASE' },
			[{ field: 'address', message: 'invalid wallet address' }],
		],
		[
			{ address: ADDRESSES.ERC20, token: 'USDC' },
			[{ field: 'network', message: 'network is required' }],
		],
		[
			{ address: ADDRESSES.BTC, token: 'BTC', network: 'ERC20' },
			[{ field: 'network', message: 'BTC does not support a network' }],
		],
	])('422 entries per spec 4.1 for %j', async (body, expected) => {
		const response = await client.call('POST', '/payments/wallet-addresses/validate', body);
		expect(response.status).toBe(422);
		expect(response.body.message).toBe('validation errors');
		expect(response.body.errors).toEqual(expected.map((entry) => ({ ...entry, location: 'body' })));
	});

	it('adds, upserts (same address+network+token, new label), lists and deletes', async () => {
		const added = await client.call('POST', '/payments/wallet-addresses', {
			address: ADDRESSES.TRC20,
			token: 'USDT',
			network: 'TRC20',
			label: 'first',
		});
		expect(added.status).toBe(200);
		const record = added.body.data;
		expect(record).toMatchObject({
			_id: record.id,
			address: ADDRESSES.TRC20,
			token: 'USDT',
			network: 'TRC20',
			label: 'first',
			isBusiness: true,
			integration: expect.any(String),
			user: expect.any(String),
		});
		const updated = await client.call('POST', '/payments/wallet-addresses', {
			address: ADDRESSES.TRC20,
			token: 'USDT',
			network: 'TRC20',
			label: 'renamed',
		});
		expect(updated.body.data).toMatchObject({ id: record.id, label: 'renamed' });
		await client.call('POST', '/payments/wallet-addresses', {
			address: ADDRESSES.TRC20,
			token: 'USDC',
			network: 'TRC20',
			label: 'usdc',
		});
		const list = await client.call('GET', '/payments/wallet-addresses');
		expect(list.body.message).toBe('data fetched');
		expect(list.body.data).toHaveLength(2);
		const removed = await client.call('DELETE', `/payments/wallet-addresses/${record.id}`);
		expect(removed.status).toBe(200);
		expect((await client.call('DELETE', `/payments/wallet-addresses/${record.id}`)).status).toBe(
			404,
		);
		expect((await client.call('GET', '/payments/wallet-addresses')).body.data).toHaveLength(1);
		expect(
			(
				await client.call('POST', '/payments/wallet-addresses', {
					address: 'bad',
					token: 'USDT',
					network: 'TRC20',
				})
			).status,
		).toBe(422);
	});
});

describe('sandbox: banks and saved bank accounts', () => {
	let client: Client;
	beforeEach(async () => {
		client = await start();
	});
	afterEach(() => client.sandbox.close());

	it('GET /payments/banks?currency=ngn|ghs', async () => {
		const ngn = await client.call('GET', '/payments/banks?currency=ngn');
		expect(ngn.status).toBe(200);
		expect(ngn.body.data.length).toBeGreaterThan(0);
		for (const bank of ngn.body.data)
			expect(bank).toMatchObject({
				id: expect.any(String),
				name: expect.any(String),
				currency: 'ngn',
			});
		const ghs = await client.call('GET', '/payments/banks?currency=ghs');
		expect(ghs.body.data.every((bank: { currency: string }) => bank.currency === 'ghs')).toBe(true);
		const missing = await client.call('GET', '/payments/banks');
		expect(missing.status).toBe(422);
		expect(missing.body.errors[0]).toMatchObject({ field: 'currency', location: 'query' });
	});

	it('POST /payments/banks/validate masks the account number (spec 2.6)', async () => {
		const response = await client.call('POST', '/payments/banks/validate', {
			id: '39',
			accountNumber: '2158421234',
			currency: 'ngn',
		});
		expect(response.status).toBe(200);
		expect(response.body).toMatchObject({
			message: 'data fetched',
			data: {
				accountNumber: '215842XXXX',
				type: 'nuban',
				bankName: 'Access Bank',
				accountName: expect.any(String),
			},
		});
		expect((await client.call('POST', '/payments/banks/validate', { id: '39' })).status).toBe(422);
		expect(
			(await client.call('POST', '/payments/banks/validate', { id: '39', accountNumber: '12' }))
				.status,
		).toBe(422);
		expect(
			(
				await client.call('POST', '/payments/banks/validate', {
					id: '999',
					accountNumber: '2158421234',
				})
			).status,
		).toBe(422);
		expect(
			(
				await client.call('POST', '/payments/banks/validate', {
					id: '39',
					accountNumber: '0000000000',
				})
			).status,
		).toBe(400);
	});

	it('POST /payments/banks/add returns the saved-bank record; lists paginated; deletes', async () => {
		const added = await client.call('POST', '/payments/banks/add', {
			id: '44',
			accountNumber: '0690000031',
			narration: 'salary',
		});
		expect(added.status).toBe(200);
		expect(added.body.message).toBe('bank added');
		expect(Object.keys(added.body.data).sort()).toEqual(
			[
				'account',
				'accountName',
				'accountNumber',
				'autoSettlement',
				'bankId',
				'bankName',
				'createdAt',
				'currency',
				'disabled',
				'id',
				'integration',
				'isBusiness',
				'narration',
				'type',
				'updatedAt',
				'user',
			].sort(),
		);
		expect(added.body.data).toMatchObject({
			bankId: '44',
			accountNumber: '0690000031',
			currency: 'ngn',
			type: 'nuban',
			narration: 'salary',
			disabled: false,
		});
		expect(
			(await client.call('POST', '/payments/banks/add', { id: '44', accountNumber: '0690000031' }))
				.status,
		).toBe(409);
		const list = await client.call('GET', '/payments/integration-banks');
		expect(list.body.data).toHaveLength(1);
		expect(list.body.meta).toMatchObject({ totalDocs: 1, pages: 1, hasNextPage: false });
		expect(
			(await client.call('DELETE', `/payments/integration-banks/${added.body.data.id}`)).status,
		).toBe(200);
		expect(
			(await client.call('DELETE', `/payments/integration-banks/${added.body.data.id}`)).status,
		).toBe(404);
		expect(
			(
				await client.call('POST', '/payments/banks/add', {
					id: '44',
					accountNumber: '0690000031',
					narration: 'n'.repeat(33),
				})
			).status,
		).toBe(422);
	});
});

describe('sandbox: mock deposits and transactions', () => {
	let client: Client;
	let wallet: { id: string; address: string };
	beforeEach(async () => {
		client = await start({ balances: { ngn: 0 } });
		wallet = (
			await client.call('POST', `/trades/sell/assets/${ASSET_IDS.TRX_TEST}/generate-address`, {
				label: 'dep',
			})
		).body.data;
	});
	afterEach(() => client.sandbox.close());

	const mock = (overrides: Record<string, unknown> = {}) =>
		client.call('POST', '/trades/sell/mock-trade', {
			walletAddress: wallet.address,
			asset: 'TRX_TEST',
			amountInUSD: 100,
			cryptoReceived: 833.33,
			reference: 'ref-1',
			txHash: 'hash-1',
			...overrides,
		});

	it('creates a trade pending -> completed and credits the balance', async () => {
		const response = await mock();
		expect(response.status).toBe(200);
		const id = response.body.data.id;
		const pending = await client.call('GET', `/trades/transactions/${id}`);
		expect(pending.body).toMatchObject({
			message: 'transaction retrieved successfully',
			data: {
				id,
				status: 'pending',
				wallet: wallet.id,
				address: wallet.address,
				cryptoReceived: '833.33',
				amountReceived: 100,
			},
		});
		await client.sandbox.settle();
		const completed = await client.call('GET', `/trades/transactions/${id}`);
		expect(completed.body.data).toMatchObject({
			status: 'completed',
			walletCredited: true,
			currency: 'ngn',
			rate: 1500,
			feeAmount: 750,
			amount: 149250,
		});
		expect(client.sandbox.state.account.fiatWallets.ngn).toBe(149250);
		const list = await client.call('GET', '/trades/transactions');
		expect(list.body.data).toHaveLength(1);
		expect(list.body.meta.totalDocs).toBe(1);
	});

	it('flags a deposit below the asset minimum and does not credit it', async () => {
		const id = (await mock({ amountInUSD: 1 })).body.data.id;
		await client.sandbox.settle();
		expect((await client.call('GET', `/trades/transactions/${id}`)).body.data).toMatchObject({
			status: 'flagged',
			walletCredited: false,
			reason: expect.stringContaining('minimum'),
		});
		expect(client.sandbox.state.account.fiatWallets.ngn).toBe(0);
	});

	it('mock-trade errors: production 403, unknown wallet 404, validation 422, duplicate reference 400', async () => {
		expect(
			(await client.call('POST', '/trades/sell/mock-trade', {}, { 'X-Service-Env': 'production' }))
				.status,
		).toBe(403);
		expect((await mock({ asset: 'SOL_TEST' })).status).toBe(404);
		const invalid = await client.call('POST', '/trades/sell/mock-trade', {
			walletAddress: wallet.address,
		});
		expect(invalid.status).toBe(422);
		expect(invalid.body.errors.map((e: { field: string }) => e.field)).toEqual([
			'asset',
			'amountInUSD',
			'cryptoReceived',
			'reference',
			'txHash',
		]);
		expect((await mock()).status).toBe(200);
		expect((await mock({ txHash: 'other' })).status).toBe(400);
		expect((await mock({ reference: 'other' })).status).toBe(400);
		expect(client.sandbox.state.trades).toHaveLength(1);
		expect((await client.call('GET', '/trades/transactions/000000000000000000000000')).status).toBe(
			404,
		);
	});

	it('auto-settles to the linked bank with the markup', async () => {
		await client.call('PUT', '/users/markup-percent', { markupPercent: 2 });
		await client.call('PUT', `/trades/wallets/${wallet.id}/bank`, {
			id: '39',
			accountNumber: '2158421234',
			autoSettlement: true,
		});
		const id = (await mock()).body.data.id;
		await client.sandbox.settle();
		const trade = client.sandbox.state.trades[0];
		expect(trade).toMatchObject({ id, status: 'completed', rate: 1530 });
		const payout = client.sandbox.state.withdrawals.find((withdrawal) => withdrawal.trade === id);
		expect(payout).toMatchObject({
			type: 'bank',
			currency: 'ngn',
			status: 'completed',
			accountNumber: '2158421234',
		});
		expect(client.sandbox.state.account.fiatWallets.ngn).toBe(0);
	});
});
