/**
 * Webhook Event → Verify Delivery (docs/trigger.md, "n8n's Webhook node and Verify Delivery"): n8n's
 * Webhook node receives a delivery and answers at once; this operation checks it as the webhook
 * trigger does (secret, body, the record at the API) and gives the trigger's item. The service has
 * its answer, so a delivery whose record is not confirmable yet fails the item and the workflow
 * brings it back through the node's error output; a copy is not dropped here but by the ledger
 * keyed on the item's `eventKey`, which holds across workers (n8n saves a worker's static data only
 * when its execution ends). Through n8n-core's WorkflowExecute against a local service.
 */
import type { IConnections, IDataObject, IExecuteFunctions, INode, INodeType } from 'n8n-workflow';
import {
	actionWorkflow,
	CREDENTIAL_TYPE,
	runWorkflow,
	serializeRun,
	type RunResult,
} from '../helpers';
import { CREDENTIALS, NODE, SECRET, serversClosedAfterEach, WEBHOOK_SECRET } from '../helpers/node';
import { envelope, localService, type Reply, type Seen } from '../helpers/local-service';
import { eventKey } from '../../nodes/events/identity';
import {
	CREDENTIALS as TRIGGER_CREDENTIALS,
	TriggerHarness,
	WEBHOOK_SECRET as TRIGGER_SECRET,
} from '../helpers/webhook';

const servers = serversClosedAfterEach();
const VERIFY = { resource: 'webhookEvent', operation: 'verifyDelivery' };
let trades = 0;
const newTrade = () => `66f1c0ffee${String(++trades).padStart(14, '0')}`;

/** What n8n's Webhook node outputs for a POST: the request's headers and its JSON body (`secret: null`: no header). */
function webhookItem(body: unknown, secret: string | null = WEBHOOK_SECRET): IDataObject {
	const headers: IDataObject = { host: 'n8n.example', 'content-type': 'application/json' };
	if (secret !== null) headers['x-webhook-secret'] = secret;
	return {
		headers,
		params: {},
		query: {},
		body: body as IDataObject,
		webhookUrl: 'https://n8n.example/webhook/deposits',
		executionMode: 'production',
	};
}

const delivery = (overrides: IDataObject = {}): IDataObject => ({
	event: 'trade.completed',
	id: newTrade(),
	status: 'completed',
	amountInUSD: 999_999,
	destinationDescription: 'forged-customer',
	...overrides,
});

/** The service: each trade as `trade()` answers it (a status, or a whole reply), its asset and its wallet. */
async function service(trade: (seen: Seen) => string | Reply = () => 'completed') {
	const server = await localService((seen) => {
		if (seen.path === '/v1/trades/assets')
			return {
				status: 200,
				body: envelope([{ id: 'a-usdt', identifier: 'USDT_TRX', symbol: 'USDT', network: 'Tron' }]),
			};
		if (seen.path.startsWith('/v1/trades/wallets/'))
			return { status: 200, body: envelope({ id: 'w-7', label: 'customer-7' }) };
		if (seen.path.startsWith('/v1/trades/transactions/')) {
			const answer = trade(seen);
			if (typeof answer !== 'string') return answer;
			const id = decodeURIComponent(seen.path.split('/').pop() ?? '');
			return {
				status: 200,
				body: envelope({
					id,
					status: answer,
					amount: 18750,
					amountReceived: 12.5,
					currency: 'ngn',
					asset: 'a-usdt',
					wallet: 'w-7',
				}),
			};
		}
		return { status: 404, body: { success: false, message: 'not found', data: {} } };
	});
	servers.push(server);
	return server;
}

const lookups = (server: Awaited<ReturnType<typeof service>>) =>
	server.sent('GET', '/trades/transactions/').length;

/** One production execution of the Webhook node's item, as a worker runs it. */
async function verify(
	baseUrl: string,
	items: IDataObject[],
	{ credentials = {}, node = {} }: { credentials?: IDataObject; node?: Partial<INode> } = {},
): Promise<RunResult> {
	return await runWorkflow({
		workflow: actionWorkflow(VERIFY, node),
		items: items.map((json) => ({ json })),
		credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl, ...credentials } as never },
		mode: 'webhook',
	});
}

/** A node that passes its items on: n8n's Webhook node (first) and Wait node (in the loop) stand-ins. */
function passThrough(name: string, maxRuns = Infinity): INodeType {
	let runs = 0;
	return {
		description: {
			displayName: name,
			name,
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			// A loop that never confirms fails here instead of running forever.
			if (++runs > maxRuns) throw new Error(`${name} ran more than ${maxRuns} times`);
			return [this.getInputData()];
		},
	};
}

/**
 * The documented pattern: n8n's Webhook node → Verify Delivery, whose error output (Settings → On
 * Error → Continue (using error output)) goes through a Wait node back into it. The stand-ins only
 * pass items on (n8n's real Wait node: the e2e).
 */
async function verifyWithRetryLoop(baseUrl: string, body: IDataObject): Promise<RunResult> {
	const [verifyNode] = actionWorkflow(VERIFY, { onError: 'continueErrorOutput' }).nodes;
	const nodes = [
		{
			id: 'webhook',
			name: 'Webhook',
			type: 'test.webhook',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		verifyNode,
		{
			id: 'wait',
			name: 'Wait',
			type: 'test.wait',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	] as INode[];
	const connections: IConnections = {
		Webhook: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		[NODE]: { main: [[], [{ node: 'Wait', type: 'main', index: 0 }]] },
		Wait: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
	};
	return await runWorkflow({
		workflow: { nodes, connections },
		items: [{ json: webhookItem(body) }],
		credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl } as never },
		mode: 'webhook',
		nodeTypes: { 'test.webhook': passThrough('Webhook'), 'test.wait': passThrough('Wait', 5) },
	});
}

/** Every run of the node: its success and error outputs. */
function runsOf(result: RunResult): Array<{ ok: IDataObject[]; failed: IDataObject[] }> {
	return (result.run.data.resultData.runData[NODE] ?? []).map((run) => ({
		ok: (run.data?.main?.[0] ?? []).map((item) => item.json),
		failed: (run.data?.main?.[1] ?? []).map((item) => item.json),
	}));
}

describe("a confirmed delivery gives the trigger's item", () => {
	test("the API's record with the trigger's fields and eventKey; the body's claims only under unconfirmedBody", async () => {
		const server = await service();
		const body = delivery();
		const run = await verify(server.baseUrl, [webhookItem(body)]);
		expect(run.error).toBeUndefined();
		const items = run.output(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			event: 'trade.completed',
			eventKey: eventKey('trade.completed', { id: body.id }),
			id: body.id,
			status: 'completed',
			token: 'USDT',
			network: 'Tron',
			walletLabel: 'customer-7',
			amountInUSD: 12.5,
			verification: { secret: 'verified', confirmedWithApi: true },
			unconfirmedBody: { amountInUSD: 999_999, destinationDescription: 'forged-customer' },
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
		// The lookup carries the credential, never the webhook secret; the output holds neither secret.
		const [lookup] = server.sent('GET', '/trades/transactions/');
		expect(lookup.headers['x-app-secret']).toBe(SECRET);
		expect(JSON.stringify(lookup.headers)).not.toContain(WEBHOOK_SECRET);
		expect(JSON.stringify(items)).not.toContain(WEBHOOK_SECRET);
		expect(JSON.stringify(items)).not.toContain(SECRET);
	});

	test.each([
		['a trade', { event: 'trade.completed' }],
		['a withdrawal', { event: 'withdrawal.completed' }],
		[
			'a new address',
			{
				event: 'trade.address.created',
				status: undefined,
				address: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
			},
		],
	])(
		"%s: the same delivery gives the webhook trigger's item, field for field, but the sender's address",
		async (_what, overrides) => {
			const server = await localService((seen) => {
				const id = decodeURIComponent(seen.path.split('/').pop() ?? '');
				if (seen.path === '/v1/trades/assets')
					return {
						status: 200,
						body: envelope([
							{ id: 'a-usdt', identifier: 'USDT_TRX', symbol: 'USDT', network: 'Tron' },
						]),
					};
				if (seen.path.startsWith('/v1/trades/wallets/'))
					return {
						status: 200,
						body: envelope({
							id,
							label: 'customer-7',
							address: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
							asset: 'a-usdt',
						}),
					};
				return {
					status: 200,
					body: envelope({
						id,
						status: 'completed',
						amount: 18750,
						amountReceived: 12.5,
						currency: 'ngn',
						asset: 'a-usdt',
						wallet: 'w-7',
					}),
				};
			});
			servers.push(server);
			const body = delivery(overrides);
			const trigger = await TriggerHarness.create({
				events: ['*'],
				credentials: { ...TRIGGER_CREDENTIALS, baseUrl: server.baseUrl },
			});
			const delivered = await trigger.deliver({ body, ip: '46.101.201.155' });
			expect(delivered).toMatchObject({ status: 200, started: true });
			const run = await verify(server.baseUrl, [webhookItem(body, TRIGGER_SECRET)], {
				credentials: { webhookSecret: TRIGGER_SECRET },
			});
			const [item] = run.output(NODE).map(({ json }) => json);
			const { verification, ...fields } = delivered.items[0];
			expect(verification).toMatchObject({ sourceIp: '46.101.201.155' });
			expect(item).toEqual({
				...fields,
				verification: { ...(verification as IDataObject), sourceIp: null },
			});
			// The same keys in the same order: a ledger or a mapping built on one works on the other.
			expect(Object.keys(item)).toEqual(Object.keys(delivered.items[0]));
		},
	);

	test('the event name and the header are read as the trigger reads them (case, spaces)', async () => {
		const server = await service();
		const body = delivery({ event: ' Trade.Completed ', status: 'COMPLETED' });
		const run = await verify(server.baseUrl, [webhookItem(body, ` ${WEBHOOK_SECRET} `)]);
		expect(run.output(NODE).map((item) => item.json.eventKey)).toEqual([
			eventKey('trade.completed', { id: body.id }),
		]);
	});

	test('each delivery of a batch is checked on its own; a copy gives the same eventKey, for the ledger to drop', async () => {
		const server = await service();
		const first = delivery();
		const run = await verify(server.baseUrl, [
			webhookItem(first),
			webhookItem(delivery()),
			webhookItem(first),
		]);
		const keys = run.output(NODE).map((item) => item.json.eventKey);
		expect(keys).toHaveLength(3);
		expect(keys[0]).toBe(keys[2]);
		expect(keys[1]).not.toBe(keys[0]);
		expect(lookups(server)).toBe(3);
	});
});

describe('a record not confirmable yet fails the item; the error output brings the delivery back', () => {
	test.each([
		['the trade is still pending', (): string | Reply => 'pending'],
		[
			'the API answers 503',
			(): Reply => ({ status: 503, body: { success: false, message: 'busy', data: {} } }),
		],
		[
			'the trade is not visible yet (404)',
			(): Reply => ({
				status: 404,
				body: { success: false, message: 'transaction not found', data: {} },
			}),
		],
		['the connection drops', (): Reply => ({ status: 200, reset: true })],
		[
			'the API refuses the id (422)',
			(): Reply => ({
				status: 422,
				body: { success: false, message: 'validation errors', data: {} },
			}),
		],
	])('%s: the item fails, saying the service will not send it again', async (_what, answer) => {
		const server = await service(answer);
		const run = await verify(server.baseUrl, [webhookItem(delivery())]);
		expect(run.output(NODE)).toEqual([]);
		expect(run.error?.message).toMatch(/^The delivery could not be confirmed yet: /);
		expect(run.error?.description).toMatch(
			/will not send this delivery again.*Continue \(using error output\).*Wait node/,
		);
	});

	test('through the error output, the same delivery comes back and is confirmed: one item', async () => {
		let answers = 0;
		const server = await service(() =>
			++answers === 1
				? { status: 503, body: { success: false, message: 'busy', data: {} } }
				: 'completed',
		);
		const body = delivery();
		const result = await verifyWithRetryLoop(server.baseUrl, body);
		expect(result.error).toBeUndefined();
		expect(result.run.data.resultData.runData.Wait).toHaveLength(1);
		const runs = runsOf(result);
		expect(runs).toHaveLength(2);
		// The error item is the Webhook node's item (headers and body) with n8n's error fields.
		expect(runs[0].ok).toEqual([]);
		expect(runs[0].failed).toHaveLength(1);
		// The docs' IF tells this error from the others by its start (tooling/verify-delivery.mjs, NOT_CONFIRMED_YET).
		expect(runs[0].failed[0]).toMatchObject({
			body,
			error: expect.stringMatching(/^The delivery could not be confirmed yet: /),
		});
		expect(runs[1]).toEqual({
			ok: [
				expect.objectContaining({
					id: body.id,
					eventKey: eventKey('trade.completed', { id: body.id }),
				}),
			],
			failed: [],
		});
		expect(lookups(server)).toBe(2);
	});
});

describe('what is refused fails the item before any request', () => {
	test.each([
		['a wrong secret', 'not-the-secret'],
		['no secret header', null],
	])('%s: the item fails naming the header and what to do', async (_what, secret) => {
		const server = await service();
		const run = await verify(server.baseUrl, [webhookItem(delivery(), secret)]);
		expect(run.error?.message).toBe("The delivery's x-webhook-secret header is missing or wrong");
		expect(run.error?.description).toMatch(
			/Webhook Secret changed on one side only.*Webhook Event → Resend/,
		);
		expect(server.requests).toHaveLength(0);
		expect(serializeRun(run)).not.toContain(SECRET);
	});

	test('a credential without a Webhook Secret fails closed', async () => {
		const server = await service();
		const run = await verify(server.baseUrl, [webhookItem(delivery())], {
			credentials: { webhookSecret: '  ' },
		});
		expect(run.error?.message).toBe('The credential has no Webhook Secret');
		expect(server.requests).toHaveLength(0);
	});

	test.each([
		['a body without an event', { id: 'x' }, /body is refused: .*"event"/],
		["no body (not the Webhook node's item)", undefined, /body is refused/],
	])('%s: fails naming the body', async (_what, body, message) => {
		const server = await service();
		const run = await verify(server.baseUrl, [webhookItem(body)]);
		expect(run.error?.message).toMatch(message);
		expect(server.requests).toHaveLength(0);
	});

	test('with Continue On Fail, a refused delivery is an error item and the next one is still checked', async () => {
		const server = await service();
		const good = delivery();
		const run = await verify(
			server.baseUrl,
			[webhookItem(delivery(), 'wrong'), webhookItem(good)],
			{ node: { onError: 'continueRegularOutput' } },
		);
		const items = run.output(NODE).map((item) => item.json);
		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({ error: expect.stringMatching(/x-webhook-secret/) });
		expect(items[1]).toMatchObject({ id: good.id });
		expect(lookups(server)).toBe(1);
	});
});

test('a record ahead of the event gives no item and no error (as the trigger drops it)', async () => {
	const server = await service(() => 'completed');
	const run = await verify(server.baseUrl, [
		webhookItem(delivery({ event: 'trade.pending', status: 'pending' })),
	]);
	expect(run.error).toBeUndefined();
	expect(run.output(NODE)).toEqual([]);
});

test('a record of another id confirms nothing: the item fails as not confirmed yet, for the error output to try again', async () => {
	const server = await service(() => ({
		status: 200,
		body: envelope({ id: '66f1c0ffee0000000000beef', status: 'completed', amountInUSD: 5 }),
	}));
	const body = delivery();
	const run = await verify(server.baseUrl, [webhookItem(body)]);
	expect(run.output(NODE)).toEqual([]);
	expect(run.error?.message).toBe(
		`The delivery could not be confirmed yet: the API answered for the record 66f1c0ffee0000000000beef, not ${String(body.id)}`,
	);
});

test('a record with a status outside its life cycle is not a contradiction: the item fails as not confirmed yet, for the error output to try again', async () => {
	const server = await service(() => 'failed');
	const run = await verify(server.baseUrl, [webhookItem(delivery())]);
	expect(run.output(NODE)).toEqual([]);
	expect(run.error?.message).toBe(
		'The delivery could not be confirmed yet: the trade has status "failed", which is not in its life cycle, so whether it is behind "completed" cannot be told',
	);
});
