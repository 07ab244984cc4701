/**
 * Statuses and their events live in one table (service/catalog.ts, LIFECYCLES): both triggers'
 * Events, the confirmation ranks, the Status filters and the statement's held deposits are read
 * from it. Every status is in every list a person picks from where it can be seen: the Status
 * filters and the poll trigger's Events (it reads the records) list every status; the webhook
 * trigger's Events list the events the service sends (a status it sends no event for cannot arrive).
 */
import { LIFECYCLES, statusOf } from '../../nodes/service/catalog';
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';
import { lifecycleRank } from '../../nodes/events/identity';
import { ALL_EVENTS, EVENT_OPTIONS, POLL_EVENT_OPTIONS } from '../../nodes/events/events';
import { CryptoSettlementPollTrigger } from '../../nodes/CryptoSettlementPollTrigger/CryptoSettlementPollTrigger.node';
import { CryptoSettlementTrigger } from '../../nodes/CryptoSettlementTrigger/CryptoSettlementTrigger.node';

const every = Object.entries(LIFECYCLES).flatMap(([kind, statuses]) =>
	Object.entries(statuses as Record<string, { event?: string; rank: number }>).map(
		([status, { rank, event }]) => ({ kind, status, rank, event }),
	),
);
const announced = every.filter((entry) => entry.event);
const statusValues = (options: Array<{ value: unknown }>) =>
	options
		.map((option) => option.value)
		.filter((value) => value !== ALL_EVENTS && value !== 'trade.address.created');
const eventsOf = (node: {
	description: { properties: Array<{ name: string; options?: unknown }> };
}) =>
	node.description.properties.find((property) => property.name === 'events')?.options as Array<{
		value: unknown;
	}>;

test("the webhook trigger's Events offer every status the table announces, and nothing else besides All Events and the deposit address", () => {
	expect(eventsOf(new CryptoSettlementTrigger())).toEqual(EVENT_OPTIONS);
	expect([...statusValues(EVENT_OPTIONS)].sort()).toEqual(
		announced.map(({ kind, status }) => `${kind}.${status}`).sort(),
	);
});

test("the poll trigger's Events offer every status of the table, with or without an event (it emits every status change)", () => {
	expect(eventsOf(new CryptoSettlementPollTrigger())).toEqual(POLL_EVENT_OPTIONS);
	expect([...statusValues(POLL_EVENT_OPTIONS)].sort()).toEqual(
		every.map(({ kind, status }) => `${kind}.${status}`).sort(),
	);
	expect(POLL_EVENT_OPTIONS.map((option) => option.value)).toEqual(
		expect.arrayContaining(['withdrawal.cancelled', 'withdrawal.processing']),
	);
	// The webhook trigger's options are the poll trigger's, less the statuses without an event.
	expect(
		POLL_EVENT_OPTIONS.filter((option) =>
			EVENT_OPTIONS.some((webhook) => webhook.value === option.value),
		),
	).toEqual(EVENT_OPTIONS);
});

test("the confirmation orders events by the table's ranks", () => {
	for (const { kind, status, rank } of announced)
		expect(lifecycleRank(`${kind}.${status}`)).toBe(rank);
});

test.each([
	['withdrawal', 'withdrawal'],
	['transaction', 'trade'],
] as const)('%s → Get Many offers every status of a %s as Status choices', (resource, kind) => {
	const filters = RESOURCES[resource].specs.getAll.fields.find((field) => field.name === 'filters');
	const status = (filters?.options ?? []).find(
		(option) => 'name' in option && option.name === 'status',
	) as { options?: Array<{ value: unknown }> } | undefined;
	expect(status?.options?.map((option) => option.value)).toEqual(
		every.filter((entry) => entry.kind === kind).map((entry) => entry.status),
	);
});

test('a held status is one that can still change (a statement reports it as held, not as open too long)', () => {
	const held = every.filter(
		({ kind, status }) => statusOf(kind as 'trade' | 'withdrawal', status)?.held,
	);
	expect(held.length).toBeGreaterThan(0);
	for (const { kind, status } of held)
		expect(statusOf(kind as 'trade' | 'withdrawal', status)?.open).toBe(true);
});
