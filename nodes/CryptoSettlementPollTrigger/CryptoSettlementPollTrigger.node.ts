import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../service/credentials';
import { eventsProperty, optionsProperty, POLL_EVENT_OPTIONS } from '../events/events';
import { POLL_TRIGGER_BUILDER_HINT } from '../events/triggerHints';
import type { Source } from './items';
import { DEFAULT_MAX_PAGES, MIN_PAGES, runPoll } from './poll';
import { BALANCE_CURRENCIES, readThresholds } from './balanceAlerts';

export class CryptoSettlementPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Crypto Settlement Poll Trigger',
		name: 'cryptoSettlementPollTrigger',
		icon: {
			light: 'file:../../icons/cryptoSettlement.svg',
			dark: 'file:../../icons/cryptoSettlement.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["source"] === "balances" ? "Balance alerts" : ($parameter["source"] === "webhookEvents" ? "Stored deliveries: " : "Records: ") + (($parameter["events"] || []).includes("*") ? "All Events" : ($parameter["events"] || []).join(", ")) }}',
		description:
			'Starts the workflow on deposit and withdrawal events, or when a balance goes below a threshold and back, by polling the crypto settlement API',
		defaults: {
			name: 'Crypto Settlement Poll Trigger',
		},
		polling: true,
		builderHint: POLL_TRIGGER_BUILDER_HINT,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName:
					'Polls the API on the schedule above (Poll Times). The first poll after publishing (n8n 1.x: activating) only records where things stand; events from then on start one execution each, once. "Fetch Test Event" shows the most recent matching event. If the service can reach this n8n, the Crypto Settlement Trigger (webhook) is faster and makes no API calls.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Source',
				name: 'source',
				type: 'options',
				default: 'records',
				options: [
					{
						name: 'Records (Transactions and Withdrawals)',
						value: 'records',
						description:
							'Compare the transaction and withdrawal lists with what was seen before: a new record or a changed status becomes an event. Needs only API access.',
					},
					{
						name: 'Stored Webhook Deliveries',
						value: 'webhookEvents',
						description:
							"Read the service's stored webhook deliveries: every event, including Trade Address Created. Needs the service's webhook inspection access.",
					},
					{
						name: 'Account Balances',
						value: 'balances',
						description:
							'Read the account balances: Balance Low once when a balance goes below its threshold, Balance Restored once when it is back at or above it',
					},
				],
				description: 'Where the events come from',
			},
			{
				displayName:
					"Items carry the API's record, as the webhook trigger's items with Confirm With API do. Trade Address Created is not seen from records: use Stored Webhook Deliveries for it.",
				name: 'recordsNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { source: ['records'] } },
			},
			{
				displayName:
					"Needs the service's webhook inspection access (VIP API access); without it every poll fails with HTTP 403: use Records instead. Items carry the delivery's body as the service sent it.",
				name: 'webhookEventsNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { source: ['webhookEvents'] } },
			},
			{
				displayName:
					'Each poll reads the balances (Account → Get). An item "balance.low" starts the workflow once when a balance goes below its threshold, and "balance.restored" once when it is at or above it again; at the first poll after publishing, "balance.low" when it is already below. A balance that cannot be read emits nothing.',
				name: 'balancesNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { source: ['balances'] } },
			},
			{
				displayName: 'Thresholds',
				name: 'thresholds',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Threshold',
				default: { threshold: [{ currency: 'USD', amount: 1000 }] },
				displayOptions: { show: { source: ['balances'] } },
				description:
					'One threshold per currency: a balance below its amount is low; equal to it or above is not',
				options: [
					{
						displayName: 'Threshold',
						name: 'threshold',
						values: [
							{
								displayName: 'Currency',
								name: 'currency',
								type: 'options',
								options: BALANCE_CURRENCIES.map((currency) => ({
									name: currency,
									value: currency,
								})),
								default: 'USD',
								description: 'The balance to watch',
							},
							{
								displayName: 'Amount',
								name: 'amount',
								type: 'number',
								typeOptions: { minValue: 0 },
								default: 1000,
								description: 'Warn when the balance is below this amount, in the currency chosen',
							},
						],
					},
				],
			},
			{
				...eventsProperty(
					'Status changes and events that start the workflow; others are skipped',
					POLL_EVENT_OPTIONS,
				),
				displayOptions: { hide: { source: ['balances'] } },
			},
			{
				...optionsProperty([
					{
						displayName: 'Max Pages per Poll',
						name: 'maxPagesPerPoll',
						type: 'number',
						typeOptions: { minValue: MIN_PAGES, maxValue: 100 },
						default: DEFAULT_MAX_PAGES,
						description:
							'Most pages one poll reads from each list (100 records per page; 200 stored deliveries), and most records not yet final it looks up one by one. A poll that reaches it emits what it read and the next poll continues from there.',
					},
				]),
				displayOptions: { hide: { source: ['balances'] } },
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const source = this.getNodeParameter('source', 'records') as Source;
		if (source === 'balances') {
			return await runPoll(this, {
				source,
				events: [],
				maxPages: DEFAULT_MAX_PAGES,
				thresholds: readThresholds(this, this.getNodeParameter('thresholds', {})),
			});
		}
		const events = this.getNodeParameter('events', []) as unknown;
		const options = this.getNodeParameter('options', {}) as { maxPagesPerPoll?: number };
		const maxPages = Number(options.maxPagesPerPoll);
		return await runPoll(this, {
			source: source === 'webhookEvents' ? 'webhookEvents' : 'records',
			events: Array.isArray(events) ? events.map(String) : [],
			maxPages:
				Number.isFinite(maxPages) && maxPages >= 1
					? Math.max(MIN_PAGES, Math.floor(maxPages))
					: DEFAULT_MAX_PAGES,
		});
	}
}
