import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IHookFunctions,
	type IWebhookFunctions,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../service/credentials';
import { isObject } from '../service/values';
import { hasLeadingZeroOctet, isAllowListSet, parseAllowList, secretOf } from '../events/verify';

/** What runs, resolved from the parameters (docs/trigger.md, "Settings"). */
interface Settings {
	/** Top-level parameter, unless the legacy `options.confirmWithApi` is present. */
	confirmWithApi: boolean;
	/** Top-level parameter, unless the legacy `options.ignoreDuplicates` is present. */
	ignoreDuplicates: boolean;
	/** Deliveries without a secret are accepted when the credential has none (explicit opt-in). */
	acceptUnsigned: boolean;
	/** The legacy `options.verifySecret`, when present. */
	legacyVerifySecret?: boolean;
	allowedIps?: string;
	includeHeaders: boolean;
}

type Context = IHookFunctions | IWebhookFunctions;

function readOptions(this: Context): IDataObject {
	const value = this.getNodeParameter('options', {}) as unknown;
	return isObject(value) ? value : {};
}

/**
 * The checks that run. Confirm With API and Ignore Duplicates are top-level parameters (on by
 * default, shown as such in the editor); the contract's `options.confirmWithApi` /
 * `options.ignoreDuplicates`, when a workflow sets them, override them. The secret is not a switch:
 * it is checked whenever the credential has one.
 */
export function readSettings(this: Context): Settings {
	const options = readOptions.call(this);
	const check = (name: 'confirmWithApi' | 'ignoreDuplicates') => {
		const legacy = options[name];
		const value =
			typeof legacy === 'boolean' ? legacy : (this.getNodeParameter(name, true) as unknown);
		return typeof value === 'boolean' ? value : true;
	};
	return {
		confirmWithApi: check('confirmWithApi'),
		ignoreDuplicates: check('ignoreDuplicates'),
		acceptUnsigned: options.acceptUnsignedDeliveries === true,
		legacyVerifySecret:
			typeof options.verifySecret === 'boolean' ? options.verifySecret : undefined,
		allowedIps: typeof options.allowedIps === 'string' ? options.allowedIps : undefined,
		includeHeaders: options.includeHeaders === true,
	};
}

export function readEvents(this: Context): string[] {
	const value = this.getNodeParameter('events', []) as unknown;
	return Array.isArray(value) ? value.map(String) : [];
}

async function readCredentials(this: Context): Promise<ICredentialDataDecryptedObject | undefined> {
	if (!this.getNode().credentials?.[CREDENTIAL_TYPE]) return undefined;
	return await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
}

const SET_SECRET =
	'set the Webhook Secret in the Crypto Settlement API credential (copy the webhook verification secret key from the service dashboard)';

/**
 * Configuration problems that would make the trigger accept or drop deliveries wrongly. Checked
 * when the workflow is published/activated and when the editor starts listening for a test event,
 * so they surface as a clear error there instead of as silently accepted deliveries.
 */
async function configurationProblem(this: Context): Promise<string | undefined> {
	if (readEvents.call(this).length === 0)
		return 'Select at least one event (or "All Events") in Events';
	const settings = readSettings.call(this);
	if (isAllowListSet(settings.allowedIps)) {
		const list = parseAllowList(settings.allowedIps);
		const ambiguous = list.invalid.filter(hasLeadingZeroOctet);
		if (ambiguous.length > 0)
			return `Allowed IPs: "${ambiguous.join('", "')}" has a leading zero, which some tools read as octal: write the address without leading zeros (for example 10.0.0.1)`;
		if (list.invalid.length > 0)
			return `Allowed IPs: "${list.invalid.join('", "')}" is not an IP address or CIDR range (for example 46.101.201.155 or 10.0.0.0/8)`;
	}
	const credentials = await readCredentials.call(this);
	const secret = secretOf(credentials);
	if (secret !== undefined && settings.legacyVerifySecret === false)
		return 'Options → Verify Secret (Legacy) is off, but the credential has a Webhook Secret, which is always checked: remove Verify Secret from Options';
	if (secret === undefined && (!settings.acceptUnsigned || settings.legacyVerifySecret === true)) {
		const how =
			credentials === undefined
				? `Select a Crypto Settlement API credential and ${SET_SECRET}`
				: `To accept deliveries, ${SET_SECRET}`;
		return settings.legacyVerifySecret === true
			? `${how}: Options → Verify Secret (Legacy) is on`
			: `${how}. Without it anyone who learns this URL could post fake deposits. To accept deliveries without a secret anyway, add Options → Accept Unsigned Deliveries (Unsafe)`;
	}
	if (settings.confirmWithApi) {
		if (credentials === undefined)
			return 'Confirm With API needs a Crypto Settlement API credential: select one on this node or turn Confirm With API off';
		const missing = ['appId', 'appSecret', 'baseUrl'].filter(
			(name) => String(credentials[name] ?? '').trim() === '',
		);
		if (missing.length > 0) return `Confirm With API needs the credential's ${missing.join(', ')}`;
	}
	return undefined;
}

export async function assertConfiguration(this: IHookFunctions): Promise<void> {
	const problem = await configurationProblem.call(this);
	if (problem !== undefined)
		throw new NodeOperationError(this.getNode(), problem, { level: 'warning' });
}
