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
import {
	confirmDelivery,
	confirmedFields,
	CREDENTIAL_TYPE,
	lookupFor,
	type Confirmation,
	type Lookup,
} from './confirm';
import { claim, deliveryKey, duplicateState, markEmitted, normalizeEvent, release } from './dedupe';
import { EVENT_OPTIONS, isEventSelected } from './events';
import { parseDelivery } from './payload';
import {
	formatIp,
	hasLeadingZeroOctet,
	isAllowListSet,
	isIpAllowed,
	parseAllowList,
	parseIp,
	redactHeaders,
	secretMatches,
	SECRET_HEADER,
} from './verify';

interface TriggerOptions {
	acceptUnsignedDeliveries?: boolean;
	allowedIps?: string;
	confirmWithApi?: boolean;
	ignoreDuplicates?: boolean;
	includeHeaders?: boolean;
	verifySecret?: boolean;
}

/** What runs, resolved from the parameters (docs/trigger.md, "Settings"). */
interface Settings {
	/** Top-level parameter, unless the legacy `options.confirmWithApi` is present. */
	confirmWithApi: boolean;
	/** Top-level parameter, unless the legacy `options.ignoreDuplicates` is present. */
	ignoreDuplicates: boolean;
	/** Deliveries without a secret are accepted when the credential has none (explicit opt-in). */
	acceptUnsigned: boolean;
	/** The legacy `options.verifySecret`, when present. */
	legacyVerifySecret?: boolean;
	allowedIps?: string;
	includeHeaders: boolean;
}

/** Local record of the URL the service must call (there is no registration API). */
const REGISTRATION_STATIC_KEY = 'registration';

/** Seconds suggested to the caller with a retryable answer. */
const RETRY_AFTER_SECONDS = '10';

type Context = IHookFunctions | IWebhookFunctions;

function readOptions(this: Context): TriggerOptions {
	const value = this.getNodeParameter('options', {}) as unknown;
	return value && typeof value === 'object' ? (value as TriggerOptions) : {};
}

function readBoolean(this: Context, name: string, fallback: boolean): boolean {
	const value = this.getNodeParameter(name, fallback) as unknown;
	return typeof value === 'boolean' ? value : fallback;
}

/**
 * The checks that run. Confirm With API and Ignore Duplicates are top-level parameters (on by
 * default, shown as such in the editor); the contract's `options.confirmWithApi` /
 * `options.ignoreDuplicates`, when a workflow sets them, override them. The secret is not a switch:
 * it is checked whenever the credential has one.
 */
function readSettings(this: Context): Settings {
	const options = readOptions.call(this);
	return {
		confirmWithApi:
			typeof options.confirmWithApi === 'boolean' ? options.confirmWithApi : readBoolean.call(this, 'confirmWithApi', true),
		ignoreDuplicates:
			typeof options.ignoreDuplicates === 'boolean'
				? options.ignoreDuplicates
				: readBoolean.call(this, 'ignoreDuplicates', true),
		acceptUnsigned: options.acceptUnsignedDeliveries === true,
		legacyVerifySecret: typeof options.verifySecret === 'boolean' ? options.verifySecret : undefined,
		allowedIps: options.allowedIps,
		includeHeaders: options.includeHeaders === true,
	};
}

function readEvents(this: Context): string[] {
	const value = this.getNodeParameter('events', []) as unknown;
	return Array.isArray(value) ? value.map(String) : [];
}

function hasCredential(this: Context): boolean {
	return Boolean(this.getNode().credentials?.[CREDENTIAL_TYPE]);
}

async function readCredentials(this: Context): Promise<ICredentialDataDecryptedObject | undefined> {
	if (!hasCredential.call(this)) return undefined;
	return await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
}

/** The credential's webhook secret; undefined when no credential or an empty secret is set. */
function secretOf(credentials: ICredentialDataDecryptedObject | undefined): string | undefined {
	const secret = String(credentials?.webhookSecret ?? '');
	return secret.trim() === '' ? undefined : secret;
}

const SET_SECRET =
	'set the Webhook Secret in the Crypto Settlement API credential (copy the webhook verification secret key from the service dashboard)';

/**
 * Configuration problems that would make the trigger accept or drop deliveries wrongly. Checked
 * when the workflow is published/activated and when the editor starts listening for a test event,
 * so they surface as a clear error there instead of as silently accepted deliveries.
 */
async function configurationProblem(this: Context): Promise<string | undefined> {
	if (readEvents.call(this).length === 0) {
		return 'Select at least one event (or "All Events") in Events';
	}
	const settings = readSettings.call(this);
	if (isAllowListSet(settings.allowedIps)) {
		const list = parseAllowList(settings.allowedIps);
		const ambiguous = list.invalid.filter(hasLeadingZeroOctet);
		if (ambiguous.length > 0) {
			return `Allowed IPs: "${ambiguous.join('", "')}" has a leading zero, which some tools read as octal: write the address without leading zeros (for example 10.0.0.1)`;
		}
		if (list.invalid.length > 0) {
			return `Allowed IPs: "${list.invalid.join('", "')}" is not an IP address or CIDR range (for example 46.101.201.155 or 10.0.0.0/8)`;
		}
	}
	const credentials = await readCredentials.call(this);
	const secret = secretOf(credentials);
	if (secret !== undefined && settings.legacyVerifySecret === false) {
		return 'Options → Verify Secret (Legacy) is off, but the credential has a Webhook Secret, which is always checked: remove Verify Secret from Options';
	}
	if (secret === undefined && (!settings.acceptUnsigned || settings.legacyVerifySecret === true)) {
		const how = credentials === undefined ? `Select a Crypto Settlement API credential and ${SET_SECRET}` : `To accept deliveries, ${SET_SECRET}`;
		return settings.legacyVerifySecret === true
			? `${how}: Options → Verify Secret (Legacy) is on`
			: `${how}. Without it anyone who learns this URL could post fake deposits. To accept deliveries without a secret anyway, add Options → Accept Unsigned Deliveries (Unsafe)`;
	}
	if (settings.confirmWithApi) {
		if (credentials === undefined) {
			return 'Confirm With API needs a Crypto Settlement API credential: select one on this node or turn Confirm With API off';
		}
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
	if (status === 503) res.setHeader('Retry-After', RETRY_AFTER_SECONDS);
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
				// Not marked required so the node can be placed first; activation fails with a clear
				// message when the credential (or its webhook secret) is missing and something needs it.
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
					'Paste this node\'s Production URL (under Webhook URLs above) as the webhook URL on the service dashboard (the service has no API to register it), then publish the workflow (n8n 1.x: activate it). The Test URL only listens while the editor waits for a test event ("Execute step"; older n8n: "Listen for test event"). Deliveries must carry the Webhook Secret set in the credential.',
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
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
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
	const settings = readSettings.call(this);
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
	if (isAllowListSet(settings.allowedIps)) {
		const list = parseAllowList(settings.allowedIps);
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

	// 2. Shared secret: always checked when the credential has one (fails closed otherwise).
	const credentials = await readCredentials.call(this);
	const secret = secretOf(credentials);
	if (secret !== undefined) {
		if (!secretMatches(headers[SECRET_HEADER], secret)) {
			this.logger.warn('Crypto Settlement Trigger refused a delivery with a missing or wrong x-webhook-secret');
			return answer.call(this, 401, 'Unauthorized');
		}
		verification.secretVerified = true;
	} else if (!settings.acceptUnsigned || settings.legacyVerifySecret === true) {
		this.logger.error(
			'Crypto Settlement Trigger: no Webhook Secret is set in the credential and Accept Unsigned Deliveries is off; refusing deliveries',
		);
		return answer.call(this, 500, 'The webhook secret is not configured');
	}

	// 3. Body.
	const parsed = parseDelivery(req.rawBody, this.getBodyData());
	if (!parsed.ok) return answer.call(this, parsed.status, parsed.message);
	const { body } = parsed;
	const event = normalizeEvent(parsed.event);

	// 4. Event selection.
	if (!isEventSelected(readEvents.call(this), event)) return ignore('event not selected');

	// 5. Duplicates. A key is remembered only once its execution is handed to n8n; a copy that
	// arrives while the first is still being processed gets a retryable 503, never a 2xx.
	const staticData = this.getWorkflowStaticData('node');
	const key = settings.ignoreDuplicates ? deliveryKey(event, body, parsed.text) : undefined;
	const scope = `${String(this.getWorkflow().id)}:${this.getNode().id ?? this.getNode().name}:${this.getMode()}`;
	if (key !== undefined) {
		const state = duplicateState(scope, staticData, key, Date.now());
		if (state === 'emitted') return ignore('duplicate delivery');
		if (state === 'inFlight') {
			this.logger.info(`Crypto Settlement Trigger: a copy of ${JSON.stringify(event)} is still being processed; answering 503 so the service retries`);
			return answer.call(this, 503, 'A copy of this delivery is being processed; retry later');
		}
		claim(scope, key);
	}
	try {
		// 6. Confirmation with the API.
		let item: IDataObject = { ...body, event, verification };
		if (settings.confirmWithApi) {
			const lookup = lookupFor(event, body.id);
			const result: Confirmation =
				typeof lookup === 'string'
					? { outcome: 'rejected', reason: lookup }
					: credentials === undefined
						? { outcome: 'retry', reason: 'no credential is selected' }
						: await confirmDelivery.call(this, lookup, body);
			if (result.outcome === 'retry') {
				this.logger.warn(
					`Crypto Settlement Trigger could not confirm ${JSON.stringify(event)}: ${result.reason}; answering 503 so the service retries`,
				);
				return answer.call(this, 503, 'The delivery could not be confirmed yet; retry later');
			}
			if (result.outcome === 'rejected') {
				this.logger.info(`Crypto Settlement Trigger dropped ${JSON.stringify(event)}: ${result.reason}`);
				return ignore('not confirmed by the API');
			}
			verification.confirmedWithApi = true;
			const kind = (lookup as Lookup).kind;
			// Every field the record has wins; the body's own values only under unconfirmedBody.
			item = {
				...confirmedFields(kind, result.record),
				id: result.record.id ?? body.id,
				event,
				verification,
				record: result.record,
				unconfirmedBody: body,
			};
		}
		if (settings.includeHeaders) item.headers = redactHeaders(headers);

		if (key !== undefined) markEmitted(scope, staticData, key, Date.now(), this.getMode() !== 'manual');
		// Answer ourselves: on n8n 2.x an onReceived answer starts the execution before the node's
		// static data (the duplicate memory) is saved, and the save is then skipped.
		this.getResponseObject().status(200).json({ received: true });
		return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
	} finally {
		if (key !== undefined) release(scope, key);
	}
}
