/**
 * A freshly placed node fails closed without the user adding anything (case 1): the credential's
 * webhook secret is required, each event is confirmed with the API and duplicates are dropped. The
 * contract's option names keep working.
 */
import nock from 'nock';
import { NodeHelpers } from 'n8n-workflow';
import type { INodeProperties } from 'n8n-workflow';
import { loadPackage, TRIGGER_NODE } from '../helpers';
import {
	BASE_URL,
	triggerTestSetup,
	CREDENTIALS,
	TRIGGER_NAME,
	TriggerHarness,
	tradePayload,
	WEBHOOK_SECRET,
} from '../helpers/webhook';

const logs = triggerTestSetup();

/** A node as the editor places it: only the events chosen, nothing added under Options. */
const fresh = { events: ['trade.completed'] };

test('what the editor shows for a new node is what runs: the checks appear switched on', async () => {
	const { nodeTypes } = await loadPackage();
	const properties = nodeTypes.getByNameAndVersion(TRIGGER_NODE, 1).description
		.properties as INodeProperties[];
	// The parameters n8n's editor fills in for a newly placed node (defaults applied).
	const shown = NodeHelpers.getNodeParameters(
		properties,
		{ events: ['trade.completed'] },
		true,
		false,
		null,
		null,
	);
	expect(shown).toMatchObject({ confirmWithApi: true, ignoreDuplicates: true, options: {} });
	// And what n8n saves for it (defaults left out) runs the same way.
	const { events, ...saved } =
		NodeHelpers.getNodeParameters(properties, shown ?? {}, false, false, null, null) ?? {};
	expect(events).toEqual(['trade.completed']);
	const h = await TriggerHarness.create({ events: ['trade.completed'], parameters: saved });
	expect(h.workflow.nodes[TRIGGER_NAME].parameters).toMatchObject({
		confirmWithApi: true,
		ignoreDuplicates: true,
	});
});

test('a forged trade.completed without the secret from an unknown IP → 401, nothing started, no API call', async () => {
	const h = await TriggerHarness.create(fresh);
	await h.activate();
	const forged = tradePayload('trade.completed', { amountInUSD: 50000 });
	for (const secret of [null, '', 'guess']) {
		const r = await h.deliver({ body: forged, secret, ip: '203.0.113.9' });
		expect(r).toMatchObject({ status: 401, started: false });
	}
	expect(JSON.stringify(logs)).not.toContain(WEBHOOK_SECRET);
});

test('a real delivery is confirmed with the API and emitted once; the resend is a duplicate', async () => {
	const h = await TriggerHarness.create(fresh);
	await h.activate();
	const body = tradePayload('trade.completed');
	nock(BASE_URL)
		.get(`/trades/transactions/${body.id}`)
		.reply(200, {
			success: true,
			data: { id: body.id, status: 'completed', amountReceived: 21.379 },
		});
	const first = await h.deliver({ body, secret: WEBHOOK_SECRET });
	expect(first).toMatchObject({ status: 200, started: true });
	expect(first.items[0].verification).toMatchObject({ secret: 'verified', confirmedWithApi: true });
	// The resend: answered 200 (the service stops retrying), not emitted, the API not asked again.
	const resend = await h.deliver({ body, secret: WEBHOOK_SECRET });
	expect(resend).toMatchObject({
		status: 200,
		started: false,
		response: { received: true, ignored: 'duplicate delivery' },
	});
});

test('an explicit empty Options collection is the same as a fresh node', async () => {
	const h = await TriggerHarness.create({ ...fresh, options: {} });
	expect(await h.deliver({ body: tradePayload('trade.completed'), secret: null })).toMatchObject({
		status: 401,
		started: false,
	});
});

describe('a credential without a webhook secret', () => {
	const noSecret = { ...CREDENTIALS, webhookSecret: '' };

	test('the node does not start: publishing fails saying to set the webhook secret in the credential', async () => {
		const h = await TriggerHarness.create({ ...fresh, credentials: noSecret });
		await expect(h.activate()).rejects.toThrow(
			/set the Webhook Secret in the Crypto Settlement API credential/,
		);
		await expect(h.activate()).rejects.toThrow(/Accept Unsigned Deliveries/);
	});

	test('a delivery reaching it anyway (secret removed after publishing) fails closed with 500', async () => {
		const h = await TriggerHarness.create({ ...fresh, credentials: noSecret });
		const r = await h.deliver({ body: tradePayload('trade.completed'), secret: null });
		expect(r).toMatchObject({ status: 500, started: false });
	});

	test('"Accept Unsigned Deliveries (Unsafe)" is the explicit way to run without one', async () => {
		const h = await TriggerHarness.create({
			...fresh,
			credentials: noSecret,
			options: { acceptUnsignedDeliveries: true },
		});
		await expect(h.activate()).resolves.toBeUndefined();
		const body = tradePayload('trade.completed');
		nock(BASE_URL)
			.get(`/trades/transactions/${body.id}`)
			.reply(200, { success: true, data: { id: body.id, status: 'completed' } });
		const r = await h.deliver({ body, secret: null });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].verification).toMatchObject({
			secret: 'not configured',
			confirmedWithApi: true,
		});
	});

	test('Accept Unsigned Deliveries does not weaken a credential that has a secret', async () => {
		const h = await TriggerHarness.create({
			...fresh,
			options: { acceptUnsignedDeliveries: true },
		});
		expect(await h.deliver({ body: tradePayload('trade.completed'), secret: null })).toMatchObject({
			status: 401,
			started: false,
		});
	});
});

describe("the contract's option names keep working", () => {
	test('options.confirmWithApi: false → nothing fetched (overrides the parameter)', async () => {
		const h = await TriggerHarness.create({ ...fresh, options: { confirmWithApi: false } });
		const r = await h.deliver({ body: tradePayload('trade.completed') });
		expect(r).toMatchObject({ status: 200, started: true });
		expect(r.items[0].verification).toMatchObject({ confirmedWithApi: false });
	});

	test('options.confirmWithApi: true with the parameter off → confirmed', async () => {
		const h = await TriggerHarness.create({
			...fresh,
			parameters: { confirmWithApi: false },
			options: { confirmWithApi: true },
		});
		const body = tradePayload('trade.completed');
		nock(BASE_URL)
			.get(`/trades/transactions/${body.id}`)
			.reply(200, { success: true, data: { id: body.id, status: 'completed' } });
		expect((await h.deliver({ body })).items[0].verification).toMatchObject({
			confirmedWithApi: true,
		});
	});

	test('options.ignoreDuplicates: false → every copy is emitted', async () => {
		const h = await TriggerHarness.create({
			...fresh,
			parameters: { confirmWithApi: false },
			options: { ignoreDuplicates: false },
		});
		const body = tradePayload('trade.completed');
		for (let i = 0; i < 2; i++) expect((await h.deliver({ body })).started).toBe(true);
	});

	test('options.ignoreDuplicates: true with the parameter off → duplicates dropped', async () => {
		const h = await TriggerHarness.create({
			...fresh,
			parameters: { confirmWithApi: false, ignoreDuplicates: false },
			options: { ignoreDuplicates: true },
		});
		const body = tradePayload('trade.completed');
		expect((await h.deliver({ body })).started).toBe(true);
		expect((await h.deliver({ body })).started).toBe(false);
	});

	test('options.verifySecret: true → a wrong secret is refused', async () => {
		const h = await TriggerHarness.create({
			...fresh,
			parameters: { confirmWithApi: false },
			options: { verifySecret: true },
		});
		await expect(h.activate()).resolves.toBeUndefined();
		expect(
			await h.deliver({ body: tradePayload('trade.completed'), secret: 'wrong' }),
		).toMatchObject({ status: 401, started: false });
	});

	test('options.allowedIps → other sources are refused', async () => {
		const h = await TriggerHarness.create({
			...fresh,
			parameters: { confirmWithApi: false },
			options: { allowedIps: '46.101.201.155' },
		});
		expect(
			await h.deliver({ body: tradePayload('trade.completed'), ip: '203.0.113.9' }),
		).toMatchObject({ status: 403, started: false });
	});
});
