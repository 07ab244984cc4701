import type { IDataObject } from 'n8n-workflow';
import type { ResourceSpecs } from '../helpers/types';

export const webhookEvent: ResourceSpecs = {
	get: {
		option: {
			name: 'Get',
			action: 'Get a webhook event',
			description: 'Get a stored webhook delivery with its attempts',
		},
		method: 'GET',
		path: '/transactions/webhooks/{webhookEventId}',
		retry: 'safe',
		build: (params) => ({ pathParams: { webhookEventId: params.pathId('webhookEventId') } }),
	},
	getAll: {
		option: { name: 'Get Many', action: 'Get many webhook events', description: 'List stored webhook deliveries' },
		method: 'GET',
		path: '/transactions/webhooks',
		retry: 'safe',
		pageSize: 200,
		build: (params) => {
			const filters = (params.raw('filters', {}) as IDataObject) ?? {};
			const qs: IDataObject = {};
			for (const key of ['startDate', 'endDate', 'sort', 'filter']) {
				const value = filters[key];
				if (value !== undefined && value !== null && String(value).trim() !== '') qs[key] = String(value).trim();
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
		// A repeat only re-delivers webhooks, which receivers must already tolerate.
		retry: 'safe',
		build: (params) => ({ pathParams: { reference: params.pathId('reference') } }),
	},
};
