import type { IDataObject } from 'n8n-workflow';
import { sandboxCredentials } from '../helpers/credentials';
import { startFakeApi, type FakeApi } from '../../fake-api/src/server';
import { rl, runNode } from '../helpers/node';

/** The node against the local sandbox over real HTTP (no nock): one workflow per resource. */
let sandbox: FakeApi;
let credentials: IDataObject;

beforeAll(async () => {
	sandbox = await startFakeApi({ lifecycleDelayMs: 60_000, maxPageSize: 3 });
	credentials = sandboxCredentials(sandbox, { pin: sandbox.pin });
});
afterAll(async () => await sandbox.close());

const run = async (parameters: IDataObject) => {
	const result = await runNode(parameters, { credentials });
	if (result.error) throw new Error(`${result.error.message} — ${result.error.description ?? ''}`);
	return result.items.map((item) => item.json);
};

test('every resource works against the sandbox, and a withdrawal completes', async () => {
	const [account] = await run({ resource: 'account', operation: 'get' });
	expect(account).toHaveProperty('fiatWallets');
	expect(
		await run({ resource: 'account', operation: 'setMarkupPercent', markupPercent: 10 }),
	).toEqual([{ markupPercent: 10 }]);

	const assets = await run({ resource: 'asset', operation: 'getDepositAssets' });
	expect(assets.length).toBeGreaterThan(0);
	const asset = assets[0];

	const [wallet] = await run({
		resource: 'wallet',
		operation: 'create',
		assetId: String(asset.id),
		label: 'integration-1',
	});
	const [fetched] = await run({
		resource: 'wallet',
		operation: 'get',
		walletId: rl(String(wallet.id)),
	});
	expect(fetched.address).toBe(wallet.address);

	for (let i = 2; i <= 8; i++)
		await run({
			resource: 'wallet',
			operation: 'create',
			assetId: String(asset.id),
			label: `integration-${i}`,
		});
	// Page size capped at 3 by the sandbox: Return All follows hasNextPage over several pages.
	expect(await run({ resource: 'wallet', operation: 'getAll', returnAll: true })).toHaveLength(8);

	const [bank] = await run({
		resource: 'bank',
		operation: 'getAll',
		currency: 'ngn',
		returnAll: false,
		limit: 1,
	});
	const [verified] = await run({
		resource: 'bank',
		operation: 'verifyAccount',
		bankId: String(bank.id),
		accountNumber: '0123456789',
		currency: 'ngn',
	});
	expect(verified).toHaveProperty('accountName');
	const [saved] = await run({
		resource: 'bankAccount',
		operation: 'create',
		bankId: String(bank.id),
		accountNumber: '0123456789',
	});
	expect(
		(await run({ resource: 'bankAccount', operation: 'getAll', returnAll: true })).map((b) => b.id),
	).toContain(saved.id);

	const [address] = await run({
		resource: 'payoutAddress',
		operation: 'validate',
		address: 'TWm8rrRqfQVChka5t5djFisDeJLubSLdo4',
		token: 'USDT',
		network: 'TRC20',
	});
	expect(address).toMatchObject({ valid: true, token: 'USDT', network: 'TRC20' });

	const payout = {
		resource: 'withdrawal',
		operation: 'createCrypto',
		token: 'USDT',
		network: 'TRC20',
		walletAddress: 'TWm8rrRqfQVChka5t5djFisDeJLubSLdo4',
		amount: 25,
		externalId: 'integration-payout-1',
	};
	const [withdrawal] = await run(payout);
	expect(withdrawal).toMatchObject({ externalId: 'integration-payout-1', alreadySubmitted: false });
	await sandbox.settle();
	const [completed] = await run({
		resource: 'withdrawal',
		operation: 'get',
		withdrawalId: 'integration-payout-1',
	});
	expect(completed).toMatchObject({ id: withdrawal.id, status: 'completed' });
	// The same External ID again: nothing new is created, the existing withdrawal comes back.
	const [again] = await run(payout);
	expect(again).toMatchObject({ id: withdrawal.id, alreadySubmitted: true });
	expect(
		sandbox.state.withdrawals.filter((w) => w.externalId === 'integration-payout-1'),
	).toHaveLength(1);

	await run({ resource: 'currency', operation: 'swap', amount: 100, from: 'ngn', to: 'ghs' });
	expect((await run({ resource: 'rate', operation: 'getSellRates' })).length).toBeGreaterThan(0);
	await run({
		resource: 'sandbox',
		operation: 'mockDeposit',
		walletAddress: String(wallet.address),
		asset: String(asset.identifier),
		amountInUSD: 500,
		cryptoReceived: 500,
		reference: 'mock-int-1',
		txHash: '0xint1',
	});
	await sandbox.settle();
	const transactions = await run({ resource: 'transaction', operation: 'getAll', returnAll: true });
	expect(transactions.length).toBeGreaterThan(0);
	const events = await run({ resource: 'webhookEvent', operation: 'getAll', returnAll: true });
	expect(Array.isArray(events)).toBe(true);
});

test('a field-rule error reaches nothing on the sandbox', async () => {
	const before = sandbox.state.requests.length;
	const result = await runNode(
		{
			resource: 'withdrawal',
			operation: 'createCrypto',
			token: 'USDC',
			network: 'TON',
			walletAddress: 'x',
			amount: 1,
			externalId: 'bad-1',
		},
		{ credentials },
	);
	expect(result.error?.message).toMatch(/'Network' must be one of/);
	expect(sandbox.state.requests.length).toBe(before);
});
