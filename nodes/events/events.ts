import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { LIFECYCLES } from '../service/catalog';

/** Value of the "All Events" option. The option's name must not contain `*` (lint). */
export const ALL_EVENTS = '*';

const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

const RECORD_NOUN: Record<string, string> = { trade: 'A deposit', withdrawal: 'A withdrawal' };

/**
 * The Events options: All Events, the deposit address, and one per status of the statuses table
 * (service/catalog.ts, LIFECYCLES), in name order. `everyStatus` adds the statuses the service sends
 * no event for, which only the poll trigger can see (it reads the records, and emits every status
 * change); the webhook trigger lists the events the service sends (docs/trigger.md, "Events").
 * Event names the service may add later still reach the workflow when "All Events" is selected.
 */
function eventOptions(everyStatus: boolean): INodePropertyOptions[] {
	const statuses = Object.entries(LIFECYCLES).flatMap(([kind, entries]) =>
		Object.entries(entries as Record<string, { event?: string }>).flatMap(([status, { event }]) => {
			const value = `${kind}.${status}`;
			const description = event
				? `${event} (${value})`
				: `${RECORD_NOUN[kind] ?? kind} is ${status}, seen in the records: the service sends no event for it (${value})`;
			return event || everyStatus
				? [{ name: `${title(kind)} ${title(status)}`, value, description }]
				: [];
		}),
	);
	return [
		{
			name: 'All Events',
			value: ALL_EVENTS,
			description: 'Any event, including kinds added to the service later',
		},
		...[
			{
				name: 'Trade Address Created',
				value: 'trade.address.created',
				description: 'A deposit address is live (trade.address.created)',
			},
			...statuses,
		].sort((a, b) => a.name.localeCompare(b.name)),
	];
}

/** The webhook trigger's Events: the events the service sends. */
export const EVENT_OPTIONS = eventOptions(false);
/** The poll trigger's Events: every status change it can see, with or without an event. */
export const POLL_EVENT_OPTIONS = eventOptions(true);

/** Whether an incoming event name is one of the selected ones. */
export function isEventSelected(selected: unknown, event: string): boolean {
	return Array.isArray(selected) && (selected.includes(ALL_EVENTS) || selected.includes(event));
}

/**
 * The Events parameter of a trigger (same name and values in both, as the contract requires; the
 * poll trigger's adds the statuses without an event).
 */
export function eventsProperty(
	description: string,
	options: INodePropertyOptions[],
): INodeProperties {
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [],
		options,
		description,
	};
}

/** The Options collection of a node's panel (both triggers', and Statement's in the action node). */
export function optionsProperty(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options,
	};
}
