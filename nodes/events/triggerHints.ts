import type { IBuilderHint } from 'n8n-workflow';

/**
 * What the two triggers tell an AI assistant that builds workflows (n8n's workflow builder and its
 * instance MCP server; issue 73), and the type names n8n gives this package's nodes. The action
 * node's texts are in nodes/CryptoSettlement/operations/actionHints.ts;
 * test/CryptoSettlement/operations/builder-hints.test.ts checks both against the nodes.
 */

export const PACKAGE_NAME = 'n8n-nodes-crypto-settlement';
export const ACTION_TYPE = `${PACKAGE_NAME}.cryptoSettlement`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.cryptoSettlementTrigger`;
export const POLL_TRIGGER_TYPE = `${PACKAGE_NAME}.cryptoSettlementPollTrigger`;

const LEDGER = {
	nodeType: 'n8n-nodes-base.dataTable',
	relationHint:
		'The ledger: one row per `eventKey`, checked before acting, so each deposit is credited once',
};

const ACTION = {
	nodeType: ACTION_TYPE,
	relationHint: "Reads the record, pays out, or gives the day's statement for reconciliation",
};

const ONCE =
	'Each item carries `eventKey`, the same text for the same event and status from either trigger: key a ledger on it (an n8n Data Table) so a repeated delivery credits nothing twice.';

export const TRIGGER_BUILDER_HINT: IBuilderHint = {
	searchHint: `Starts a workflow when the crypto settlement service reports a deposit (trade.completed: credit the customer, mark their invoice paid) or a payout's outcome (withdrawal.completed and the other withdrawal events), for businesses paid in crypto in Nigeria and Ghana. ${ONCE} Set \`events\` to the ones needed rather than all.`,
	relatedNodes: [
		LEDGER,
		ACTION,
		{
			nodeType: POLL_TRIGGER_TYPE,
			relationHint: 'The same events by polling, for an n8n the service cannot reach',
		},
	],
};

export const POLL_TRIGGER_BUILDER_HINT: IBuilderHint = {
	searchHint: `Polls the crypto settlement service for deposits and payout outcomes, for an n8n the service cannot reach by webhook (behind a firewall, on a laptop). ${ONCE} Set \`events\` to the ones needed rather than all. With \`source\` set to balances (Account Balances) it warns once when an account balance falls below a threshold set per currency (balance.low) and once when it is back (balance.restored).`,
	relatedNodes: [
		LEDGER,
		ACTION,
		{
			nodeType: TRIGGER_TYPE,
			relationHint: 'The same events by webhook, at once, where the service can reach n8n',
		},
	],
};
