/**
 * The webhook trigger's test harness (see trigger-harness.ts for how it reproduces n8n around the
 * node). Tests import everything from here.
 */
export {
	BASE_URL,
	CREDENTIALS,
	SERVICE_IPS,
	TRIGGER_NAME,
	WEBHOOK_ID,
	WEBHOOK_SECRET,
	WITHOUT_CONFIRMATION,
	WORKFLOW_ID,
} from './constants';
export { captureLogs, triggerTestSetup, type LogEntry } from './logs';
export {
	addressPayload,
	CONTRACT_EVENTS,
	mulberry32,
	tradePayload,
	withdrawalPayload,
} from './payloads';
export { buildRequest, FakeResponse, type Delivery } from './request';
export type { ServedCall, ServedTrigger } from './server';
export {
	TriggerHarness,
	triggerNode,
	type DeliveryResult,
	type TriggerSetup,
} from './trigger-harness';
