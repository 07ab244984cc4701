import type { IDataObject } from 'n8n-workflow';
import type { PollResult } from './poll-harness';

/** The events a series of polls emitted, as `event id`, checked against what the service holds. */
export class Emitted {
	readonly events: string[] = [];

	/** Takes one poll's result: it must have succeeded, been committed, and emitted nothing twice. */
	add(result: PollResult): IDataObject[] {
		if (result.error) throw result.error;
		expect(result.abandoned).toBe(false);
		const items = result.items ?? [];
		this.events.push(...items.map((item) => `${String(item.event)} ${String(item.id)}`));
		return items;
	}

	/** Every expected event exactly once, nothing else. */
	expectExactly(expected: string[]): void {
		const counts = new Map<string, number>();
		for (const event of this.events) counts.set(event, (counts.get(event) ?? 0) + 1);
		expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
		expect([...this.events].sort()).toEqual([...expected].sort());
	}
}

/** The event each record's status makes (`trade.completed t000001`). */
export const eventsOf = (kind: 'trade' | 'withdrawal', records: IDataObject[]): string[] =>
	records.map((record) => `${kind}.${String(record.status)} ${String(record.id)}`);
