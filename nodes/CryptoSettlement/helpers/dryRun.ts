import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { SPECS } from '../resources';
import { callApi, isSuccess, type ApiRequest, type HttpCall } from './transport';
import type { RequestParts } from './types';
import { lookUp } from './withdrawals';

/**
 * 'Dry Run' of a money-moving item (README, "Guardrails"): it has passed every check (fields, the
 * credential's guardrails, for a withdrawal the External ID lookup), and what would be sent is
 * output with `dryRun: true` instead. Nothing that moves money is sent.
 */

/** The request the item would send (never its PIN), and its USD value when the guardrails valued it. */
export function dryRunRecord(request: ApiRequest, parts: RequestParts): IDataObject {
	const body = { ...(parts.body ?? {}) };
	delete body.pin;
	return {
		dryRun: true,
		message: 'Dry run: every check passed; nothing was sent',
		request: { method: request.method, path: request.url, body },
		...(parts.valueUsd !== undefined ? { valueUsd: parts.valueUsd } : {}),
	};
}

/** A withdrawal's dry run: looked up like a real one, and for crypto with the network fee estimate. */
export async function dryRunWithdrawal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	request: ApiRequest,
	parts: RequestParts,
	lookupPath: string,
): Promise<IDataObject> {
	const idempotency = parts.idempotency as NonNullable<RequestParts['idempotency']>;
	const existing = parts.existing ?? (await lookUp(ctx, http, { ...idempotency, lookupPath }));
	if (existing) {
		return { ...existing, dryRun: true, message: 'Dry run: this payment already exists under its External ID, so nothing would be sent' };
	}
	const record: IDataObject = { ...dryRunRecord(request, parts), externalId: idempotency.externalId };
	const sent = { ...(parts.body ?? {}) };
	if (sent.walletAddress === undefined) return record;
	// The fee quote takes what the withdrawal sends, less its PIN and External ID.
	delete sent.pin;
	delete sent.externalId;
	const quote = sent;
	const estimate: ApiRequest = { method: 'POST', route: SPECS.withdrawal.estimateNetworkFee.path, url: SPECS.withdrawal.estimateNetworkFee.path, body: quote };
	try {
		const response = await callApi(ctx, http, estimate, 'safe');
		if (isSuccess(response)) return { ...record, networkFee: response.body.data as IDataObject };
		return { ...record, networkFeeUnavailable: `the estimate answered HTTP ${response.statusCode}${response.body.message ? `: ${response.body.message}` : ''}` };
	} catch (error) {
		return { ...record, networkFeeUnavailable: (error as Error).message };
	}
}
