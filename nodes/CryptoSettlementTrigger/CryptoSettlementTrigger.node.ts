import {
	NodeConnectionTypes,
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { confirmDelivery, CREDENTIAL_TYPE, lookupFor } from './confirm';
import { deliveryKey, forget, remember, wasEmitted } from './dedupe';
import { EVENT_OPTIONS, isEventSelected } from './events';
import { parseDelivery } from './payload';
import {
	formatIp,
	isAllowListSet,
	isIpAllowed,
	parseAllowList,
	parseIp,
	redactHeaders,
	secretMatches,
	SECRET_HEADER,
} from './verify';

interface TriggerOptions {
	allowedIps?: string;
	confirmWithApi?: boolean;
	ignoreDuplicates?: boolean;
	includeHeaders?: boolean;
	verifySecret?: boolean;
}

/** Local record of the URL the service must call (there is no registration API). */
const REGISTRATION_STATIC_KEY = 'registration';

type Context = IHookFunctions | IWebhookFunctions;

function readOptions(this: Context): TriggerOptions {
	const value = this.getNodeParameter('options', {}) as unknown;
	return value && typeof value === 'object' ? (value as TriggerOptions) : {};
}

function readEvents(this: Context): string[] {
	const value = this.getNodeParameter('events', []) as unknown;
	return Array.isArray(value) ? value.map(String) : [];
}

function hasCredential(this: Context): boolean {
	return Boolean(this.getNode().credentials?.[CREDENTIAL_TYPE]);
}

/**
 * Configuration problems that would make the trigger accept or drop deliveries wrongly. Checked
 * when the workflow is activated and when "Listen for test event" starts, so they surface as a
 * clear error there instead of as silently accepted deliveries. Returns the problem, if any.
 */
async function configurationProblem(this: Context): Promise<string | undefined> {
	if (readEvents.call(this).length === 0) {
		return 'Select at least one event (or "All Events") in Events';
	}
	const options = readOptions.call(this);
	if (isAllowListSet(options.allowedIps)) {
		const list = parseAllowList(options.allowedIps);
		if (list.invalid.length > 0) {
			return `Allowed IPs: "${list.invalid.join('", "')}" is not an IP address or CIDR range (for example 46.101.201.155 or 10.0.0.0/8)`;
		}
	}
	if (!options.verifySecret && !options.confirmWithApi) return undefined;
	const needs = [options.verifySecret ? 'Verify Secret' : '', options.confirmWithApi ? 'Confirm With API' : '']
		.filter(Boolean)
		.join(' and ');
	if (!hasCredential.call(this)) {
		return `${needs} needs a Crypto Settlement API credential: select one on this node or turn the option off`;
	}
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	if (options.verifySecret && String(credentials.webhookSecret ?? '').trim() === '') {
		return 'Verify Secret is on but the selected credential has no Webhook Secret: copy the webhook verification secret key from the dashboard into the credential, or turn Verify Secret off';
	}
	if (options.confirmWithApi) {
		const missing = ['appId', 'appSecret', 'baseUrl'].filter((name) => String(credentials[name] ?? '').trim() === '');
		if (missing.length > 0) {
			return `Confirm With API needs the credential's ${missing.join(', ')}`;
		}
	}
	return undefined;
}

async function assertConfiguration(this: IHookFunctions): Promise<void> {
	const problem = await configurationProblem.call(this);
	if (problem !== undefined) throw new NodeOperationError(this.getNode(), problem, { level: 'warning' });
}

/** Answers the request directly (no execution) with a status and a short JSON message. */
function answer(this: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const res = this.getResponseObject();
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

/** Accepted but not emitted: n8n answers 200 with this body and starts no execution. */
function ignore(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored: reason } };
}

export class CryptoSettlementTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Crypto Settlement Trigger',
		name: 'cryptoSettlementTrigger',
		icon: { light: 'file:../../icons/cryptoSettlement.svg', dark: 'file:../../icons/cryptoSettlement.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ($parameter["events"] || []).includes("*") ? "All Events" : ($parameter["events"] || []).join(", ") }}',
		description: 'Starts the workflow when the crypto settlement service sends a deposit or withdrawal event',
		defaults: {
			name: 'Crypto Settlement Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_TYPE,
				// Needed only by Verify Secret and Confirm With API; activation fails with a clear
				// message when one of them is on and no credential (or no webhook secret) is set.
				required: false,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Without it n8n answers accepted deliveries with the literal text "firstEntryJson".
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'The service has no API to register webhooks: copy this node\'s Production URL (under Webhook URLs above) into the webhook URL setting of the service dashboard, then activate the workflow. The Test URL only listens while you click "Listen for test event". Turn on Verify Secret so forged calls are refused.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				options: EVENT_OPTIONS,
				description:
					'Events that start the workflow. Other events are answered 200 and start nothing.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
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
						displayName: 'Confirm With API',
						name: 'confirmWithApi',
						type: 'boolean',
						default: true,
						description:
							'Whether to fetch the trade or withdrawal with the credential before emitting, and emit only if it exists with the status the event claims. The fetched record is added as "record".',
					},
					{
						displayName: 'Ignore Duplicates',
						name: 'ignoreDuplicates',
						type: 'boolean',
						default: true,
						description:
							'Whether to drop a delivery whose event, ID and status (plus confirmations for trade.pending) were already emitted. Deliveries are at least once.',
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
						displayName: 'Verify Secret',
						name: 'verifySecret',
						type: 'boolean',
						default: true,
						description:
							'Whether to require the x-webhook-secret header to equal the credential\'s Webhook Secret; other calls get 401',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			/**
			 * Nothing to look up remotely (the URL is pasted in the dashboard). Checks the
			 * configuration and reports whether this URL and event selection were already recorded.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await assertConfiguration.call(this);
				const staticData = this.getWorkflowStaticData('node');
				const recorded = staticData[REGISTRATION_STATIC_KEY] as IDataObject | undefined;
				return (
					recorded?.webhookUrl === this.getNodeWebhookUrl('default') &&
					JSON.stringify(recorded?.events) === JSON.stringify(readEvents.call(this))
				);
			},
			/** Checks the configuration and records the URL the service must call. */
			async create(this: IHookFunctions): Promise<boolean> {
				await assertConfiguration.call(this);
				const webhookUrl = this.getNodeWebhookUrl('default');
				if (!webhookUrl) {
					throw new NodeOperationError(this.getNode(), 'n8n did not provide a webhook URL for this node');
				}
				const staticData = this.getWorkflowStaticData('node');
				staticData[REGISTRATION_STATIC_KEY] = {
					webhookUrl,
					events: readEvents.call(this),
					recordedAt: new Date().toISOString(),
				};
				this.logger.info(
					`Crypto Settlement Trigger listens at ${webhookUrl}; the service only calls the URL set in its dashboard`,
				);
				return true;
			},
			/** Forgets the recorded URL (deduplication memory is kept for a later re-activation). */
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				if (staticData[REGISTRATION_STATIC_KEY] !== undefined) delete staticData[REGISTRATION_STATIC_KEY];
				this.logger.debug(
					'Crypto Settlement Trigger stopped listening; remove the URL from the service dashboard if it is no longer used',
				);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		try {
			return await handleDelivery.call(this);
		} catch (error) {
			this.logger.error(`Crypto Settlement Trigger could not handle a delivery: ${(error as Error).message}`);
			return answer.call(this, 500, 'The delivery could not be processed');
		}
	}
}

async function handleDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const options = readOptions.call(this);
	const req = this.getRequestObject();
	const headers = this.getHeaderData();
	const sourceIp = parseIp(req.ip ?? req.socket?.remoteAddress);
	const verification: IDataObject = {
		secretVerified: false,
		ipVerified: false,
		confirmedWithApi: false,
		sourceIp: sourceIp ? formatIp(sourceIp) : null,
	};

	// 1. Source address.
	if (isAllowListSet(options.allowedIps)) {
		const list = parseAllowList(options.allowedIps);
		if (list.invalid.length > 0) {
			this.logger.error('Crypto Settlement Trigger: Allowed IPs holds invalid entries; refusing every delivery');
			return answer.call(this, 403, 'Forbidden');
		}
		if (!isIpAllowed(sourceIp, list)) {
			this.logger.warn(`Crypto Settlement Trigger refused a delivery from ${String(verification.sourceIp)} (not in Allowed IPs)`);
			return answer.call(this, 403, 'Forbidden');
		}
		verification.ipVerified = true;
	}

	// 2. Shared secret.
	if (options.verifySecret) {
		const secret = await webhookSecret.call(this);
		if (secret === undefined) {
			this.logger.error(
				'Crypto Settlement Trigger: Verify Secret is on but no credential with a Webhook Secret is selected; refusing deliveries',
			);
			return answer.call(this, 500, 'The webhook secret is not configured');
		}
		if (!secretMatches(headers[SECRET_HEADER], secret)) {
			this.logger.warn('Crypto Settlement Trigger refused a delivery with a missing or wrong x-webhook-secret');
			return answer.call(this, 401, 'Unauthorized');
		}
		verification.secretVerified = true;
	}

	// 3. Body.
	const parsed = parseDelivery(req.rawBody, this.getBodyData());
	if (!parsed.ok) return answer.call(this, parsed.status, parsed.message);
	const { body, event } = parsed;

	// 4. Event selection.
	if (!isEventSelected(readEvents.call(this), event)) return ignore('event not selected');

	// 5. Duplicates. The key is recorded before any await so a concurrent copy is dropped too.
	const staticData = this.getWorkflowStaticData('node');
	const key = options.ignoreDuplicates ? deliveryKey(event, body, parsed.text) : undefined;
	if (key !== undefined) {
		if (wasEmitted(staticData, key)) return ignore('duplicate delivery');
		remember(staticData, key);
	}

	// 6. Confirmation with the API.
	let record: IDataObject | undefined;
	if (options.confirmWithApi) {
		const lookup = lookupFor(event, body.id);
		const result =
			typeof lookup === 'string'
				? ({ outcome: 'rejected', reason: lookup } as const)
				: hasCredential.call(this)
					? await confirmDelivery.call(this, lookup, body)
					: ({ outcome: 'unavailable', reason: 'no credential is selected' } as const);
		if (result.outcome !== 'confirmed') {
			if (key !== undefined) forget(staticData, key);
			if (result.outcome === 'unavailable') {
				this.logger.warn(`Crypto Settlement Trigger could not confirm ${JSON.stringify(event)}: ${result.reason}; answering 503 so the service retries`);
				return answer.call(this, 503, 'The delivery could not be confirmed yet; retry later');
			}
			this.logger.info(`Crypto Settlement Trigger dropped ${JSON.stringify(event)}: ${result.reason}`);
			return ignore('not confirmed by the API');
		}
		record = result.record;
		verification.confirmedWithApi = true;
	}

	const item: IDataObject = { ...body, event, verification };
	if (record) item.record = record;
	if (options.includeHeaders) item.headers = redactHeaders(headers);
	// Answer ourselves: on n8n 2.x an onReceived answer starts the execution before the node's
	// static data (the duplicate memory) is saved, and the save is then skipped.
	this.getResponseObject().status(200).json({ received: true });
	return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
}

/** The credential's webhook secret; undefined when no credential or an empty secret is set. */
async function webhookSecret(this: IWebhookFunctions): Promise<string | undefined> {
	if (!hasCredential.call(this)) return undefined;
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const secret = String(credentials.webhookSecret ?? '');
	return secret.trim() === '' ? undefined : secret;
}
