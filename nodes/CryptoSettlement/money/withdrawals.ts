import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteSingleFunctions,
} from 'n8n-workflow';
import { callApi, exchangeOnce, recordPath } from '../../service/transport';
import type { ApiRequest, ApiResponse, HttpCall, Outcome } from '../../service/api';
import { itemApiError, markInDoubt, serviceError } from '../../service/apiErrors';
import { backoffMs, credentialKey, oneAtATime, RETRY } from '../../service/pacing';
import { statusOf } from '../../service/catalog';
import type { IdempotencyKey, SendTurn } from '../record/record';
import { itemError } from '../record/params';
import { isObject, scalarText } from '../../service/values';
import { setNewest } from '../../service/boundedMemory';
import { externalIdTurnKey, sameExternalId, sameRecordId } from '../../service/ids';

/** A withdrawal is sent at most once per External ID (docs/usage.md, "Never paid twice"). */

type Ambiguous = Extract<Outcome, { kind: 'ambiguous' }>;

/** A withdrawal's key, what a record found under it must match, and where records are read (withdrawal → get's path). */
type Submission = IdempotencyKey & {
	expected: IDataObject;
	fullRecord?: boolean;
	lookupPath: string;
};

/** The read of one withdrawal by its id or External ID. */
function lookupRequest(lookupPath: string, id: string): ApiRequest {
	return { method: 'GET', route: lookupPath, url: recordPath(lookupPath, id) };
}

/**
 * The withdrawal stored under this External ID, or undefined when the service has none (a 404).
 * Any other answer that is not this External ID's record throws: a record of another External ID
 * (or none shown), a record without an id or no record at all cannot say whether the ID is taken.
 */
async function findWithdrawal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	{ externalId, lookupPath }: Submission,
): Promise<IDataObject | undefined> {
	const request = lookupRequest(lookupPath, externalId);
	const response = await callApi(ctx, http, request, 'safe');
	// Only a 404 says the service holds no such withdrawal. A 400 or 422 says it could not look this
	// External ID up: that proves nothing, so it is an error like any other (docs/usage.md, "Never
	// paid twice"), and the withdrawal is not sent.
	if (response.statusCode === 404) return undefined;
	if (response.statusCode >= 300 || !response.json || response.body.success === false)
		throw serviceError(ctx, request, response);
	const found = response.body.data;
	if (!isObject(found))
		throw new Error(`the lookup answered HTTP ${response.statusCode} without a withdrawal record`);
	const id = scalarText(found.id ?? found._id).trim();
	if (id === '') throw new Error('the lookup answered a withdrawal record without an id');
	// Only a record that shows exactly this External ID is this External ID's (the lookup also finds
	// a withdrawal by its id: an External ID that is another withdrawal's id finds that one). External
	// IDs are compared exactly (service/ids.ts): a record showing INV-1 proves nothing of inv-1.
	if (!sameExternalId(found.externalId, externalId)) {
		const shows =
			found.externalId === undefined || found.externalId === null
				? 'no External ID'
				: `the External ID ${JSON.stringify(found.externalId)}`;
		throw new Error(`the lookup answered withdrawal ${id}, which shows ${shows}`);
	}
	return found;
}

/** A word the service may write in either case (a kind, token, network or fee level). */
const sameWord = (a: unknown, b: unknown) =>
	String(a).trim().toLowerCase() === String(b).trim().toLowerCase();

/** Bank or crypto: the record's `type`, else told by its destination; undefined when it shows neither. */
function paymentKindOf(record: IDataObject): string | undefined {
	if (typeof record.type === 'string' && record.type.trim() !== '')
		return record.type.trim().toLowerCase();
	const present = (value: unknown) =>
		value !== undefined && value !== null && String(value).trim() !== '';
	if (present(record.bankAccount)) return 'bank';
	if (present(record.walletAddress)) return 'crypto';
	return undefined;
}

/** A number as a number, anything else as a word. */
const sameValue = (actual: unknown, wanted: unknown) =>
	typeof wanted === 'number' ? Number(actual) === wanted : sameWord(actual, wanted);

/** Fields compared otherwise than as a number or a word: an address exactly, the bank account by the record id rule (service/ids.ts). */
const SAME_FIELD: Partial<Record<string, (actual: unknown, wanted: unknown) => boolean>> = {
	walletAddress: (actual, wanted) => String(actual) === wanted,
	bankAccount: sameRecordId,
};

/**
 * How the record found under an External ID compares with this request: the fields that conflict
 * (a different kind of payment, a different value, or `null` where the request sets one), and the
 * fields the record does not show, which leave the match unproven.
 */
function compareWithRecord(
	record: IDataObject,
	expected: IDataObject,
): { conflicts: string[]; unshown: string[] } {
	const conflicts: string[] = [];
	const unshown: string[] = [];
	for (const [field, wanted] of Object.entries(expected)) {
		if (wanted === undefined) continue;
		const actual = field === 'type' ? paymentKindOf(record) : record[field];
		if (actual === undefined) unshown.push(field);
		else if (actual === null) conflicts.push(field);
		else if (!(SAME_FIELD[field] ?? sameValue)(actual, wanted)) conflicts.push(field);
	}
	return { conflicts, unshown };
}

/**
 * Sends a withdrawal at most once (docs/usage.md, "Never paid twice"); with the turn's `earlierInDoubt`
 * nothing is sent, the earlier attempt is looked up once more. Once created, the turn is told before
 * the record is read back, so the read is off the next item's critical path.
 */
export async function submitWithdrawal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	request: ApiRequest,
	key: Submission,
	turn?: SendTurn,
	ahead?: LookupAhead,
): Promise<IDataObject> {
	const earlierInDoubt = turn?.earlierInDoubt;
	if (key.derived && ctx.getMode() === 'retry') throw derivedOnRetryError(ctx);
	const lockKey = lockKeyOf(ctx, key);
	return await oneAtATime(lockKey, async () => {
		if (earlierInDoubt) {
			const found = await findWithdrawal(ctx, http, key).catch(() => undefined);
			if (found)
				return matchOrRefuse(ctx, found, key, 'an earlier attempt of this run had no clear answer');
			throw earlierInDoubt;
		}
		const existing = await lookUp(ctx, http, key, ahead);
		if (existing) return existing;
		try {
			return await sendOnce(ctx, http, request, key, turn);
		} finally {
			noteSendEnded(lockKey);
		}
	});
}

/** The one send of a withdrawal not found under its External ID, and what its answer proves. */
async function sendOnce(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	request: ApiRequest,
	key: Submission,
	turn?: SendTurn,
): Promise<IDataObject> {
	const outcome = await exchangeOnce(ctx, http, request);
	const created = outcome.kind === 'answered' ? createdId(outcome.response) : undefined;
	if (created === undefined) turn?.notCreated();
	else turn?.created(created);
	if (outcome.kind === 'ambiguous') return await resolveInDoubt(ctx, http, key, outcome);
	const { response } = outcome;
	if (created !== undefined) {
		const data = response.body.data as IDataObject;
		const full =
			key.fullRecord === false
				? { record: {} }
				: await fullRecord(ctx, http, created, key.lookupPath);
		const unavailable = full.unavailable ? { fullRecordUnavailable: full.unavailable } : {};
		return {
			...data,
			...full.record,
			id: created,
			externalId: key.externalId,
			alreadySubmitted: false,
			message: response.body.message ?? '',
			...unavailable,
		};
	}
	if (response.statusCode >= 200 && response.statusCode < 300) {
		const reason = `HTTP ${response.statusCode} without a withdrawal id (success: ${JSON.stringify(response.body.success ?? null)})`;
		return await resolveInDoubt(ctx, http, key, { reason, statusCode: response.statusCode });
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

/**
 * After a send whose outcome is unknown: looks the External ID up over the in-doubt window, with backoff,
 * so a late commit is found and reported; not found by then, the item fails as in doubt.
 */
async function resolveInDoubt(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	key: Submission,
	cause: Pick<Ambiguous, 'reason' | 'statusCode'>,
): Promise<IDataObject> {
	const deadline = Date.now() + RETRY.inDoubtLookupWindowMs;
	for (let attempt = 1; ; attempt++) {
		// A lookup that fails too is tried again within the window.
		const record = await findWithdrawal(ctx, http, key).catch(() => undefined);
		if (record) return matchOrRefuse(ctx, record, key, cause.reason);
		const remaining = deadline - Date.now();
		if (remaining <= 0) throw unresolvedError(ctx, key.externalId, cause.reason, cause.statusCode);
		await sleep(Math.min(backoffMs(attempt), remaining));
	}
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
	const unavailable = (why: string) => ({
		record: {},
		unavailable: `the withdrawal was created, but reading it back by id ${why}`,
	});
	try {
		const response = await callApi(ctx, http, lookupRequest(lookupPath, id), 'safe');
		const found = response.body.data;
		if (
			response.statusCode < 300 &&
			response.json &&
			response.body.success !== false &&
			isObject(found) &&
			sameRecordId(found.id ?? found._id, id)
		)
			return { record: found };
		const message = response.body.message ? `: ${response.body.message}` : '';
		return unavailable(`answered HTTP ${response.statusCode}${message}`);
	} catch (error) {
		return unavailable(`failed: ${(error as Error).message}`);
	}
}

/** The id of a created withdrawal: a JSON envelope with `success: true` and a non-empty `data.id`. */
function createdId(response: ApiResponse): string | undefined {
	if (response.statusCode < 200 || response.statusCode >= 300 || !response.json) return undefined;
	if (response.body.success !== true) return undefined;
	const id = (response.body.data as IDataObject | undefined)?.id;
	if (typeof id === 'number') return String(id);
	return typeof id === 'string' && id.trim() !== '' ? id : undefined;
}

/**
 * The lookup before the send; a match is this payment, a record of another payment is a reused ID.
 * A lookup made ahead of the item's turn (`ahead`) stands in for it while it is still true; without
 * an answer it cannot be known whether the withdrawal exists, so it is not sent.
 */
export async function lookUp(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	key: Submission,
	ahead?: LookupAhead,
): Promise<IDataObject | undefined> {
	const early = await ahead;
	const record =
		early && 'record' in early && stillTrue(early, lockKeyOf(ctx, key))
			? early.record
			: await findWithdrawal(ctx, http, key).catch((error: unknown) => {
					throw lookupFailedError(ctx, key.externalId, error);
				});
	return record && matchOrRefuse(ctx, record, key);
}

/**
 * Sends of withdrawals in this n8n process, numbered as they end, with the number of the last one
 * per credential and External ID: a lookup that began before a send of its External ID ended may
 * not show that withdrawal, so it is not used (docs/architecture.md, "Never paid twice").
 */
let sendsEnded = 0;
const lastSendEnded = new Map<string, number>();
/** External IDs remembered; a lookup made ahead is used only while fewer sends than this ended since. */
const REMEMBERED_SENDS = 10_000;

function noteSendEnded(lockKey: string): void {
	// The oldest key goes: a lookup that could need it is older than REMEMBERED_SENDS sends (stillTrue).
	setNewest(lastSendEnded, lockKey, ++sendsEnded, REMEMBERED_SENDS);
}

/**
 * A lookup of a withdrawal's External ID made ahead of its turn, and when it began (in sends
 * ended); undefined when the item turned out not to be sent.
 */
export type LookupAhead = Promise<
	(({ record: IDataObject | undefined } | { error: unknown }) & { since: number }) | undefined
>;

/**
 * Looks the External ID up once `near` says the item is close to its turn, so that the lookup is
 * done by then and only the send is on the paced route's critical path (docs/speed.md). A read
 * only: its answer is checked again under the External ID's lock before it is trusted
 * (`stillTrue`), and a failed one is repeated then.
 */
export async function lookUpAhead(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	key: Submission,
	near: Promise<boolean>,
): LookupAhead {
	if (!(await near)) return undefined;
	const since = sendsEnded;
	try {
		return { record: await findWithdrawal(ctx, http, key), since };
	} catch (error) {
		return { error, since };
	}
}

/** No send of this External ID in this process ended since the lookup began (a duplicate from elsewhere is refused by the service, then looked up). */
function stillTrue(ahead: { since: number }, lockKey: string): boolean {
	return (
		sendsEnded - ahead.since < REMEMBERED_SENDS && (lastSendEnded.get(lockKey) ?? 0) <= ahead.since
	);
}

function lockKeyOf(ctx: IExecuteSingleFunctions, key: IdempotencyKey): string {
	// External IDs differing only in case take turns too: the service may find one under the other.
	return `${credentialKey(ctx)} ${externalIdTurnKey(key.externalId)}`;
}

async function lookUpAfterRefusal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	key: Submission,
	refusal: NodeApiError,
): Promise<IDataObject | undefined> {
	const record = await findWithdrawal(ctx, http, key).catch((error: Error) => {
		// Keep the refusal, which is what the user must act on, and say the check failed too.
		refusal.description =
			`${refusal.description ?? ''} Checking whether External ID ${key.externalId} already exists also failed: ${error.message}`.trim();
		throw refusal;
	});
	return record && matchOrRefuse(ctx, record, key);
}

/**
 * A found record is this payment only when it is provably the same and its money did not go back;
 * otherwise the item fails naming it. `inDoubt` is why this item's own send proved nothing, when
 * the record was found after it: the item then fails in doubt (a typed flag, markInDoubt), saying
 * the withdrawal may have been made and to check it, never that the External ID is someone else's.
 */
function matchOrRefuse(
	ctx: IExecuteSingleFunctions,
	record: IDataObject,
	key: IdempotencyKey & { expected: IDataObject },
	inDoubt?: string,
): IDataObject {
	const refuse = (message: string, description: string) => itemError(ctx, message, description);
	const { conflicts, unshown } = compareWithRecord(record, key.expected);
	const id = String(record.id ?? record._id);
	const status = scalarText(record.status).trim().toLowerCase();
	if (statusOf('withdrawal', status)?.refunded)
		throw refundedError(ctx, record, key.externalId, inDoubt);
	const shown = (field: string) =>
		JSON.stringify(field === 'type' ? (paymentKindOf(record) ?? null) : (record[field] ?? null));
	const detail = conflicts
		.map((field) => `${field}: ${shown(field)} there, ${JSON.stringify(key.expected[field])} here`)
		.join('; ');
	if (inDoubt !== undefined && (conflicts.length || unshown.length)) {
		const why = conflicts.length
			? `it differs: ${detail}`
			: `it does not show ${unshown.join(', ')}`;
		throw markInDoubt(
			refuse(
				`The withdrawal with External ID ${key.externalId} may have been made (${inDoubt}): the service shows ${withdrawalNamed(record)} under it, which cannot be matched to this payment (${why}); check it before any retry`,
				`This item was sent once and the service gave no clear answer; looking its External ID up then found withdrawal ${id}, which ${conflicts.length ? 'differs from this item' : 'does not show enough to tell whether it is this payment'}. It was not sent again, and it is not reported as this payment. Check withdrawal ${id} (Withdrawal → Get, or the dashboard) before any retry: if it is this payment, it is paid. Do not pay this item under a new External ID until you have made sure it was not paid.`,
			),
		);
	}
	if (conflicts.length) {
		throw refuse(
			`External ID ${key.externalId} was already used for a different withdrawal (${detail})`,
			`A withdrawal with this External ID exists (id ${id}) and does not match this item, so nothing was sent. Give each payment its own External ID, such as its order or payout ID.`,
		);
	}
	if (unshown.length) {
		throw refuse(
			`External ID ${key.externalId} is already used; the service's record cannot be matched to this payment (it does not show ${unshown.join(', ')})`,
			`A withdrawal with this External ID exists (id ${id}), but its record does not show enough to tell whether it is this payment, so nothing was sent and it is not reported as this one. Check it with Withdrawal → Get; give a different payment its own External ID.`,
		);
	}
	return {
		...record,
		id: record.id ?? record._id,
		externalId: key.externalId,
		alreadySubmitted: true,
	};
}

/** "withdrawal wd-3 (100 USD, pending)": its id, amount and status as the record shows them. */
function withdrawalNamed(record: IDataObject): string {
	const present = (value: unknown) =>
		value !== undefined && value !== null && scalarText(value).trim() !== '';
	const amount = present(record.amount)
		? `${scalarText(record.amount)} USD`
		: present(record.cryptoAmount)
			? `${scalarText(record.cryptoAmount)} ${scalarText(record.token)}`.trim()
			: 'amount not shown';
	const status = present(record.status) ? scalarText(record.status) : 'status not shown';
	return `withdrawal ${scalarText(record.id ?? record._id)} (${amount}, ${status})`;
}

/**
 * A withdrawal whose money went back (a refunded status of LIFECYCLES) found under the External ID:
 * not this payment's success. Running again with the same External ID finds it again and sends
 * nothing; a new External ID pays a new withdrawal, so the message asks to check first.
 */
function refundedError(
	ctx: IExecuteSingleFunctions,
	record: IDataObject,
	externalId: string,
	inDoubt?: string,
): NodeOperationError {
	const id = scalarText(record.id ?? record._id);
	const status = scalarText(record.status).trim();
	const found = `External ID ${externalId} holds ${withdrawalNamed(record)}, which was ${status.toLowerCase()} and refunded: it is not this payment's success`;
	const newId = `give the item a new External ID: a new External ID pays a new withdrawal, while the same one finds withdrawal ${id} again and sends nothing.`;
	if (inDoubt === undefined)
		return itemError(
			ctx,
			`${found}, and nothing was sent`,
			`The service shows withdrawal ${id} under this External ID with status "${status}": its money went back, so it is not reported as paid. To pay this item, first check withdrawal ${id} (Withdrawal → Get) and that no other withdrawal paid it, then ${newId}`,
		);
	return markInDoubt(
		itemError(
			ctx,
			`${found}; it was found after this item's send proved nothing (${inDoubt}), so check before any retry`,
			`This item was sent once and the service gave no clear answer; looking its External ID up then found withdrawal ${id} with status "${status}": its money went back, so it is not reported as paid. It was not sent again. Check withdrawal ${id} and your withdrawals (Withdrawal → Get Many, or the dashboard) for this payment before any retry; only once you have made sure it was not paid, ${newId}`,
		),
	);
}

function derivedOnRetryError(ctx: IExecuteSingleFunctions): NodeOperationError {
	return itemError(
		ctx,
		"A retried execution cannot recognise withdrawals by a derived External ID: map 'External ID' to your own payment ID",
		"n8n's Retry execution runs under a new execution ID, so an External ID derived from it would differ from the failed run's, and a withdrawal that run already sent could be paid again. Nothing was sent. Map 'External ID' to a stable value (an order or payout ID) and retry, or check the failed run's error, which lists the items already submitted.",
	);
}

function lookupFailedError(
	ctx: IExecuteSingleFunctions,
	externalId: string,
	error: unknown,
): NodeApiError {
	const reason = (error as Error)?.message ?? 'no answer';
	const httpCode = (error as { httpCode?: string })?.httpCode;
	return itemApiError(
		ctx,
		reason,
		httpCode,
		`Could not check whether External ID ${externalId} was already used, so the withdrawal was not sent: ${reason}`,
		'Each withdrawal is looked up by its External ID before it is sent, so it cannot be paid twice. Nothing was sent; run it again once the service answers.',
	);
}

function unresolvedError(
	ctx: IExecuteSingleFunctions,
	externalId: string,
	reason: string,
	statusCode?: number,
): NodeApiError {
	return markInDoubt(
		itemApiError(
			ctx,
			reason,
			statusCode ? String(statusCode) : undefined,
			`The withdrawal with External ID ${externalId} may or may not have been made (${reason}); check before re-running with the same External ID`,
			'It was sent once and the service gave no clear answer; it was then looked up by its External ID and not found in time. It was not sent again, so it cannot be paid twice by this run. Check Withdrawal → Get with the External ID (or the dashboard) before running it again: a re-run with the same External ID looks it up first and does not pay it again once the service shows it.',
		),
	);
}
