/** Each event kind with and without the event filter, and the shape of the emitted item. */
import type { IDataObject } from 'n8n-workflow';
import { runWorkflow } from '../helpers';
import {
	addressPayload,
	captureLogs,
	TriggerHarness,
	triggerNode,
	tradePayload,
	TRIGGER_NAME,
	withdrawalPayload,
	CONTRACT_EVENTS,
	WITHOUT_CONFIRMATION,
} from '../helpers/webhook';

const EVENTS = CONTRACT_EVENTS;

/**
 * What every item gains over the body (docs/trigger.md, "The item"): `eventKey`; for a deposit
 * or a wallet the token (`null` here: this test's service has no asset list) and the wallet's
 * label (the body's, as nothing is confirmed); a withdrawal body's `amount` states no unit.
 */
function describedFields(event: string, body: IDataObject): IDataObject {
	const eventKey = expect.stringMatching(/^[\w-]{22}$/) as string;
	if (event === 'trade.address.created') return { eventKey, token: null, walletLabel: body.label };
	if (event.startsWith('trade.'))
		return { eventKey, token: null, walletLabel: body.destinationDescription };
	return { eventKey, amountCurrency: 'not stated' };
}

function payloadFor(event: string): IDataObject {
	if (event === 'trade.address.created') return addressPayload();
	return event.startsWith('trade.') ? tradePayload(event) : withdrawalPayload(event);
}

beforeEach(() => {
	captureLogs();
});

describe.each(EVENTS)('%s', (event) => {
	test('emitted when "All Events" is selected', async () => {
		const h = await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION });
		const body = payloadFor(event);
		const r = await h.deliver({ body });
		expect(r.status).toBe(200);
		expect(r.started).toBe(true);
		expect(r.items).toHaveLength(1);
		expect(r.items[0]).toEqual({
			...body,
			event,
			verification: {
				secret: 'verified',
				ip: 'not configured',
				confirmedWithApi: false,
				sourceIp: '46.101.201.155',
			},
			...describedFields(event, body),
		});
	});

	test('emitted when selected', async () => {
		const h = await TriggerHarness.create({ events: [event], parameters: WITHOUT_CONFIRMATION });
		const r = await h.deliver({ body: payloadFor(event) });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].event).toBe(event);
	});

	test('answered 200 and not emitted when not selected', async () => {
		const others = EVENTS.filter((e) => e !== event);
		const h = await TriggerHarness.create({ events: others, parameters: WITHOUT_CONFIRMATION });
		const r = await h.deliver({ body: payloadFor(event) });
		expect(r.status).toBe(200);
		expect(r.started).toBe(false);
		expect(r.result?.noWebhookResponse).toBeUndefined();
		expect(r.response).toEqual({ received: true, ignored: 'event not selected' });
	});
});

test('an event kind the service adds later reaches "All Events" only', async () => {
	const all = await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION });
	expect((await all.deliver({ body: { event: 'trade.deleted', id: 't1' } })).started).toBe(true);
	const some = await TriggerHarness.create({ events: EVENTS, parameters: WITHOUT_CONFIRMATION });
	expect((await some.deliver({ body: { event: 'trade.deleted', id: 't1' } })).started).toBe(false);
});

test('a body field named json stays a field (the item is not unwrapped)', async () => {
	const h = await TriggerHarness.create({ events: ['*'], parameters: WITHOUT_CONFIRMATION });
	const r = await h.deliver({
		body: { event: 'trade.completed', id: 't1', json: { nested: true } },
	});
	expect(r.items[0]).toMatchObject({ event: 'trade.completed', json: { nested: true } });
});

test('"Listen for test event" (manual mode) emits the same item', async () => {
	const h = await TriggerHarness.create({
		mode: 'manual',
		events: ['trade.completed'],
		parameters: WITHOUT_CONFIRMATION,
	});
	await h.activate('manual');
	const body = tradePayload('trade.completed');
	const r = await h.deliver({ body });
	expect(r).toMatchObject({ status: 200, started: true });
	expect(r.items[0]).toMatchObject(body);
	const ignored = await h.deliver({ body: tradePayload('trade.pending') });
	expect(ignored).toMatchObject({ status: 200, started: false });
});

test('the emitted item runs through a workflow (WorkflowExecute passes trigger data on)', async () => {
	const h = await TriggerHarness.create({
		events: ['trade.completed'],
		parameters: WITHOUT_CONFIRMATION,
	});
	const body = tradePayload('trade.completed');
	const delivered = await h.deliver({ body });
	const result = await runWorkflow({
		workflow: {
			nodes: [triggerNode({ events: ['trade.completed'], ...WITHOUT_CONFIRMATION }, false)],
			connections: {},
		},
		items: delivered.result?.workflowData?.[0],
		mode: 'webhook',
	});
	expect(result.error).toBeUndefined();
	expect(result.output(TRIGGER_NAME).map((i) => i.json)).toEqual(delivered.items);
});
