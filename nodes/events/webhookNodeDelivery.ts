import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteSingleFunctions,
} from 'n8n-workflow';
import type { HttpCall } from '../service/api';
import { secretsOf } from '../service/credentials';
import { redact } from '../service/redact';
import { isObject } from '../service/values';
import { checkAgainstRecord } from './confirm';
import { deliveryDirectory } from './tokenAndWalletNames';
import { eventKey, normalizeEvent } from './identity';
import { describeItem } from './item';
import { parseDelivery } from './payload';
import { secretMatches, secretOf, SECRET_HEADER } from './verify';

/**
 * A delivery that n8n's Webhook node received and already answered, checked as the webhook trigger
 * checks its own; every failure fails the item and no memory is kept (docs/trigger.md, "n8n's Webhook
 * node and Verify Delivery").
 */

type Verified = { item: IDataObject } | { ignored: string };

/** An item's error in the node's own words (n8n replaces a message naming a socket code, ECONNRESET…, with its advice to retry at once). */
function itemError(ctx: IExecuteSingleFunctions, message: string, description: string) {
	const error = new NodeOperationError(ctx.getNode(), message, {
		itemIndex: ctx.getItemIndex(),
		description,
	});
	error.message = message;
	return error;
}

/** The secret header and the body of the Webhook node's item (`headers`, `body`), checked. */
function readDelivery(
	ctx: IExecuteSingleFunctions,
	credentials: ICredentialDataDecryptedObject,
): { event: string; body: IDataObject } {
	const input = ctx.getInputData().json;
	const secret = secretOf(credentials);
	if (secret === undefined)
		throw itemError(
			ctx,
			'The credential has no Webhook Secret',
			'Set the Webhook Secret in the Crypto Settlement API credential (copy the webhook verification secret key from the service dashboard): without it a delivery cannot be told from a forged one.',
		);
	const headers = isObject(input.headers) ? input.headers : {};
	if (!secretMatches(headers[SECRET_HEADER], secret))
		throw itemError(
			ctx,
			`The delivery's ${SECRET_HEADER} header is missing or wrong`,
			`A forged delivery, or the Webhook Secret changed on one side only. Connect this operation to n8n's Webhook node, whose item carries the delivery's headers and body; once the secrets match, send the refused deliveries again (Webhook Event → Resend).`,
		);
	const parsed = parseDelivery(undefined, input.body);
	if (!parsed.ok)
		throw itemError(
			ctx,
			`The delivery's body is refused: ${parsed.message}`,
			"The Webhook node's item must carry the delivery as `body`: a JSON object with an `event`.",
		);
	// The service wrote the body: it is cleaned of the secrets as it comes in (docs/guardrails.md, "Secrets: what is hidden where").
	return { event: normalizeEvent(parsed.event), body: redact(parsed.body, secretsOf(credentials)) };
}

/**
 * Checks the Webhook node's delivery in the trigger's order (secret, body, the API's record) and
 * returns the trigger's item, or why it gives none (a record ahead of or contradicting the event).
 * `http` reads with the node's credential. A record the API does not confirm yet fails the item;
 * so does a delivery no record can be asked for (no plain `id`, an event kind no lookup is known
 * for): the trigger drops it, but here the service already has its 200, and nothing would bring it
 * back (docs/trigger.md, "n8n's Webhook node and Verify Delivery").
 */
export async function verifyWebhookNodeDelivery(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	credentials: ICredentialDataDecryptedObject,
): Promise<Verified> {
	const { event, body } = readDelivery(ctx, credentials);
	const verification: IDataObject = {
		secret: 'verified',
		ip: 'not configured',
		confirmedWithApi: false,
		sourceIp: null,
	};
	const checked = await checkAgainstRecord(ctx, http, event, body, verification);
	if (checked.outcome === 'rejected')
		return { ignored: `not confirmed by the API: ${checked.reason}` };
	if (checked.outcome === 'unverifiable')
		throw itemError(
			ctx,
			`The delivery cannot be verified: ${checked.reason}`,
			"No record can be looked up for it, so it is not confirmed, and waiting will not change that. n8n's Webhook node has answered the service, so it will not send it again: the delivery is in this error item (its `body`). An event kind the service added later needs a version of this node that knows it; handle it from the error output meanwhile (docs/trigger.md).",
		);
	if (checked.outcome === 'retry')
		throw itemError(
			ctx,
			`The delivery could not be confirmed yet: ${checked.reason}`,
			"n8n's Webhook node has answered the service, so it will not send this delivery again: bring it back to this node after a wait (Settings → On Error → Continue (using error output), then a Wait node; docs/trigger.md).",
		);
	const item = checked.item;
	item.eventKey = eventKey(event, body);
	return { item: await describeItem(item, deliveryDirectory(ctx, credentials, http)) };
}
