import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, IWebhookFunctions } from 'n8n-workflow';
import { scalarText } from './payload';

export const CREDENTIAL_TYPE = 'cryptoSettlementApi';

/** Ids are database ids (hex, UUID-like) or an `externalId`; anything else is never sent in a URL. */
const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._:-]{0,127}$/;

export interface Lookup {
	/** What is looked up, for messages. */
	kind: 'trade' | 'withdrawal' | 'wallet';
	/** Path relative to the credential's base URL. */
	path: string;
	/** Status the record must have (lowercase); undefined = existence is enough. */
	expectedStatus?: string;
}

/**
 * Which record confirms an event:
 * - `trade.address.created` → the wallet (`GET /trades/wallets/{id}`, public notes 4.3: its id is
 *   the wallet's), existence only, plus the same `address` when both sides carry one;
 * - `trade.<status>` → `GET /trades/transactions/{id}` (public notes 2.8) with status `<status>`;
 * - `withdrawal.<status>` → `GET /payments/withdrawal/{id}` (public notes 5.7) with status `<status>`.
 * Returns a reason string when the event cannot be confirmed at all.
 */
export function lookupFor(event: string, id: unknown): Lookup | string {
	const idText = scalarText(id);
	if (idText === '') return 'the delivery has no id to confirm';
	if (!SAFE_ID.test(idText)) return 'the delivery id is not a valid record id';
	const encoded = encodeURIComponent(idText);
	if (event === 'trade.address.created') {
		return { kind: 'wallet', path: `/trades/wallets/${encoded}` };
	}
	const match = /^(trade|withdrawal)\.([a-z_]+)$/i.exec(event);
	if (!match) return `events of kind "${event}" cannot be confirmed with the API`;
	const kind = match[1].toLowerCase() as 'trade' | 'withdrawal';
	return {
		kind,
		path: kind === 'trade' ? `/trades/transactions/${encoded}` : `/payments/withdrawal/${encoded}`,
		expectedStatus: match[2].toLowerCase(),
	};
}

export type Confirmation =
	| { outcome: 'confirmed'; record: IDataObject }
	/** The record is missing or does not match: the delivery is dropped (200, no execution). */
	| { outcome: 'rejected'; reason: string }
	/** The API could not answer (network, 401/403, 429, 5xx): answered 503 so the service retries. */
	| { outcome: 'unavailable'; reason: string };

/** Statuses that mean "no such record" rather than "the API failed". */
const NOT_FOUND_CODES = new Set([400, 404, 410, 422]);

/** Fetches the record behind a delivery with the node's credential and checks it against the event. */
export async function confirmDelivery(
	this: IWebhookFunctions,
	lookup: Lookup,
	body: IDataObject,
): Promise<Confirmation> {
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: lookup.path,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: 15000,
	};
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		return { outcome: 'unavailable', reason: `the API request failed: ${(error as Error).message}` };
	}
	const code = Number(response.statusCode);
	if (NOT_FOUND_CODES.has(code)) {
		return { outcome: 'rejected', reason: `the ${lookup.kind} was not found (HTTP ${code})` };
	}
	if (!(code >= 200 && code < 300)) {
		return { outcome: 'unavailable', reason: `the API answered HTTP ${code}` };
	}
	const envelope = response.body as IDataObject | undefined;
	const data = envelope && typeof envelope === 'object' ? envelope.data : undefined;
	if (envelope?.success === false || !data || typeof data !== 'object' || Array.isArray(data)) {
		return { outcome: 'rejected', reason: `the API returned no ${lookup.kind} record` };
	}
	const record = data as IDataObject;
	if (lookup.expectedStatus !== undefined) {
		const actual = scalarText(record.status).toLowerCase();
		if (actual !== lookup.expectedStatus) {
			return {
				outcome: 'rejected',
				reason: `the ${lookup.kind} has status "${actual || 'none'}", not "${lookup.expectedStatus}"`,
			};
		}
	}
	if (lookup.kind === 'wallet') {
		const claimed = scalarText(body.address);
		const actual = scalarText(record.address);
		if (claimed !== '' && actual !== '' && claimed !== actual) {
			return { outcome: 'rejected', reason: 'the wallet address differs from the delivery' };
		}
	}
	return { outcome: 'confirmed', record };
}
