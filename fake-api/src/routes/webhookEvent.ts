/** Stored webhook deliveries, VIP only (the node's `webhookEvent` resource). */
import { ApiError, MESSAGES, notFound, ok } from '../http';
import { findOr404, paginate, type Route } from './context';

export const webhookEventRoutes: Route[] = [
	{
		method: 'GET',
		template: '/transactions/webhooks',
		access: 'vip',
		handle: (ctx) => {
			const { query } = ctx;
			const bound = (name: 'startDate' | 'endDate'): number | undefined => {
				const raw = query.get(name);
				if (!raw) return undefined;
				const time = Date.parse(raw);
				if (Number.isNaN(time)) {
					throw new ApiError(422, MESSAGES.validation, [
						{ message: `${name} must be a valid date`, field: name, location: 'query' },
					]);
				}
				return time;
			};
			const start = bound('startDate');
			const end = bound('endDate');
			const reference = query.get('reference');
			const eventType = query.get('eventType');
			const status = query.get('status');
			const items = ctx.core.state.webhookEvents.filter((event) => {
				const created = Date.parse(event.createdAt);
				return (
					(start === undefined || created >= start) &&
					(end === undefined || created <= end) &&
					(!reference || event.reference === reference) &&
					(!eventType || event.eventType === eventType) &&
					(!status || event.status === status)
				);
			});
			const { data, meta } = paginate(items, query, ctx.core.options.maxWebhookPageSize);
			return ok('', data, { ...meta });
		},
	},
	{
		method: 'GET',
		template: '/transactions/webhooks/{webhookEventId}',
		access: 'vip',
		handle: (ctx) => {
			const event = findOr404(
				ctx.core.state.webhookEvents,
				ctx.params.webhookEventId,
				'webhook event not found',
			);
			// The single-event answer has no message (docs/api.md, public notes).
			return {
				status: 200,
				body: { success: true, data: event, meta: {}, summary: {}, stats: {} },
			};
		},
	},
	{
		method: 'POST',
		template: '/transactions/webhooks/resend/{reference}',
		access: 'vip',
		handle: async (ctx) => {
			const { reference } = ctx.params;
			if (reference.length < 1 || reference.length > 32) {
				throw new ApiError(422, MESSAGES.validation, [
					{
						message: 'reference must be 1 to 32 characters',
						field: 'reference',
						location: 'params',
					},
				]);
			}
			const events = ctx.core.state.webhookEvents.filter((event) => event.reference === reference);
			if (!events.length) throw notFound('no webhook events found for this reference');
			const results: Array<Record<string, unknown>> = [];
			for (const event of events) {
				const delivered = await ctx.core.attemptDelivery(event);
				results.push(
					delivered
						? { id: event.id, status: 'delivered' }
						: { id: event.id, status: 'failed', error: 'webhook delivery failed' },
				);
			}
			return ok('webhook resend attempted', results);
		},
	},
];
