/**
 * The first hour of a finance user (issue 27): a node placed on the canvas opens on a read, an
 * empty External ID is pointed out, list filters offer what exists, and the editor speaks in
 * actions and in the published README, never in this repository's paths. The browser check
 * (e2e/lib/browser.mjs) looks at the same things in a real editor.
 */
import {
	NodeHelpers,
	Workflow,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { ACTION_NODE, loadPackage } from '../../helpers';
import { RESOURCES } from '../../../nodes/CryptoSettlement/operations';
import { FEE_LEVELS, statusesOf } from '../../../nodes/service/catalog';
import {
	api,
	fail,
	noWithdrawalsYet,
	ok,
	operationsOfKind,
	recordRequests,
	rl,
	runNode,
	setupNock,
} from '../../helpers/node';

setupNock();

async function description(type = ACTION_NODE): Promise<INodeTypeDescription> {
	const { nodeTypes } = await loadPackage();
	return nodeTypes.getByNameAndVersion(type).description;
}

/** The parameters n8n gives a node just placed on the canvas: every default. */
async function placedNode(): Promise<INodeParameters> {
	const { properties } = await description();
	const node = { typeVersion: 1 } as INode;
	return NodeHelpers.getNodeParameters(
		properties,
		{},
		true,
		false,
		node,
		await description(),
	) as INodeParameters;
}

/** The entries shown for these parameter values. */
async function shown(values: INodeParameters): Promise<INodeProperties[]> {
	const desc = await description();
	return desc.properties.filter((entry) =>
		NodeHelpers.displayParameter(values, entry, { typeVersion: 1 }, desc, values),
	);
}

const withDefaults = async (values: INodeParameters): Promise<INodeParameters> => {
	const desc = await description();
	return NodeHelpers.getNodeParameters(
		desc.properties,
		values,
		true,
		false,
		{ typeVersion: 1 } as INode,
		desc,
	) as INodeParameters;
};

describe('2. a node placed on the canvas (or given to an AI Agent as a tool) opens on a read', () => {
	test('the defaults are Account → Get', async () => {
		expect(await placedNode()).toMatchObject({ resource: 'account', operation: 'get' });
		expect(RESOURCES.account.specs.get.kind).toBe('read');
	});

	test('choosing a resource selects a read where the resource has one', async () => {
		for (const [resource, { specs, default: operation }] of Object.entries(RESOURCES)) {
			const { operation: chosen } = await withDefaults({ resource });
			expect({ resource, chosen }).toEqual({ resource, chosen: operation });
			const reads = Object.values(specs).filter((spec) =>
				['read', 'pagedList', 'wholeList'].includes(spec.kind),
			);
			if (reads.length)
				expect({ resource, kind: specs[operation].kind }).toEqual({
					resource,
					kind: expect.stringMatching(/^(read|pagedList|wholeList)$/),
				});
		}
	});
});

describe('1. an empty External ID is pointed out while it is empty', () => {
	/** Whether the editor shows the node's hint for these parameters (it evaluates the condition so; an error hides it). */
	async function hinted(parameters: INodeParameters): Promise<boolean> {
		const { nodeTypes } = await loadPackage();
		const [hint] = (await description()).hints ?? [];
		const node: INode = {
			id: '1',
			name: 'Crypto Settlement',
			type: ACTION_NODE,
			typeVersion: 1,
			position: [0, 0],
			parameters: await withDefaults(parameters),
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		try {
			return (
				workflow.expression.getSimpleParameterValue(
					node,
					hint.displayCondition as string,
					'internal',
					{},
				) === true
			);
		} catch {
			return false;
		}
	}

	test('the hint says that every manual run then pays again, and what to map instead', async () => {
		const [hint] = (await description()).hints ?? [];
		expect(hint).toMatchObject({ type: 'warning', location: 'ndv', whenToDisplay: 'always' });
		expect(hint.message).toMatch(
			/^External ID is empty, so each run derives a new one: every manual run \(Execute step, Execute workflow\) pays again\. Map your own payment ID instead/,
		);
	});

	// Every operation of kind `withdrawal` in the records.
	test.each(operationsOfKind('withdrawal'))(
		'%s → %s shows it only while External ID is empty',
		async (resource, operation) => {
			expect(await hinted({ resource, operation })).toBe(true);
			expect(await hinted({ resource, operation, externalId: '  ' })).toBe(true);
			expect(await hinted({ resource, operation, externalId: 'order-1042' })).toBe(false);
			// A mapped External ID the editor cannot resolve yet (no input data) is not empty.
			expect(
				await hinted({
					resource,
					operation,
					externalId: "={{ $('Payout Order').item.json.payoutId }}",
				}),
			).toBe(false);
			expect(await hinted({ resource, operation, externalId: '={{ "order-7" }}' })).toBe(false);
		},
	);

	test('no other operation shows it', async () => {
		for (const [resource, { specs }] of Object.entries(RESOURCES)) {
			for (const [operation, spec] of Object.entries(specs)) {
				if (spec.kind === 'withdrawal') continue;
				expect({ resource, operation, hinted: await hinted({ resource, operation }) }).toEqual({
					resource,
					operation,
					hinted: false,
				});
			}
		}
		expect(await hinted({})).toBe(false);
	});
});

describe('3. withdrawal records say the currency of each amount', () => {
	/** A bank withdrawal as a service without currency fields stores it: 20 USD paid out as NGN. */
	const bankRecord = {
		id: 'wd-1',
		externalId: 'payout-1',
		type: 'bank',
		status: 'pending',
		amount: 20,
		fee: 50,
		currency: 'ngn',
		payoutAmount: 29950,
		bankAccount: 'ba-1',
	};

	test('Create Bank: amount is USD, fee and payoutAmount are NGN, each named right after its amount', async () => {
		noWithdrawalsYet(1);
		api()
			.post('/payments/withdraw/bank/ba-1')
			.reply(200, ok({ id: 'wd-1' }, 'withdrawal request received'));
		api().get('/payments/withdrawal/wd-1').reply(200, ok(bankRecord));
		const run = await runNode({
			resource: 'withdrawal',
			operation: 'createBank',
			bankAccountId: rl('ba-1'),
			amount: '20',
			externalId: 'payout-1',
		});
		expect(run.error).toBeUndefined();
		const record = run.items[0].json;
		expect(Object.entries(record)).toEqual([
			['id', 'wd-1'],
			['externalId', 'payout-1'],
			['type', 'bank'],
			['status', 'pending'],
			['amount', 20],
			['amountCurrency', 'USD'],
			['fee', 50],
			['feeCurrency', 'NGN'],
			['currency', 'ngn'],
			['settlementCurrency', 'NGN'],
			['payoutAmount', 29950],
			['payoutCurrency', 'NGN'],
			['bankAccount', 'ba-1'],
			['alreadySubmitted', false],
			['message', 'withdrawal request received'],
		]);
	});

	test('Get and Get Many name them too; a currency the service names itself is kept', async () => {
		const named = {
			...bankRecord,
			id: 'wd-2',
			currency: 'ghs',
			amountCurrency: 'USD',
			feeCurrency: 'GHS',
			payoutCurrency: 'GHS',
			fee: 2,
		};
		api().get('/payments/withdrawal/wd-1').reply(200, ok(bankRecord));
		const got = await runNode({ resource: 'withdrawal', operation: 'get', withdrawalId: 'wd-1' });
		expect(got.items[0].json).toMatchObject({
			amountCurrency: 'USD',
			feeCurrency: 'NGN',
			payoutCurrency: 'NGN',
		});

		api()
			.get('/payments/withdrawals')
			.query(true)
			.reply(
				200,
				ok([bankRecord, { ...named, feeCurrency: 'USD' }], 'ok', {
					page: 1,
					pages: 1,
					hasNextPage: false,
				}),
			);
		const listed = await runNode({ resource: 'withdrawal', operation: 'getAll', returnAll: true });
		expect(
			listed.items.map((item) => [
				item.json.amountCurrency,
				item.json.feeCurrency,
				item.json.payoutCurrency,
			]),
		).toEqual([
			['USD', 'NGN', 'NGN'],
			['USD', 'USD', 'GHS'],
		]);
	});

	test("an auto-settlement payout's amount is left unlabelled (its unit is not documented), a crypto one is USD", async () => {
		const payout = {
			id: 'wd-3',
			type: 'bank',
			status: 'completed',
			amount: 95,
			fee: 50,
			currency: 'ngn',
			payoutAmount: 150000,
			trade: 'tr-1',
		};
		const crypto = {
			id: 'wd-4',
			type: 'crypto',
			status: 'completed',
			amount: 10,
			fee: 1,
			currency: 'usd',
			cryptoAmount: 10,
			token: 'USDT',
			payoutAmount: 9,
		};
		api()
			.get('/payments/withdrawals')
			.query(true)
			.reply(200, ok([payout, crypto], 'ok', { page: 1, pages: 1, hasNextPage: false }));
		const listed = await runNode({ resource: 'withdrawal', operation: 'getAll', returnAll: true });
		expect(listed.items[0].json).not.toHaveProperty('amountCurrency');
		expect(listed.items[0].json).toMatchObject({ feeCurrency: 'NGN', payoutCurrency: 'NGN' });
		expect(listed.items[1].json).toMatchObject({
			amountCurrency: 'USD',
			feeCurrency: 'USD',
			payoutCurrency: 'USD',
		});
	});

	test('the record\'s own currency is named the settlement currency, so "ngn" never reads as the unit of the USD amount', async () => {
		const named = { ...bankRecord, id: 'wd-5', settlementCurrency: 'GHS' };
		api()
			.get('/payments/withdrawals')
			.query(true)
			.reply(200, ok([bankRecord, named], 'ok', { page: 1, pages: 1, hasNextPage: false }));
		const listed = await runNode({ resource: 'withdrawal', operation: 'getAll', returnAll: true });
		expect(
			listed.items.map((item) => [
				item.json.currency,
				item.json.settlementCurrency,
				item.json.amountCurrency,
			]),
		).toEqual([
			[bankRecord.currency, bankRecord.currency.toUpperCase(), 'USD'],
			[bankRecord.currency, 'GHS', 'USD'],
		]);
	});

	test('the operation says what it pays: a USD amount to an NGN or GHS account', () => {
		expect(RESOURCES.withdrawal.specs.createBank.option.description).toBe(
			'Pay out a USD amount to a saved NGN or GHS bank account',
		);
	});
});

describe('9. a withdrawal found under its External ID has a message too', () => {
	test('alreadySubmitted: true comes with a message saying it was not sent again', async () => {
		api()
			.get('/payments/withdrawal/order-1')
			.reply(
				200,
				ok({
					id: 'wd-5',
					externalId: 'order-1',
					status: 'completed',
					token: 'USDT',
					network: 'TRC20',
					walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
					amount: 10,
				}),
			);
		const run = await runNode({
			resource: 'withdrawal',
			operation: 'createCrypto',
			token: 'USDT',
			network: 'TRC20',
			walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
			amount: '10',
			externalId: 'order-1',
		});
		expect(run.items[0].json).toMatchObject({
			alreadySubmitted: true,
			message: 'Already submitted: found under External ID order-1, not sent again',
		});
	});
});

describe("7. the service's errors in the editor's words", () => {
	const usdt = (overrides: INodeParameters = {}): INodeParameters => ({
		resource: 'withdrawal',
		operation: 'createCrypto',
		token: 'USDT',
		network: 'TRC20',
		walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
		amount: '3',
		externalId: 'order-3',
		...overrides,
	});
	const limits = () =>
		api()
			.get('/payments/supported-assets-info')
			.reply(200, ok({ tokens: [], limits: { minimum: 5, maximum: 100000 }, rate: 1500 }));

	test.each([
		[
			'a field the service names',
			{ field: 'walletAddress', message: 'invalid wallet address' },
			"'Wallet Address': invalid wallet address",
		],
		[
			'a message that starts with the field',
			{ field: 'amount', message: 'amount must be greater than 0' },
			"'Amount (USD)' must be greater than 0",
		],
		[
			'a field the node does not show',
			{ field: 'integration', message: 'integration is suspended' },
			'integration: integration is suspended',
		],
	])('a 422 names %s by its label', async (_name, entry, shownAs) => {
		noWithdrawalsYet(1);
		api()
			.post('/payments/withdraw/address')
			.reply(422, fail(422, 'validation errors', [{ ...entry, location: 'body' }]));
		const run = await runNode(usdt());
		expect(run.error?.message).toBe(`validation errors (HTTP 422) — ${shownAs}`);
	});

	test("the API's 'id' of a bank is the 'Bank Name or ID' field", async () => {
		api()
			.post('/payments/banks/add')
			.reply(
				422,
				fail(422, 'validation errors', [
					{ field: 'id', message: 'bank not found', location: 'body' },
				]),
			);
		const run = await runNode({
			resource: 'bankAccount',
			operation: 'create',
			bankId: '999',
			accountNumber: '0123456789',
		});
		expect(run.error?.message).toBe(
			"validation errors (HTTP 422) — 'Bank Name or ID': bank not found",
		);
	});

	test('a payout below the minimum says what the minimum is, not that the account lacks permission', async () => {
		noWithdrawalsYet(1);
		api().post('/payments/withdraw/address').reply(403, fail(403, 'forbidden'));
		const read = limits();
		const run = await runNode(usdt());
		expect(run.error?.message).toBe('forbidden (HTTP 403)');
		expect(run.error?.description).toMatch(
			/^This item's amount, 3 USD, is below the account's minimum withdrawal of 5 USD\. The service refused this payout: the amount is outside the account's withdrawal limits/,
		);
		expect(run.error?.description).not.toMatch(/lacks permission/);
		expect(read.isDone()).toBe(true);
	});

	test('the limits are read once per run, for a quote too, and an amount within them is said to be', async () => {
		api()
			.post('/payments/estimate-network-fee')
			.times(2)
			.reply(403, fail(403, 'USDT on TRC20 is not available now'));
		const read = limits();
		const run = await runNode(
			{
				resource: 'withdrawal',
				operation: 'estimateNetworkFee',
				token: 'USDT',
				network: 'TRC20',
				walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
				amount: '={{ $json.amount }}',
			},
			{ items: [{ amount: '50' }, { amount: '200000' }], continueOnFail: true },
		);
		expect(
			run.items.map(
				(item) =>
					String(item.json.message)
						.replace(/^Row \d+(?: \([^)]*\))?: /, '')
						.split('. ')[0],
			),
		).toEqual([
			"This item's amount, 50 USD, is within the account's withdrawal limits (5 to 100000 USD), so the refusal has another cause",
			"This item's amount, 200000 USD, is above the account's maximum withdrawal of 100000 USD",
		]);
		expect(read.isDone()).toBe(true);
	});

	test('without the limits, the refusal stays as it was', async () => {
		noWithdrawalsYet(1);
		api().post('/payments/withdraw/address').reply(403, fail(403, 'forbidden'));
		api().get('/payments/supported-assets-info').reply(403, fail(403, 'no access'));
		const run = await runNode(usdt());
		expect(run.error?.description).toMatch(
			/^The service refused this payout: the amount is outside the account's withdrawal limits \(Asset → Get Withdrawal Assets lists them\)/,
		);
	});

	test('a 403 elsewhere keeps the permission hint, and reads no limits', async () => {
		api().get('/trades/wallets/w1').reply(403, fail(403, 'you do not have api access'));
		const requests = recordRequests();
		const run = await runNode({ resource: 'wallet', operation: 'get', walletId: rl('w1') });
		expect(run.error?.description).toBe(
			'The account lacks permission for this action (for example no API access for it).',
		);
		expect(requests.count()).toBe(0);
	});
});

describe('5. a status filter offers the statuses that exist', () => {
	test.each([
		['withdrawal', statusesOf('withdrawal')],
		['transaction', statusesOf('trade')],
	] as const)(
		'%s → Get Many: Status is a choice of %j (another value only through an expression)',
		async (resource, statuses) => {
			const [filters] = (await shown({ resource, operation: 'getAll' })).filter(
				(entry) => entry.name === 'filters',
			);
			const status = (filters.options as INodeProperties[]).find(
				(option) => option.name === 'status',
			) as INodeProperties;
			expect(status.type).toBe('options');
			expect(status.noDataExpression).toBeUndefined();
			expect((status.options ?? []).map((option) => (option as { value: string }).value)).toEqual([
				...statuses,
			]);
			expect(statuses).toEqual(expect.arrayContaining(['pending', 'completed']));
		},
	);
});

describe('9. polish', () => {
	test('Fee Level offers Low, Medium, High, in that order', async () => {
		const feeLevels = (await description()).properties.filter((entry) => entry.name === 'feeLevel');
		expect(feeLevels.length).toBeGreaterThan(0);
		for (const field of feeLevels)
			expect((field.options ?? []).map((option) => option.name)).toEqual(['Low', 'Medium', 'High']);
		expect(FEE_LEVELS).toEqual(['low', 'medium', 'high']);
	});

	test("the canvas subtitle is the operation's action, for every operation", async () => {
		const { nodeTypes } = await loadPackage();
		const { subtitle } = await description();
		for (const [resource, { specs }] of Object.entries(RESOURCES)) {
			for (const [operation, spec] of Object.entries(specs)) {
				const node: INode = {
					id: '1',
					name: 'Crypto Settlement',
					type: ACTION_NODE,
					typeVersion: 1,
					position: [0, 0],
					parameters: { resource, operation },
				};
				const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
				expect(
					workflow.expression.getSimpleParameterValue(node, subtitle as string, 'internal', {}),
				).toBe(spec.option.action);
			}
		}
	});

	test("texts shown in the editor point at the package's README, never at files of this repository", async () => {
		const texts: string[] = [];
		const collect = (value: unknown): void => {
			if (typeof value === 'string') texts.push(value);
			else if (Array.isArray(value)) value.forEach(collect);
			else if (value && typeof value === 'object') Object.values(value).forEach(collect);
		};
		const { loader } = await loadPackage();
		for (const { type } of Object.values(loader.nodeTypes))
			collect((type as { description: unknown }).description);
		for (const { type } of Object.values(loader.credentialTypes)) collect(type);
		expect(texts.length).toBeGreaterThan(100);
		expect(
			texts.filter((text) =>
				/\b(docs|nodes|e2e|fake-api|tooling|test)\/[\w./-]+|\b[\w-]+\.md\b/.test(text),
			),
		).toEqual([]);
	});
});
