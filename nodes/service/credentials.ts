import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteSingleFunctions,
} from 'n8n-workflow';
import { credentialProblem } from '../../credentials/CryptoSettlementApi.credentials';

export const CREDENTIAL_TYPE = 'cryptoSettlementApi';

/**
 * The decrypted credential, read once per node run (n8n reads it from its database on every call)
 * and shared by all items of that run: the PIN, the environment check, the base URL check and the
 * secrets to redact all come from here.
 */
const byRun = new WeakMap<object, Promise<ICredentialDataDecryptedObject>>();

export async function credentialsOf(
	ctx: IExecuteSingleFunctions,
): Promise<ICredentialDataDecryptedObject> {
	const run = ctx.getExecuteData() as object;
	let credentials = byRun.get(run);
	if (!credentials) {
		credentials = ctx.getCredentials(CREDENTIAL_TYPE);
		byRun.set(run, credentials);
		credentials.catch(() => byRun.delete(run));
	}
	return await credentials;
}

/** Refuses a credential that would send secrets in clear text or to a malformed URL, before any request. */
export function assertUsableCredential(
	ctx: IExecuteSingleFunctions,
	credentials: IDataObject,
): void {
	const problem = credentialProblem(credentials);
	if (problem)
		throw new NodeOperationError(ctx.getNode(), problem.message, {
			itemIndex: ctx.getItemIndex(),
			description: `Fix '${problem.field}' in the Crypto Settlement API credential. Nothing was sent to the service.`,
		});
}

/** Values that must never leave the node: the app secret, the PINs and the webhook secret. */
export function secretsOf(credentials: IDataObject, nodePin?: unknown): string[] {
	return [credentials.appSecret, credentials.pin, credentials.webhookSecret, nodePin]
		.map((value) => (typeof value === 'number' ? String(value) : value))
		.filter((value): value is string => typeof value === 'string' && value.trim() !== '')
		.map((value) => value.trim());
}
