/**
 * Statuses and their events live in one table (service/catalog.ts, LIFECYCLES): the webhook
 * trigger's Events and confirmation ranks, and the Status filters, are read from it.
 */
import { LIFECYCLES } from '../../nodes/service/catalog';
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';
import { lifecycleRank } from '../../nodes/events/identity';
import { ALL_EVENTS, EVENT_OPTIONS } from '../../nodes/events/events';

const announced = Object.entries(LIFECYCLES).flatMap(([kind, statuses]) =>
	Object.entries(statuses as Record<string, { event?: string; rank: number }>)
		.filter(([, status]) => status.event)
		.map(([status, { rank }]) => ({ kind, status, rank })),
);

test('Events offer every status the table announces, and nothing else besides All Events and the deposit address', () => {
	const values = EVENT_OPTIONS.map((option) => option.value).filter((value) => value !== ALL_EVENTS && value !== 'trade.address.created');
	expect([...values].sort()).toEqual(announced.map(({ kind, status }) => `${kind}.${status}`).sort());
});

test("the confirmation orders events by the table's ranks", () => {
	for (const { kind, status, rank } of announced) expect(lifecycleRank(`${kind}.${status}`)).toBe(rank);
});

test.each([
	['withdrawal', 'withdrawal'],
	['transaction', 'trade'],
] as const)('%s → Get Many offers the statuses of a %s as Status choices', (resource, kind) => {
	const filters = RESOURCES[resource].specs.getAll.fields.find((field) => field.name === 'filters');
	const status = (filters?.options ?? []).find((option) => 'name' in option && option.name === 'status') as { options?: Array<{ value: unknown }> } | undefined;
	expect(status?.options?.map((option) => option.value)).toEqual(announced.filter((entry) => entry.kind === kind).map((entry) => entry.status));
});
