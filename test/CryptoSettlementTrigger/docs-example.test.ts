/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/** The example workflow in docs/trigger.md: its trigger settings work and its Code node credits the deposit. */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import nock from 'nock';
import type { IDataObject, INode } from 'n8n-workflow';
import { TRIGGER_NODE } from '../helpers';
import {
	BASE_URL,
	captureLogs,
	TriggerHarness,
	tradePayload,
	WEBHOOK_SECRET,
} from '../helpers/webhook';

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
	expect(trigger?.parameters).toMatchObject({ confirmWithApi: true, ignoreDuplicates: true });
	expect(Object.keys(trigger?.credentials ?? {})).toEqual(['cryptoSettlementApi']);
	expect(example.connections[trigger!.name]).toBeDefined();
});

/** A trade record shaped like the documented GET /trades/transactions/{id} answer (no label, ISO dates). */
function tradeRecord(id: string): IDataObject {
	return {
		id,
		amount: 20310.46,
		rate: 1000,
		reason: null,
		txHash: '5uXf2hash',
		asset: '64f1a2b3c4d5e6f7a8b9c0d1',
		vaultId: '12',
		address: 'So1DepositAddress1111111111111111111111111',
		sourceAddress: 'So1Sender',
		wallet: '65aa00000000000000000042',
		passAMLCheck: true,
		conversionRate: 1000,
		amountReceived: 21.379,
		cryptoReceived: '0.15',
		flagFeeUSD: 0,
		walletCredited: true,
		status: 'completed',
		currency: 'ngn',
		integration: 'int-1',
		feeAmount: 1068.97,
		createdAt: '2024-11-22T04:33:20.000Z',
		updatedAt: '2024-11-22T04:34:20.000Z',
	};
}

function runCode(items: IDataObject[]): Array<{ json: IDataObject }> {
	const code = example.nodes.find((n) => n.type === 'n8n-nodes-base.code')!;
	const $input = { all: () => items.map((json) => ({ json })) };
	const run = vm.runInNewContext(`(function ($input) {${code.parameters.jsCode as string}\n})`, {
		Date,
		Number,
		Math,
		Error,
	}) as (input: typeof $input) => Array<{ json: IDataObject }>;
	return run($input);
}

async function exampleTrigger(): Promise<TriggerHarness> {
	const trigger = example.nodes.find((n) => n.type === TRIGGER_NODE)!;
	const { events, options, ...parameters } = trigger.parameters as IDataObject;
	return await TriggerHarness.create({
		events: events as string[],
		parameters,
		options: options as IDataObject,
	});
}

test('a forged amount and label in a real trade.completed delivery are never credited', async () => {
	captureLogs();
	const h = await exampleTrigger();
	await h.activate();

	// A delivery about a real trade, with a forged amount and customer label (issue: the body said
	// 50000 USD, the record says 21.379).
	const body = tradePayload('trade.completed', {
		amountInUSD: 50000,
		destinationDescription: 'attacker-account',
	});
	const record = tradeRecord(String(body.id));
	nock(BASE_URL)
		.get(`/trades/transactions/${body.id}`)
		.reply(200, { success: true, message: 'transaction retrieved successfully', data: record });
	// The token and the customer come from the API too: the asset list and the deposit wallet.
	nock(BASE_URL)
		.get('/trades/assets')
		.reply(200, {
			success: true,
			message: 'ok',
			data: [{ id: record.asset, identifier: 'SOL_TEST', symbol: 'SOL' }],
		});
	nock(BASE_URL)
		.get(`/trades/wallets/${String(record.wallet)}`)
		.reply(200, {
			success: true,
			message: 'ok',
			data: { id: record.wallet, label: 'customer-42' },
		});
	const delivered = await h.deliver({ body, secret: WEBHOOK_SECRET, ip: '46.101.225.97' });
	expect(delivered.started).toBe(true);
	const item = delivered.items[0];
	expect(item.amountInUSD).toBe(21.379);
	expect(item.destinationAddress).toBe(record.address);
	expect(item.destinationDescription).toBeUndefined();
	expect(item.unconfirmedBody).toMatchObject({
		amountInUSD: 50000,
		destinationDescription: 'attacker-account',
	});
	expect(JSON.stringify({ ...item, unconfirmedBody: undefined })).not.toContain('attacker-account');
	expect(JSON.stringify({ ...item, unconfirmedBody: undefined })).not.toContain('50000');

	// The retry of the same delivery is not credited again.
	expect((await h.deliver({ body, secret: WEBHOOK_SECRET, ip: '46.101.225.97' })).started).toBe(
		false,
	);
	// Other events do not reach the Code node.
	expect(
		(
			await h.deliver({
				body: tradePayload('trade.pending'),
				secret: WEBHOOK_SECRET,
				ip: '46.101.225.97',
			})
		).started,
	).toBe(false);

	// Run the Code node's JavaScript as n8n's Code node would ($input.all()).
	const out = runCode(delivered.items);
	expect(out).toHaveLength(1);
	expect(item.eventKey).toMatch(/^[\w-]{22}$/);
	expect(out[0].json).toEqual({
		ledgerKey: item.eventKey,
		tradeId: body.id,
		customer: 'customer-42',
		token: 'SOL',
		walletId: record.wallet,
		depositAddress: record.address,
		grossUsd: 21.379,
		cryptoAmount: '0.15',
		netLocal: 20310.46,
		feeLocal: 1068.97,
		currency: 'NGN',
		txHash: '5uXf2hash',
		creditedAt: '2024-11-22T04:34:20.000Z',
	});
});

test('the example refuses to credit an item that was not confirmed with the API', () => {
	expect(() =>
		runCode([{ ...tradePayload('trade.completed'), verification: { confirmedWithApi: false } }]),
	).toThrow(/Confirm With API/);
});
