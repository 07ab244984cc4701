import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { confirmDelivery, confirmedFields, lookupFor, type Confirmation, type Lookup } from './confirm';
import { claim, deliveryKey, duplicateState, markEmitted, normalizeEvent, release } from './dedupe';
import { isEventSelected } from './events';
import { parseDelivery } from './payload';
import { readCredentials, readEvents, readSettings, secretOf } from './settings';
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
 * One delivery, checked in order: source address, secret, body, event selection, duplicates,
 * confirmation with the API; then emitted, or answered without an execution.
 */
export async function handleDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
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
