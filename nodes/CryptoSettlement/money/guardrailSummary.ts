import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../../service/credentials';
import { isToolVariant } from '../engine/engine';
import { GUARDRAILS_SHOWN } from '../fields/fields';
import { guardrailsOf, misreadText, usd } from './guardrails';

/**
 * What the credential's guardrails allow, in words (README, "Guardrails"), output by a Dry Run as
 * `guardrails`: n8n 2.41 lets neither a declarative node's hints (the editor) nor its execution
 * hints (none for declarative nodes) read or report a credential, so the Dry Run says it. "no
 * limit" where the owner set none, and `notLimited` names those. The checks are money/guardrails.ts.
 */

export function describeGuardrails(credentials: IDataObject): IDataObject {
	let rails: ReturnType<typeof guardrailsOf>;
	try {
		rails = guardrailsOf(credentials);
	} catch (error) {
		// A value the checks cannot understand refuses every payment (they fail closed): say so.
		return { unreadable: (error as Error).message };
	}
	// A value that cannot be read refuses every payment, never reads as "no limit".
	if (rails.misread.length) return { unreadable: misreadText(rails.misread[0]) };
	const notLimited = [
		...(rails.maxPerWithdrawalUsd > 0 ? [] : ['the amount per withdrawal']),
		...(rails.maxPerDayUsd > 0 ? [] : ['the total per day']),
		...(rails.destinations === 'any' ? ['where crypto goes'] : []),
		...(rails.allowSubWorkflowPayments
			? ["payments in workflows started by another workflow, AI agents' included"]
			: []),
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
		subWorkflowPayments: rails.allowSubWorkflowPayments ? 'allowed' : 'not allowed',
		...(notLimited.length ? { notLimited } : {}),
	};
}

const ENVIRONMENT: Record<string, string> = { production: 'Production', sandbox: 'Sandbox' };

/**
 * What the field Credential Guardrails (fields/fields.ts, CREDENTIAL_GUARDRAILS) shows: the
 * guardrails in a few words (the option's name, shown in the field), what is not limited
 * marked ⚠, and the rest (its description): what AI agents may do, what is not limited, who
 * changes them. For an AI agent's tool, the name starts with what an agent may do.
 */
export function guardrailsInShort(
	credentials: IDataObject,
	credentialName: string,
	{ asTool = false } = {},
): Pick<INodePropertyOptions, 'name' | 'description'> {
	const rails = describeGuardrails(credentials);
	// Short: the open list shows only the description's start (about two lines).
	const owner = `Set in '${credentialName}' (Guardrails).`;
	if (rails.unreadable !== undefined) {
		return {
			name: '⛔ Every payment refused: a guardrail of the credential cannot be read',
			description: `${String(rails.unreadable)}. ${owner}`,
		};
	}
	const environment = ENVIRONMENT[String(rails.environment)];
	const notLimited = (rails.notLimited as string[] | undefined) ?? [];
	const per = (limit: unknown, what: string) =>
		limit === 'no limit' ? `no limit per ${what}` : `max ${String(limit)} per ${what}`;
	const perWithdrawal = per(rails.maxPerWithdrawal, 'withdrawal');
	const perDay = per(rails.maxPerDay, 'day');
	const reviewed = guardrailsOf(credentials).agentPaymentsNeedHumanReview
		? ', each approved by a person'
		: ', without review';
	const agents =
		rails.agentPayments === 'allowed' ? `AI agents may pay${reviewed}` : 'AI agents may not pay';
	const limits = `${notLimited.length ? '⚠ ' : ''}${environment}: ${perWithdrawal}, ${perDay}, ${String(rails.destinations)}${rails.subWorkflowPayments === 'allowed' ? ', sub-workflows may pay' : ''}`;
	const subWorkflows =
		rails.subWorkflowPayments === 'allowed'
			? "Workflows started by another workflow may pay: an AI agent's Call n8n Workflow Tool too, whatever Allow Agent Payments says and without review."
			: "Workflows started by another workflow (Execute Workflow, an AI agent's Call n8n Workflow Tool) may not pay.";
	return {
		name: asTool ? `${agents} · ${limits}` : limits,
		// The open list shows the name whole and the description's start: what the name does not say first.
		description: [
			`${agents}.`,
			subWorkflows,
			...(notLimited.length ? [`Not limited: ${notLimited.join(', ')}.`] : []),
			owner,
		].join(' '),
	};
}

/** Loads the field's one option: the selected credential's guardrails; never throws (an error would empty the field). */
export async function getCredentialGuardrails(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const selected = this.getNode().credentials?.[CREDENTIAL_TYPE];
	let shown: Pick<INodePropertyOptions, 'name' | 'description'> = {
		name: 'No credential selected',
		description: 'Select a Crypto Settlement API credential to see its guardrails here',
	};
	if (selected) {
		try {
			const asTool = isToolVariant(this.getNode());
			const credentials = await this.getCredentials(CREDENTIAL_TYPE);
			shown = guardrailsInShort(credentials, selected.name, { asTool });
		} catch (error) {
			shown = {
				name: `⚠ The guardrails of '${selected.name}' could not be read here`,
				description: `${(error as Error).message}. A payment is checked against them when the node runs, and refused if they cannot be read then.`,
			};
		}
	}
	return [{ value: GUARDRAILS_SHOWN, ...shown }];
}
