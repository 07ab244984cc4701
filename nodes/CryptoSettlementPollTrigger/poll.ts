import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';
import { credentialProblem } from '../../credentials/CryptoSettlementApi.credentials';
import {
	callApi,
	createAuthenticatedHttpCall,
	isSuccess,
	serviceError,
	type ApiContext,
	type ApiRequest,
	type HttpCall,
} from '../CryptoSettlement/helpers/transport';
import { CREDENTIAL_TYPE, lifecycleRank } from '../CryptoSettlementTrigger/confirm';
import { remember, wasEmitted } from '../CryptoSettlementTrigger/dedupe';
import { isEventSelected } from '../CryptoSettlementTrigger/events';
import { scalarText } from '../CryptoSettlement/helpers/values';
import { fromRecord, fromStoredDelivery, type PolledEvent, type RecordKind, type Source } from './items';
import { createdAtMs, readNewestFirst, type FetchPage, type Page, type Resume } from './read';
import { SPECS } from '../CryptoSettlement/resources';

/**
 * One poll (docs/trigger.md, "Poll trigger"). Everything is read first; the static data is replaced
 * only once the whole poll succeeded, so a poll that fails half way emits nothing and leaves the
 * position where it was (n8n keeps the static data object of an active workflow between polls).
 */

/** Key of the poll trigger's state in the node's static data. */
export const STATE_KEY = 'pollState';
/** Every poll re-reads this much before its position, to catch records that become visible late. */
export const OVERLAP_MS = 10 * 60 * 1000;
/** Emitted events remembered (duplicate keys, oldest forgotten first). */
export const KEY_CAPACITY = 5000;
/** Records followed for status changes per list (not yet in a final status). */
export const OPEN_CAPACITY = 1000;
export const DEFAULT_MAX_PAGES = 10;
/** docs/api.md, "Pagination": the node asks for 100 per page (200 for webhook events). */
const PAGE_SIZE: Record<Source, number> = { records: 100, webhookEvents: 200 };

/** Statuses after which a record can still change (docs/trigger.md, "Confirm With API": life cycles). */
const OPEN_STATUSES: Record<RecordKind, string[]> = {
	trade: ['pending', 'flagged'],
	withdrawal: ['pending', 'processing'],
};

const LISTS: Array<{ kind: RecordKind; name: 'trades' | 'withdrawals'; route: string }> = [
	{ kind: 'trade', name: 'trades', route: SPECS.transaction.getAll.path },
	{ kind: 'withdrawal', name: 'withdrawals', route: SPECS.withdrawal.getAll.path },
];

/** The service's stored webhook deliveries: the action node's Webhook Event → Get Many. */
const STORED_DELIVERIES = SPECS.webhookEvent.getAll.path;

/** An unfinished walk (Max Pages per Poll reached): where it resumes, and the position once it is done. */
interface PendingWalk extends Resume {
	next: number;
}

interface ListState {
	/** Creation time (ms) of the newest record read; null while the list was empty. */
	since: number | null;
	/** Records not yet in a final status: id → creation time (ms). */
	open: Record<string, number>;
	resume?: PendingWalk;
}

interface PollState extends IDataObject {
	version: 1;
	source: Source;
	/** webhookEvents: the end of the last date range fully read (ms, this n8n's clock). */
	since?: number;
	resume?: IDataObject;
	trades?: IDataObject;
	withdrawals?: IDataObject;
}

export interface PollSettings {
	source: Source;
	events: string[];
	maxPages: number;
}

/** The 429 that ends a poll quietly: the next poll starts from the same position. */
export function isRateLimited(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '429';
}

function readState(staticData: IDataObject, source: Source): PollState | undefined {
	const state = staticData[STATE_KEY] as PollState | undefined;
	return state && typeof state === 'object' && state.version === 1 && state.source === source ? state : undefined;
}

function listState(state: PollState | undefined, name: 'trades' | 'withdrawals'): ListState {
	const stored = state?.[name] as Partial<ListState> | undefined;
	return {
		since: typeof stored?.since === 'number' ? stored.since : null,
		open: stored?.open && typeof stored.open === 'object' ? { ...stored.open } : {},
		resume: pendingWalk(stored?.resume),
	};
}

function pendingWalk(value: unknown): PendingWalk | undefined {
	const walk = value as Partial<PendingWalk> | undefined;
	return walk && typeof walk.page === 'number' && typeof walk.next === 'number' && typeof walk.order === 'string'
		? { page: walk.page, next: walk.next, order: walk.order }
		: undefined;
}

function finite(values: number[]): number[] {
	return values.filter((value) => Number.isFinite(value));
}

/** Client of one poll: pacing, 429 and error handling of the action node (helpers/transport.ts). */
class Client {
	private readonly http: HttpCall;

	constructor(private readonly ctx: IPollFunctions) {
		this.http = createAuthenticatedHttpCall(ctx, CREDENTIAL_TYPE);
	}

	pages(source: Source, route: string, qs: IDataObject = {}): FetchPage {
		const size = PAGE_SIZE[source];
		return async (page: number): Promise<Page> => {
			const request: ApiRequest = { method: 'GET', route, url: route, qs: { ...qs, page, size } };
			// A 429 is not waited out: the poll ends and the next one catches up.
			const response = await callApi(this.ctx as ApiContext, this.http, request, 'safe', { maxRateLimitedAttempts: 1 });
			if (!isSuccess(response)) {
				if (response.statusCode === 403 && source === 'webhookEvents') throw refusedInspection(this.ctx, response.body?.message);
				throw serviceError(this.ctx, request, response);
			}
			const data = response.body.data;
			if (!Array.isArray(data)) {
				throw new NodeApiError(
					this.ctx.getNode(),
					{ message: 'the list has no data array' },
					{ message: `The service answered GET ${route} without a list`, description: 'Nothing was emitted; the next poll tries again.' },
				);
			}
			const meta = (response.body.meta ?? {}) as IDataObject;
			const pages = Number(meta.pages);
			const hasNextPage =
				typeof meta.hasNextPage === 'boolean'
					? meta.hasNextPage
					: Number.isFinite(pages)
						? page < pages
						: data.length >= size;
			return {
				records: data.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object' && !Array.isArray(entry)),
				pages: Number.isFinite(pages) && pages >= 1 ? pages : undefined,
				hasNextPage,
			};
		};
	}
}

function refusedInspection(ctx: IPollFunctions, serviceMessage: unknown): NodeApiError {
	const message = scalarText(serviceMessage) || 'forbidden';
	return new NodeApiError(ctx.getNode(), { message, httpCode: '403' } as JsonObject, {
		message:
			'The service refused to list its stored webhook deliveries (HTTP 403): this account has no webhook inspection access',
		description: `The service said: "${message}". Source "Stored Webhook Deliveries" needs the service's webhook inspection access (VIP API access): ask the service to enable it, or set Source to "Records (Transactions and Withdrawals)", which needs only the API access the action node uses.`,
		httpCode: '403',
	});
}

function assertCredential(ctx: IPollFunctions, credentials: IDataObject): void {
	const problem = credentialProblem(credentials);
	if (problem) {
		throw new NodeOperationError(ctx.getNode(), problem.message, {
			description: `Fix '${problem.field}' in the Crypto Settlement API credential. Nothing was sent to the service.`,
		});
	}
}

/** Events of this poll that are selected and not emitted before (nor twice in this poll), oldest first. */
function selectNew(candidates: PolledEvent[], events: string[], state: IDataObject): PolledEvent[] {
	const seen = new Set<string>();
	const fresh = candidates.filter((candidate) => {
		if (!isEventSelected(events, candidate.event) || seen.has(candidate.key) || wasEmitted(state, candidate.key)) return false;
		seen.add(candidate.key);
		return true;
	});
	const time = (at: number) => (Number.isFinite(at) ? at : Infinity);
	// Same time (one moment in the service): pending before completed, as the record lived it.
	return fresh.sort((a, b) => time(a.at) - time(b.at) || lifecycleRank(a.event) - lifecycleRank(b.event));
}

// ------------------------------------------------------------------------- stored deliveries

async function pollWebhookEvents(
	client: Client,
	settings: PollSettings,
	previous: PollState | undefined,
	now: number,
): Promise<{ candidates: PolledEvent[]; baseline: boolean; state: PollState; complete: boolean }> {
	const since = previous?.since ?? now;
	const pending = pendingWalk(previous?.resume);
	const range = { startDate: new Date(since - OVERLAP_MS).toISOString(), endDate: new Date(now).toISOString() };
	const fetch = client.pages('webhookEvents', STORED_DELIVERIES, range);
	const read = await readNewestFirst(fetch, -Infinity, settings.maxPages, pending);
	const candidates = read.records.map(fromStoredDelivery).filter((event): event is PolledEvent => event !== undefined);
	const state: PollState = { version: 1, source: 'webhookEvents', since: now };
	if (previous !== undefined && !read.complete) {
		// Read again from the same start; the walk resumes where it stopped.
		state.since = since;
		state.resume = { page: read.nextPage ?? 1, order: read.order, next: pending?.next ?? now };
	} else if (pending) state.since = pending.next;
	return { candidates, baseline: previous === undefined, complete: read.complete, state };
}

// ---------------------------------------------------------------------------------- records

async function pollList(
	client: Client,
	list: (typeof LISTS)[number],
	settings: PollSettings,
	previous: PollState | undefined,
	logger: IPollFunctions['logger'],
): Promise<{ candidates: PolledEvent[]; state: ListState; complete: boolean }> {
	const before = listState(previous, list.name);
	const baseline = previous === undefined;
	const windowStart = before.since === null ? -Infinity : before.since - OVERLAP_MS;
	// A first poll reads only the newest page; later polls read back to the window and the oldest followed record.
	const stopAt = baseline ? Infinity : Math.min(windowStart, ...Object.values(before.open));
	const read = await readNewestFirst(client.pages('records', list.route), stopAt, settings.maxPages, before.resume);

	const open = { ...before.open };
	const candidates: PolledEvent[] = [];
	const created = finite(read.records.map(createdAtMs));
	for (const record of read.records) {
		const id = scalarText(record.id).trim();
		const time = createdAtMs(record);
		if (id === '') continue;
		const inWindow = baseline || !Number.isFinite(time) || time >= windowStart || open[id] !== undefined;
		if (!inWindow) continue;
		const event = fromRecord(list.kind, record);
		if (!event) continue;
		candidates.push(event);
		const status = scalarText(record.status).trim().toLowerCase();
		if (OPEN_STATUSES[list.kind].includes(status)) open[id] = Number.isFinite(time) ? time : Date.now();
		else delete open[id];
	}

	const oldestRead = created.length ? Math.min(...created) : Infinity;
	// Every record newer than the window was read: the position moves to the newest one.
	const newCovered = read.complete || oldestRead < windowStart;
	const newest = created.length ? Math.max(...created) : undefined;
	let since = before.since;
	let resume: PendingWalk | undefined;
	if (baseline) {
		since = newest ?? (read.records.length ? Date.now() : null);
	} else if (newCovered) {
		since = Math.max(newest ?? -Infinity, before.since ?? -Infinity, before.resume?.next ?? -Infinity);
		if (!Number.isFinite(since)) since = before.since;
	} else {
		// Max Pages per Poll reached before the window: resume there next time, position unchanged.
		resume = {
			page: read.nextPage ?? 1,
			order: read.order,
			next: Math.max(before.resume?.next ?? -Infinity, newest ?? -Infinity, before.since ?? -Infinity),
		};
		if (!Number.isFinite(resume.next)) resume.next = Date.now();
	}
	if (!read.complete && newCovered) {
		const unreachable = Object.entries(open).filter(([, time]) => time < oldestRead);
		if (unreachable.length) {
			logger.warn(
				`Crypto Settlement Poll Trigger: ${unreachable.length} ${list.name} not yet final are older than the ${settings.maxPages} pages one poll reads; their later status changes will not be emitted`,
			);
			for (const [id] of unreachable) delete open[id];
		}
	}
	const entries = Object.entries(open).sort((a, b) => a[1] - b[1]);
	return {
		candidates,
		complete: newCovered,
		state: {
			since,
			open: Object.fromEntries(entries.slice(Math.max(0, entries.length - OPEN_CAPACITY))),
			...(resume ? { resume } : {}),
		},
	};
}

async function pollRecords(
	client: Client,
	settings: PollSettings,
	previous: PollState | undefined,
	logger: IPollFunctions['logger'],
): Promise<{ candidates: PolledEvent[]; baseline: boolean; state: PollState; complete: boolean }> {
	const state: PollState = { version: 1, source: 'records' };
	const candidates: PolledEvent[] = [];
	let complete = true;
	for (const list of LISTS) {
		const result = await pollList(client, list, settings, previous, logger);
		candidates.push(...result.candidates);
		state[list.name] = result.state as unknown as IDataObject;
		complete &&= result.complete;
	}
	return { candidates, baseline: previous === undefined, state, complete };
}

// ---------------------------------------------------------------------------------- the poll

export async function runPoll(ctx: IPollFunctions, settings: PollSettings): Promise<INodeExecutionData[][] | null> {
	if (settings.events.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Select at least one event (or "All Events") in Events');
	}
	assertCredential(ctx, await ctx.getCredentials<IDataObject>(CREDENTIAL_TYPE));
	const client = new Client(ctx);

	if (ctx.getMode() === 'manual') return await latestEvent(ctx, client, settings);

	const staticData = ctx.getWorkflowStaticData('node');
	const previous = readState(staticData, settings.source);
	const memory: IDataObject = { emittedDeliveries: (staticData[STATE_KEY] as IDataObject | undefined)?.emittedDeliveries };
	const read =
		settings.source === 'webhookEvents'
			? pollWebhookEvents(client, settings, previous, Date.now())
			: pollRecords(client, settings, previous, ctx.logger);
	// A 429 ends the poll quietly; any other failure fails it. Either way nothing is emitted or moved.
	const result = await read.catch(async (error: unknown) => (isRateLimited(error) ? undefined : await Promise.reject(error)));
	if (result === undefined) {
		ctx.logger.warn(
			'Crypto Settlement Poll Trigger: the service answered 429 (rate limit); this poll ends without events and the next one starts from the same position',
		);
		return null;
	}
	if (!result.complete) {
		ctx.logger.warn(
			`Crypto Settlement Poll Trigger: more new events than ${settings.maxPages} pages per list in one poll; the next poll continues where this one stopped (raise Max Pages per Poll or poll more often)`,
		);
	}

	// The first poll records where things stand and emits nothing.
	const fresh = result.baseline ? [] : selectNew(result.candidates, settings.events, memory);
	for (const event of result.baseline ? result.candidates : fresh) remember(memory, event.key, KEY_CAPACITY);
	staticData[STATE_KEY] = { ...result.state, emittedDeliveries: memory.emittedDeliveries ?? [] };
	return fresh.length ? [fresh.map((event) => ({ json: event.json }))] : null;
}

/** "Fetch Test Event": the most recent matching event, whatever was emitted before; the state is not touched. */
async function latestEvent(ctx: IPollFunctions, client: Client, settings: PollSettings): Promise<INodeExecutionData[][]> {
	const lists =
		settings.source === 'webhookEvents'
			? [{ fetch: client.pages('webhookEvents', STORED_DELIVERIES), map: fromStoredDelivery }]
			: LISTS.map((list) => ({
					fetch: client.pages('records', list.route),
					map: (record: IDataObject) => fromRecord(list.kind, record),
				}));
	const pick = (candidates: PolledEvent[]): PolledEvent | undefined =>
		candidates
			.filter((candidate) => isEventSelected(settings.events, candidate.event))
			.sort((a, b) => (Number.isFinite(b.at) ? b.at : -Infinity) - (Number.isFinite(a.at) ? a.at : -Infinity))[0];
	const found: PolledEvent[] = [];
	for (const list of lists) {
		// The newest page first; the older pages (within Max Pages per Poll) only when it has no match.
		let read = await readNewestFirst(list.fetch, Infinity, settings.maxPages);
		let best = pick(read.records.map(list.map).filter((event): event is PolledEvent => event !== undefined));
		if (!best) {
			read = await readNewestFirst(list.fetch, -Infinity, settings.maxPages);
			best = pick(read.records.map(list.map).filter((event): event is PolledEvent => event !== undefined));
		}
		if (best) found.push(best);
	}
	const latest = pick(found);
	if (!latest) {
		throw new NodeOperationError(ctx.getNode(), 'No matching event found to show as a test event', {
			description:
				settings.source === 'webhookEvents'
					? 'The service has no stored webhook delivery of the selected events (it keeps them about 7 days). Create one (for example with the action node\'s Sandbox → Mock Deposit on the sandbox) and fetch again.'
					: 'No transaction or withdrawal has a status matching the selected events. Create one (for example with the action node\'s Sandbox → Mock Deposit on the sandbox) and fetch again.',
		});
	}
	return [[{ json: latest.json }]];
}
