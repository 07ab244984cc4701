import type { INodeProperties } from 'n8n-workflow';
import { APP_DESCRIPTION } from '../service/catalog';
import { EVENT_OPTIONS, eventsProperty, optionsProperty } from '../events/events';

/**
 * The trigger's description. n8n's node creator shows a node `xTrigger` and a node `x` that has
 * actions as one entry (the app, holding the actions and the triggers) and gives that entry the
 * trigger's description, so it names what the actions do too. The poll trigger keeps its own entry.
 */
export const TRIGGER_DESCRIPTION = `${APP_DESCRIPTION}; the trigger starts a workflow on each deposit or withdrawal event the service sends`;

/** The trigger's parameters as the editor shows them (docs/trigger.md, "Settings"). */
export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Paste this node\'s Production URL (under Webhook URLs above) as the webhook URL on the service dashboard (the service has no API to register it), then publish the workflow (n8n 1.x: activate it). The Test URL only listens while the editor waits for a test event ("Execute step"; older n8n: "Listen for test event"). Deliveries must carry the Webhook Secret set in the credential.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	eventsProperty(
		'Events that start the workflow. Other events are answered 200 and start nothing.',
		EVENT_OPTIONS,
	),
	{
		displayName: 'Confirm With API',
		name: 'confirmWithApi',
		type: 'boolean',
		default: true,
		description:
			'Whether to fetch the trade, withdrawal or wallet with the credential before emitting and emit only what the API confirms. The item then carries the record\'s values; what the delivery claimed is kept under "unconfirmedBody".',
	},
	{
		displayName: 'Ignore Duplicates',
		name: 'ignoreDuplicates',
		type: 'boolean',
		default: true,
		description:
			'Whether to drop a delivery whose event, ID and status (plus confirmations for trade.pending) were already emitted. Deliveries are at least once.',
	},
	optionsProperty([
		{
			displayName: 'Accept Unsigned Deliveries (Unsafe)',
			name: 'acceptUnsignedDeliveries',
			type: 'boolean',
			default: false,
			description:
				'Whether to accept deliveries without an x-webhook-secret header when the credential has no Webhook Secret. Anyone who learns the URL can then post fake events. No effect while the credential has a secret (it is always checked).',
		},
		{
			displayName: 'Allowed IPs',
			name: 'allowedIps',
			type: 'string',
			default: '',
			placeholder: 'e.g. 46.101.201.155, 159.89.20.62, 10.0.0.0/8',
			description:
				'Comma-separated source addresses or CIDR ranges allowed to call the webhook; others get 403. Behind a reverse proxy, set N8N_PROXY_HOPS so n8n sees the real source address.',
		},
		{
			displayName: 'Confirm With API (Legacy)',
			name: 'confirmWithApi',
			type: 'boolean',
			default: true,
			description:
				'Whether to confirm with the API. Kept for older workflows: when present it overrides the Confirm With API parameter above; use that parameter instead.',
		},
		{
			displayName: 'Ignore Duplicates (Legacy)',
			name: 'ignoreDuplicates',
			type: 'boolean',
			default: true,
			description:
				'Whether to drop duplicates. Kept for older workflows: when present it overrides the Ignore Duplicates parameter above; use that parameter instead.',
		},
		{
			displayName: 'Include Headers',
			name: 'includeHeaders',
			type: 'boolean',
			default: true,
			description:
				'Whether to add the request headers to the item as "headers" (the webhook secret is redacted)',
		},
		{
			displayName: 'Verify Secret (Legacy)',
			name: 'verifySecret',
			type: 'boolean',
			default: true,
			description:
				'Whether to require the x-webhook-secret header. Kept for older workflows: the secret is always checked when the credential has one, and on here, activation also fails without one.',
		},
	]),
];
