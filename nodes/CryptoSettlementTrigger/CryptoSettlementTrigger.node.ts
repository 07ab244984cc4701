import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../service/credentials';
import { TRIGGER_BUILDER_HINT } from '../events/triggerHints';
import { forgetDeliveryCredentials } from './credentialCache';
import { TRIGGER_DESCRIPTION, triggerProperties } from './triggerDescription';
import { answer, handleDelivery } from './handle';
import { DeliveryLog } from './log';
import { assertConfiguration, readEvents } from './settings';

/** Local record of the URL the service must call (there is no registration API). */
const REGISTRATION_STATIC_KEY = 'registration';

export class CryptoSettlementTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Crypto Settlement Trigger',
		name: 'cryptoSettlementTrigger',
		icon: {
			light: 'file:../../icons/cryptoSettlement.svg',
			dark: 'file:../../icons/cryptoSettlement.dark.svg',
		},
		group: ['trigger'],
		// 1.1: n8n evaluates no expression of its own before handing over a delivery (for version 1 it
		// evaluates the Webhook node's `options.binaryData`, in a fresh expression isolate on n8n 2.x).
		// Both versions behave the same.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{ ($parameter["events"] || []).includes("*") ? "All Events" : ($parameter["events"] || []).join(", ") }}',
		description: TRIGGER_DESCRIPTION,
		builderHint: TRIGGER_BUILDER_HINT,
		defaults: {
			name: 'Crypto Settlement Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_TYPE,
				// Not marked required so the node can be placed first; activation fails with a clear
				// message when the credential (or its webhook secret) is missing and something needs it.
				required: false,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// n8n answers when the execution is handed over (n8n 2.x) with the `webhookResponse` the
				// node returns: an empty responseData selects it (unset, n8n would answer with the
				// literal text "firstEntryJson").
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	webhookMethods = {
		default: {
			/**
			 * Nothing to look up remotely (the URL is pasted in the dashboard). Checks the
			 * configuration and reports whether this URL and event selection were already recorded.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await assertConfiguration.call(this);
				const staticData = this.getWorkflowStaticData('node');
				const recorded = staticData[REGISTRATION_STATIC_KEY] as IDataObject | undefined;
				return (
					recorded?.webhookUrl === this.getNodeWebhookUrl('default') &&
					JSON.stringify(recorded?.events) === JSON.stringify(readEvents.call(this))
				);
			},
			/** Checks the configuration and records the URL the service must call. */
			async create(this: IHookFunctions): Promise<boolean> {
				forgetDeliveryCredentials(this.getWorkflow().id);
				await assertConfiguration.call(this);
				const webhookUrl = this.getNodeWebhookUrl('default');
				if (!webhookUrl)
					throw new NodeOperationError(
						this.getNode(),
						'n8n did not provide a webhook URL for this node',
					);
				const staticData = this.getWorkflowStaticData('node');
				staticData[REGISTRATION_STATIC_KEY] = {
					webhookUrl,
					events: readEvents.call(this),
					recordedAt: new Date().toISOString(),
				};
				this.logger.info(
					`Crypto Settlement Trigger listens at ${webhookUrl}; the service only calls the URL set in its dashboard`,
				);
				return true;
			},
			/** Forgets the recorded URL (deduplication memory is kept for a later re-activation). */
			async delete(this: IHookFunctions): Promise<boolean> {
				forgetDeliveryCredentials(this.getWorkflow().id);
				const staticData = this.getWorkflowStaticData('node');
				if (staticData[REGISTRATION_STATIC_KEY] !== undefined)
					delete staticData[REGISTRATION_STATIC_KEY];
				this.logger.debug(
					'Crypto Settlement Trigger stopped listening; remove the URL from the service dashboard if it is no longer used',
				);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// The delivery's body, headers and the API's answers are cleaned of the credential's secrets as they come in (log.ts).
		const log = new DeliveryLog(this.logger);
		try {
			return await handleDelivery.call(this, log);
		} catch (error) {
			log.unexpected('Crypto Settlement Trigger could not handle a delivery', error);
			return answer.call(this, 500, 'The delivery could not be processed');
		}
	}
}
