import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** Value of the "All Events" option. The option's name must not contain `*` (lint). */
export const ALL_EVENTS = '*';

/**
 * Events documented by the service (docs/trigger.md, "Events"). Unknown event names the service
 * may add later still reach the workflow when "All Events" is selected.
 */
export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'All Events',
		value: ALL_EVENTS,
		description: 'Any event, including kinds added to the service later',
	},
	{
		name: 'Trade Address Created',
		value: 'trade.address.created',
		description: 'A deposit address is live (trade.address.created)',
	},
	{
		name: 'Trade Completed',
		value: 'trade.completed',
		description: 'A deposit is confirmed, checked and credited (trade.completed)',
	},
	{
		name: 'Trade Flagged',
		value: 'trade.flagged',
		description: 'A deposit is on chain but failed a check; funds are held (trade.flagged)',
	},
	{
		name: 'Trade Pending',
		value: 'trade.pending',
		description:
			'A deposit is seen on chain, not yet confirmed; repeats as confirmations rise (trade.pending)',
	},
	{
		name: 'Withdrawal Completed',
		value: 'withdrawal.completed',
		description: 'A withdrawal reached its destination (withdrawal.completed)',
	},
	{
		name: 'Withdrawal Pending',
		value: 'withdrawal.pending',
		description: 'A withdrawal is accepted and queued (withdrawal.pending)',
	},
	{
		name: 'Withdrawal Rejected',
		value: 'withdrawal.rejected',
		description: 'A withdrawal failed a check before broadcast and was refunded (withdrawal.rejected)',
	},
	{
		name: 'Withdrawal Reversed',
		value: 'withdrawal.reversed',
		description: 'A withdrawal broadcast failed and was refunded (withdrawal.reversed)',
	},
];

/** Whether an incoming event name is one of the selected ones. */
export function isEventSelected(selected: unknown, event: string): boolean {
	if (!Array.isArray(selected)) return false;
	return selected.includes(ALL_EVENTS) || selected.includes(event);
}

/** The Events parameter both triggers show (same name and values, as the contract requires). */
export function eventsProperty(description: string): INodeProperties {
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [],
		options: EVENT_OPTIONS,
		description,
	};
}
