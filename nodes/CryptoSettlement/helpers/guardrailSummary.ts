import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from './credentials';
import { GUARDRAILS_VALUE } from './fields';
import { guardrailsOf } from './guardrails';

/**
 * What the credential's guardrails allow, in words a person reads before paying (README,
 * "Guardrails"): shown in the editor by the money-moving operations' 'Credential Guardrails' field
 * (n8n's hints cannot read a credential, a list loaded with the credential can) and stated in a
 * Dry Run's output. The checks themselves are helpers/guardrails.ts; this only describes them.
 */

export interface GuardrailStatement {
	/** One line: the environment, then each guardrail ("no limit" where there is none). */
	summary: string;
	/** What is not limited, in words ("the amount per withdrawal", …); empty when everything is. */
	notLimited: string[];
	/** Each guardrail by name, as output in a Dry Run's `guardrails`. */
	record: IDataObject;
}

const usd = (value: number) => `${value.toFixed(2)} USD`;

/** Describes a credential's guardrails; `tool`: the node is an AI agent's tool, so the agents' permission comes first. */
export function describeGuardrails(credentials: IDataObject, { tool = false } = {}): GuardrailStatement {
	let rails: ReturnType<typeof guardrailsOf>;
	try {
		rails = guardrailsOf(credentials);
	} catch (error) {
		// A value the checks cannot understand refuses every payment (they fail closed): say so.
		const reason = (error as Error).message;
		return { summary: `Guardrails unreadable, so every payment is refused: ${reason}`, notLimited: [], record: { unreadable: reason } };
	}
	const perWithdrawal = rails.maxPerWithdrawalUsd > 0 ? usd(rails.maxPerWithdrawalUsd) : 'no limit';
	const perDay = rails.maxPerDayUsd > 0 ? usd(rails.maxPerDayUsd) : 'no limit';
	const destinations =
		rails.destinations === 'savedOnly'
			? 'saved payout addresses only'
			: rails.destinations === 'allowList'
				? `${rails.allowed.length} listed address${rails.allowed.length === 1 ? '' : 'es'} only`
				: 'any address';
	const review = rails.allowAgentPayments && credentials.agentPaymentsNeedHumanReview === true ? ', each approved by a person' : '';
	const agents = rails.allowAgentPayments ? `may pay${review}` : 'may not pay';
	const notLimited = [
		...(rails.maxPerWithdrawalUsd > 0 ? [] : ['the amount per withdrawal']),
		...(rails.maxPerDayUsd > 0 ? [] : ['the total per day']),
		...(rails.destinations === 'any' ? ['where crypto goes'] : []),
	];
	const environment = rails.production ? 'Production' : 'Sandbox';
	const limits = [`per withdrawal: ${perWithdrawal}`, `per day: ${perDay}`, `crypto to: ${destinations}`];
	const agentText = `AI agents ${agents}`;
	const parts = tool ? [environment, agentText, ...limits] : [environment, ...limits, agentText];
	return {
		summary: `${notLimited.length === 3 ? 'No limits set: ' : ''}${parts.join(' · ')}`,
		notLimited,
		record: {
			environment: environment.toLowerCase(),
			maxPerWithdrawal: perWithdrawal,
			maxPerDay: perDay,
			destinations,
			agentPayments: rails.allowAgentPayments ? 'allowed' : 'not allowed',
			...(notLimited.length ? { notLimited } : {}),
		},
	};
}

/**
 * The one choice of 'Credential Guardrails': the selected credential's guardrails. n8n reloads it
 * whenever the node's credential changes; the value is never used by a run.
 */
export async function getCredentialGuardrails(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	let credentials: IDataObject;
	try {
		credentials = await this.getCredentials(CREDENTIAL_TYPE);
	} catch {
		return [{ name: 'Select a credential to see its guardrails', value: GUARDRAILS_VALUE }];
	}
	const statement = describeGuardrails(credentials, { tool: this.getNode().type.endsWith('Tool') });
	const unlimited = statement.notLimited.length
		? `Not limited: ${statement.notLimited.join(', ')}. The credential's owner sets limits in the credential, under Guardrails.`
		: 'Every guardrail is set. The credential\'s owner changes them in the credential, under Guardrails.';
	return [{ name: statement.summary, value: GUARDRAILS_VALUE, description: unlimited }];
}
