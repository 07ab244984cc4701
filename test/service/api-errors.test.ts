/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads n8n-core's logger */
import type { IDataObject } from 'n8n-workflow';
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import nock from 'nock';
import {
	api,
	BASE,
	expectNoSecrets,
	fail,
	ok,
	rl,
	runNode,
	setupNock,
	noWithdrawalsYet,
} from '../helpers/node';

setupNock();

const getWallet = { resource: 'wallet', operation: 'get', walletId: rl('w1') };

describe('service errors surface the message, the HTTP code and the first validation entry', () => {
	const cases: Array<[number, string, IDataObject[], RegExp]> = [
		[
			401,
			"you're not authenticated",
			[],
			/Check the credential's App ID, App Secret and Environment/,
		],
		[401, 'wrong app id and secret combination', [], /Check the credential's App ID/],
		[403, 'you do not have api access', [], /lacks permission/],
		[404, 'wallet not found', [], /Nothing was found with this ID/],
		[409, 'already exists', [], /conflicts with the current state/],
	];

	test.each(cases)('HTTP %s: %s', async (status, message, errors, description) => {
		const scope = api()
			.get('/trades/wallets/w1')
			.reply(status, fail(status, message, errors));
		const run = await runNode(getWallet);
		expect(run.error?.message).toBe(`${message} (HTTP ${status})`);
		expect(run.error?.description).toMatch(description);
		expect((run.error as { httpCode?: string }).httpCode).toBe(String(status));
		expect(scope.isDone()).toBe(true);
		expectNoSecrets(run.text);
	});

	test('HTTP 400 on wallet creation (duplicate label) is not retried and names the rule', async () => {
		const scope = api()
			.post('/trades/sell/assets/a1/generate-address')
			.once()
			.reply(400, fail(400, 'TRX_TEST for customer-1 already exists in your wallets'));
		const run = await runNode({
			resource: 'wallet',
			operation: 'create',
			assetId: 'a1',
			label: 'customer-1',
		});
		expect(run.error?.message).toBe(
			'TRX_TEST for customer-1 already exists in your wallets (HTTP 400)',
		);
		expect(scope.isDone()).toBe(true);
	});

	test("HTTP 422 with the spec's eight entries shows the first and keeps them all in the details", async () => {
		const entries = ['amount', 'cryptoAmount'].flatMap((field) =>
			[
				'either amount or cryptoAmount is required',
				`${field} must be a number`,
				'Invalid value',
				'Invalid value',
			].map((message) => ({ message, field, location: 'body' })),
		);
		noWithdrawalsYet();
		api()
			.post('/payments/withdraw/address')
			.reply(422, fail(422, 'validation errors', entries));
		const run = await runNode({
			resource: 'withdrawal',
			operation: 'createCrypto',
			token: 'USDT',
			network: 'TRC20',
			walletAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
			amount: 5,
			externalId: 'x-1',
		});
		expect(run.error?.message).toBe(
			"validation errors (HTTP 422) — 'Amount (USD)': either amount or cryptoAmount is required",
		);
		expect(run.error?.description).toMatch(/8 problems were reported; the first is shown/);
		const details = JSON.stringify(
			(run.error as unknown as { errorResponse?: unknown; cause?: unknown }).errorResponse ??
				run.text,
		);
		for (const entry of entries) expect(details).toContain(entry.message);
		expectNoSecrets(run.text);
	});

	test('estimateNetworkFee: HTTP 400 (temporary payout capacity) says to retry later', async () => {
		api()
			.post('/payments/estimate-network-fee')
			.reply(400, fail(400, 'cannot process payout of this size now'));
		const run = await runNode({
			resource: 'withdrawal',
			operation: 'estimateNetworkFee',
			token: 'BTC',
			feeLevel: 'low',
			walletAddress: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
			amount: 900000,
		});
		expect(run.error?.message).toBe('cannot process payout of this size now (HTTP 400)');
		expect(run.error?.description).toMatch(
			/temporary payout capacity\), retry later or with a smaller amount/,
		);
	});

	test('Continue On Fail gives an error item for the failed item while the others succeed', async () => {
		api()
			.get('/trades/wallets/w1')
			.reply(200, ok({ id: 'w1' }));
		api().get('/trades/wallets/w2').reply(404, fail(404, 'wallet not found'));
		api()
			.get('/trades/wallets/w3')
			.reply(200, ok({ id: 'w3' }));
		const run = await runNode(
			{ resource: 'wallet', operation: 'get', walletId: rl('={{ $json.id }}') },
			{ continueOnFail: true, items: [{ id: 'w1' }, { id: 'w2' }, { id: 'w3' }] },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		expect(run.items[0].json).toEqual({ id: 'w1' });
		expect(run.items[1].json.error).toBe('wallet not found (HTTP 404)');
		expect(run.items[2].json).toEqual({ id: 'w3' });
		expectNoSecrets(run.text);
	});
});

describe('quiet test output', () => {
	test("n8n-core's logger, which printed every expected failure, is silenced by the jest setup", async () => {
		nock(BASE)
			.post('/payments/swap-currency')
			.reply(401, { success: false, message: "you're not authenticated" });
		const run = await runNode({
			resource: 'currency',
			operation: 'swap',
			amount: '5',
			from: 'ngn',
			to: 'ghs',
		});
		expect(run.error?.message).toContain("you're not authenticated");
		// The engine's logger (the one that wrote those console blocks): silent, with no console transport.
		const logger = Container.get(Logger) as unknown as {
			level: string;
			internalLogger: { transports: unknown[] };
		};
		expect(logger.level).toBe('silent');
		expect(logger.internalLogger.transports).toHaveLength(0);
	});
});
