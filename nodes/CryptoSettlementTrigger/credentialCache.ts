import type { ICredentialDataDecryptedObject, IWebhookFunctions } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../service/credentials';
import { setNewest } from '../service/boundedMemory';

/**
 * How long a production delivery reuses the credential an earlier delivery of the same workflow
 * read. n8n reads a credential from its database, decrypts it and starts an expression isolate for
 * it on every `getCredentials` call (n8n 2.x): under a burst that was most of the trigger's time on
 * n8n's main process. A changed credential applies within this time, at once when the workflow is
 * published again (docs/trigger.md, "Speed").
 */
const CREDENTIAL_REUSE_MS = 5_000;

/** Workflows × credentials remembered at most (the oldest is dropped first). */
const CAPACITY = 200;

type Read = { at: number; credentials: Promise<ICredentialDataDecryptedObject> };
const reads = new Map<string, Read>();

function workflowPrefix(workflowId: unknown): string {
	return `${String(workflowId)}\u0000`;
}

/**
 * The node's credential for one delivery; undefined when none is selected. Test deliveries
 * ("Listen for test event") always read it afresh.
 */
export async function deliveryCredentials(
	this: IWebhookFunctions,
): Promise<ICredentialDataDecryptedObject | undefined> {
	const selected = this.getNode().credentials?.[CREDENTIAL_TYPE];
	if (!selected) return undefined;
	if (this.getMode() === 'manual')
		return await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const key = `${workflowPrefix(this.getWorkflow().id)}${selected.id ?? selected.name}`;
	const now = Date.now();
	const known = reads.get(key);
	if (known && now - known.at < CREDENTIAL_REUSE_MS) return await known.credentials;
	// Deliveries arriving together share one read; a failed read is not reused.
	const entry = {
		at: now,
		credentials: this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE),
	};
	setNewest(reads, key, entry, CAPACITY);
	entry.credentials.catch(() => {
		if (reads.get(key) === entry) reads.delete(key);
	});
	return await entry.credentials;
}

/** Forgets what deliveries of a workflow read (on publishing and unpublishing it). */
export function forgetDeliveryCredentials(workflowId: unknown): void {
	const prefix = workflowPrefix(workflowId);
	for (const key of reads.keys()) if (key.startsWith(prefix)) reads.delete(key);
}
