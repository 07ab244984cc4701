/**
 * Payments in a workflow started by another workflow (issue #42, point 3; docs/guardrails.md,
 * "Payments in sub-workflows"): n8n runs a sub-workflow (its Execute Workflow node, an AI agent's
 * Call n8n Workflow Tool) in mode `integrated`, and an error workflow in mode `error`; the node
 * cannot tell a person's workflow from an agent's call, so a payment there needs the credential's
 * Allow Sub-Workflow Payments. Through n8n-core's WorkflowExecute in those modes, against a local
 * HTTP service.
 */
import type { IDataObject, WorkflowExecuteMode } from 'n8n-workflow';
import { tronAddress } from '../../helpers/addresses';
import { runAsTool, runNode, serversClosedAfterEach } from '../../helpers/node';
import { envelope, localService, withdrawalService, type Seen } from '../../helpers/local-service';
import { guardrailsInShort } from '../../../nodes/CryptoSettlement/money/guardrailSummary';

/** A valid TRC20 address (the node checks an address's form before any payment). */
const DESTINATION = tronAddress('sub-workflows');

const servers = serversClosedAfterEach();

async function service() {
	const withdrawals = withdrawalService();
	const server = await localService((request: Seen) => {
		if (
			request.path === '/v1/payments/payout-addresses' ||
			request.path === '/v1/payments/wallet-addresses'
		)
			return { status: 200, body: envelope([]) };
		if (request.path === '/v1/payments/swap-currency')
			return {
				status: 200,
				body: { message: 'currency swap successful', success: true, data: {} },
			};
		return withdrawals.handler(request);
	});
	servers.push(server);
	const moneySent = () => server.requests.filter((r) => r.method === 'POST').length;
	return { baseUrl: server.baseUrl, moneySent };
}

const crypto: IDataObject = {
	resource: 'withdrawal',
	operation: 'createCrypto',
	token: 'USDT',
	network: 'TRC20',
	walletAddress: DESTINATION,
	amountType: 'usd',
	amount: '={{ $json.amount }}',
	externalId: '={{ $json.ref }}',
};
const swap: IDataObject = {
	resource: 'currency',
	operation: 'swap',
	amount: 1000,
	from: 'ngn',
	to: 'ghs',
};
const pay = async (
	mode: WorkflowExecuteMode | string,
	credentials: IDataObject,
	parameters = crypto,
	amount = 20,
) =>
	await runNode(parameters, {
		items: [{ amount, ref: `sub-${mode}-${amount}` }],
		credentials,
		mode: mode as WorkflowExecuteMode,
	});

const DETAIL =
	"Allow Sub-Workflow Payments is off in the Crypto Settlement API credential (Guardrails), so that an AI agent cannot pay through a sub-workflow. The credential's owner may turn it on only if every workflow that may start this one is trusted to pay: then every other guardrail still applies, but an AI agent's Call n8n Workflow Tool pays too, whatever Allow Agent Payments says, and without a person's review. Or run the payment in the starting workflow itself. Nothing was sent.";

describe('off (the default): a payment in a workflow started by another workflow is refused, saying why and where to change it', () => {
	test.each([
		[
			'integrated',
			"This payment is refused: this workflow was started by another workflow (n8n's Execute Workflow node, or an AI agent's Call n8n Workflow Tool: n8n does not tell which), and the owner of the credential has not allowed payments in workflows started by another workflow. Nothing was sent.",
		],
		[
			'error',
			"This payment is refused: this is an error workflow, started by another workflow's failure, and the owner of the credential has not allowed payments in workflows started by another workflow. Nothing was sent.",
		],
		[
			'agent',
			"This payment is refused: this workflow runs in n8n's execution mode 'agent', which the node does not know as a workflow started by a person, a trigger or a webhook, and the owner of the credential has not allowed payments in workflows started by another workflow. Nothing was sent.",
		],
		['internal', expect.stringContaining("n8n's execution mode 'internal'")],
		[
			'a mode a later n8n adds',
			expect.stringContaining("n8n's execution mode 'a mode a later n8n adds'"),
		],
	])('mode %s', async (mode, message) => {
		const { baseUrl, moneySent } = await service();
		const run = await pay(mode, { baseUrl });
		expect(run.error?.message).toEqual(message);
		expect(run.error?.description).toBe(DETAIL);
		expect(moneySent()).toBe(0);
	});

	test('a swap too; with Continue On Fail each item fails alone', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runNode(swap, {
			items: [{}, {}],
			credentials: { baseUrl },
			mode: 'integrated',
			continueOnFail: true,
		});
		expect(run.items.map((item) => String(item.json.error).slice(0, 61))).toEqual([
			'This payment is refused: this workflow was started by another',
			'This payment is refused: this workflow was started by another',
		]);
		expect(moneySent()).toBe(0);
	});

	test('only the boolean true allows it: the text "true" does not', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await pay('integrated', { baseUrl, allowSubWorkflowPayments: 'true' });
		expect(run.error?.message).toMatch(
			/^This payment is refused: this workflow was started by another workflow/,
		);
		expect(moneySent()).toBe(0);
	});

	test("Allow Agent Payments does not allow it: n8n does not tell an agent's call from a person's workflow", async () => {
		const { baseUrl, moneySent } = await service();
		const run = await pay('integrated', {
			baseUrl,
			allowAgentPayments: true,
			agentPaymentsNeedHumanReview: false,
		});
		expect(run.error?.message).toMatch(
			/^This payment is refused: this workflow was started by another workflow/,
		);
		expect(moneySent()).toBe(0);
	});

	test('reads are allowed', async () => {
		const { baseUrl } = await service();
		const run = await runNode(
			{ resource: 'payoutAddress', operation: 'getAll', returnAll: true },
			{ credentials: { baseUrl }, mode: 'integrated' },
		);
		expect(run.error).toBeUndefined();
	});

	test.each(['manual', 'trigger', 'webhook', 'retry', 'cli', 'chat', 'evaluation'])(
		'a workflow started on its own (mode %s) pays',
		async (mode) => {
			const { baseUrl, moneySent } = await service();
			const run = await pay(mode, { baseUrl });
			expect(run.error).toBeUndefined();
			expect(moneySent()).toBe(1);
		},
	);
});

describe('on: the payment goes, and every other guardrail still applies', () => {
	test('paid within the limits; over Max per Withdrawal refused', async () => {
		const { baseUrl, moneySent } = await service();
		const on = { baseUrl, allowSubWorkflowPayments: true, maxPerWithdrawalUsd: 50 };
		expect((await pay('integrated', on)).error).toBeUndefined();
		expect((await pay('integrated', on, crypto, 80)).error?.message).toBe(
			'Max per withdrawal is 50.00 USD; this item is 80.00 USD',
		);
		expect((await pay('error', { ...on, destinations: 'savedOnly' })).error?.message).toBe(
			`Destination ${DESTINATION} (USDT on TRC20) is not a saved payout address, and this credential pays only to saved ones`,
		);
		expect(moneySent()).toBe(1);
	});

	test("an AI agent's tool inside the sub-workflow still needs Allow Agent Payments", async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runAsTool(
			crypto,
			{ baseUrl, allowSubWorkflowPayments: true },
			[{ amount: 5, ref: 'sub-tool' }],
			'integrated',
		);
		expect(run.error?.message).toBe(
			'This tool may not move money: the owner of the credential has not allowed AI agents to make payments. Ask a person to make this payment.',
		);
		expect(moneySent()).toBe(0);
	});
});

describe('the panel says what the guardrail lets through', () => {
	test("off: sub-workflows may not pay; on: ⚠, and that an agent's Call n8n Workflow Tool pays too", () => {
		const base = {
			environment: 'sandbox',
			maxPerWithdrawalUsd: 100,
			maxPerDayUsd: 500,
			destinations: 'savedOnly',
		};
		const off = guardrailsInShort(base, 'Shared');
		expect(off.name).toBe(
			'Sandbox: max 100.00 USD per withdrawal, max 500.00 USD per day, saved payout addresses only',
		);
		expect(off.description).toContain(
			"Workflows started by another workflow (Execute Workflow, an AI agent's Call n8n Workflow Tool) may not pay.",
		);
		const on = guardrailsInShort({ ...base, allowSubWorkflowPayments: true }, 'Shared');
		expect(on.name).toBe(
			'⚠ Sandbox: max 100.00 USD per withdrawal, max 500.00 USD per day, saved payout addresses only, sub-workflows may pay',
		);
		expect(on.description).toContain(
			"Workflows started by another workflow may pay: an AI agent's Call n8n Workflow Tool too, whatever Allow Agent Payments says and without review.",
		);
		expect(on.description).toContain(
			"Not limited: payments in workflows started by another workflow, AI agents' included.",
		);
	});
});
