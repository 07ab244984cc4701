import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { recordPath } from '../service/transport';
import { statusesWhere, statusOf } from '../service/catalog';
import { scalarText, timeMs } from '../service/values';
import { idsShown, sameRecordId } from '../service/ids';
import { ROUTES } from '../service/routes';
import { refusedInspection, type PollClient, type StopReason } from './client';
import {
	statusesOf,
	withStatus,
	type Change,
	type Identity,
	type ListCursor,
	type ListSource,
	type Range,
} from './cursor';
import { fromRecord, fromStoredDelivery, type PolledEvent, type RecordKind } from './items';

/**
 * The lists the poll trigger reads: the transaction and withdrawal lists (source Records) at the
 * paths of the action node's records, and the stored webhook deliveries (source Stored Webhook
 * Deliveries), each as the walk sees it (cursor.ts, ListSource).
 */

export type ListName = 'trades' | 'withdrawals' | 'deliveries';

interface ListSpec {
	name: ListName;
	route: string;
	/** docs/api.md, "Pagination": the node asks for 100 per page (200 stored deliveries). */
	size: number;
	kind?: RecordKind;
	/** The path of one record, for records not yet final that the walk no longer reaches. */
	lookup?: string;
}

const recordList = (name: ListName, kind: RecordKind, route: string, lookup: string): ListSpec => ({
	name,
	kind,
	route,
	size: 100,
	lookup,
});

export const RECORD_LISTS = [
	recordList('trades', 'trade', ROUTES.trades.path, ROUTES.trade.path),
	recordList('withdrawals', 'withdrawal', ROUTES.withdrawals.path, ROUTES.withdrawal.path),
];

/** The service's stored webhook deliveries: the action node's Webhook Event → Get Many. */
export const STORED_DELIVERIES: ListSpec = {
	name: 'deliveries',
	route: ROUTES.webhookEvents.path,
	size: 200,
};

/** Statuses after which a record can still change (docs/trigger.md, "Confirm With API": life cycles). */
const OPEN_STATUSES = {
	trade: statusesWhere('trade', (entry) => entry.open),
	withdrawal: statusesWhere('withdrawal', (entry) => entry.open),
};

/** A record not yet final that no page of the poll showed is looked up again after a tenth of its age, at most this long. */
const RECHECK_MAX_MS = 10 * 60 * 1000;

interface PollList {
	spec: ListSpec;
	source: ListSource;
	toEvent(record: IDataObject): PolledEvent | undefined;
	/** Why the last request was not made (the time budget, a 429). */
	stopped?: StopReason;
}

export function pollList(
	ctx: IPollFunctions,
	client: PollClient,
	spec: ListSpec,
	lastStart: number,
): PollList {
	const identities = new WeakMap<IDataObject, Identity | undefined>();
	const identify = spec.kind ? recordIdentity : deliveryIdentity;
	const open = spec.kind ? OPEN_STATUSES[spec.kind] : [];
	const list: PollList = {
		spec,
		toEvent: (record) => (spec.kind ? fromRecord(spec.kind, record) : fromStoredDelivery(record)),
		source: {
			ranged: !spec.kind,
			pageSize: spec.size,
			isOpen: (status) => open.includes(status),
			isBehind: (status, than) => {
				const [now, before] = spec.kind
					? [statusOf(spec.kind, status), statusOf(spec.kind, than)]
					: [];
				return !!now && !!before && now.rank < before.rank;
			},
			identify(record) {
				if (!identities.has(record)) identities.set(record, identify(record));
				return identities.get(record);
			},
			async fetch(page: number, range?: Range) {
				const qs: IDataObject = { page, size: spec.size };
				if (range?.start !== undefined) qs.startDate = new Date(range.start).toISOString();
				if (range?.end !== undefined) qs.endDate = new Date(range.end).toISOString();
				const forbidden = spec.kind
					? undefined
					: (message: string) => refusedInspection(ctx, message);
				const answer = await client.page(spec.route, qs, lastStart, forbidden);
				if (typeof answer !== 'string') return answer;
				list.stopped = answer;
				return undefined;
			},
		},
	};
	return list;
}

function recordIdentity(record: IDataObject): Identity | undefined {
	const id = scalarText(record.id).trim();
	return id === ''
		? undefined
		: { id, at: timeMs(record.createdAt), status: scalarText(record.status).trim().toLowerCase() };
}

/** A stored delivery is the event it carries: two deliveries of the same event are one. */
function deliveryIdentity(stored: IDataObject): Identity | undefined {
	const event = fromStoredDelivery(stored);
	return event && { id: event.key, at: timeMs(stored.createdAt), status: '' };
}

/**
 * Records not yet final that this poll's pages did not show, looked up one by one (docs/trigger.md,
 * "What it guarantees"): a lookup that reads nothing or fails proves nothing, keeps the record followed
 * and counts in `unread` (`failure`: the first error, for the warning), never failing the poll.
 */
export async function followOpen(
	client: PollClient,
	list: PollList,
	cursor: ListCursor,
	read: Set<string>,
	limit: number,
	lastStart: number,
): Promise<{ changes: Change[]; unread: number; failure?: string }> {
	const { lookup } = list.spec;
	if (!lookup) return { changes: [], unread: 0 };
	const now = client.serviceNow();
	const due = Object.entries(cursor.open)
		.filter(
			([id, [at, , checked]]) =>
				!read.has(id) && now - checked >= Math.min(RECHECK_MAX_MS, (now - at) / 10),
		)
		.sort((a, b) => a[1][2] - b[1][2])
		.slice(0, limit);
	const changes: Change[] = [];
	let unread = 0;
	let failure: string | undefined;
	for (const [id, [at, kept]] of due) {
		const record = await client
			.record(lookup, recordPath(lookup, id), lastStart)
			.catch((error: unknown) => {
				failure ??= (error as Error).message;
				return null;
			});
		if (typeof record === 'string') {
			list.stopped = record;
			break;
		}
		const identity = record && list.source.identify(record);
		const unreadable =
			!record || !identity || !idsShown(record).some((shown) => sameRecordId(shown, id));
		// Unread, a status read before, or a lagging replica's earlier one: nothing changes.
		const known = statusesOf(kept);
		if (
			unreadable ||
			known.includes(identity.status) ||
			known.some((earlier) => list.source.isBehind(identity.status, earlier))
		) {
			cursor.open[id] = [at, kept, now];
			if (unreadable) unread++;
			continue;
		}
		changes.push({ record, identity: { ...identity, id } });
		const next = withStatus(kept, identity.status);
		if (cursor.seen[id]) cursor.seen[id][1] = next;
		if (list.source.isOpen(identity.status)) cursor.open[id] = [at, next, now];
		else delete cursor.open[id];
	}
	return { changes, unread, ...(failure === undefined ? {} : { failure }) };
}
