import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { confirmDelivery, lookupFor, type Confirmation, type Lookup } from './confirm';
import { deliveryCredentials } from './credentialCache';
import { bringUpToDate, claim, duplicateState, markEmitted, release, settleHandOver, touch } from './dedupe';
import { isEventSelected } from '../events/events';
import { deliveryKey, normalizeEvent } from '../events/identity';
import { confirmedFields } from '../events/item';
import type { DeliveryLog } from './log';
import { parseDelivery, readUnreadBody } from './payload';
import { readEvents, readSettings, secretOf } from './settings';
import { formatIp, isAllowListSet, isIpAllowed, parseAllowList, parseIp, redactHeaders, secretMatches, SECRET_HEADER } from './verify';

/** Seconds suggested to the caller with a retryable answer. */
const RETRY_AFTER_SECONDS = '10';

/** Answers the request directly (no execution) with a status and a short JSON message. */
export function answer(this: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
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
 * Emitted: n8n 2.x starts the execution, takes this `webhookResponse` as the answer's body (the
 * description's empty `responseData` selects it), saves the static data, then answers 200.
 *
 * Starting the execution marks the call's static data unchanged (n8n's WorkflowRunner builds a
 * Workflow on the same static data object), so n8n would skip saving the duplicate memory written
 * during the call. n8n reads `webhookResponse` after the execution is handed over and before it
 * saves: `beforeSave` runs then and marks the memory changed again (docs/trigger.md, "Speed").
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

/**
 * One delivery, checked in order: source address, secret, body, event selection, duplicates,
 * confirmation with the API; then emitted, or answered without an execution.
 */
export async function handleDelivery(this: IWebhookFunctions, log: DeliveryLog): Promise<IWebhookResponseData> {
	const settings = readSettings.call(this);
	const req = this.getRequestObject();
	const headers = this.getHeaderData();
	const sourceIp = parseIp(req.ip ?? req.socket?.remoteAddress);
	// Each check says what it found, never a bare `false` for a check that was not configured.
	const verification: IDataObject = {
		secret: 'not configured',
		ip: 'not configured',
		confirmedWithApi: false,
		sourceIp: sourceIp ? formatIp(sourceIp) : null,
	};

	// 1. Source address.
	if (isAllowListSet(settings.allowedIps)) {
		const list = parseAllowList(settings.allowedIps);
		if (list.invalid.length > 0) {
			log.error('Crypto Settlement Trigger: Allowed IPs holds invalid entries; refusing every delivery');
			return answer.call(this, 403, 'Forbidden');
		}
		if (!isIpAllowed(sourceIp, list)) {
			log.warn(`Crypto Settlement Trigger refused a delivery from ${String(verification.sourceIp)} (not in Allowed IPs)`);
			return answer.call(this, 403, 'Forbidden');
		}
		verification.ip = 'in allowed list';
	}

	// 2. Shared secret: always checked when the credential has one (fails closed otherwise).
	const credentials = await deliveryCredentials.call(this);
	log.useCredential(credentials);
	const secret = secretOf(credentials);
	if (secret !== undefined) {
		if (!secretMatches(headers[SECRET_HEADER], secret)) {
			log.warn('Crypto Settlement Trigger refused a delivery with a missing or wrong x-webhook-secret');
			return answer.call(this, 401, 'Unauthorized');
		}
		verification.secret = 'verified';
	} else if (!settings.acceptUnsigned || settings.legacyVerifySecret === true) {
		log.error(
			'Crypto Settlement Trigger: no Webhook Secret is set in the credential and Accept Unsigned Deliveries is off; refusing deliveries',
		);
		return answer.call(this, 500, 'The webhook secret is not configured');
	}

	// 3. Body.
	const parsed = parseDelivery(req.rawBody ?? (await readUnreadBody(req)), this.getBodyData());
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
			log.info(`Crypto Settlement Trigger: a copy of ${JSON.stringify(event)} is still being processed; answering 503 so the service retries`);
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
						: await confirmDelivery.call(this, lookup, body, credentials);
			if (result.outcome === 'retry') {
				log.warn(
					`Crypto Settlement Trigger could not confirm ${JSON.stringify(event)}: ${result.reason}; answering 503 so the service retries`,
				);
				return answer.call(this, 503, 'The delivery could not be confirmed yet; retry later');
			}
			if (result.outcome === 'rejected') {
				log.info(`Crypto Settlement Trigger dropped ${JSON.stringify(event)}: ${result.reason}`);
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

		if (key !== undefined) {
			const trackSave = this.getMode() !== 'manual';
			const full = markEmitted(scope, staticData, key, Date.now(), trackSave);
			if (full !== undefined) log.warn(`Crypto Settlement Trigger: ${full}`);
			// n8n answers once the execution is handed over and the static data saved, or with an
			// error when it could not: that answer settles the key in this process's memory.
			const res = this.getResponseObject();
			if (trackSave) res.once('finish', () => settleHandOver(scope, key, res.statusCode >= 200 && res.statusCode < 300, Date.now()));
		}
		return emit(log.redact(item), () => {
			if (key === undefined) return;
			bringUpToDate(scope, staticData, Date.now());
			touch(staticData);
		});
	} finally {
		if (key !== undefined) {
			release(scope, key);
			bringUpToDate(scope, staticData, Date.now());
		}
	}
}
