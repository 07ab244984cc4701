import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { CryptoSettlementApi } from '../../credentials/CryptoSettlementApi.credentials';
import { exchange, httpCallOn, recordPath, withAnswersRedacted } from '../service/transport';
import { secretsOf } from '../service/credentials';
import type { ApiContext, ApiRequest, HttpCall, Outcome } from '../service/api';
import { ROUTES } from '../service/routes';
import { statusOf } from '../service/catalog';
import { scalarText } from '../service/values';
import { idsShown, showsRecordId } from '../service/ids';
import { confirmedFields } from './item';

const authentication = new CryptoSettlementApi();

/**
 * The API client's HTTP call, authenticated with the credential the delivery already holds (n8n's
 * `httpRequestWithAuthentication` would decrypt it again, in an isolate of its own, for every
 * delivery), its answers cleaned of the secrets as they come in (service/transport.ts, `withAnswersRedacted`).
 */
export function credentialHttpCall(
	ctx: IWebhookFunctions,
	credentials: ICredentialDataDecryptedObject,
): HttpCall {
	const send = async (options: IHttpRequestOptions) =>
		await ctx.helpers.httpRequest(await authentication.authenticate(credentials, options));
	return withAnswersRedacted(httpCallOn(send), secretsOf(credentials));
}

/** Ids are database ids (hex, UUID-like) or an `externalId`; anything else is never sent in a URL. */
export const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._:-]{0,127}$/;

interface Lookup {
	/** What is looked up, for messages. */
	kind: 'trade' | 'withdrawal' | 'wallet';
	/** The delivery's id, which the record read must carry (as `id` or `_id`) when it shows one. */
	id: string;
	/** Path relative to the credential's base URL. */
	path: string;
	/** Status the record must have (lowercase); undefined = existence is enough. */
	expectedStatus?: string;
}

/**
 * Which record confirms an event (docs/trigger.md, "Confirm With API"):
 * - `trade.address.created` → the wallet (`GET /trades/wallets/{id}`: the event's id is the
 *   wallet's), existence only, plus the same `address` when both sides carry one;
 * - `trade.<status>` → `GET /trades/transactions/{id}` with status `<status>`;
 * - `withdrawal.<status>` → `GET /payments/withdrawal/{id}` with status `<status>`.
 * `event` is the normalised (lowercase) event name. Returns a reason when it cannot be confirmed.
 */
export function lookupFor(event: string, id: unknown): Lookup | string {
	const idText = scalarText(id).trim();
	if (idText === '') return 'the delivery has no "id" field naming its record';
	if (!SAFE_ID.test(idText))
		return 'the delivery\'s "id" field is not a plain record id (empty, an object, or holding "/" or spaces)';
	// Each kind of record is read where the action node's Get reads it (also its rate-limit route).
	const path = (kind: Lookup['kind']) => recordPath(ROUTES[kind].path, idText);
	if (event === 'trade.address.created')
		return { kind: 'wallet', id: idText, path: path('wallet') };
	const match = /^(trade|withdrawal)\.([a-z_]+)$/.exec(event);
	if (!match)
		return `events of kind "${event}" cannot be confirmed with the API: no record lookup is known for it`;
	const kind = match[1] as 'trade' | 'withdrawal';
	return { kind, id: idText, path: path(kind), expectedStatus: match[2] };
}

type Confirmation =
	| { outcome: 'confirmed'; record: IDataObject }
	/** The record is ahead of or contradicts the event: dropped (the trigger: 200, no execution; Verify Delivery: no item). */
	| { outcome: 'rejected'; reason: string }
	/** Not confirmable yet (the trigger: 503, the service retries; Verify Delivery fails the item): docs/trigger.md, "Confirm With API". */
	| { outcome: 'retry'; reason: string };

const retry = (reason: string) => ({ outcome: 'retry', reason }) as const;
const rejected = (reason: string) => ({ outcome: 'rejected', reason }) as const;

/**
 * Compares the record's status with the event's by where each stands in its record's life (the
 * statuses table's ranks: lower than the event's is behind, higher is ahead): equal, behind (retry),
 * unplaced (retry: a status the life cycle does not know is no contradiction), or ahead /
 * contradicting (drop; docs/trigger.md, "Confirm With API").
 */
function compareStatus(
	kind: 'trade' | 'withdrawal',
	expected: string,
	actual: string,
): 'equal' | 'behind' | 'unplaced' | 'other' {
	if (actual === expected) return 'equal';
	const want = statusOf(kind, expected)?.rank;
	const have = statusOf(kind, actual)?.rank;
	if (want === undefined) return 'other';
	// No status yet, or an earlier one: the API has not caught up with the event.
	if (actual === '' || (have !== undefined && have < want)) return 'behind';
	if (have === undefined) return 'unplaced';
	return 'other';
}

/** HTTP codes that mean "no such record (yet)": the record may become visible a moment later. */
const MISSING_CODES = new Set([404, 410]);
/** HTTP codes that refuse the id itself: retried, never dropped, as a genuine id may be refused (docs/trigger.md). */
const INVALID_CODES = new Set([400, 422]);

/**
 * Fetches the record behind a delivery through `http` (authenticated with the delivery's credential)
 * and checks it against the event.
 */
export async function confirmDelivery(
	ctx: ApiContext,
	http: HttpCall,
	lookup: Lookup,
	body: IDataObject,
): Promise<Confirmation> {
	// The action node's pipeline (pacing shared with it, no redirects, the envelope read one way),
	// with one attempt and a short wait: the service is waiting for the trigger's answer, and Verify
	// Delivery's workflow tries again after its Wait node.
	const request: ApiRequest = {
		method: 'GET',
		route: ROUTES[lookup.kind].path,
		url: lookup.path,
		timeoutMs: 15_000,
	};
	let outcome: Outcome;
	try {
		outcome = await exchange(ctx, http, request, { maxRateLimitedAttempts: 1 });
	} catch (error) {
		return retry(`the API answered HTTP 429: ${(error as Error).message}`);
	}
	if (outcome.kind !== 'answered') return retryAfterFailure(outcome);
	return confirmationOfAnswer(lookup, outcome, body);
}

/** The API could not answer (a network failure, a redirect, a 5xx): the service is told to retry. */
function retryAfterFailure(outcome: Exclude<Outcome, { kind: 'answered' }>): Confirmation {
	if (outcome.kind === 'unsent') return retry(`the API request failed: ${outcome.reason}`);
	const { statusCode, redirectedTo } = outcome;
	if (redirectedTo !== undefined) {
		return retry(
			`the API answered HTTP ${statusCode} redirecting to ${redirectedTo} (redirects are not followed)`,
		);
	}
	// The reason quotes the service's message, cleaned of the secrets as it came in (credentialHttpCall).
	return retry(
		statusCode ? `the API answered ${outcome.reason}` : `the API request failed: ${outcome.reason}`,
	);
}

/** What the API's answer says: the record missing (yet), its id refused, another status, or the record to check. */
function confirmationOfAnswer(
	lookup: Lookup,
	{ response }: Extract<Outcome, { kind: 'answered' }>,
	body: IDataObject,
): Confirmation {
	const code = response.statusCode;
	if (MISSING_CODES.has(code)) {
		// A record of a known life cycle that is not visible yet will be; an unknown kind of event
		// (for example trade.deleted) may well be about a record that is gone for good.
		const known =
			lookup.kind === 'wallet' || statusOf(lookup.kind, lookup.expectedStatus ?? '') !== undefined;
		if (!known) return rejected(`the ${lookup.kind} was not found (HTTP ${code})`);
		return retry(`the ${lookup.kind} was not found (HTTP ${code}); it may not be visible yet`);
	}
	if (INVALID_CODES.has(code)) {
		return retry(
			`the API refused the ${lookup.kind} id (HTTP ${code}), so the delivery cannot be confirmed; it is not dropped`,
		);
	}
	if (!(code >= 200 && code < 300)) return retry(`the API answered HTTP ${code}`);
	const data = response.body.data;
	if (!data || typeof data !== 'object' || Array.isArray(data) || Object.keys(data).length === 0) {
		return retry(`the API returned no ${lookup.kind} record yet`);
	}
	return checkRecord(lookup, data as IDataObject, body);
}

/** The record against the delivery: its id, its status against the event's, a wallet's address against the delivery's. */
function checkRecord(lookup: Lookup, record: IDataObject, body: IDataObject): Confirmation {
	// An answer about another record confirms nothing of this one. A wallet may be asked for by its
	// address (the event's id is the address or the wallet: docs/trigger.md). Ids are compared by the
	// one record id rule (service/ids.ts).
	const also = lookup.kind === 'wallet' ? [record.address] : [];
	if (!showsRecordId(record, lookup.id, ...also)) {
		const shown = idsShown(record, ...also);
		return retry(`the API answered for the record ${shown[0]}, not ${lookup.id}`);
	}
	if (lookup.expectedStatus !== undefined && lookup.kind !== 'wallet') {
		const actual = scalarText(record.status).trim().toLowerCase();
		const comparison = compareStatus(lookup.kind, lookup.expectedStatus, actual);
		const { kind, expectedStatus: expected } = lookup;
		if (comparison === 'behind')
			return retry(`the ${kind} still has status "${actual || 'none'}", behind "${expected}"`);
		if (comparison === 'unplaced') {
			return retry(
				`the ${kind} has status "${actual}", which is not in its life cycle, so whether it is behind "${expected}" cannot be told`,
			);
		}
		if (comparison === 'other')
			return rejected(`the ${kind} has status "${actual || 'none'}", not "${expected}"`);
	}
	if (lookup.kind === 'wallet') {
		const claimed = scalarText(body.address);
		const actual = scalarText(record.address);
		if (claimed !== '' && actual !== '' && claimed !== actual)
			return rejected('the wallet address differs from the delivery');
	}
	return { outcome: 'confirmed', record };
}

/**
 * A delivery checked against its record: the item both triggers emit for it, or why there is none
 * (`unverifiable`: no record can be asked for; docs/trigger.md, "n8n's Webhook node and Verify Delivery").
 */
type CheckedDelivery =
	| { outcome: 'confirmed'; item: IDataObject }
	| Exclude<Confirmation, { outcome: 'confirmed' }>
	| { outcome: 'unverifiable'; reason: string };

/**
 * The delivery's record read through `http` (none: no credential, so not confirmable yet) and checked
 * against the event; when confirmed, the item: the record's fields, its `id`, the event, the
 * verification (marked confirmed), the record, and the body's own values under `unconfirmedBody`.
 */
export async function checkAgainstRecord(
	ctx: ApiContext,
	http: HttpCall | undefined,
	event: string,
	body: IDataObject,
	verification: IDataObject,
): Promise<CheckedDelivery> {
	const lookup = lookupFor(event, body.id);
	if (typeof lookup === 'string') return { outcome: 'unverifiable', reason: lookup };
	if (http === undefined) return retry('no credential is selected');
	const result = await confirmDelivery(ctx, http, lookup, body);
	if (result.outcome !== 'confirmed') return result;
	verification.confirmedWithApi = true;
	const item = {
		...confirmedFields(lookup.kind, result.record),
		id: result.record.id ?? body.id,
		event,
		verification,
		record: result.record,
		unconfirmedBody: body,
	};
	return { outcome: 'confirmed', item };
}
