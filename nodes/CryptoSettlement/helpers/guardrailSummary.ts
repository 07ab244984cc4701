import type { IDataObject } from 'n8n-workflow';
import { guardrailsOf } from './guardrails';

/**
 * What the credential's guardrails allow, in words (README, "Guardrails"), output by a Dry Run as
 * `guardrails`: n8n 2.41 lets neither a declarative node's hints (the editor) nor its execution
 * hints (none for declarative nodes) read or report a credential, so the Dry Run says it. "no
 * limit" where the owner set none, and `notLimited` names those. The checks are helpers/guardrails.ts.
 */

const usd = (value: number) => `${value.toFixed(2)} USD`;

export function describeGuardrails(credentials: IDataObject): IDataObject {
	let rails: ReturnType<typeof guardrailsOf>;
	try {
		rails = guardrailsOf(credentials);
	} catch (error) {
		// A value the checks cannot understand refuses every payment (they fail closed): say so.
		return { unreadable: (error as Error).message };
	}
	const notLimited = [
		...(rails.maxPerWithdrawalUsd > 0 ? [] : ['the amount per withdrawal']),
		...(rails.maxPerDayUsd > 0 ? [] : ['the total per day']),
		...(rails.destinations === 'any' ? ['where crypto goes'] : []),
	];
	const listed = rails.allowed.length;
	return {
		environment: rails.production ? 'production' : 'sandbox',
		maxPerWithdrawal: rails.maxPerWithdrawalUsd > 0 ? usd(rails.maxPerWithdrawalUsd) : 'no limit',
		maxPerDay: rails.maxPerDayUsd > 0 ? usd(rails.maxPerDayUsd) : 'no limit',
		destinations:
			rails.destinations === 'savedOnly'
				? 'saved payout addresses only'
				: rails.destinations === 'allowList'
					? `${listed} listed address${listed === 1 ? '' : 'es'} only`
					: 'any address',
		agentPayments: rails.allowAgentPayments ? 'allowed' : 'not allowed',
		...(notLimited.length ? { notLimited } : {}),
	};
}
