import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { LIST_FIELDS, REFERENCE, requiredText } from '../fields/fields';
import type { Params } from '../record/params';
import type { ResourceSpecs } from '../record/record';
import type { HttpCall } from '../../service/api';
import { credentialsOf } from '../../service/credentials';
import { ROUTES } from '../../service/routes';
import { verifyWebhookNodeDelivery } from '../../events/webhookNodeDelivery';

/** The service's own filters of stored deliveries, sent as query parameters. */
const FILTERS: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'End Date',
			name: 'endDate',
			type: 'dateTime',
			default: '',
			description: 'Only events created before this time',
		},
		{
			displayName: 'Filter',
			name: 'filter',
			type: 'string',
			default: '',
			placeholder: 'e.g. eventType=withdrawal.completed',
			description:
				"Sent unchanged as the service's filter expression, for example to list one event kind. The service does not publish the syntax, so the example is a starting point: check that the results match it. Start Date and End Date are documented filters.",
		},
		{
			displayName: 'Sort',
			name: 'sort',
			type: 'string',
			default: '',
			placeholder: 'e.g. -createdAt',
			description: "Sort expression in the service's own syntax",
		},
		{
			displayName: 'Start Date',
			name: 'startDate',
			type: 'dateTime',
			default: '',
			description: 'Only events created after this time',
		},
	],
};

/**
 * Verify Delivery: n8n's Webhook node receives and answers the delivery, this operation checks it
 * as the webhook trigger does and gives its item, or none for a record that contradicts it
 * (docs/trigger.md, "n8n's Webhook node and Verify Delivery").
 */
async function verifyDelivery(params: Params, http: HttpCall): Promise<INodeExecutionData[]> {
	const { ctx } = params;
	const verified = await verifyWebhookNodeDelivery(ctx, http, await credentialsOf(ctx));
	if ('item' in verified) return [{ json: verified.item }];
	ctx.logger.info(
		`Crypto Settlement (Verify Delivery): no item for this delivery: ${verified.ignored}`,
	);
	return [];
}

export const webhookEvent: ResourceSpecs = {
	get: {
		option: {
			name: 'Get',
			action: 'Get a webhook event',
			description: 'Get a stored webhook delivery with its attempts',
		},
		method: 'GET',
		path: '/transactions/webhooks/{webhookEventId}',
		source: 'public notes',
		kind: 'read',
		money: 'none',
		fields: [requiredText('webhookEventId', 'Webhook Event ID')],
		byId: { param: 'webhookEventId' },
		build: (params) => ({ pathParams: { webhookEventId: params.pathId('webhookEventId') } }),
	},
	getAll: {
		option: {
			name: 'Get Many',
			action: 'Get many webhook events',
			description: 'List stored webhook deliveries',
		},
		method: 'GET',
		path: ROUTES.webhookEvents.path,
		source: 'public notes',
		kind: 'pagedList',
		money: 'none',
		pageSize: 200,
		fields: [...LIST_FIELDS, FILTERS],
		build: (params) => {
			const filters = (params.raw('filters', {}) as IDataObject) ?? {};
			const qs: IDataObject = {};
			for (const key of ['startDate', 'endDate', 'sort', 'filter']) {
				const value = String(filters[key] ?? '').trim();
				if (value) qs[key] = value;
			}
			return { qs };
		},
	},
	resend: {
		option: {
			name: 'Resend',
			action: 'Resend webhook events',
			description: 'Send again every webhook of a trade or withdrawal; check each result’s status',
		},
		method: 'POST',
		path: '/transactions/webhooks/resend/{reference}',
		source: 'public notes',
		// A repeat only re-delivers webhooks, which receivers must already tolerate.
		kind: 'update',
		money: 'settings',
		fields: [REFERENCE],
		build: (params) => ({ pathParams: { reference: params.pathId('reference') } }),
	},
	verifyDelivery: {
		option: {
			name: 'Verify Delivery',
			action: 'Verify a webhook delivery',
			description:
				"After n8n's Webhook node: checks the delivery's secret and body and confirms its record with the API, as the trigger does; outputs the trigger's item with its eventKey",
		},
		method: 'GET',
		path: ROUTES.trade.path,
		source: 'public notes',
		kind: 'report',
		reads: [
			ROUTES.trade.path,
			ROUTES.withdrawal.path,
			ROUTES.wallet.path,
			ROUTES.depositAssets.path,
		].map((path) => `GET ${path}`),
		readsNote:
			'one record per delivery; the asset list and each wallet once per process, as the trigger; docs/trigger.md',
		money: 'none',
		fields: [],
		report: verifyDelivery,
	},
};
