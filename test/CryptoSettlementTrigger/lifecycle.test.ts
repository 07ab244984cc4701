/**
 * The node description (public interface) and the webhook lifecycle methods, run through n8n-core's
 * HookContext as n8n runs them on activation and on "Listen for test event".
 */
import type { INodeProperties, INodeType } from 'n8n-workflow';
import { loadPackage, TRIGGER_NODE } from '../helpers';
import {
	captureLogs,
	CONTRACT_EVENTS,
	CREDENTIALS,
	TriggerHarness,
	WEBHOOK_ID,
} from '../helpers/webhook';

const EVENTS = CONTRACT_EVENTS;

let logs: ReturnType<typeof captureLogs>;
beforeEach(() => {
	logs = captureLogs();
});

describe('description', () => {
	let type: INodeType;
	beforeAll(async () => {
		type = (await loadPackage()).nodeTypes.getByNameAndVersion(TRIGGER_NODE, 1);
	});

	test('identity, connections and credential', () => {
		const d = type.description;
		expect(d.name).toBe('cryptoSettlementTrigger');
		expect(d.displayName).toBe('Crypto Settlement Trigger');
		expect(d.group).toEqual(['trigger']);
		expect(d.inputs).toEqual([]);
		expect(d.outputs).toEqual(['main']);
		expect(d.usableAsTool).toBeUndefined();
		expect(d.credentials).toEqual([{ name: 'cryptoSettlementApi', required: false }]);
		expect(d.subtitle).toBeTruthy();
	});

	test('version 1.1 is the default; version 1 (existing workflows) behaves the same', () => {
		// For a version-1 node n8n evaluates an expression (options.binaryData) before every delivery.
		expect(type.description.version).toEqual([1, 1.1]);
		expect(type.description.defaultVersion).toBe(1.1);
	});

	test.each([
		[['*'], 'All Events'],
		[['trade.completed', 'withdrawal.completed'], 'trade.completed, withdrawal.completed'],
		[[], ''],
	])('subtitle for %p is %p', async (events, expected) => {
		const h = await TriggerHarness.create({ events });
		const value = h.workflow.expression.getSimpleParameterValue(
			h.node,
			type.description.subtitle!,
			'internal',
			{},
		);
		expect(value).toBe(expected);
	});

	test('one POST webhook answered on receipt, with the body the node returns', () => {
		// An empty responseData: n8n answers with the node's webhookResponse ({"received":true}).
		expect(type.description.webhooks).toEqual([
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		]);
		expect(Object.keys(type.webhookMethods?.default ?? {}).sort()).toEqual([
			'checkExists',
			'create',
			'delete',
		]);
	});

	test('a notice explains the dashboard URL registration in n8n 2.x and 1.x words', () => {
		const notice = type.description.properties.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/Production URL/);
		expect(notice?.displayName).toMatch(/dashboard/);
		// n8n 2.x: "publish" and "Execute step"; n8n 1.x: "activate" and "Listen for test event".
		expect(notice?.displayName).toMatch(/publish the workflow/);
		expect(notice?.displayName).toMatch(/"Execute step"/);
		expect(notice?.displayName).toMatch(/activate it/);
		expect(notice?.displayName).toMatch(/"Listen for test event"/);
	});

	test('the checks that are on by default are top-level parameters defaulting to on', () => {
		const byName = Object.fromEntries(type.description.properties.map((p) => [p.name, p]));
		expect(byName.confirmWithApi).toMatchObject({ type: 'boolean', default: true });
		expect(byName.ignoreDuplicates).toMatchObject({ type: 'boolean', default: true });
		expect(byName.options).toMatchObject({ type: 'collection', default: {} });
		// Every option inside the collection is off (or empty) until added, so "not added" is safe.
		const unsigned = (byName.options.options as INodeProperties[]).find(
			(o) => o.name === 'acceptUnsignedDeliveries',
		);
		expect(unsigned).toMatchObject({ type: 'boolean', default: false });
		expect(unsigned?.displayName).toMatch(/Unsafe/);
	});

	test(`events: the wildcard and the ${EVENTS.length} documented events, no * in names`, () => {
		const events = type.description.properties.find((p) => p.name === 'events') as INodeProperties;
		expect(events.type).toBe('multiOptions');
		const options = events.options as Array<{ name: string; value: string }>;
		expect(options.map((o) => o.value).sort()).toEqual(['*', ...EVENTS].sort());
		expect(options.find((o) => o.value === '*')?.name).toBe('All Events');
		for (const option of options) expect(option.name).not.toContain('*');
	});

	test('options keep the contract names', () => {
		const options = type.description.properties.find(
			(p) => p.name === 'options',
		) as INodeProperties;
		expect(options.type).toBe('collection');
		const byName = Object.fromEntries(
			(options.options as INodeProperties[]).map((o) => [o.name, o.type]),
		);
		expect(byName).toEqual({
			acceptUnsignedDeliveries: 'boolean',
			allowedIps: 'string',
			confirmWithApi: 'boolean',
			ignoreDuplicates: 'boolean',
			includeHeaders: 'boolean',
			verifySecret: 'boolean',
		});
	});
});

describe('lifecycle on activation', () => {
	test('a valid configuration is recorded by create and then exists', async () => {
		const h = await TriggerHarness.create({
			events: ['trade.completed'],
			options: { verifySecret: true },
		});
		expect(await h.hook('checkExists')).toBe(false);
		expect(await h.hook('create')).toBe(true);
		expect(h.nodeStaticData().registration).toMatchObject({
			webhookUrl: `http://localhost:5678/webhook/${WEBHOOK_ID}/webhook`,
			events: ['trade.completed'],
		});
		expect(
			logs.some((l) => l.level === 'info' && l.message.includes(`/webhook/${WEBHOOK_ID}/webhook`)),
		).toBe(true);
		expect(await h.hook('checkExists')).toBe(true);
		expect(await h.hook('delete')).toBe(true);
		expect(h.nodeStaticData().registration).toBeUndefined();
		expect(await h.hook('checkExists')).toBe(false);
	});

	test('changing the event selection makes checkExists false again', async () => {
		const h = await TriggerHarness.create({ events: ['trade.completed'] });
		await h.activate();
		expect(await h.hook('checkExists')).toBe(true);
		h.node.parameters.events = ['trade.completed', 'trade.flagged'];
		expect(await h.hook('checkExists')).toBe(false);
	});

	test('a freshly placed node with a complete credential activates', async () => {
		const h = await TriggerHarness.create({ events: ['trade.completed'] });
		await expect(h.activate()).resolves.toBeUndefined();
		expect(await h.hook('delete')).toBe(true);
	});

	test('no credential activates only with Accept Unsigned Deliveries and Confirm With API off', async () => {
		const h = await TriggerHarness.create({
			credentials: null,
			parameters: { confirmWithApi: false },
			options: { acceptUnsignedDeliveries: true },
		});
		await expect(h.activate()).resolves.toBeUndefined();
		expect(await h.hook('delete')).toBe(true);
	});

	test('delete keeps the deduplication memory', async () => {
		const h = await TriggerHarness.create({
			staticData: { 'node:Crypto Settlement Trigger': { emittedDeliveries: ['k1'] } },
		});
		await h.activate();
		await h.hook('delete');
		expect(h.nodeStaticData().emittedDeliveries).toEqual(['k1']);
	});

	const noSecret = { ...CREDENTIALS, webhookSecret: '' };
	const failing: Array<[string, ConstructorParameters<typeof Object>[0], RegExp]> = [
		[
			'a fresh node without a credential',
			{ credentials: null },
			/Select a Crypto Settlement API credential and set the Webhook Secret in the Crypto Settlement API credential/,
		],
		[
			'a fresh node whose credential has an empty webhook secret',
			{ credentials: noSecret },
			/set the Webhook Secret in the Crypto Settlement API credential.*Accept Unsigned Deliveries/,
		],
		[
			'a blank webhook secret',
			{ credentials: { ...CREDENTIALS, webhookSecret: '   ' } },
			/set the Webhook Secret/,
		],
		[
			'no webhook secret field',
			{ credentials: { ...CREDENTIALS, webhookSecret: undefined } },
			/set the Webhook Secret/,
		],
		[
			'legacy verifySecret without a credential',
			{ options: { verifySecret: true }, credentials: null },
			/set the Webhook Secret.*Verify Secret \(Legacy\) is on/,
		],
		[
			'legacy verifySecret with Accept Unsigned Deliveries and no secret',
			{ options: { verifySecret: true, acceptUnsignedDeliveries: true }, credentials: noSecret },
			/Verify Secret \(Legacy\) is on/,
		],
		[
			'legacy verifySecret turned off while the credential has a secret',
			{ options: { verifySecret: false } },
			/Verify Secret \(Legacy\) is off, but the credential has a Webhook Secret/,
		],
		[
			'Accept Unsigned Deliveries without a credential but Confirm With API on',
			{ options: { acceptUnsignedDeliveries: true }, credentials: null },
			/Confirm With API needs a Crypto Settlement API credential/,
		],
		[
			'legacy confirmWithApi without a credential',
			{
				options: { confirmWithApi: true, acceptUnsignedDeliveries: true },
				parameters: { confirmWithApi: false },
				credentials: null,
			},
			/Confirm With API needs a Crypto Settlement API credential/,
		],
		[
			'confirmWithApi with an incomplete credential',
			{ credentials: { ...CREDENTIALS, baseUrl: '' } },
			/needs the credential's baseUrl/,
		],
		[
			'invalid allowed IPs',
			{ options: { allowedIps: '46.101.201.155, not-an-ip' } },
			/"not-an-ip" is not an IP address/,
		],
		[
			'an allowed IP with a leading zero (octal to some tools)',
			{ options: { allowedIps: '46.101.201.155, 010.0.0.1' } },
			/"010\.0\.0\.1" has a leading zero/,
		],
		[
			'a CIDR range with a leading zero',
			{ options: { allowedIps: '10.0.0.0/8, 192.168.01.0/24' } },
			/"192\.168\.01\.0\/24" has a leading zero/,
		],
		['no events', { events: [] }, /Select at least one event/],
	];

	test.each(failing)('%s: activation fails with a clear error', async (_name, setup, message) => {
		const h = await TriggerHarness.create(setup as never);
		await expect(h.hook('checkExists')).rejects.toThrow(message);
		await expect(h.hook('create')).rejects.toThrow(message);
		expect(h.nodeStaticData().registration).toBeUndefined();
	});

	test.each(failing)(
		'%s: "Listen for test event" fails with the same error',
		async (_name, setup, message) => {
			const h = await TriggerHarness.create({ ...(setup as object), mode: 'manual' });
			await expect(h.activate('manual')).rejects.toThrow(message);
		},
	);

	test('"Listen for test event" records the test URL', async () => {
		const h = await TriggerHarness.create({ mode: 'manual', options: { verifySecret: true } });
		await h.activate('manual');
		expect(h.nodeStaticData().registration).toMatchObject({
			webhookUrl: `http://localhost:5678/webhook-test/${WEBHOOK_ID}/webhook`,
		});
	});

	test('the activation message never contains a secret', async () => {
		const h = await TriggerHarness.create({ options: { verifySecret: false } });
		const error = await h.hook('create').catch((e: Error) => e);
		expect(String((error as Error).message)).not.toContain(String(CREDENTIALS.webhookSecret));
		expect(String((error as Error).message)).not.toContain(String(CREDENTIALS.appSecret));
	});

	test('a good secret plus allowed IPs and confirmation activates', async () => {
		const h = await TriggerHarness.create({
			options: {
				verifySecret: true,
				confirmWithApi: true,
				allowedIps: '46.101.201.155, 10.0.0.0/8',
				ignoreDuplicates: true,
			},
		});
		await expect(h.activate()).resolves.toBeUndefined();
	});
});
