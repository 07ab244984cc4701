import { sleep, type IDataObject } from 'n8n-workflow';
import { startLocalServer, type LocalAnswer, type LocalServer } from './poll-harness';

/**
 * A local stand-in for the service's three lists the poll trigger reads, every way they may come:
 * sorted newest or oldest first (by creation date or by insertion), with or without `meta.pages`
 * and `meta.totalDocs`, records with or without `createdAt`, the service's own clock in its
 * `Date` header, slow answers, faults, and records added while a walk is under way. Stored
 * deliveries honour `startDate`/`endDate`; one trade or withdrawal can be looked up by id.
 */

export type ListName = 'trades' | 'withdrawals' | 'deliveries';

const LISTS: Record<string, ListName> = {
	'/trades/transactions': 'trades',
	'/payments/withdrawals': 'withdrawals',
	'/transactions/webhooks': 'deliveries',
};
const LOOKUPS: Array<[RegExp, ListName]> = [
	[/^\/trades\/transactions\/([^/]+)$/, 'trades'],
	[/^\/payments\/withdrawal\/([^/]+)$/, 'withdrawals'],
];

export interface ListService extends LocalServer {
	/** Records of each list in the order they were created (inserted). */
	records: Record<ListName, IDataObject[]>;
	order: 'newestFirst' | 'oldestFirst';
	/** What the lists are sorted by (records without `createdAt` are always in insertion order). */
	sortBy: 'createdAt' | 'insertion';
	/** `full`: page, pages, totalDocs, hasNextPage…; `hasNextPage`: nothing else. */
	meta: 'full' | 'hasNextPage';
	/** The service's clock (ms) in its Date header; undefined: the real clock. */
	clock?: number;
	/** Each answer waits this long, by `wait`. */
	latencyMs: number;
	/**
	 * How an answer waits `latencyMs`: the real clock by default; a test of time passes the time on
	 * a clock it controls instead, so an answer is slow by count, whatever the machine's speed.
	 */
	wait: (ms: number) => Promise<void>;
	/** Overrides an answer (a failing page, a 429…). */
	fault?: (path: string, query: URLSearchParams) => LocalAnswer | undefined;
	/**
	 * What an answer shows of each record, at the service's `clock`: a copy to change (a lagging
	 * replica's older status), or undefined to leave it out (a record listed late, missing from one
	 * answer). Applied after sorting, so pages and totals are those of what is shown.
	 */
	view?: (list: ListName, record: IDataObject) => IDataObject | undefined;
	/** Called after each page is answered: records may be added between the pages of a walk. */
	afterPage?: (list: ListName, page: number) => void;
	/** Pages asked of a list since the last `clearRequests()`. */
	pagesOf(list: ListName): number[];
	clearRequests(): void;
}

const envelope = (data: unknown, meta: IDataObject = {}) => ({
	success: true,
	message: 'ok',
	data,
	meta,
	summary: {},
	stats: {},
});

export async function startListService(): Promise<ListService> {
	// Sorting 30,000 records for every page would make the stand-in the slow part: sorted once per change.
	const cache = new Map<ListName, { key: string; list: IDataObject[] }>();
	const sorted = (list: ListName): IDataObject[] => {
		const all = service.records[list];
		const key = `${all.length} ${all.at(-1)?.id} ${service.order} ${service.sortBy}`;
		const cached = cache.get(list);
		if (cached?.key === key) return cached.list;
		const byDate =
			service.sortBy === 'createdAt' && all.every((record) => record.createdAt !== undefined);
		const ascending = byDate
			? all
					.map((record, index) => ({ record, index, at: Date.parse(String(record.createdAt)) }))
					.sort((a, b) => a.at - b.at || a.index - b.index)
					.map(({ record }) => record)
			: [...all];
		const result = service.order === 'newestFirst' ? ascending.reverse() : ascending;
		cache.set(list, { key, list: result });
		return result;
	};
	const answer = (path: string, query: URLSearchParams): LocalAnswer => {
		const injected = service.fault?.(path, query);
		if (injected) return injected;
		const list = LISTS[path];
		if (list) {
			const start = query.get('startDate')
				? Date.parse(query.get('startDate') as string)
				: Number.NEGATIVE_INFINITY;
			const end = query.get('endDate')
				? Date.parse(query.get('endDate') as string)
				: Number.POSITIVE_INFINITY;
			const all = sorted(list)
				.map((record) => (service.view ? service.view(list, record) : record))
				.filter((record): record is IDataObject => {
					if (record === undefined) return false;
					if (record.createdAt === undefined) return true;
					const at = Date.parse(String(record.createdAt));
					return at >= start && at <= end;
				});
			const page = Number(query.get('page') ?? 1);
			const size = Number(query.get('size') ?? 10);
			const pages = Math.max(1, Math.ceil(all.length / size));
			const data = all.slice((page - 1) * size, page * size).map((record) => ({ ...record }));
			service.afterPage?.(list, page);
			const meta: IDataObject =
				service.meta === 'full'
					? { page, pages, totalDocs: all.length, hasNextPage: page < pages, hasPrevPage: page > 1 }
					: { hasNextPage: page < pages };
			return { status: 200, body: envelope(data, meta) };
		}
		for (const [pattern, name] of LOOKUPS) {
			const id = pattern.exec(path)?.[1];
			const record =
				id && service.records[name].find((candidate) => candidate.id === decodeURIComponent(id));
			if (id)
				return record
					? { status: 200, body: envelope({ ...record }) }
					: {
							status: 404,
							body: { success: false, message: 'not found', errors: [], meta: {}, data: {} },
						};
		}
		return {
			status: 404,
			body: { success: false, message: 'not found', errors: [], meta: {}, data: {} },
		};
	};
	const server = await startLocalServer(async (_method, path, query) => {
		if (service.latencyMs) await service.wait(service.latencyMs);
		const reply = answer(path, query);
		return {
			...reply,
			headers: {
				date: new Date(service.clock ?? Date.now()).toUTCString(),
				...(reply.headers ?? {}),
			},
		};
	});
	const service: ListService = Object.assign(server, {
		records: { trades: [], withdrawals: [], deliveries: [] } as Record<ListName, IDataObject[]>,
		order: 'newestFirst' as const,
		sortBy: 'createdAt' as const,
		meta: 'full' as const,
		latencyMs: 0,
		wait: sleep,
		pagesOf: (list: ListName) =>
			server.requests
				.filter((request) => LISTS[request.path] === list)
				.map((request) => Number(request.query.get('page'))),
		clearRequests: () => {
			server.requests.length = 0;
		},
	});
	return service;
}

const iso = (at: number) => new Date(at).toISOString();

export function trade(n: number, at: number | undefined, status = 'completed'): IDataObject {
	return {
		id: `t${String(n).padStart(6, '0')}`,
		status,
		amountReceived: n,
		address: `addr-${n}`,
		...(at === undefined ? {} : { createdAt: iso(at) }),
	};
}

export function withdrawal(n: number, at: number | undefined, status = 'completed'): IDataObject {
	return {
		id: `w${String(n).padStart(6, '0')}`,
		status,
		amount: n,
		...(at === undefined ? {} : { createdAt: iso(at) }),
	};
}

/** A stored delivery of `trade.completed` for trade n. */
export function delivery(n: number, at: number): IDataObject {
	const id = `t${String(n).padStart(6, '0')}`;
	return {
		id: `d${String(n).padStart(6, '0')}`,
		eventType: 'trade.completed',
		reference: id,
		status: 'delivered',
		payload: { event: 'trade.completed', id, status: 'completed', amountInUSD: n },
		createdAt: iso(at),
	};
}

/** The ids of the emitted items, in order. */
export const idsOf = (items: IDataObject[] | null): string[] =>
	(items ?? []).map((item) => String(item.id));
