/**
 * The editor, second pass (issue 36): what a person sees before moving money. The credential says
 * "no limit" where there is none; the money-moving operations show Dry Run at the top, kept when
 * the operation changes, and point to it (n8n's editor cannot show a credential's guardrails, a Dry
 * Run names them); an agent's tool says what an agent may do instead of warning about manual runs;
 * a Dry Run states the guardrails and what leaves the balance, the fee and what the recipient
 * receives, through n8n-core's engine against a local HTTP server; a service's 422 names the row. The browser check (e2e/lib/browser.mjs) looks at
 * the same screens in a real editor.
 */
import {
	NodeHelpers,
	Workflow,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
} from 'n8n-workflow';
import { ACTION_NODE, loadPackage } from '../../helpers';
import { SPECS } from '../../../nodes/CryptoSettlement/operations';
import {
	AGENT_TOOL_HINT,
	DRY_RUN_HINT,
	EMPTY_EXTERNAL_ID_HINT,
} from '../../../nodes/CryptoSettlement/operations/withdrawal';
import { describeGuardrails } from '../../../nodes/CryptoSettlement/money/guardrailSummary';
import { CREDENTIALS, rl, runNode, serversClosedAfterEach } from '../../helpers/node';
import {
	envelope,
	localService,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';
import { tronAddress } from '../../helpers/addresses';

const REFUSED = tronAddress('refused by the service');

async function description(): Promise<INodeTypeDescription> {
	const { nodeTypes } = await loadPackage();
	return nodeTypes.getByNameAndVersion(ACTION_NODE).description;
}

const servers = serversClosedAfterEach();

const MONEY_MOVING = Object.entries(SPECS).flatMap(([resource, specs]) =>
	Object.entries(specs)
		.filter(([, spec]) => spec.payment !== undefined)
		.map(([operation]) => ({ resource, operation })),
);

describe('1. the credential says "no limit" where there is none', () => {
	/** The notices the credential dialog shows for these values (n8n applies displayOptions so). */
	async function notices(values: IDataObject): Promise<string[]> {
		const { credentialType } = await loadPackage();
		const data = {
			...Object.fromEntries(credentialType.properties.map((p) => [p.name, p.default])),
			...values,
		} as INodeParameters;
		return credentialType.properties
			.filter((p) => p.type === 'notice' && p.name !== 'guardrailsNotice')
			.filter((p) => NodeHelpers.displayParameter(data, p, null, null, data))
			.map((p) => p.displayName);
	}

	test('a new credential names each guardrail that limits nothing', async () => {
		expect(await notices({})).toEqual([
			expect.stringMatching(
				/^No limit per withdrawal \(0\): one withdrawal or swap may pay out any amount/,
			),
			expect.stringMatching(
				/^No limit per day \(0\): a looping workflow or an agent may pay out the whole balance/,
			),
			expect.stringMatching(/^Crypto may go to any address/),
		]);
	});

	test('Allow Sub-Workflow Payments on says what it lets through; off (the default) shows nothing', async () => {
		const set = { maxPerWithdrawalUsd: 500, maxPerDayUsd: 2000, destinations: 'savedOnly' };
		expect(await notices({ ...set, allowSubWorkflowPayments: true })).toEqual([
			"Payments in sub-workflows are allowed: any workflow or AI agent that can start a workflow holding this node can pay through it, without Allow Agent Payments or a person's review. Turn it on only if every workflow that may call these is trusted to pay.",
		]);
	});

	test('each notice goes once its guardrail is set', async () => {
		expect(await notices({ maxPerWithdrawalUsd: 500 })).toHaveLength(2);
		expect(
			await notices({ maxPerWithdrawalUsd: 500, maxPerDayUsd: 2000, destinations: 'savedOnly' }),
		).toEqual([]);
	});
});

describe('2. a Dry Run names the credential\'s guardrails, "no limit" where there is none', () => {
	test('a Production credential with no limits: each says no limit, and what is not limited is named', () => {
		expect(describeGuardrails({ ...CREDENTIALS, environment: 'production' })).toEqual({
			environment: 'production',
			maxPerWithdrawal: 'no limit',
			maxPerDay: 'no limit',
			destinations: 'any address',
			agentPayments: 'not allowed',
			subWorkflowPayments: 'not allowed',
			notLimited: ['the amount per withdrawal', 'the total per day', 'where crypto goes'],
		});
	});

	test('a configured credential: each limit with its unit, nothing unlimited', () => {
		expect(
			describeGuardrails({
				...CREDENTIALS,
				maxPerWithdrawalUsd: 500,
				maxPerDayUsd: 2000,
				destinations: 'allowList',
				allowedAddresses: 'TA\nUSDT:TRC20:TB',
				allowAgentPayments: true,
			}),
		).toEqual({
			environment: 'sandbox',
			maxPerWithdrawal: '500.00 USD',
			maxPerDay: '2000.00 USD',
			destinations: '2 listed addresses only',
			agentPayments: 'allowed',
			subWorkflowPayments: 'not allowed',
		});
	});
});

describe('3. Dry Run sits at the top and stays on through operation changes', () => {
	test('one Dry Run entry for the operations that move money, their first field', async () => {
		const { properties } = await description();
		const entries = properties.filter((p) => p.name === 'dryRun');
		expect(entries).toHaveLength(1);
		for (const { resource, operation } of MONEY_MOVING) {
			const fields = SPECS[resource][operation].fields.map((field) => field.name);
			expect(fields[0]).toBe('dryRun');
		}
	});

	test('switching Create Crypto → Create Bank keeps Dry Run on; a read drops it', async () => {
		const desc = await description();
		const resolve = (values: INodeParameters) =>
			NodeHelpers.getNodeParameters(
				desc.properties,
				values,
				false,
				false,
				{ typeVersion: 1 } as INode,
				desc,
			) as INodeParameters;
		expect(resolve({ resource: 'withdrawal', operation: 'createBank', dryRun: true }).dryRun).toBe(
			true,
		);
		expect(
			resolve({ resource: 'withdrawal', operation: 'getAll', dryRun: true }).dryRun,
		).toBeUndefined();
	});
});

describe("4. an agent's tool says what an agent may do, not the manual-run warning; a person is pointed to Dry Run", () => {
	/**
	 * The tool variant as n8n 2.41 makes it for the AI Agent (convertNodeToAiTool in n8n's
	 * tool-generation): the same description with its Tool Description parameters added.
	 */
	async function toolTypes(): Promise<{ nodeTypes: INodeTypes; type: string }> {
		const { nodeTypes } = await loadPackage();
		const action = nodeTypes.getByNameAndVersion(ACTION_NODE);
		const descriptionType: INodeProperties = {
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			options: [
				{ name: 'Set Automatically', value: 'auto' },
				{ name: 'Set Manually', value: 'manual' },
			],
			default: 'auto',
		};
		const tool = {
			...action,
			description: {
				...action.description,
				name: `${action.description.name}Tool`,
				properties: [descriptionType, ...action.description.properties],
			},
		} as INodeType;
		const type = `${ACTION_NODE}Tool`;
		return {
			type,
			nodeTypes: {
				getByName: (name) => (name === type ? tool : nodeTypes.getByName(name)),
				getByNameAndVersion: (name, version) =>
					name === type ? tool : nodeTypes.getByNameAndVersion(name, version),
				getKnownTypes: () => nodeTypes.getKnownTypes(),
			},
		};
	}

	async function hintsShown(
		parameters: INodeParameters,
		{ asTool = false } = {},
	): Promise<string[]> {
		const { nodeTypes, type } = await toolTypes();
		const desc = nodeTypes.getByNameAndVersion(asTool ? type : ACTION_NODE).description;
		const values = NodeHelpers.getNodeParameters(
			desc.properties,
			parameters,
			true,
			false,
			{ typeVersion: 1 } as INode,
			desc,
		) as INodeParameters;
		const node: INode = {
			id: '1',
			name: 'Pay Supplier',
			type: asTool ? type : ACTION_NODE,
			typeVersion: 1,
			position: [0, 0],
			parameters: values,
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		return (desc.hints ?? [])
			.filter((hint) => {
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
			})
			.map((hint) => hint.message);
	}

	test.each(MONEY_MOVING)('$resource → $operation', async ({ resource, operation }) => {
		expect(await hintsShown({ resource, operation }, { asTool: true })).toEqual([AGENT_TOOL_HINT]);
		const externalId =
			SPECS[resource][operation].kind === 'withdrawal' ? [EMPTY_EXTERNAL_ID_HINT] : [];
		expect(await hintsShown({ resource, operation })).toEqual([...externalId, DRY_RUN_HINT]);
		// With Dry Run on, its output names the guardrails: the pointer to it goes.
		expect(await hintsShown({ resource, operation, dryRun: true })).toEqual(externalId);
	});

	// Issue 50, point 6: a hint cannot see the workflow, and shows on a template's pay step that runs
	// after a Dry Run step; it must not tell that step's reader the step is unsafe as it stands.
	test("the hint on a pay step names the templates' way too: a Dry Run step before it", () => {
		expect(DRY_RUN_HINT).toMatch(/turn on Dry Run here, or put a Dry Run step before this one/);
		expect(DRY_RUN_HINT).not.toMatch(/^Turn on Dry Run/);
	});
});

describe('5. a Dry Run states what leaves the balance, the fee and what arrives', () => {
	/** A service with the account's fee bearer and the fee quotes of the fake API's shape. */
	async function service(feeBearer: string | undefined) {
		const withdrawals = withdrawalService();
		const server = await localService((request: Seen): Reply => {
			const route = `${request.method} ${request.path.replace(/^\/v1/, '')}`;
			if (route === 'GET /users/fetch-integration')
				return { status: 200, body: envelope(feeBearer ? { withdrawalFeeBearer: feeBearer } : {}) };
			if (route === 'POST /payments/estimate-network-fee') {
				return {
					status: 200,
					body: envelope({
						token: 'USDT',
						network: 'TRC20',
						fee: 1.5,
						feeCurrency: 'USD',
						fees: { low: 2, medium: 4, high: 8 },
						cryptoFees: { low: 0.00002, medium: 0.00004, high: 0.00008 },
					}),
				};
			}
			return withdrawals.handler(request);
		});
		servers.push(server);
		const moneySent = () =>
			server.requests.filter(
				(r) => r.method === 'POST' && r.path.startsWith('/v1/payments/withdraw/'),
			).length;
		return { baseUrl: server.baseUrl, moneySent };
	}

	const usdt = {
		resource: 'withdrawal',
		operation: 'createCrypto',
		token: 'USDT',
		network: 'TRC20',
		walletAddress: 'TFBFDZuZHpj1WkTSfmRKdMF55hGRq198o1',
		amountType: 'usd',
		amount: '10',
		externalId: 'dry-10',
		dryRun: true,
	};

	test('the recipient bears the fee: 10 USD leaves, 1.50 USD fee, 8.50 USD arrives', async () => {
		const { baseUrl, moneySent } = await service('user');
		const run = await runNode(usdt, { credentials: { baseUrl } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.guardrails).toMatchObject({
			maxPerWithdrawal: 'no limit',
			notLimited: ['the amount per withdrawal', 'the total per day', 'where crypto goes'],
		});
		expect(run.items[0].json.payout).toEqual({
			amount: 10,
			amountCurrency: 'USD',
			fee: 1.5,
			feeCurrency: 'USD',
			feeBearer: 'recipient',
			leavesBalance: '10.00 USD',
			recipientReceives: '8.50 USD in USDT on TRC20',
			summary:
				'10.00 USD leaves the balance; 1.50 USD is deducted from it; the recipient receives 8.50 USD in USDT on TRC20',
		});
		expect(moneySent()).toBe(0);
	});

	test('the business bears the fee: 11.50 USD leaves, 10 USD arrives', async () => {
		const { baseUrl } = await service('business');
		const run = await runNode(usdt, { credentials: { baseUrl } });
		expect(run.items[0].json.payout).toMatchObject({
			feeBearer: 'business',
			leavesBalance: '11.50 USD',
			recipientReceives: '10.00 USD in USDT on TRC20',
		});
	});

	test('a crypto amount is stated in its token, the fee of the chosen level too', async () => {
		const { baseUrl } = await service('user');
		const btc = {
			resource: 'withdrawal',
			operation: 'createCrypto',
			token: 'BTC',
			feeLevel: 'low',
			walletAddress: 'bc1ql45g9t5mq9up4xfkgqj70s60v7qdhdk29rj9je',
			amountType: 'crypto',
			cryptoAmount: '0.001',
			externalId: 'dry-btc',
			additionalFields: { dryRun: true },
		};
		const run = await runNode(btc, { credentials: { baseUrl } });
		expect(run.items[0].json.payout).toMatchObject({
			amount: 0.001,
			amountCurrency: 'BTC',
			fee: 0.00002,
			feeCurrency: 'BTC',
			leavesBalance: '0.001 BTC',
			recipientReceives: '0.00098 BTC in BTC',
		});
	});

	test('an unreadable fee bearer states both cases; a bank payout says where its fee is shown', async () => {
		const { baseUrl, moneySent } = await service(undefined);
		const run = await runNode(usdt, { credentials: { baseUrl } });
		expect(run.items[0].json.payout).toMatchObject({
			feeBearer: 'unknown',
			leavesBalance:
				'10.00 USD, plus the fee if the business bears fees (the fee bearer could not be read)',
			recipientReceives: '10.00 USD in USDT on TRC20, less the fee if the recipient bears fees',
		});
		const bank = await runNode(
			{
				resource: 'withdrawal',
				operation: 'createBank',
				bankAccountId: rl('bank-1'),
				amount: '20',
				externalId: 'dry-bank',
				dryRun: true,
			},
			{ credentials: { baseUrl } },
		);
		expect(bank.items[0].json).toMatchObject({
			dryRun: true,
			payout: {
				amount: 20,
				amountCurrency: 'USD',
				fee: expect.stringMatching(/^the service's bank fee, in the bank account's currency/),
			},
		});
		expect(moneySent()).toBe(0);
	});

	test('a bank payout is asked in USD and paid from the NGN or GHS balance: no USD figure leaves, the fee is in that currency', async () => {
		const bank = {
			resource: 'withdrawal',
			operation: 'createBank',
			bankAccountId: rl('bank-1'),
			amount: '20',
			externalId: 'dry-bank',
			dryRun: true,
		};
		const converted =
			"the NGN or GHS equivalent of 20.00 USD (the bank account's currency, at the service's rate)";
		const fee = "the service's bank fee, in the bank account's currency";
		const payouts: IDataObject = {};
		for (const bearer of ['user', 'business', undefined]) {
			const { baseUrl, moneySent } = await service(bearer);
			const run = await runNode(bank, { credentials: { baseUrl } });
			payouts[bearer ?? 'unknown'] = run.items[0].json.payout;
			expect(moneySent()).toBe(0);
		}
		expect(payouts.user).toEqual({
			amount: 20,
			amountCurrency: 'USD',
			feeBearer: 'recipient',
			fee: `${fee}; the created record shows it (fee, feeCurrency)`,
			leavesBalance: `${converted}, from the balance in the bank account's currency`,
			recipientReceives: `${converted}, less ${fee}`,
			summary: `The NGN or GHS equivalent of 20.00 USD (the bank account's currency, at the service's rate) leaves the balance in that currency; ${fee} is deducted from it; the recipient receives the rest. Neither the rate nor the fee is quoted before a bank payout: the created record shows what was paid out and the fee (payoutAmount, fee, in the bank account's currency).`,
		});
		expect(payouts.business).toMatchObject({
			leavesBalance: `${converted}, plus ${fee}, from the balance in the bank account's currency`,
			recipientReceives: converted,
		});
		expect(payouts.unknown).toMatchObject({
			leavesBalance: expect.stringContaining('plus the fee if the business bears fees'),
			recipientReceives: `${converted}, less the fee if the recipient bears fees`,
		});
		// Nothing claims a USD sum leaves or arrives: only the amount asked is in USD.
		for (const payout of Object.values(payouts) as IDataObject[]) {
			expect(String(payout.leavesBalance)).not.toMatch(/^\d/);
			expect(String(payout.recipientReceives)).not.toMatch(/^\d/);
		}
	});
});

describe("6. a service's 422 names the row, says nothing was paid, and advises as the node's own errors do", () => {
	// An address of Tron's form that the service refuses (the node's own check of the form passes it).
	test('an address the service refuses: the label, the row with its External ID, the network to match', async () => {
		const withdrawals = withdrawalService((body) =>
			body.walletAddress === REFUSED
				? {
						status: 422,
						body: {
							success: false,
							message: 'validation errors',
							errors: [
								{ field: 'walletAddress', message: 'invalid wallet address', location: 'body' },
							],
							data: {},
						},
					}
				: 'create',
		);
		const server = await localService((request) => withdrawals.handler(request));
		servers.push(server);
		const usdt = {
			resource: 'withdrawal',
			operation: 'createCrypto',
			token: 'USDT',
			network: 'TRC20',
			walletAddress: '={{ $json.address }}',
			amountType: 'usd',
			amount: '10',
			externalId: '={{ $json.ref }}',
		};
		const items = [
			{ address: 'TDtt3rDkpZ3d2viupRddQCaT15HuefWKgQ', ref: 'pay-1' },
			{ address: REFUSED, ref: 'pay-2' },
		];
		const run = await runNode(usdt, {
			items,
			credentials: { baseUrl: server.baseUrl },
			continueOnFail: true,
		});
		expect(run.items[1].json).toEqual({
			error: "validation errors (HTTP 422) — 'Wallet Address': invalid wallet address",
			message:
				"Fix 'Wallet Address' for row 2 (pay-2, n8n item 1). It must be a USDT address on TRC20, the Network chosen: an address of another chain is refused. The service refused it, so nothing was paid for this item. The service rejected one or more fields.",
		});
		expect(run.items[0].json).toMatchObject({ externalId: 'pay-1' });
	});
});

describe('7. smaller things a person reads', () => {
	test('networks name their chain; the value sent stays the code', async () => {
		const { properties } = await description();
		const networks = properties
			.filter((p) => p.name === 'network')
			.flatMap((p) => (p.options ?? []) as INodePropertyOptions[]);
		expect(networks).toContainEqual({ name: 'TRC20 (Tron)', value: 'TRC20' });
		expect(networks).toContainEqual({ name: 'BSC (BNB Smart Chain)', value: 'BSC' });
		expect(networks).toContainEqual({ name: 'TON', value: 'TON' });
		expect(networks.every((option) => String(option.name).startsWith(String(option.value)))).toBe(
			true,
		);
	});

	test('a fee quote names the token as the unit of its crypto amounts', () => {
		expect(
			SPECS.withdrawal.estimateNetworkFee.output?.({
				token: 'USDT',
				network: 'TRC20',
				fee: 1.5,
				feeCurrency: 'USD',
				cryptoFee: 1.5,
			}),
		).toEqual({
			token: 'USDT',
			network: 'TRC20',
			fee: 1.5,
			feeCurrency: 'USD',
			cryptoFee: 1.5,
			cryptoFeeCurrency: 'USDT',
		});
	});
});
