/**
 * Dry Run is declared once per operation (the field at the top), yet a workflow saved with Dry Run
 * under Additional Fields, or an external test driving the node by the contract's names
 * (`additionalFields.dryRun`), still dry-runs: through n8n-core's engine, whose Workflow keeps only
 * the parameters the description declares (n8n-workflow's getNodeParameters drops an undeclared
 * option of a collection, and one its displayOptions hide). docs/usage.md, "Dry Run, one field".
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { rl, runNode, serversClosedAfterEach } from '../../helpers/node';
import { envelope, localService, withdrawalService, type Seen } from '../../helpers/local-service';
import { CryptoSettlement } from '../../../nodes/CryptoSettlement/CryptoSettlement.node';

const servers = serversClosedAfterEach();

async function service() {
	const withdrawals = withdrawalService();
	const server = await localService((request: Seen) => {
		const route = `${request.method} ${request.path.replace(/^\/v1/, '')}`;
		if (route === 'GET /trades/pbc/sell/rates')
			return {
				status: 200,
				body: envelope([{ symbol: 'USDT', rate: { NGN: 1500, GHS: 15 }, priceUSD: 1 }]),
			};
		if (route === 'POST /payments/swap-currency')
			return {
				status: 200,
				body: { message: 'currency swap successful', success: true, data: {} },
			};
		if (route === 'POST /payments/estimate-network-fee')
			return {
				status: 200,
				body: envelope({ token: 'USDT', network: 'TRC20', fee: 1.5, feeCurrency: 'USD' }),
			};
		if (route === 'GET /users/fetch-integration')
			return { status: 200, body: envelope({ withdrawalFeeBearer: 'user' }) };
		return withdrawals.handler(request);
	});
	servers.push(server);
	const moneySent = () =>
		server.requests.filter(
			(r) =>
				r.method === 'POST' &&
				(r.path.startsWith('/v1/payments/withdraw/') || r.path === '/v1/payments/swap-currency'),
		).length;
	return { moneySent, baseUrl: server.baseUrl };
}

const MONEY_MOVING: Array<[string, IDataObject]> = [
	[
		'Withdrawal → Create Crypto',
		{
			resource: 'withdrawal',
			operation: 'createCrypto',
			token: 'USDT',
			network: 'TRC20',
			walletAddress: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
			amountType: 'usd',
			amount: '={{ $json.amount }}',
			externalId: '={{ $json.ref }}',
		},
	],
	[
		'Withdrawal → Create Bank',
		{
			resource: 'withdrawal',
			operation: 'createBank',
			bankAccountId: rl('bank-1'),
			amount: '={{ $json.amount }}',
			externalId: '={{ $json.ref }}',
		},
	],
	[
		'Currency → Swap',
		{
			resource: 'currency',
			operation: 'swap',
			amount: '={{ $json.amount }}',
			from: 'ngn',
			to: 'ghs',
		},
	],
];

describe.each(MONEY_MOVING)('%s', (_name, parameters) => {
	test('saved with Dry Run under Additional Fields (true), it dry-runs through the engine: nothing is sent', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runNode(
			{ ...parameters, additionalFields: { dryRun: true } },
			{ items: [{ amount: 20, ref: 'saved-1' }], credentials: { baseUrl } },
		);
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.dryRun)).toEqual([true]);
		expect(moneySent()).toBe(0);
	});

	test('saved with Dry Run under Additional Fields as an expression, each item reads its own', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runNode(
			{ ...parameters, additionalFields: { dryRun: '={{ $json.dry }}' } },
			{
				items: [
					{ amount: 20, ref: 'saved-2', dry: true },
					{ amount: 20, ref: 'saved-3', dry: 'false' },
				],
				credentials: { baseUrl },
			},
		);
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.dryRun === true)).toEqual([true, false]);
		expect(moneySent()).toBe(1);
	});

	test('the top-level Dry Run dry-runs; neither set pays', async () => {
		const { baseUrl, moneySent } = await service();
		const dry = await runNode(
			{ ...parameters, dryRun: true },
			{ items: [{ amount: 20, ref: 'top-1' }], credentials: { baseUrl } },
		);
		expect(dry.items.map((item) => item.json.dryRun)).toEqual([true]);
		expect(moneySent()).toBe(0);
		const paid = await runNode(
			{ ...parameters, additionalFields: { dryRun: false } },
			{ items: [{ amount: 20, ref: 'top-2' }], credentials: { baseUrl } },
		);
		expect(paid.error).toBeUndefined();
		expect(moneySent()).toBe(1);
	});
});

test("n8n's Workflow keeps Dry Run under Additional Fields only while the description declares it there (why it stays declared)", () => {
	const description = new CryptoSettlement().description;
	const saved = {
		resource: 'withdrawal',
		operation: 'createCrypto',
		additionalFields: { dryRun: true, pin: '1' },
	};
	const kept = NodeHelpers.getNodeParameters(
		description.properties,
		saved,
		true,
		false,
		null,
		description,
	) as IDataObject;
	expect(kept.additionalFields).toEqual({ dryRun: true, pin: '1' });
	const undeclared = description.properties.map((entry) =>
		entry.name === 'additionalFields'
			? {
					...entry,
					options: (entry.options as INodeProperties[]).filter(
						(option) => option.name !== 'dryRun',
					),
				}
			: entry,
	);
	const dropped = NodeHelpers.getNodeParameters(
		undeclared,
		saved,
		true,
		false,
		null,
		description,
	) as IDataObject;
	expect(dropped.additionalFields).toEqual({ pin: '1' });
});
