import { createHash } from 'node:crypto';
import { NodeApiError, sleep, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';
import {
	backoffMs,
	callApi,
	exchange,
	isSuccess,
	RETRY,
	serviceError,
	type ApiRequest,
	type HttpCall,
	type Outcome,
} from './transport';

/**
 * Withdrawals are never sent twice by this node. Each carries an externalId: the user's, or one
 * derived from the instance, workflow, execution, node, run and item, which n8n's "Retry On Fail"
 * reproduces. After an answer we cannot trust, the withdrawal is looked up by that externalId
 * before it is sent again; a refusal is also checked against the lookup, so a repeat the service
 * reports as a duplicate comes out as the withdrawal already submitted.
 */

export const WITHDRAWAL_LOOKUP_ROUTE = '/payments/withdrawal/{withdrawalId}';

export function deriveExternalId(ctx: IExecuteSingleFunctions): string {
	const itemIndex = ctx.getItemIndex();
	const runIndex = ctx.getWorkflowDataProxy(itemIndex).$runIndex;
	const origin = [ctx.getInstanceId(), ctx.getWorkflow().id, ctx.getExecutionId(), ctx.getNode().id, runIndex].join(
		'|',
	);
	return `n8n-${createHash('sha256').update(origin).digest('hex').slice(0, 16)}-${itemIndex}`;
}

/** The withdrawal recorded under this externalId, or undefined when the service has none. */
export async function findWithdrawal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	externalId: string,
): Promise<IDataObject | undefined> {
	const request: ApiRequest = {
		method: 'GET',
		route: WITHDRAWAL_LOOKUP_ROUTE,
		url: `/payments/withdrawal/${encodeURIComponent(externalId)}`,
	};
	const response = await callApi(ctx, http, request, 'safe');
	if (response.statusCode === 404) return undefined;
	if (!isSuccess(response)) throw serviceError(ctx, request, response);
	const record = response.body.data as IDataObject | undefined;
	if (!record || typeof record !== 'object' || (record.externalId !== undefined && record.externalId !== externalId)) {
		return undefined;
	}
	return record;
}

function alreadySubmitted(record: IDataObject, externalId: string): IDataObject {
	return { ...record, id: record.id ?? record._id, externalId, alreadySubmitted: true };
}

/** Sends a withdrawal at most once per externalId, whatever fails in between. */
export async function submitWithdrawal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	request: ApiRequest,
	externalId: string,
): Promise<IDataObject> {
	let lastAmbiguous: Extract<Outcome, { kind: 'ambiguous' }> | undefined;
	for (let attempt = 1; attempt <= RETRY.maxAmbiguousAttempts; attempt++) {
		if (lastAmbiguous) {
			const existing = await lookUpAfterAmbiguity(ctx, http, externalId, lastAmbiguous);
			if (existing) return alreadySubmitted(existing, externalId);
		}
		const outcome = await exchange(ctx, http, request);
		if (outcome.kind === 'ambiguous') {
			lastAmbiguous = outcome;
			await sleep(backoffMs(attempt));
			continue;
		}
		const { response } = outcome;
		if (isSuccess(response)) {
			const data = (response.body.data ?? {}) as IDataObject;
			return { ...data, id: data.id, externalId, alreadySubmitted: false, message: response.body.message ?? '' };
		}
		if (response.statusCode === 400 || response.statusCode === 409) {
			// Refused; if the refusal is because this externalId already exists, that is our withdrawal.
			const existing = await findWithdrawal(ctx, http, externalId);
			if (existing) return alreadySubmitted(existing, externalId);
		}
		throw serviceError(ctx, request, response);
	}
	const existing = await lookUpAfterAmbiguity(ctx, http, externalId, lastAmbiguous);
	if (existing) return alreadySubmitted(existing, externalId);
	throw unresolvedError(ctx, externalId, lastAmbiguous?.reason ?? 'no answer', lastAmbiguous?.statusCode);
}

async function lookUpAfterAmbiguity(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	externalId: string,
	cause: Extract<Outcome, { kind: 'ambiguous' }> | undefined,
): Promise<IDataObject | undefined> {
	try {
		return await findWithdrawal(ctx, http, externalId);
	} catch {
		// Without a lookup we cannot tell whether it exists, so we must not send it again.
		throw unresolvedError(ctx, externalId, cause?.reason ?? 'no answer', cause?.statusCode);
	}
}

function unresolvedError(
	ctx: IExecuteSingleFunctions,
	externalId: string,
	reason: string,
	statusCode?: number,
): NodeApiError {
	const httpCode = statusCode ? String(statusCode) : undefined;
	return new NodeApiError(
		ctx.getNode(),
		{ message: reason, ...(httpCode ? { httpCode } : {}) },
		{
			message: `The withdrawal with External ID ${externalId} may or may not have been created: ${reason}`,
			description:
				'The service failed without a clear answer and the withdrawal could not be confirmed. Retrying this item reuses the same External ID, so it cannot be paid twice; or look it up with Withdrawal → Get using the External ID.',
			httpCode,
			itemIndex: ctx.getItemIndex(),
		},
	);
}
