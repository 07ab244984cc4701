/**
 * One `eventKey` per event on every path (docs/trigger.md, "`eventKey`: what the same event is";
 * issue #69, point 7): the webhook trigger with and without Confirm With API (n8n-core's
 * WebhookContext), Webhook Event → Verify Delivery (WorkflowExecute) and the poll trigger's Stored
 * Webhook Deliveries (PollContext) key the same delivery alike. A `trade.address.created` is keyed
 * by its deposit address, which every path has, never by the wallet record a lookup finds; the keys
 * of every other event are those earlier versions gave (ledgers hold them). And Verify Delivery
 * never ends a delivery without a word: one it cannot verify fails the item, naming why.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeType,
} from 'n8n-workflow';
import { actionWorkflow, CREDENTIAL_TYPE, runWorkflow, type RunResult } from '../helpers';
import { NODE } from '../helpers/node';
import { startListService, type ListService } from '../helpers/poll/list-service';
import { Poller } from '../helpers/poll/poll-harness';
import {
	captureLogs,
	CREDENTIALS,
	TriggerHarness,
	WEBHOOK_SECRET,
	WITHOUT_CONFIRMATION,
} from '../helpers/webhook';

const VERIFY = { resource: 'webhookEvent', operation: 'verifyDelivery' };
const ADDRESS = 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk';
const WALLET = {
	id: '88b3cafe000000000000a001',
	address: ADDRESS,
	label: 'customer-77',
	asset: 'a-usdt',
};

let service: ListService;
let apps = 0;
/** A credential of its own per call: the token and label lookups are kept per credential. */
const credentials = (): ICredentialDataDecryptedObject => ({
	...CREDENTIALS,
	appId: `app-event-key-${++apps}`,
	baseUrl: service.url,
});
const answer = (data: unknown) => ({
	status: 200,
	body: { success: true, message: 'ok', data, meta: {}, summary: {}, stats: {} },
});

beforeEach(async () => {
	captureLogs();
	service = await startListService();
	// The wallet, asked for by its id or by its address (the event's id is either: docs/trigger.md), and the asset list.
	service.fault = (path) => {
		if (path === '/trades/assets')
			return answer([{ id: 'a-usdt', identifier: 'USDT_TRX', symbol: 'USDT', network: 'Tron' }]);
		if (path === `/trades/wallets/${WALLET.id}` || path === `/trades/wallets/${ADDRESS}`)
			return answer(WALLET);
		return undefined;
	};
});
afterEach(async () => await service.close());

/** What n8n's Webhook node outputs for the delivery: its headers (with the secret) and its JSON body. */
const webhookItem = (body: IDataObject): IDataObject => ({
	headers: {
		host: 'n8n.example',
		'content-type': 'application/json',
		'x-webhook-secret': WEBHOOK_SECRET,
	},
	params: {},
	query: {},
	body,
	webhookUrl: 'https://n8n.example/webhook/deposits',
	executionMode: 'production',
});

/** Verify Delivery over the Webhook node's items, as a worker runs it. */
async function verify(items: IDataObject[], node: IDataObject = {}): Promise<RunResult> {
	return await runWorkflow({
		workflow: actionWorkflow(VERIFY, node),
		items: items.map((body) => ({ json: webhookItem(body) })),
		credentials: {
			[CREDENTIAL_TYPE]: { ...credentials(), webhookSecret: WEBHOOK_SECRET } as never,
		},
		mode: 'webhook',
	});
}

/**
 * The eventKey each path gives the delivery `body` (stored by the service with `reference`):
 * the webhook trigger with and without Confirm With API, Verify Delivery, Stored Webhook Deliveries.
 */
async function keysOnEveryPath(
	body: IDataObject,
	reference?: string,
): Promise<Record<string, unknown>> {
	service.clock = Date.now();
	const stored = await Poller.create({ source: 'webhookEvents', events: ['*'] }, credentials());
	expect((await stored.poll()).items).toBeNull();
	service.clock = Date.now() + 2_000;
	service.records.deliveries.push({
		id: `d-${apps}`,
		...(reference === undefined ? {} : { reference }),
		eventType: body.event,
		status: 'delivered',
		payload: body,
		createdAt: new Date(Date.now()).toISOString(),
	});
	const keys: Record<string, unknown> = {};
	const confirmed = await (
		await TriggerHarness.create({ events: ['*'], credentials: credentials() })
	).deliver({ body });
	expect(confirmed).toMatchObject({ status: 200, started: true });
	keys.confirmed = confirmed.items[0].eventKey;
	const asSent = await (
		await TriggerHarness.create({
			events: ['*'],
			credentials: credentials(),
			parameters: WITHOUT_CONFIRMATION,
		})
	).deliver({ body });
	expect(asSent).toMatchObject({ status: 200, started: true });
	keys.unconfirmed = asSent.items[0].eventKey;
	const run = await verify([body]);
	expect(run.error).toBeUndefined();
	keys.verifyDelivery = run.output(NODE)[0]?.json.eventKey;
	const polled = (await stored.poll()).items ?? [];
	expect(polled).toHaveLength(1);
	keys.storedDeliveries = polled[0].eventKey;
	return keys;
}

const same = (key: unknown) => ({
	confirmed: key,
	unconfirmed: key,
	verifyDelivery: key,
	storedDeliveries: key,
});

describe('trade.address.created: one eventKey, its deposit address, on every path', () => {
	/** The delivery's forms: the event's id is the address (the service's documentation) or the wallet's id (the fake API). */
	const created = (id: string): IDataObject => ({
		event: 'trade.address.created',
		id,
		status: 'active',
		address: ADDRESS,
		asset: 'USDT_TRX',
		assetId: 'a-usdt',
		label: 'customer-77',
		createdAt: 1732250000000,
	});

	test('its id the address: the webhook trigger with and without Confirm With API, Verify Delivery and the stored delivery give one key', async () => {
		const keys = await keysOnEveryPath(created(ADDRESS), WALLET.id);
		// The key the webhook trigger without Confirm With API and the stored deliveries gave it before.
		expect(keys).toEqual(same('7TgXl2UQyY7iBkpvk0mpso'));
	});

	test("its id the wallet's: the same key again, whichever id the delivery carries", async () => {
		const byAddress = await keysOnEveryPath(created(ADDRESS), WALLET.id);
		const byWallet = await keysOnEveryPath(created(WALLET.id), WALLET.id);
		expect(byWallet).toEqual(same(byAddress.unconfirmed));
	});

	test('a stored delivery whose body has no id: the key of its address, as the webhook trigger gives', async () => {
		const body = created(ADDRESS);
		const webhook = await keysOnEveryPath(body, WALLET.id);
		const withoutId = { ...body };
		delete withoutId.id;
		service.clock = Date.now();
		const stored = await Poller.create({ source: 'webhookEvents', events: ['*'] }, credentials());
		expect((await stored.poll()).items).toBeNull();
		service.clock = Date.now() + 2_000;
		service.records.deliveries.push({
			id: 'd-no-id',
			reference: WALLET.id,
			eventType: 'trade.address.created',
			status: 'delivered',
			payload: withoutId,
			createdAt: new Date().toISOString(),
		});
		const [item] = (await stored.poll()).items ?? [];
		expect(item.eventKey).toBe(webhook.unconfirmed);
	});

	test('another address is another event', async () => {
		const first = await keysOnEveryPath(created(ADDRESS), WALLET.id);
		const other = {
			...created('TOtherAddress000000000000000000001'),
			address: 'TOtherAddress000000000000000000001',
		};
		service.fault = (path) =>
			path.startsWith('/trades/wallets/')
				? answer({ id: '88b3cafe000000000000a002', address: other.address, label: 'customer-78' })
				: undefined;
		const second = await keysOnEveryPath(other, '88b3cafe000000000000a002');
		expect(second).toEqual(same(second.unconfirmed));
		expect(second.unconfirmed).not.toBe(first.unconfirmed);
	});
});

describe('every other event keeps the key earlier versions gave it (a ledger holds them)', () => {
	/** Keys given by version 0.1.0-pre (before issue #69), on every path: a ledger written then must keep matching. */
	test.each([
		[
			'trade.completed',
			{ event: 'trade.completed', id: '66f1c0ffee00000000000901', status: 'completed' },
			'HtS2Ty4eTyNaAdiAzsr1SA',
		],
		[
			'trade.pending',
			{
				event: 'trade.pending',
				id: '66f1c0ffee00000000000902',
				status: 'pending',
				confirmations: 3,
			},
			'hsbTAfwb0mmNV_XfnkPG85',
		],
		[
			'withdrawal.completed',
			{ event: 'withdrawal.completed', id: '77a2beef0000000000000903', status: 'completed' },
			'H7Xi4OKW1M6P6w23EHVEbF',
		],
	])('%s', async (_event, body, key) => {
		const id = String(body.id);
		service.records.trades.push({
			id,
			status: body.status,
			asset: 'a-usdt',
			createdAt: new Date().toISOString(),
		});
		service.records.withdrawals.push({
			id,
			status: body.status,
			createdAt: new Date().toISOString(),
		});
		expect(await keysOnEveryPath(body, id)).toEqual(same(key));
	});

	test('an event that names no record: keyed on its body, as before', async () => {
		const body = { event: 'withdrawal.completed', status: 'completed', amount: 25 };
		const unconfirmed = await (
			await TriggerHarness.create({
				events: ['*'],
				credentials: credentials(),
				parameters: WITHOUT_CONFIRMATION,
			})
		).deliver({ body });
		expect(unconfirmed.items[0].eventKey).toBe('9KoLcUk7oqgg0qZaOzGyeT');
	});
});

describe('Verify Delivery never ends a delivery without a word', () => {
	test.each([
		['no id', { event: 'trade.completed', status: 'completed' }, /"id"/],
		[
			'an id that is a path',
			{ event: 'trade.completed', id: '../../users/fetch-integration', status: 'completed' },
			/"id"/,
		],
		[
			'an object as id',
			{ event: 'withdrawal.completed', id: { $ne: null }, status: 'completed' },
			/"id"/,
		],
		[
			'an event family the service added later',
			{ event: 'payout.sent', id: 'p1' },
			/kind "payout\.sent"/,
		],
		[
			'a trade event of more parts',
			{ event: 'Trade.Address.Updated', id: 'a1' },
			/kind "trade\.address\.updated"/,
		],
	])(
		'%s: the item fails, saying what it could not verify, before any lookup',
		async (_what, body, names) => {
			const run = await verify([body]);
			expect(run.output(NODE)).toEqual([]);
			expect(run.error?.message).toMatch(/^The delivery cannot be verified: /);
			expect(run.error?.message).toMatch(names);
			// Not the error the documented retry loop waits on: waiting would not change the delivery.
			expect(run.error?.message).not.toMatch(/could not be confirmed yet/);
			expect(
				service.requests.filter((request) => !request.path.startsWith('/trades/assets')),
			).toHaveLength(0);
		},
	);

	test("on the error output, the Webhook node's item comes back whole with the error; the next delivery is still verified", async () => {
		const good = { event: 'trade.completed', id: '66f1c0ffee00000000000911', status: 'completed' };
		service.records.trades.push({ id: good.id, status: 'completed', asset: 'a-usdt' });
		const unknown = { event: 'payout.sent', id: 'p1' };
		// n8n's Webhook node (a stand-in that passes its items on) → Verify Delivery with On Error: Continue (using error output).
		const [verifyNode] = actionWorkflow(VERIFY, { onError: 'continueErrorOutput' }).nodes;
		const webhook: INodeType = {
			description: {
				displayName: 'Webhook',
				name: 'webhook',
				group: ['trigger'],
				version: 1,
				description: '',
				defaults: { name: 'Webhook' },
				inputs: ['main'],
				outputs: ['main'],
				properties: [],
			},
			async execute(this: IExecuteFunctions) {
				return [this.getInputData()];
			},
		};
		const run = await runWorkflow({
			workflow: {
				nodes: [
					{
						id: 'webhook',
						name: 'Webhook',
						type: 'test.webhook',
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					verifyNode,
				] as INode[],
				connections: { Webhook: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
			},
			items: [unknown, good].map((body) => ({ json: webhookItem(body) })),
			credentials: {
				[CREDENTIAL_TYPE]: { ...credentials(), webhookSecret: WEBHOOK_SECRET } as never,
			},
			mode: 'webhook',
			nodeTypes: { 'test.webhook': webhook },
		});
		expect(run.error).toBeUndefined();
		const [ok, failed] = run.run.data.resultData.runData[NODE][0].data?.main ?? [];
		expect((ok ?? []).map((item) => item.json.id)).toEqual([good.id]);
		expect((failed ?? []).map((item) => item.json)).toEqual([
			expect.objectContaining({
				body: unknown,
				error: expect.stringMatching(/^The delivery cannot be verified: .*"payout\.sent"/),
			}),
		]);
	});

	test.each([
		['no id', { event: 'trade.completed', status: 'completed' }],
		['an event family the service added later', { event: 'payout.sent', id: 'p1' }],
	])(
		'the webhook trigger, for the same delivery (%s): 200 and dropped with Confirm With API (the service does not resend it), emitted without',
		async (_what, body) => {
			const confirmed = await (
				await TriggerHarness.create({ events: ['*'], credentials: credentials() })
			).deliver({ body });
			expect(confirmed).toMatchObject({
				status: 200,
				started: false,
				response: { received: true, ignored: 'not confirmed by the API' },
			});
			const asSent = await (
				await TriggerHarness.create({
					events: ['*'],
					credentials: credentials(),
					parameters: WITHOUT_CONFIRMATION,
				})
			).deliver({ body });
			expect(asSent).toMatchObject({ status: 200, started: true });
			expect(asSent.items[0]).toMatchObject({
				event: body.event,
				verification: { confirmedWithApi: false },
			});
		},
	);

	test('a record ahead of the event still gives no item and no error (the trigger drops it alike)', async () => {
		service.records.trades.push({ id: '66f1c0ffee00000000000912', status: 'completed' });
		const run = await verify([
			{ event: 'trade.pending', id: '66f1c0ffee00000000000912', status: 'pending' },
		]);
		expect(run.error).toBeUndefined();
		expect(run.output(NODE)).toEqual([]);
	});
});
