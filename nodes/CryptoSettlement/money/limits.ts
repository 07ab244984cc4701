import { NodeApiError, type IExecuteSingleFunctions } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../../service/credentials';
import { runOf } from '../engine/engine';
import { keptFor } from '../record/record';
import { toNumber } from '../fields/rules';
import { callApi, createAuthenticatedHttpCall } from '../../service/transport';
import { isSuccess } from '../../service/apiErrors';
import { isObject } from '../../service/values';

/**
 * A refused payout (HTTP 403: limits and availability, docs/api.md "Status codes") explained with
 * the account's withdrawal limits, read from the withdrawal assets list (`limits.minimum`,
 * `limits.maximum`, in USD like the amount): "This item's amount, 3 USD, is below the account's
 * minimum withdrawal of 5 USD." The list is read once per node run, and only after a refusal.
 */

interface Limits {
	minimum: number;
	maximum: number;
}

const limitsOfRun = keptFor<object, Promise<Limits | undefined>>();

async function readLimits(ctx: IExecuteSingleFunctions, path: string): Promise<Limits | undefined> {
	const http = createAuthenticatedHttpCall(ctx, CREDENTIAL_TYPE);
	const response = await callApi(ctx, http, { method: 'GET', route: path, url: path }, 'safe');
	const data = isSuccess(response) ? response.body.data : undefined;
	const limits = isObject(data) && isObject(data.limits) ? data.limits : undefined;
	const minimum = toNumber(limits?.minimum);
	const maximum = toNumber(limits?.maximum);
	return minimum === undefined || maximum === undefined ? undefined : { minimum, maximum };
}

/** What the limits say about this item's amount. */
function finding(limits: Limits, usd: number | undefined): string {
	const range = `${limits.minimum} to ${limits.maximum} USD`;
	if (usd === undefined)
		return `The account's withdrawal limits are ${range} (a crypto amount counts at its USD value).`;
	if (usd < limits.minimum)
		return `This item's amount, ${usd} USD, is below the account's minimum withdrawal of ${limits.minimum} USD.`;
	if (usd > limits.maximum)
		return `This item's amount, ${usd} USD, is above the account's maximum withdrawal of ${limits.maximum} USD.`;
	return `This item's amount, ${usd} USD, is within the account's withdrawal limits (${range}), so the refusal has another cause.`;
}

/**
 * The operation hook (`explainError`) of a payout whose amount the limits bound: after a 403, puts
 * what the limits say first in the error's description. Never fails: without the list, the error
 * stays as it was.
 */
export function explainWithLimits(limitsPath: string) {
	return async (ctx: IExecuteSingleFunctions, error: unknown): Promise<void> => {
		if (!(error instanceof NodeApiError) || error.httpCode !== '403') return;
		try {
			const known = await limitsOfRun(runOf(ctx), () => readLimits(ctx, limitsPath));
			if (!known) return;
			const usd =
				ctx.getNodeParameter('amountType', 'usd') === 'crypto'
					? undefined
					: toNumber(ctx.getNodeParameter('amount', ''));
			error.description = `${finding(known, usd)} ${error.description ?? ''}`.trim();
		} catch {
			// The refusal is what the user acts on; the limits only add to it.
		}
	};
}
