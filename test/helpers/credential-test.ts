/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/** The credential's connection test, run as n8n's credential tester runs it. */
import { STATUS_CODES } from 'node:http';
import type { ICredentialDataDecryptedObject, INodeTypeDescription } from 'n8n-workflow';
import { CREDENTIAL_TYPE, loadPackage } from './package';
import { actionWorkflow, runWorkflow } from './run';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Runs the credential's `test.request` the way n8n's credential tester does: a temporary
 * declarative node whose request defaults are the test request, executed with the credential.
 */
export async function testCredential(
	credentials: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const { credentialType } = await loadPackage();
	const testRequest = credentialType.test?.request;
	if (!testRequest) throw new Error('the credential declares no test request');
	const description: INodeTypeDescription = {
		displayName: 'Credential Test',
		name: 'credentialTest',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'Credential Test' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		requestDefaults: testRequest,
		properties: [],
	} as INodeTypeDescription;
	const result = await runWorkflow({
		workflow: actionWorkflow({}, { type: 'harness.credentialTest', name: 'Credential Test' }),
		credentials: { [CREDENTIAL_TYPE]: credentials },
		nodeTypes: { 'harness.credentialTest': { description } },
	});
	const error = result.nodeError('Credential Test');
	if (error) {
		// As n8n's CredentialsTester words it: a rule for the HTTP status, else the bare status text
		// ("Unauthorized"), else the error's message (no answer at all, a refused Base URL).
		const status = Number((error as { httpCode?: unknown }).httpCode);
		if (status >= 100) {
			const rule = (credentialType.test?.rules ?? []).find(
				(candidate) => candidate.type === 'responseCode' && candidate.properties.value === status,
			);
			if (rule) return { status: 'Error', message: rule.properties.message };
			if (status < 199 || status > 299) {
				return {
					status: 'Error',
					message: STATUS_CODES[status] ?? `Received HTTP status code: ${status}`,
				};
			}
		}
		return { status: 'Error', message: error.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
