import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { checkAgainstRecord, credentialHttpCall } from '../events/confirm';
import type { HttpCall } from '../service/api';
import { deliveryCredentials } from './credentialCache';
import {
	bringUpToDate,
	claim,
	duplicateState,
	markEmitted,
	release,
	settleHandOver,
	touch,
} from './dedupe';
import { isEventSelected } from '../events/events';
import { deliveryKey, eventIdentity, eventKey, normalizeEvent } from '../events/identity';
import { describeItem } from '../events/item';
import { deliveryDirectory } from '../events/tokenAndWalletNames';
import type { DeliveryLog } from './log';
import { parseDelivery, readUnreadBody } from '../events/payload';
import { readEvents, readSettings } from './settings';
import {
	formatIp,
	isAllowListSet,
	isIpAllowed,
	parseAllowList,
	parseIp,
	redactHeaders,
	secretMatches,
	secretOf,
	SECRET_HEADER,
} from '../events/verify';

/** Seconds suggested to the caller with a retryable answer. */
const RETRY_AFTER_SECONDS = '10';

/** Answers the request directly (no execution) with a status and a short JSON message. */
export function answer(
	this: IWebhookFunctions,
	status: number,
	message: string,
): IWebhookResponseData {
	const res = this.getResponseObject();
	if (status === 503) res.setHeader('Retry-After', RETRY_AFTER_SECONDS);
	res.status(status).json({ message });
	return { noWebhookResponse: true };
}

/** Accepted but not emitted: n8n answers 200 with this body and starts no execution. */
function ignore(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored: reason } };
}

/**
 * Emitted: n8n 2.x starts the execution, takes this `webhookResponse` as the answer's body, saves the static
 * data, then answers 200. Starting the execution marks the static data unchanged, so reading `webhookResponse`
 * (after the hand-over, before the save) runs `beforeSave`, which marks the memory changed again
 * (docs/trigger.md, "Duplicates and ordering").
 */
function emit(item: IDataObject, beforeSave: () => void): IWebhookResponseData {
	const result: IWebhookResponseData = { workflowData: [[{ json: item }]] };
	Object.defineProperty(result, 'webhookResponse', {
		enumerable: true,
		get: () => {
			beforeSave();
			return { received: true };
		},
	});
	return result;
}

type Settings = ReturnType<typeof readSettings>;
type Credentials = ICredentialDataDecryptedObject | undefined;

/** A delivery's key in the duplicate memory, claimed while it is processed (docs/trigger.md, "Duplicates"). */
interface Claim {
	scope: string;
	key: string;
	staticData: IDataObject;
}

/** 1. Source address: Allowed IPs, when set. Refuses with 403, or returns nothing. */
function checkSource(
	this: IWebhookFunctions,
	settings: Settings,
	sourceIp: ReturnType<typeof parseIp>,
	verification: IDataObject,
	log: DeliveryLog,
): IWebhookResponseData | undefined {
	if (!isAllowListSet(settings.allowedIps)) return undefined;
	const list = parseAllowList(settings.allowedIps);
	if (list.invalid.length > 0) {
		log.error(
			'Crypto Settlement Trigger: Allowed IPs holds invalid entries; refusing every delivery',
		);
		return answer.call(this, 403, 'Forbidden');
	}
	if (!isIpAllowed(sourceIp, list)) {
		log.warn(
			`Crypto Settlement Trigger refused a delivery from ${String(verification.sourceIp)} (not in Allowed IPs)`,
		);
		return answer.call(this, 403, 'Forbidden');
	}
	verification.ip = 'in allowed list';
	return undefined;
}

/** 2. Shared secret: always checked when the credential has one (fails closed otherwise). */
function checkSecret(
	this: IWebhookFunctions,
	settings: Settings,
	credentials: Credentials,
	verification: IDataObject,
	log: DeliveryLog,
): IWebhookResponseData | undefined {
	const secret = secretOf(credentials);
	if (secret !== undefined) {
		if (!secretMatches(this.getHeaderData()[SECRET_HEADER], secret)) {
			log.warn(
				'Crypto Settlement Trigger refused a delivery with a missing or wrong x-webhook-secret',
			);
			return answer.call(this, 401, 'Unauthorized');
		}
		verification.secret = 'verified';
	} else if (!settings.acceptUnsigned || settings.legacyVerifySecret === true) {
		log.error(
			'Crypto Settlement Trigger: no Webhook Secret is set in the credential and Accept Unsigned Deliveries is off; refusing deliveries',
		);
		return answer.call(this, 500, 'The webhook secret is not configured');
	}
	return undefined;
}

/**
 * 5. Duplicates. A key is remembered only once its execution is handed to n8n; a copy that
 * arrives while the first is still being processed gets a retryable 503, never a 2xx. Returns the
 * answer for a duplicate, or the claim (none with Ignore Duplicates off).
 */
function claimDelivery(
	this: IWebhookFunctions,
	settings: Settings,
	parsed: { event: string; body: IDataObject; text?: string },
	log: DeliveryLog,
): { refused: IWebhookResponseData } | { claim?: Claim } {
	if (!settings.ignoreDuplicates) return {};
	const staticData = this.getWorkflowStaticData('node');
	const key = deliveryKey(eventIdentity(parsed.event, parsed.body), parsed.text);
	const scope = `${String(this.getWorkflow().id)}:${this.getNode().id ?? this.getNode().name}:${this.getMode()}`;
	const state = duplicateState(scope, staticData, key, Date.now());
	if (state === 'emitted') return { refused: ignore('duplicate delivery') };
	if (state === 'inFlight') {
		log.info(
			`Crypto Settlement Trigger: a copy of ${JSON.stringify(parsed.event)} is still being processed; answering 503 so the service retries`,
		);
		return {
			refused: answer.call(this, 503, 'A copy of this delivery is being processed; retry later'),
		};
	}
	claim(scope, key);
	return { claim: { scope, key, staticData } };
}

/**
 * 6. Confirmation with the API (Confirm With API): the item whose top level is the record, every
 * field the record has winning and the body's own values only under `unconfirmedBody`; or the
 * answer when it cannot be confirmed yet (503, retry) or is not (200, dropped): a record ahead of
 * or contradicting the event, or a delivery no record can be asked for (no plain `id`, an event kind
 * no lookup is known for), which a retry would bring back unchanged (docs/trigger.md, "Confirm With API").
 */
async function confirmedItem(
	this: IWebhookFunctions,
	event: string,
	body: IDataObject,
	verification: IDataObject,
	http: HttpCall | undefined,
	log: DeliveryLog,
): Promise<{ item: IDataObject } | { refused: IWebhookResponseData }> {
	const result = await checkAgainstRecord(this, http, event, body, verification);
	if (result.outcome === 'retry') {
		log.warn(
			`Crypto Settlement Trigger could not confirm ${JSON.stringify(event)}: ${result.reason}; answering 503 so the service retries`,
		);
		return {
			refused: answer.call(this, 503, 'The delivery could not be confirmed yet; retry later'),
		};
	}
	if (result.outcome === 'rejected' || result.outcome === 'unverifiable') {
		log.info(`Crypto Settlement Trigger dropped ${JSON.stringify(event)}: ${result.reason}`);
		return { refused: ignore('not confirmed by the API') };
	}
	return { item: result.item };
}

/**
 * 8. Hands the item to n8n. With a claim, the key is marked emitted; n8n answers once the execution
 * is handed over and the static data saved, or with an error when it could not: that answer
 * settles the key in this process's memory.
 */
function emitClaimed(
	this: IWebhookFunctions,
	item: IDataObject,
	held: Claim | undefined,
	log: DeliveryLog,
): IWebhookResponseData {
	if (held !== undefined) {
		const { scope, key, staticData } = held;
		const trackSave = this.getMode() !== 'manual';
		const full = markEmitted(scope, staticData, key, Date.now(), trackSave);
		if (full !== undefined) log.warn(`Crypto Settlement Trigger: ${full}`);
		const res = this.getResponseObject();
		if (trackSave)
			res.once('finish', () =>
				settleHandOver(scope, key, res.statusCode >= 200 && res.statusCode < 300, Date.now()),
			);
	}
	return emit(item, () => {
		if (held === undefined) return;
		bringUpToDate(held.scope, held.staticData, Date.now());
		touch(held.staticData);
	});
}

/**
 * One delivery, checked in order: source address, secret, body, event selection, duplicates,
 * confirmation with the API; then described and emitted, or answered without an execution.
 */
export async function handleDelivery(
	this: IWebhookFunctions,
	log: DeliveryLog,
): Promise<IWebhookResponseData> {
	const settings = readSettings.call(this);
	const req = this.getRequestObject();
	const sourceIp = parseIp(req.ip ?? req.socket?.remoteAddress);
	// Each check says what it found, never a bare `false` for a check that was not configured.
	const verification: IDataObject = {
		secret: 'not configured',
		ip: 'not configured',
		confirmedWithApi: false,
		sourceIp: sourceIp ? formatIp(sourceIp) : null,
	};
	const wrongSource = checkSource.call(this, settings, sourceIp, verification, log);
	if (wrongSource) return wrongSource;
	const credentials = await deliveryCredentials.call(this);
	log.useCredential(credentials);
	const unsigned = checkSecret.call(this, settings, credentials, verification, log);
	if (unsigned) return unsigned;

	// 3. Body; 4. event selection.
	const parsed = parseDelivery(req.rawBody ?? (await readUnreadBody(req)), this.getBodyData());
	if (!parsed.ok) return answer.call(this, parsed.status, parsed.message);
	// The service wrote the body: cleaned of the secrets as it comes in (the key of a copy is the raw text's).
	const { text } = parsed;
	const body = log.redact(parsed.body);
	const event = normalizeEvent(parsed.event);
	if (!isEventSelected(readEvents.call(this), event)) return ignore('event not selected');

	const claimed = claimDelivery.call(this, settings, { event, body, text }, log);
	if ('refused' in claimed) return claimed.refused;
	try {
		// One client for the delivery's lookups: the record's and the directory's.
		const http = credentials === undefined ? undefined : credentialHttpCall(this, credentials);
		const built = settings.confirmWithApi
			? await confirmedItem.call(this, event, body, verification, http, log)
			: { item: { ...body, event, verification } };
		if ('refused' in built) return built.refused;
		// 7. The item as both triggers shape it: `eventKey` (of the delivery's body, confirmed or not:
		// the same key on every path, docs/trigger.md), the headers with Include Headers, then token,
		// wallet label and units (events/item.ts), looked up with the delivery's credential; a lookup
		// never drops the event.
		const item = built.item;
		item.eventKey = eventKey(event, body);
		if (settings.includeHeaders) item.headers = log.redact(redactHeaders(this.getHeaderData()));
		const described = await describeItem(item, deliveryDirectory(this, credentials, http));
		return emitClaimed.call(this, described, claimed.claim, log);
	} finally {
		if (claimed.claim !== undefined) {
			release(claimed.claim.scope, claimed.claim.key);
			bringUpToDate(claimed.claim.scope, claimed.claim.staticData, Date.now());
		}
	}
}
