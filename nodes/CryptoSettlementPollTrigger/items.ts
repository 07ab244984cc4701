import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { nodeDirectory } from '../events/tokenAndWalletNames';
import { deliveryKey, eventIdentity, eventKey, normalizeEvent } from '../events/identity';
import { confirmedFields, describeItem } from '../events/item';
import { CREDENTIAL_TYPE, secretsOf } from '../service/credentials';
import { createAuthenticatedHttpCall, withAnswersRedacted } from '../service/transport';
import { isObject, scalarText, timeMs } from '../service/values';

/**
 * Items of the poll trigger: the webhook trigger's item for the same event (docs/trigger.md, "The
 * item"), plus `source`. Built with the webhook trigger's own mapping (`confirmedFields`) and
 * duplicate keys (`deliveryKey`), so both triggers agree on shape and on what "the same event" is.
 */

export type Source = 'webhookEvents' | 'records' | 'balances';
export type RecordKind = 'trade' | 'withdrawal';

export interface PolledEvent {
	/** The normalised event name, e.g. `trade.completed`. */
	event: string;
	/** What makes the event distinct (the webhook trigger's duplicate key). */
	key: string;
	/** When it happened, for ordering the emitted items (ms; NaN when unknown). */
	at: number;
	json: IDataObject;
}

/**
 * No delivery reached n8n, so there is no secret or source address to check: what vouches for the
 * item is that it was read from the service's API with the credential.
 */
function verification(confirmedWithApi: boolean): IDataObject {
	return { source: 'read from the API', confirmedWithApi };
}

function timeOf(value: unknown): number {
	return timeMs(value) ?? Number.NaN;
}

/**
 * A record of the transaction or withdrawal list as an event: exactly the webhook trigger's item
 * with Confirm With API (the record's fields at the top level, the webhook names of trade fields,
 * `record`), since the values come from the API; there was no delivery, so no `unconfirmedBody`.
 */
export function fromRecord(kind: RecordKind, record: IDataObject): PolledEvent | undefined {
	const status = scalarText(record.status).trim().toLowerCase();
	const id = scalarText(record.id).trim();
	if (status === '' || id === '') return undefined;
	// A trade's or withdrawal's status as an event: `trade.<status>` / `withdrawal.<status>`.
	const event = `${kind}.${status}`;
	return {
		event,
		key: deliveryKey(eventIdentity(event, { id, status })),
		at: timeOf(record.updatedAt ?? record.createdAt),
		json: {
			...confirmedFields(kind, record),
			id: record.id,
			event,
			eventKey: eventKey(event, { id }),
			verification: verification(true),
			record,
			source: 'records',
		},
	};
}

/**
 * A stored webhook delivery (`GET /transactions/webhooks`) as an event: exactly the webhook
 * trigger's item for that body without Confirm With API (the body as the service sent it, the
 * normalised `event`, `verification`). The body was read from the API with the credential, so it
 * is what the service sent, but it is not re-checked against the current record.
 */
export function fromStoredDelivery(stored: IDataObject): PolledEvent | undefined {
	const body: IDataObject = isObject(stored.payload) ? { ...stored.payload } : {};
	const name = scalarText(body.event).trim() || scalarText(stored.eventType).trim();
	if (name === '') return undefined;
	const event = normalizeEvent(name);
	// The record's id is also the stored delivery's `reference`: a body without one names it there.
	return {
		event,
		key: deliveryKey(eventIdentity(event, body, stored.reference)),
		at: timeOf(stored.createdAt),
		json: {
			...body,
			event,
			eventKey: eventKey(event, body, stored.reference),
			verification: verification(false),
			source: 'webhookEvents',
		},
	};
}

/** How long naming the items' tokens and wallet labels may take in one poll (docs/trigger.md, "Cost"). */
const DESCRIBE_MS = 2_000;
/** Deposit wallets whose label one poll may read (labels read once are kept; the rest say `null` until a later poll). */
const WALLET_READS_PER_POLL = 20;

/**
 * The emitted items as both triggers shape them (events/item.ts): token, wallet label, units, the
 * lead fields first. The lookups share the action node's request path with the poll's credential;
 * one that fails leaves its value `null` and never drops an event.
 */
export async function describeEvents(
	ctx: IPollFunctions,
	credentials: IDataObject,
	events: PolledEvent[],
): Promise<IDataObject[]> {
	if (events.length === 0) return [];
	const http = withAnswersRedacted(
		createAuthenticatedHttpCall(ctx, CREDENTIAL_TYPE),
		secretsOf(credentials),
	);
	const directory = nodeDirectory(ctx, credentials, http, DESCRIBE_MS, WALLET_READS_PER_POLL);
	const described: IDataObject[] = [];
	for (const event of events) described.push(await describeItem(event.json, directory));
	return described;
}
