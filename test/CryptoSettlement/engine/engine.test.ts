/**
 * The n8n-core behaviours the node relies on beyond the documented node API
 * (nodes/CryptoSettlement/engine/engine.ts). If a new n8n version stops honouring one, these fail.
 */
import { ExecuteSingleContext } from 'n8n-core';
import {
	api,
	cryptoWithdrawal,
	noWithdrawalsYet,
	ok,
	rl,
	runNode,
	setupNock,
} from '../../helpers/node';

setupNock();

test("ExecuteSingleContext reads everything item-specific through its own 'itemIndex' field", () => {
	const context = Object.create(ExecuteSingleContext.prototype, {
		itemIndex: { value: 7 },
	}) as ExecuteSingleContext;
	expect(context.getItemIndex()).toBe(7);
	expect(ExecuteSingleContext.prototype.getNodeParameter.toString()).toMatch(/this\.itemIndex/);
	expect(ExecuteSingleContext.prototype.getCredentials.toString()).toMatch(/this\.itemIndex/);
});

test("the engine starts every item's hook before any is awaited, and each item's context reads the others' expressions", async () => {
	noWithdrawalsYet();
	const posted = api()
		.post('/payments/withdraw/address')
		.times(3)
		.reply(200, ok({ id: 'wd' }));
	const run = await runNode(
		cryptoWithdrawal({ amount: '={{ $json.amount }}', externalId: '={{ $json.ref }}' }),
		{
			items: [
				{ amount: 1, ref: 'a' },
				{ amount: 2, ref: 'b' },
				{ amount: 3.333, ref: 'c' },
			],
		},
	);
	expect(run.error?.message).toMatch(
		/^1 of 3 rows are invalid, so nothing was sent: row 3 \(c, n8n item 2\): .*received 3\.333/,
	);
	expect(posted.isDone()).toBe(false);
});

test("the engine post-processes the hook's routing request with the hook's postReceive: the node gets status, headers and body", async () => {
	api()
		.get('/trades/wallets/w-1')
		.reply(418, { success: false, message: 'I am a teapot' }, { 'x-trace': 'abc' });
	const run = await runNode({ resource: 'wallet', operation: 'get', walletId: rl('w-1') });
	// Only the full response carries the status: the raw body alone has no 418 in it.
	expect(run.error?.message).toContain('I am a teapot');
	expect(JSON.stringify(run.error)).toContain('418');
});

test('an engine that stops honouring the postReceive replacement fails loudly, with nothing misread', async () => {
	const { createHttpCall } = await import('../../../nodes/CryptoSettlement/engine/engine');
	const requestData = { options: {}, preSend: [], postReceive: [], requestOperations: {} } as never;
	const context = {
		getNode: () => ({ name: 'Crypto Settlement' }),
		getItemIndex: () => 0,
		// What an engine that ignored the replaced postReceive would hand back: the parsed body.
		makeRoutingRequest: async () => [{ json: { success: true, data: { id: 'w-1' } } }],
	} as never;
	const call = createHttpCall(context, requestData);
	await expect(call({ method: 'GET', url: '/trades/wallets/w-1' })).rejects.toThrow(
		'This n8n version is not supported: the routing request did not return the full response',
	);
});
