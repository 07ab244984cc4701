import { NodeApiError, NodeOperationError, sleep, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';
import {
	backoffMs,
	callApi,
	credentialKey,
	exchange,
	recordPath,
	RETRY,
	serviceError,
	type ApiRequest,
	type ApiResponse,
	type HttpCall,
	type Outcome,
} from './transport';
import type { IdempotencyKey } from './types';

/**
 * A withdrawal is sent at most once per External ID (docs/architecture.md, "Never paid twice"):
 * - the External ID is looked up before it is sent: a record found there is this payment when it
 *   matches the request, and a refusal when it does not (a reused ID);
 * - in one n8n process, submissions with the same External ID and credential take turns;
 * - only a JSON envelope with `success: true` and `data.id` counts as created; any other answer
 *   after a send is ambiguous, and is resolved by the lookup, never by sending again blindly.
 */

type Ambiguous = Extract<Outcome, { kind: 'ambiguous' }>;

/** A withdrawal's key, what a record found under it must match, and where records are read (withdrawal → get's path). */
type Submission = IdempotencyKey & { expected: IDataObject; fullRecord?: boolean; lookupPath: string };

/** The read of one withdrawal by its id or External ID. */
function lookupRequest(lookupPath: string, id: string): ApiRequest {
	return { method: 'GET', route: lookupPath, url: recordPath(lookupPath, id) };
}

/** The withdrawal stored under this External ID, or undefined when the service has none. */
async function findWithdrawal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	externalId: string,
	lookupPath: string,
): Promise<IDataObject | undefined> {
	const request = lookupRequest(lookupPath, externalId);
	const response = await callApi(ctx, http, request, 'safe');
	// Not found; 400 and 422 say the service cannot look this value up, which is not found either.
	if ([400, 404, 422].includes(response.statusCode)) return undefined;
	if (response.statusCode >= 300 || !response.json || response.body.success === false) {
		throw serviceError(ctx, request, response);
	}
	const record = response.body.data;
	// Only a record that carries an id and exactly this External ID is this withdrawal.
	if (!record || typeof record !== 'object' || Array.isArray(record)) return undefined;
	const found = record as IDataObject;
	const id = found.id ?? found._id;
	if (typeof id !== 'string' || id === '' || found.externalId !== externalId) return undefined;
	return found;
}

const sameText = (a: unknown, b: unknown) => String(a).trim().toLowerCase() === String(b).trim().toLowerCase();

/** The fields of the request that differ from the record found under its External ID. */
export function differences(record: IDataObject, expected: IDataObject): string[] {
	const differing: string[] = [];
	for (const [field, wanted] of Object.entries(expected)) {
		const actual = record[field];
		if (wanted === undefined || actual === undefined || actual === null) continue;
		const same =
			typeof wanted === 'number' ? Number(actual) === wanted : field === 'walletAddress' ? String(actual) === wanted : sameText(actual, wanted);
		if (!same) differing.push(field);
	}
	return differing;
}

/** Same External ID and credential in one process: one at a time, so the second sees the first. */
const turns = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
	const previous = turns.get(key);
	const current = (async () => {
		if (previous) await previous.catch(() => undefined);
		return await work();
	})();
	turns.set(key, current);
	try {
		return await current;
	} finally {
		if (turns.get(key) === current) turns.delete(key);
	}
}

/** Sends a withdrawal at most once per External ID, whatever fails in between. */
export async function submitWithdrawal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	request: ApiRequest,
	idempotency: IdempotencyKey & { expected: IDataObject; fullRecord?: boolean },
	lookupPath: string,
): Promise<IDataObject> {
	const key: Submission = { ...idempotency, lookupPath };
	if (key.derived && ctx.getMode() === 'retry') throw derivedOnRetryError(ctx);
	return await oneAtATime(`${credentialKey(ctx)} ${key.externalId}`, async () => {
		const existing = await lookUp(ctx, http, key, undefined);
		if (existing) return existing;
		let lastAmbiguous: Ambiguous | undefined;
		for (let attempt = 1; attempt <= RETRY.maxAmbiguousAttempts; attempt++) {
			if (lastAmbiguous) {
				const found = await lookUp(ctx, http, key, lastAmbiguous);
				if (found) return found;
				// Answered after a send but not created, and not found: the service may still be
				// recording it, so it is not sent again.
				if (lastAmbiguous.statusCode !== undefined && lastAmbiguous.statusCode < 500) break;
			}
			const outcome = await exchange(ctx, http, request);
			if (outcome.kind === 'ambiguous') {
				lastAmbiguous = outcome;
				if (outcome.redirectedTo !== undefined) {
					const found = await lookUp(ctx, http, key, outcome);
					if (found) return found;
					break;
				}
				if (outcome.statusCode === undefined || outcome.statusCode >= 500) await sleep(backoffMs(attempt));
				continue;
			}
			const { response } = outcome;
			const created = createdId(response);
			if (created !== undefined) {
				const data = response.body.data as IDataObject;
				const full = key.fullRecord === false ? { record: {} } : await fullRecord(ctx, http, created, key.lookupPath);
				return {
					...data,
					...full.record,
					id: created,
					externalId: key.externalId,
					alreadySubmitted: false,
					message: response.body.message ?? '',
					...(full.unavailable ? { fullRecordUnavailable: full.unavailable } : {}),
				};
			}
			if (response.statusCode >= 200 && response.statusCode < 300) {
				lastAmbiguous = {
					kind: 'ambiguous',
					reason: `HTTP ${response.statusCode} without a withdrawal id (success: ${JSON.stringify(response.body.success ?? null)})`,
					statusCode: response.statusCode,
				};
				continue;
			}
			if (response.statusCode === 400 || response.statusCode === 409) {
				// Refused; if that is because this External ID exists, the lookup says whose it is.
				const refusal = serviceError(ctx, request, response);
				const found = await lookUpAfterRefusal(ctx, http, key, refusal);
				if (found) return found;
				throw refusal;
			}
			throw serviceError(ctx, request, response);
		}
		if (lastAmbiguous?.statusCode === undefined || lastAmbiguous.statusCode >= 500) {
			const found = await lookUp(ctx, http, key, lastAmbiguous);
			if (found) return found;
		}
		throw unresolvedError(ctx, key.externalId, lastAmbiguous?.reason ?? 'no answer', lastAmbiguous?.statusCode);
	});
}

/**
 * The withdrawal just created, as the service stores it (status, amounts, fee, destination), read
 * by its id on the lookup route, which is not rate-limited. The withdrawal exists whatever happens
 * here, so a failed read never fails the item: the creation answer is output with the reason.
 */
async function fullRecord(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	id: string,
	lookupPath: string,
): Promise<{ record: IDataObject; unavailable?: string }> {
	const request = lookupRequest(lookupPath, id);
	try {
		const response = await callApi(ctx, http, request, 'safe');
		const data = response.body.data as IDataObject | undefined;
		const found = data && typeof data === 'object' && !Array.isArray(data) ? data : undefined;
		if (response.statusCode < 300 && response.json && response.body.success !== false && found && String(found.id ?? found._id) === id) {
			return { record: found };
		}
		return { record: {}, unavailable: `the withdrawal was created, but reading it back by id answered HTTP ${response.statusCode}${response.body.message ? `: ${response.body.message}` : ''}` };
	} catch (error) {
		return { record: {}, unavailable: `the withdrawal was created, but reading it back by id failed: ${(error as Error).message}` };
	}
}

/** The id of a created withdrawal: a JSON envelope with `success: true` and a non-empty `data.id`. */
function createdId(response: ApiResponse): string | undefined {
	if (response.statusCode < 200 || response.statusCode >= 300 || !response.json) return undefined;
	if (response.body.success !== true) return undefined;
	const data = response.body.data as IDataObject | undefined;
	const id = data && typeof data === 'object' ? data.id : undefined;
	return typeof id === 'string' && id.trim() !== '' ? id : typeof id === 'number' ? String(id) : undefined;
}

/** Looks the External ID up; a match is this payment, a record of another payment is a reused ID. */
async function lookUp(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	key: Submission,
	cause: Ambiguous | undefined,
): Promise<IDataObject | undefined> {
	let record: IDataObject | undefined;
	try {
		record = await findWithdrawal(ctx, http, key.externalId, key.lookupPath);
	} catch (error) {
		// Without a lookup we cannot tell whether it exists, so it must not be sent (again).
		if (cause) throw unresolvedError(ctx, key.externalId, cause.reason, cause.statusCode);
		throw lookupFailedError(ctx, key.externalId, error);
	}
	return record && matchOrRefuse(ctx, record, key);
}

async function lookUpAfterRefusal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	key: Submission,
	refusal: NodeApiError,
): Promise<IDataObject | undefined> {
	let record: IDataObject | undefined;
	try {
		record = await findWithdrawal(ctx, http, key.externalId, key.lookupPath);
	} catch (error) {
		// Keep the refusal, which is what the user must act on, and say the check failed too.
		refusal.description = `${refusal.description ?? ''} Checking whether External ID ${key.externalId} already exists also failed: ${(error as Error).message}`.trim();
		throw refusal;
	}
	return record && matchOrRefuse(ctx, record, key);
}

function matchOrRefuse(ctx: IExecuteSingleFunctions, record: IDataObject, key: IdempotencyKey & { expected: IDataObject }): IDataObject {
	const differing = differences(record, key.expected);
	if (differing.length) {
		const detail = differing.map((field) => `${field}: ${JSON.stringify(record[field])} there, ${JSON.stringify(key.expected[field])} here`).join('; ');
		throw new NodeOperationError(
			ctx.getNode(),
			`External ID ${key.externalId} was already used for a different withdrawal (${detail})`,
			{
				itemIndex: ctx.getItemIndex(),
				description: `A withdrawal with this External ID exists (id ${String(record.id ?? record._id)}) and does not match this item, so nothing was sent. Give each payment its own External ID, such as its order or payout ID.`,
			},
		);
	}
	return { ...record, id: record.id ?? record._id, externalId: key.externalId, alreadySubmitted: true };
}

function derivedOnRetryError(ctx: IExecuteSingleFunctions): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		"A retried execution cannot recognise withdrawals by a derived External ID: map 'External ID' to your own payment ID",
		{
			itemIndex: ctx.getItemIndex(),
			description:
				"n8n's Retry execution runs under a new execution ID, so an External ID derived from it would differ from the failed run's, and a withdrawal that run already sent could be paid again. Nothing was sent. Map 'External ID' to a stable value (an order or payout ID) and retry, or check the failed run's error, which lists the items already submitted.",
		},
	);
}

function lookupFailedError(ctx: IExecuteSingleFunctions, externalId: string, error: unknown): NodeApiError {
	const reason = (error as Error)?.message ?? 'no answer';
	const httpCode = (error as { httpCode?: string })?.httpCode;
	return new NodeApiError(
		ctx.getNode(),
		{ message: reason, ...(httpCode ? { httpCode } : {}) },
		{
			message: `Could not check whether External ID ${externalId} was already used, so the withdrawal was not sent: ${reason}`,
			description: 'Each withdrawal is looked up by its External ID before it is sent, so it cannot be paid twice. Nothing was sent; run it again once the service answers.',
			httpCode,
			itemIndex: ctx.getItemIndex(),
		},
	);
}

function unresolvedError(ctx: IExecuteSingleFunctions, externalId: string, reason: string, statusCode?: number): NodeApiError {
	const httpCode = statusCode ? String(statusCode) : undefined;
	return new NodeApiError(
		ctx.getNode(),
		{ message: reason, ...(httpCode ? { httpCode } : {}) },
		{
			message: `The withdrawal with External ID ${externalId} may or may not have been created: ${reason}`,
			description:
				'The service answered without a clear result and the withdrawal could not be confirmed. Running this item again with the same External ID cannot pay it twice (it is looked up first); or look it up with Withdrawal → Get using the External ID.',
			httpCode,
			itemIndex: ctx.getItemIndex(),
		},
	);
}
