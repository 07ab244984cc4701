/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/** The example workflow in docs/trigger.md: its trigger settings work and its Code node credits the deposit. */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import nock from 'nock';
import type { IDataObject, INode } from 'n8n-workflow';
import { TRIGGER_NODE } from '../harness';
import { BASE_URL, captureLogs, TriggerHarness, tradePayload, WEBHOOK_SECRET } from './webhook-harness';

const doc = fs.readFileSync(path.resolve(__dirname, '../../docs/trigger.md'), 'utf8');
const blocks = [...doc.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1]);
const example = JSON.parse(blocks.find((b) => b.includes('"Credit deposits"')) ?? 'null') as {
	nodes: INode[];
	connections: Record<string, unknown>;
};

beforeAll(() => nock.disableNetConnect());
afterAll(() => {
	nock.cleanAll();
	nock.enableNetConnect();
});

test('the example is a trigger on trade.completed connected to a Code node', () => {
	expect(example).not.toBeNull();
	const trigger = example.nodes.find((n) => n.type === TRIGGER_NODE);
	expect(trigger?.parameters.events).toEqual(['trade.completed']);
	expect(Object.keys(trigger?.credentials ?? {})).toEqual(['cryptoSettlementApi']);
	expect(example.connections[trigger!.name]).toBeDefined();
});

test('a trade.completed delivery goes through the example and is credited once', async () => {
	captureLogs();
	const trigger = example.nodes.find((n) => n.type === TRIGGER_NODE)!;
	const code = example.nodes.find((n) => n.type === 'n8n-nodes-base.code')!;
	const h = await TriggerHarness.create({
		events: trigger.parameters.events as string[],
		options: trigger.parameters.options as IDataObject,
	});
	await h.activate();

	const body = tradePayload('trade.completed', { amountInUSD: 21.379, feeAmountInUsd: 0.32 });
	nock(BASE_URL)
		.get(`/trades/transactions/${body.id}`)
		.reply(200, { success: true, data: { id: body.id, status: 'completed', amount: 20310.46, currency: 'ngn' } });
	const delivered = await h.deliver({ body, secret: WEBHOOK_SECRET, ip: '46.101.225.97' });
	expect(delivered.started).toBe(true);
	// The retry of the same delivery is not credited again.
	expect((await h.deliver({ body, secret: WEBHOOK_SECRET, ip: '46.101.225.97' })).started).toBe(false);
	// Other events do not reach the Code node.
	expect((await h.deliver({ body: tradePayload('trade.pending'), secret: WEBHOOK_SECRET, ip: '46.101.225.97' })).started).toBe(false);

	// Run the Code node's JavaScript as n8n's Code node would ($input.all()).
	const $input = { all: () => delivered.items.map((json) => ({ json })) };
	const run = vm.runInNewContext(`(function ($input) {${code.parameters.jsCode as string}\n})`, { Date, Number, Math }) as (
		input: typeof $input,
	) => Array<{ json: IDataObject }>;
	const out = run($input);
	expect(out).toHaveLength(1);
	expect(out[0].json).toMatchObject({
		ledgerKey: `deposit:${body.id}`,
		tradeId: body.id,
		customer: 'customer-42',
		asset: 'SOL_TEST',
		grossUsd: 21.379,
		feeUsd: 0.32,
		netUsd: 21.06,
		netLocal: 20310.46,
		currency: 'ngn',
	});
});
