import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { LIFECYCLES } from '../service/catalog';

/** Value of the "All Events" option. The option's name must not contain `*` (lint). */
export const ALL_EVENTS = '*';

const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Events documented by the service (docs/trigger.md, "Events"): the deposit address, and one per
 * status with an event in the statuses table (service/catalog.ts, LIFECYCLES). Unknown event names
 * the service may add later still reach the workflow when "All Events" is selected.
 */
export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'All Events',
		value: ALL_EVENTS,
		description: 'Any event, including kinds added to the service later',
	},
	...[
		{ name: 'Trade Address Created', value: 'trade.address.created', description: 'A deposit address is live (trade.address.created)' },
		...Object.entries(LIFECYCLES).flatMap(([kind, statuses]) =>
			Object.entries(statuses as Record<string, { event?: string }>).flatMap(([status, { event }]) =>
				event ? [{ name: `${title(kind)} ${title(status)}`, value: `${kind}.${status}`, description: `${event} (${kind}.${status})` }] : [],
			),
		),
	].sort((a, b) => a.name.localeCompare(b.name)),
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

/** The Options collection of a trigger's panel. */
export function optionsProperty(options: INodeProperties[]): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add option', default: {}, options };
}
