/**
 * The n8n-core behaviours the node relies on beyond the documented node API
 * (nodes/CryptoSettlement/helpers/engine.ts). If a new n8n version stops honouring one, these fail.
 */
import { ExecuteSingleContext } from 'n8n-core';
import { api, cryptoWithdrawal, noWithdrawalsYet, ok, runNode, setupNock } from './helpers';

setupNock();

test("ExecuteSingleContext reads everything item-specific through its own 'itemIndex' field", () => {
	const context = Object.create(ExecuteSingleContext.prototype, { itemIndex: { value: 7 } }) as ExecuteSingleContext;
	expect(context.getItemIndex()).toBe(7);
	expect(ExecuteSingleContext.prototype.getNodeParameter.toString()).toMatch(/this\.itemIndex/);
	expect(ExecuteSingleContext.prototype.getCredentials.toString()).toMatch(/this\.itemIndex/);
});

test("the engine starts every item's hook before any is awaited, and each item's context reads the others' expressions", async () => {
	noWithdrawalsYet();
	const posted = api().post('/payments/withdraw/address').times(3).reply(200, ok({ id: 'wd' }));
	const run = await runNode(
		cryptoWithdrawal({ amount: '={{ $json.amount }}', externalId: '={{ $json.ref }}' }),
		{ items: [{ amount: 1, ref: 'a' }, { amount: 2, ref: 'b' }, { amount: 3.333, ref: 'c' }] },
	);
	expect(run.error?.message).toMatch(/^1 of 3 items are invalid, so nothing was sent: item 2: .*received 3\.333/);
	expect(posted.isDone()).toBe(false);
});
