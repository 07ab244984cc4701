import type { IDataObject } from 'n8n-workflow';
import {
	api,
	cryptoWithdrawal,
	expectNoSecrets,
	noWithdrawalsYet,
	ok,
	recordRequests,
	rl,
	runNode,
	setupNock,
} from '../../helpers/node';

setupNock();

const crypto = (overrides: IDataObject) => cryptoWithdrawal(overrides);

const refused: Array<[string, IDataObject, RegExp]> = [
	[
		'3 decimals on a USD amount',
		crypto({ amount: 10.123 }),
		/'Amount \(USD\)' must have at most 2 decimal places \(it is never rounded\), received 10\.123/,
	],
	[
		'9 decimals on a crypto amount',
		crypto({ amountType: 'crypto', cryptoAmount: 0.123456789 }),
		/'Crypto Amount' must have at most 8 decimal places/,
	],
	['a zero amount', crypto({ amount: 0 }), /'Amount \(USD\)' must be greater than 0, received 0/],
	[
		'a negative crypto amount',
		crypto({ amountType: 'crypto', cryptoAmount: -1 }),
		/'Crypto Amount' must be greater than 0/,
	],
	[
		'a non-numeric amount from an expression',
		crypto({ amount: '={{ "ten" }}' }),
		/'Amount \(USD\)' must be a plain decimal number such as 10\.5 \(digits and one dot\), received "ten"/,
	],
	[
		'TON with USDC',
		crypto({ token: 'USDC', network: 'TON' }),
		/'Network' must be one of ERC20, TRC20, BSC, SOL, BASE for USDC, received "TON"/,
	],
	[
		'BASE with USDT',
		crypto({ token: 'USDT', network: 'BASE' }),
		/'Network' must be one of ERC20, TRC20, BSC, SOL, TON for USDT/,
	],
	[
		'a network with BTC (token from an expression)',
		crypto({ token: '={{ "BTC" }}', network: 'TRC20', feeLevel: 'low' }),
		/BTC does not support a network, received "TRC20"/,
	],
	[
		'no fee level for DOGE (token from an expression)',
		crypto({ token: '={{ "DOGE" }}', network: '={{ "" }}', feeLevel: '={{ "" }}' }),
		/^'Fee Level' is required$/,
	],
	[
		'an unknown token',
		crypto({ token: '={{ "XRP" }}', feeLevel: '={{ "" }}' }),
		/'Token' must be one of USDT, USDC, BTC, LTC, DOGE, BCH, received "XRP"/,
	],
	[
		'a blank wallet address',
		crypto({ walletAddress: '   ' }),
		/^'Wallet Address' is required, received " {3}"$/,
	],
	[
		'33-character narration',
		{
			resource: 'bankAccount',
			operation: 'create',
			bankId: '39',
			accountNumber: '1',
			additionalFields: { narration: 'x'.repeat(33) },
		},
		/'Narration' must be at most 32 characters \(got 33\)/,
	],
	[
		'markup 10.01',
		{ resource: 'account', operation: 'setMarkupPercent', markupPercent: 10.01 },
		/'Markup Percent' must be between 0 and 10 \(both included\), received 10\.01/,
	],
	[
		'markup -0.5',
		{ resource: 'account', operation: 'setMarkupPercent', markupPercent: -0.5 },
		/'Markup Percent' must be between 0 and 10/,
	],
	[
		'a swap from ngn to ngn',
		{ resource: 'currency', operation: 'swap', amount: 5, from: 'ngn', to: 'ngn' },
		/'To' must differ from from, received "ngn"/,
	],
	[
		'a fee bearer that does not exist',
		{
			resource: 'account',
			operation: 'setWithdrawalFeeBearer',
			withdrawalFeeBearer: '={{ "nobody" }}',
		},
		/'Withdrawal Fee Bearer' must be one of user, business/,
	],
	[
		'an upper-case currency',
		{ resource: 'bank', operation: 'getAll', currency: '={{ "NGN" }}' },
		/'Currency' must be one of ngn, ghs, received "NGN"/,
	],
	[
		'a blank wallet ID',
		{ resource: 'wallet', operation: 'get', walletId: rl('  ') },
		/^'Wallet' is required, received " {2}"$/,
	],
	[
		'a bank ID without an account number on wallet creation',
		{
			resource: 'wallet',
			operation: 'create',
			assetId: 'a1',
			label: 'l',
			additionalFields: { bankId: '39' },
		},
		/'Account Number' is required/,
	],
];

describe('field rules refuse bad input before any request', () => {
	test.each(refused)('%s', async (_name, parameters, message) => {
		const requests = recordRequests();
		const run = await runNode(parameters);
		expect(run.error?.message).toMatch(message);
		expect(run.error?.context?.itemIndex).toBe(0);
		expect(requests.count()).toBe(0);
	});

	test('the PIN comes from the node, else the credential; neither gives a clear error and no request', async () => {
		const requests = recordRequests();
		const run = await runNode(crypto({}), { credentials: { pin: '' } });
		expect(run.error?.message).toBe(
			"No transaction PIN: set 'Transaction PIN' in the credential (or 'PIN' under 'Additional Fields')",
		);
		expect(run.error?.description).toMatch(
			/Keep it in the credential, where it is stored encrypted: a PIN typed into the node is stored in the workflow/,
		);
		expect(requests.count()).toBe(0);
	});

	test('mock deposits are refused under a production credential', async () => {
		const requests = recordRequests();
		const run = await runNode(
			{
				resource: 'sandbox',
				operation: 'mockDeposit',
				walletAddress: 'a',
				asset: 'b',
				amountInUSD: 1,
				cryptoReceived: 1,
				reference: 'r',
				txHash: 'h',
			},
			{ credentials: { environment: 'production' } },
		);
		expect(run.error?.message).toBe('Mock Deposit only works in the sandbox environment');
		expect(requests.count()).toBe(0);
	});

	test("a refused withdrawal never shows the credential's PIN or secrets anywhere in the run", async () => {
		recordRequests();
		const run = await runNode(crypto({ amount: 1.001 }));
		expect(run.error).toBeDefined();
		expectNoSecrets(run.text);
	});
});

const accepted: Array<[string, IDataObject, IDataObject]> = [
	['2 decimals on a USD amount', crypto({ amount: 10.12 }), { amount: 10.12 }],
	[
		'8 decimals on a crypto amount',
		crypto({ amountType: 'crypto', cryptoAmount: 0.12345678 }),
		{ cryptoAmount: 0.12345678 },
	],
	['a numeric string from an expression', crypto({ amount: '={{ "7.5" }}' }), { amount: 7.5 }],
	[
		'TON with USDT',
		crypto({ network: 'TON', walletAddress: 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF' }),
		{ network: 'TON' },
	],
	[
		'BASE with USDC',
		crypto({
			token: 'USDC',
			network: 'BASE',
			walletAddress: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
		}),
		{ network: 'BASE' },
	],
];

describe('valid boundary values are sent', () => {
	test.each(accepted)('%s', async (_name, parameters, expected) => {
		noWithdrawalsYet();
		let body: IDataObject = {};
		const scope = api()
			.post('/payments/withdraw/address', (sent: IDataObject) => ((body = sent), true))
			.reply(200, ok({ id: 'wd1' }));
		const run = await runNode(parameters);
		expect(run.error).toBeUndefined();
		expect(body).toMatchObject(expected);
		expect('amount' in body && 'cryptoAmount' in body).toBe(false);
		expect(scope.isDone()).toBe(true);
	});

	test('a stablecoin withdrawal never sends a fee level; a UTXO one never sends a network', async () => {
		const bodies: IDataObject[] = [];
		noWithdrawalsYet();
		api()
			.post('/payments/withdraw/address', (sent: IDataObject) => (bodies.push(sent), true))
			.times(2)
			.reply(200, ok({ id: 'wd1' }));
		await runNode(crypto({ feeLevel: 'high' }));
		await runNode(
			crypto({
				token: 'BCH',
				feeLevel: 'low',
				externalId: 'order-2',
				walletAddress: 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
			}),
		);
		expect(bodies[0]).not.toHaveProperty('feeLevel');
		expect(bodies[0]).toMatchObject({ token: 'USDT', network: 'TRC20' });
		expect(bodies[1]).not.toHaveProperty('network');
		expect(bodies[1]).toMatchObject({ token: 'BCH', feeLevel: 'low' });
	});

	test.each([0, 10])('markup %s is accepted (both ends included)', async (markupPercent) => {
		const scope = api()
			.put('/users/markup-percent', { markupPercent })
			.reply(200, ok({ markupPercent }));
		const run = await runNode({
			resource: 'account',
			operation: 'setMarkupPercent',
			markupPercent,
		});
		expect(run.error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	test('32-character narration is accepted', async () => {
		const narration = 'n'.repeat(32);
		const scope = api()
			.post('/payments/banks/add', { id: '39', accountNumber: '1', narration })
			.reply(200, ok({ id: 'ba1' }));
		const run = await runNode({
			resource: 'bankAccount',
			operation: 'create',
			bankId: '39',
			accountNumber: '1',
			additionalFields: { narration },
		});
		expect(run.error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});
});

describe('rules run per item on values resolved from expressions', () => {
	test('only the bad item fails under Continue On Fail; the others are sent', async () => {
		const sent: IDataObject[] = [];
		noWithdrawalsYet();
		api()
			.post('/payments/withdraw/address', (body: IDataObject) => (sent.push(body), true))
			.times(2)
			.reply(200, (_uri, body) => ok({ id: `wd-${(body as IDataObject).externalId}` }));
		const run = await runNode(
			crypto({ amount: '={{ $json.amount }}', externalId: '={{ $json.ref }}' }),
			{
				continueOnFail: true,
				items: [
					{ amount: 5, ref: 'a' },
					{ amount: 5.555, ref: 'b' },
					{ amount: 6, ref: 'c' },
				],
			},
		);
		expect(run.items).toHaveLength(3);
		expect(run.items[0].json).toMatchObject({ id: 'wd-a', externalId: 'a' });
		expect(run.items[1].json.error).toMatch(
			/'Amount \(USD\)' must have at most 2 decimal places \(it is never rounded\), received 5\.555/,
		);
		expect(run.items[1].json.message).toMatch(
			/^Fix 'Amount \(USD\)' \(set by an expression\) for row 2 \(b, n8n item 1\)\./,
		);
		expect(run.items[2].json).toMatchObject({ id: 'wd-c', externalId: 'c' });
		expect(sent.map((body) => body.externalId)).toEqual(['a', 'c']);
	});
});
