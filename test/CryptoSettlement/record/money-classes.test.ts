/**
 * Every operation is classed by what it can do to money (its record's `money`), and the class
 * decides who may run it (README, "Guardrails"): through n8n-core's engine against a local HTTP
 * server, every operation of the records under each Allowed Destinations value, and as an AI
 * agent's tool with agent payments off and on. A refusal comes before any request.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { AGENT_TOOL_HINT } from '../../../nodes/CryptoSettlement/operations/withdrawal';
import { fieldOf } from '../../../nodes/CryptoSettlement/record/nodeDescription';
import { RESOURCES } from '../../../nodes/CryptoSettlement/operations';
import { MONEY_CLASSES } from '../../../nodes/CryptoSettlement/record/moneyClasses';
import { rl, runAsTool, runNode, serversClosedAfterEach, WEBHOOK_SECRET } from '../../helpers/node';
import {
	envelope,
	localService,
	refusal,
	type Reply,
	type Seen,
} from '../../helpers/local-service';

const SAVED = {
	_id: 's1',
	address: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
	token: 'USDT',
	network: 'TRC20',
	label: 'treasury',
};

/** An id the test put in a path: a resource locator's or an empty field's value, `<parameter>-1` (see OPERATIONS). */
const SAMPLE_ID = /^[a-z][A-Za-z]*-1$/;

/**
 * A service that accepts every request: lists are empty (but for the saved address); a write
 * answers with the record asked for, its id from the path (so an operation that checks its record's
 * id, `byId`, passes as it is), a creation with a new id, an update of no record the service's `{}`.
 */
function accepting(request: Seen): Reply {
	const path = request.path.replace(/^\/v1/, '');
	const asked = path.split('/').find((segment) => SAMPLE_ID.test(segment));
	// Nothing is stored under the payments' External ID yet.
	if (request.method === 'GET' && path === `/payments/withdrawal/${String(SAMPLES.externalId)}`)
		return { status: 404, body: refusal('withdrawal not found') };
	if (request.method === 'GET' && path === '/payments/wallet-addresses')
		return { status: 200, body: envelope([SAVED]) };
	// The trade a verified delivery names (Webhook Event → Verify Delivery) is there, completed.
	if (request.method === 'GET' && path.startsWith('/trades/transactions/'))
		return { status: 200, body: envelope({ id: path.split('/').pop(), status: 'completed' }) };
	if (request.method === 'GET')
		return { status: 200, body: { ...envelope([]), meta: { page: 1, hasNextPage: false } } };
	// An answer about another record would be refused (docs/usage.md, "The record asked for").
	if (request.method === 'PUT') return { status: 200, body: envelope(asked ? { id: asked } : {}) };
	return { status: 200, body: envelope({ id: asked ?? 'rec-1' }) };
}

/** Values for the fields an operation leaves empty by default, by parameter name (the contract's names). */
const SAMPLES: IDataObject = {
	network: 'TRC20',
	walletAddress: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
	address: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
	amount: '10',
	amountInUSD: '10',
	cryptoReceived: '0.001',
	accountNumber: '0123456789',
	from: 'USDT',
	to: 'NGN',
	asset: 'USDT',
	externalId: 'ext-1',
	day: '2026-03-10',
};

/** The input an operation reads, when it reads one: Verify Delivery reads the item of n8n's Webhook node. */
const INPUTS: Record<string, IDataObject[]> = {
	'webhookEvent.verifyDelivery': [
		{
			headers: { 'x-webhook-secret': WEBHOOK_SECRET },
			body: { event: 'trade.completed', id: 'trade-money-classes', status: 'completed' },
		},
	],
};

/**
 * Every operation of the records, with parameters that pass its field rules; an operation whose
 * class rises with some Additional Fields (`moneyWith`) also with all of them added.
 */
const OPERATIONS = Object.entries(RESOURCES).flatMap(([resource, { name, specs }]) =>
	Object.entries(specs).flatMap(([operation, spec]) => {
		const params: IDataObject = { resource, operation };
		for (const field of spec.fields as INodeProperties[]) {
			if (field.type === 'resourceLocator') params[field.name] = rl(`${field.name}-1`);
			else if (field.default === '' && field.type !== 'collection')
				params[field.name] = SAMPLES[field.name] ?? `${field.name}-1`;
		}
		const items = INPUTS[`${resource}.${operation}`];
		const operations = [
			{ name: `${name} → ${spec.option.name}`, money: spec.money, params, items },
		];
		if (spec.moneyWith) {
			const added = spec.moneyWith.fields.map((field) => fieldOf(spec, field) as INodeProperties);
			operations.push({
				name: `${name} → ${spec.option.name} ${spec.moneyWith.name} (${added.map((field) => `'${field.displayName}'`).join(', ')})`,
				money: spec.moneyWith.money,
				params: {
					...params,
					additionalFields: Object.fromEntries(
						added.map((field) => [
							field.name,
							field.type === 'boolean' || (SAMPLES[field.name] ?? `${field.name}-1`),
						]),
					),
				},
				items,
			});
		}
		return operations;
	}),
);

const DESTINATIONS: Array<[string, IDataObject, string]> = [
	['any', { destinations: 'any' }, 'Any Address'],
	['savedOnly', { destinations: 'savedOnly' }, 'Saved Payout Addresses Only'],
	[
		'allowList',
		{
			destinations: 'allowList',
			allowedAddresses: 'USDT:TRC20:TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
		},
		'Addresses Listed Below Only',
	],
];

const servers = serversClosedAfterEach();

async function service() {
	const server = await localService(accepting);
	servers.push(server);
	return server;
}

test('the records class every operation, and only the ones that pay describe a payment', () => {
	// The classes are the rows of the one table (record/moneyClasses.ts); the four the contract names are there.
	const classes = new Set(OPERATIONS.map((operation) => operation.money));
	expect([...classes].filter((money) => !(money in MONEY_CLASSES))).toEqual([]);
	expect(Object.keys(MONEY_CLASSES)).toEqual(
		expect.arrayContaining(['destination', 'none', 'pays', 'settings']),
	);
	for (const { specs } of Object.values(RESOURCES)) {
		for (const spec of Object.values(specs))
			expect(spec.money === 'pays').toBe(typeof spec.payment === 'function');
	}
});

describe.each(DESTINATIONS)('Allowed Destinations %s', (_value, guardrail, label) => {
	test.each(OPERATIONS)('$name ($money)', async ({ name, money, params, items }) => {
		const server = await service();
		const run = await runNode(params, {
			items,
			credentials: { baseUrl: server.baseUrl, ...guardrail },
		});
		// By the class's column, so a class added to the table is judged without an edit here.
		if (
			MONEY_CLASSES[money].refusedUnderRestrictedDestinations &&
			guardrail.destinations !== 'any'
		) {
			expect(run.error?.message).toBe(
				`${name} is refused: this credential's 'Allowed Destinations' is '${label}', so it may not change where money goes`,
			);
			expect(run.error?.description).toMatch(
				/dashboard.*Any Address.*under Guardrails → Allowed Destinations\. Nothing was sent/,
			);
			expect(server.requests).toHaveLength(0);
		} else {
			expect(run.error).toBeUndefined();
			expect(server.requests.length).toBeGreaterThan(0);
		}
	});
});

describe.each([
	['agent payments off (the default)', {}],
	['agent payments on', { allowAgentPayments: true, agentPaymentsNeedHumanReview: false }],
])('an AI agent, %s', (_title, allowed: IDataObject) => {
	// What the contract's classes are refused in words, written here apart from the table; a class added
	// to the table later is refused in the words of its row.
	const REFUSED: Record<string, string> = {
		...Object.fromEntries(
			Object.entries(MONEY_CLASSES).flatMap(([money, row]) =>
				'refusedToAgents' in row ? [[money, row.refusedToAgents]] : [],
			),
		),
		destination: 'change where money goes',
		settings: 'change account settings or replay events',
	};
	test.each(OPERATIONS)('$name ($money)', async ({ name, money, params, items }) => {
		const server = await service();
		const run = await runAsTool(params, { baseUrl: server.baseUrl, ...allowed }, items);
		if (REFUSED[money]) {
			expect(run.error?.message).toBe(
				`This tool may not ${REFUSED[money]} (${name}): AI agents never may, whatever the credential allows. Ask a person to do it.`,
			);
			expect(server.requests).toHaveLength(0);
		} else if (money === 'pays' && !allowed.allowAgentPayments) {
			expect(run.error?.message).toMatch(/^This tool may not move money: /);
			// Only reads: whether a mapped External ID already holds this payment (a refusal never hides one).
			expect(
				server.requests.filter(
					(request) =>
						request.method !== 'GET' || !request.path.startsWith('/v1/payments/withdrawal/'),
				),
			).toEqual([]);
		} else {
			expect(run.error).toBeUndefined();
			expect(server.requests.length).toBeGreaterThan(0);
		}
	});
});

test('an Allowed Destinations value the node cannot read refuses a change of destination, naming it', async () => {
	const server = await service();
	const run = await runNode(
		{
			resource: 'payoutAddress',
			operation: 'create',
			address: 'TSa4vPSBTPV51iimzKoWPai616EPLqKrpd',
			token: 'USDT',
			network: 'TRC20',
			label: 'x',
		},
		{
			credentials: { baseUrl: server.baseUrl, destinations: 'saved' },
		},
	);
	expect(run.error?.message).toBe(
		"The credential's guardrail 'Allowed Destinations' is \"saved\", which the node cannot read (it must be one of Any Address, Saved Payout Addresses Only, Addresses Listed Below Only), so nothing is sent",
	);
	expect(run.error?.description).toMatch(
		/under Guardrails → Allowed Destinations\. Nothing was sent/,
	);
	expect(server.requests).toHaveLength(0);
});

test('a batch of changes of destination is refused row by row, with Continue On Fail off and on; nothing is sent', async () => {
	const server = await service();
	const create = {
		resource: 'payoutAddress',
		operation: 'create',
		address: '={{ $json.address }}',
		token: 'USDT',
		network: 'TRC20',
		label: 'x',
	};
	const items = [
		{ address: 'TLXRDm3WFFx9HDkic4LeX4A6EW7CsZk1eN' },
		{ address: 'TD3BbqkhGcmTCzf9cTFschtAadGF366UHn' },
		{ address: 'TXg5VGywLcMFG5MEnDT8nSBLNMaL2vJXoj' },
	];
	const credentials = { baseUrl: server.baseUrl, destinations: 'savedOnly' };
	const stopped = await runNode(create, { items, credentials });
	expect(stopped.error?.message).toMatch(/^Payout Address → Create is refused: /);
	const each = await runNode(create, { items, credentials, continueOnFail: true });
	expect(each.items.map((item) => item.json.error)).toEqual(Array(3).fill(stopped.error?.message));
	expect(server.requests).toHaveLength(0);
});

/**
 * Wallet → Create moves nothing, but a settlement bank among its Additional Fields sends the new
 * wallet's deposits to a bank account the item chose: such an item changes where money goes.
 */
describe('Wallet → Create with a settlement bank', () => {
	/** The settlement fields, by parameter name, with their labels (README, "Guardrails"). */
	const BANK: Array<[string, IDataObject[string], string]> = [
		['accountNumber', '0123456789', 'Account Number'],
		['autoSettlement', true, 'Auto Settlement'],
		['bankId', 'bank-1', 'Bank ID'],
		['narration', 'payout', 'Narration'],
	];
	const ALL = Object.fromEntries(BANK.map(([field, value]) => [field, value]));
	const create = (additionalFields?: IDataObject) => ({
		resource: 'wallet',
		operation: 'create',
		assetId: 'asset-1',
		label: 'shop',
		...(additionalFields ? { additionalFields } : {}),
	});
	/** Each settlement field alone, and all of them, with the fields its refusal names. */
	const WITH = [
		...BANK.map(([field, value, label]) => ({
			set: field,
			fields: { [field]: value },
			named: `'${label}'`,
		})),
		// The README's example.
		{
			set: 'a bank account',
			fields: { bankId: 'bank-1', accountNumber: '0123456789' },
			named: "'Account Number', 'Bank ID'",
		},
		{ set: 'all four', fields: ALL, named: BANK.map(([, , label]) => `'${label}'`).join(', ') },
	];
	/** Without them: no Additional Fields, or none added. */
	const WITHOUT: Array<[string, IDataObject | undefined]> = [
		['no Additional Fields', undefined],
		['Additional Fields empty', {}],
	];
	const RESTRICTED = [
		...DESTINATIONS.filter(([value]) => value !== 'any'),
		['unreadable', { destinations: 'saved' }, ''] as [string, IDataObject, string],
	];

	describe.each([
		['agent payments off (the default)', {}],
		['agent payments on', { allowAgentPayments: true, agentPaymentsNeedHumanReview: false }],
	])('an AI agent, %s', (_title, allowed: IDataObject) => {
		test.each(WITH)(
			'is refused with $set, naming it; nothing is sent',
			async ({ fields, named }) => {
				const server = await service();
				const run = await runAsTool(create(fields), { baseUrl: server.baseUrl, ...allowed });
				expect(run.error?.message).toBe(
					`This tool may not change where money goes (Wallet → Create with a settlement bank (${named})): AI agents never may, whatever the credential allows. Ask a person to do it.`,
				);
				expect(server.requests).toHaveLength(0);
			},
		);
		test.each(WITHOUT)('creates the wallet with %s', async (_case, fields) => {
			const server = await service();
			const run = await runAsTool(create(fields), { baseUrl: server.baseUrl, ...allowed });
			expect(run.error).toBeUndefined();
			expect(server.requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
				{
					method: 'POST',
					path: '/v1/trades/sell/assets/asset-1/generate-address',
					body: { label: 'shop' },
				},
			]);
		});
	});

	describe.each(RESTRICTED)('Allowed Destinations %s', (value, guardrail, label) => {
		test.each(WITH)('refuses $set, naming it; nothing is sent', async ({ fields, named }) => {
			const server = await service();
			const run = await runNode(create(fields), {
				credentials: { baseUrl: server.baseUrl, ...guardrail },
			});
			expect(run.error?.message).toBe(
				value === 'unreadable'
					? "The credential's guardrail 'Allowed Destinations' is \"saved\", which the node cannot read (it must be one of Any Address, Saved Payout Addresses Only, Addresses Listed Below Only), so nothing is sent"
					: `Wallet → Create with a settlement bank (${named}) is refused: this credential's 'Allowed Destinations' is '${label}', so it may not change where money goes`,
			);
			expect(run.error?.description).toMatch(
				/under Guardrails → Allowed Destinations\. Nothing was sent/,
			);
			expect(server.requests).toHaveLength(0);
		});
		test.each(WITHOUT)('creates the wallet with %s', async (_case, fields) => {
			const server = await service();
			const run = await runNode(create(fields), {
				credentials: { baseUrl: server.baseUrl, ...guardrail },
			});
			expect(run.error).toBeUndefined();
			expect(server.requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
				{
					method: 'POST',
					path: '/v1/trades/sell/assets/asset-1/generate-address',
					body: { label: 'shop' },
				},
			]);
		});
	});

	test.each([[undefined], [{}], [ALL]])(
		'Allowed Destinations Any Address creates the wallet, with its settlement bank if set (%j)',
		async (fields) => {
			const server = await service();
			const run = await runNode(create(fields), {
				credentials: { baseUrl: server.baseUrl, destinations: 'any' },
			});
			expect(run.error).toBeUndefined();
			expect(server.requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
				{
					method: 'POST',
					path: '/v1/trades/sell/assets/asset-1/generate-address',
					body: { label: 'shop', ...fields },
				},
			]);
		},
	);
});

test("the agent tool's hint says what every class refused to agents does, in the table's words", () => {
	// A class added to the table with `refusedToAgents` is in the hint without an edit of the hint.
	const refused = Object.values(MONEY_CLASSES).filter((row) => 'refusedToAgents' in row);
	expect(refused.length).toBeGreaterThan(1);
	for (const row of refused) expect(AGENT_TOOL_HINT).toContain(row.does);
});
