import type { IDataObject } from 'n8n-workflow';
import type { ApiContext, ApiRequest, ApiResponse, HttpCall } from '../../service/api';
import { isSuccess, serviceError } from '../../service/apiErrors';
import { callApi } from '../../service/transport';
import { isObject, scalarText } from '../../service/values';

/**
 * The action node's one page walker: what a walk reads, when it ends, and what `limit` and `whole` prove
 * (`whole`: every page read, accepted only when the list held still, else read again up to `walks`
 * times, then `moving`) are in docs/architecture.md, "Reading a list".
 */

type Proof = 'limit' | 'whole';

/** Why a walk ended without its records; the caller words it (and names its list). */
export type WalkProblem =
	| { kind: 'page'; page: number; size: number; error: unknown; response?: ApiResponse }
	| { kind: 'budget'; maxPages: number; size: number }
	| { kind: 'repeats'; page: number }
	| { kind: 'moving'; walks: number; seen: number; counts: number[] };

interface WalkSpec<T = IDataObject> {
	/** The list's request without `page` and `size` (always GET). */
	request: ApiRequest;
	/** Records per page asked for; a service that answers fewer is followed (page numbers stay aligned). */
	size: number;
	/** Pages one walk may read. */
	maxPages: number;
	proof: Proof;
	/** Pages asked at once once the count of pages is known (the client's pacing still applies), given the records so far. */
	inFlight: number | ((records: T[]) => number);
	/** With `limit`: the walk ends after the page at which this says the records are enough. */
	enough?: (records: T[]) => boolean;
	/** Past `maxPages`: the walk is refused (`budget`, by default), or ends where it is (`pause`: the editor's "load more"). */
	pastBudget?: 'refuse' | 'pause';
	/** Sees every page's answer first; may refuse the list by throwing (Get Many's cap on what it takes). */
	check?: (response: ApiResponse) => void;
	/** With `whole`: walks before the list is refused as never holding still. */
	walks?: number;
	/** A query asked first (a date range); where the service refuses it (HTTP 400 or 422 on page 1) the list is read without. */
	range?: IDataObject;
	/** The page to start at (the editor's "load more"). */
	firstPage?: number;
	/** What the walk keeps of each distinct record (the whole record, by default; `T` is then IDataObject): a statement keeps the fields its lines read, in columns (statement/recordColumns.ts: the row of each), so a busy day fits in memory. Ids and proofs are taken from the whole record. */
	keep?: (record: IDataObject) => T;
	/** Makes the caller's error of a problem. */
	fail: (problem: WalkProblem) => Error;
}

export interface Walked<T = IDataObject> {
	/** The distinct records (what `keep` kept of them), in the order the list first showed them. */
	records: T[];
	/** The first page's answer of the walk accepted (its headers, its `meta`). */
	first: ApiResponse;
	/** Pages read, every walk counted. */
	pages: number;
	walks: number;
	/** Whether the walk reached the end of the list (not `enough`, nor a paused budget). */
	ended: boolean;
	/** The last page read. */
	lastPage: number;
}

/** A record's identity for deduplication: its `id` (or `_id`), else the whole record. */
const recordKey = (record: IDataObject): string =>
	scalarText(record.id ?? record._id) || JSON.stringify(record);

const countOf = (response: ApiResponse): number | undefined => {
	const total = response.body.meta?.totalDocs;
	return typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : undefined;
};

const pagesOf = (response: ApiResponse): number | undefined => {
	const pages = response.body.meta?.pages;
	return typeof pages === 'number' && Number.isInteger(pages) && pages >= 1 ? pages : undefined;
};

/** A page as a walk holds it until its turn: its answer, each record's key (of the whole record) and what the walk keeps of it (at the same place), and how many entries it had. */
interface HeldPage<T> {
	response: ApiResponse;
	keys: string[];
	kept: T[];
	size: number;
}

/** One walk of the list: page 1, then the rest, in page order. */
class OneWalk<T> {
	readonly records: T[] = [];

	readonly keys = new Set<string>();

	/** `meta.totalDocs` of every page that stated it, in page order. */
	readonly counts: number[] = [];

	pages = 0;

	ended = false;

	/** A page after the end brought records: the list moved under the walk. */
	moved = false;

	lastPage = 0;

	first: ApiResponse | undefined;

	constructor(
		private readonly ctx: ApiContext,
		private readonly http: HttpCall,
		private readonly spec: WalkSpec<T>,
		private readonly range: IDataObject | undefined,
	) {}

	private async send(page: number): Promise<{ request: ApiRequest; response: ApiResponse }> {
		const { request, size } = this.spec;
		const pageRequest: ApiRequest = {
			...request,
			qs: { ...request.qs, ...this.range, page, size },
		};
		try {
			const response = await callApi(this.ctx, this.http, pageRequest, 'safe');
			return { request: pageRequest, response };
		} catch (error) {
			throw this.spec.fail({ kind: 'page', page, size, error });
		}
	}

	private checked(page: number, request: ApiRequest, response: ApiResponse): ApiResponse {
		if (!isSuccess(response)) {
			const error = serviceError(this.ctx, request, response);
			throw this.spec.fail({ kind: 'page', page, size: this.spec.size, error, response });
		}
		this.spec.check?.(response);
		return response;
	}

	private async fetch(page: number): Promise<ApiResponse> {
		const { request, response } = await this.send(page);
		return this.checked(page, request, response);
	}

	/**
	 * A page as it arrives: with `keep`, what is kept of its records is taken at once and the whole
	 * records let go, rather than held while the pages before it are awaited (a busy day's statement).
	 * They are taken out of the answer itself: something on the request's way (n8n's routing, the
	 * HTTP client's promises) still refers to the answer after the walk took it, and records held
	 * that long outlive V8's young generation and stay until a full collection. Measured: a busy
	 * day's heap peak fell from about 185 to about 150 MB (docs/statement.md, "Speed").
	 */
	private held(response: ApiResponse): HeldPage<T> {
		const raw: unknown[] = Array.isArray(response.body.data) ? response.body.data : [];
		const { keep } = this.spec;
		const keys: string[] = [];
		const kept: T[] = [];
		for (const record of raw) {
			if (!isObject(record)) continue;
			keys.push(recordKey(record));
			kept.push(keep ? keep(record) : (record as T));
		}
		if (keep) response.body.data = undefined;
		return { response, keys, kept, size: raw.length };
	}

	/** Adds one page; tells whether the walk goes on. */
	private add(page: number, { response, keys, kept }: HeldPage<T>): boolean {
		this.pages++;
		this.lastPage = page;
		const count = countOf(response);
		if (count !== undefined) this.counts.push(count);
		let fresh = 0;
		for (let index = 0; index < keys.length; index++) {
			if (this.keys.has(keys[index])) continue;
			this.keys.add(keys[index]);
			this.records.push(kept[index]);
			fresh++;
		}
		const enough = this.spec.enough?.(this.records) ?? false;
		if (!enough && keys.length > 0 && fresh === 0 && page > (this.spec.firstPage ?? 1))
			throw this.spec.fail({ kind: 'repeats', page });
		// The list's own end: no next page, an empty page, or the last of the pages it states.
		const pages = pagesOf(response);
		if (
			keys.length === 0 ||
			response.body.meta?.hasNextPage !== true ||
			(pages !== undefined && page >= pages)
		) {
			this.ended = true;
			return false;
		}
		return !enough;
	}

	/** The walk; undefined when the service refused the range (HTTP 400 or 422 on the first page). */
	async read(): Promise<this | undefined> {
		const { spec } = this;
		const start = spec.firstPage ?? 1;
		const { request, response } = await this.send(start);
		if (this.range && (response.statusCode === 400 || response.statusCode === 422))
			return undefined;
		this.first = this.checked(start, request, response);
		let page = start;
		let more = this.add(page, this.held(this.first));
		let latest = this.first;
		// A sliding window: each page taken in page order, the next asked as soon as one is taken, so
		// a slow page holds up no more than its own place (docs/architecture.md, "Reading a list").
		const asked = new Map<number, Promise<HeldPage<T>>>();
		let next = page + 1;
		let failed = true;
		try {
			while (more) {
				if (page - start + 1 >= spec.maxPages) {
					if (spec.pastBudget === 'pause') break;
					throw spec.fail({ kind: 'budget', maxPages: spec.maxPages, size: spec.size });
				}
				const known = pagesOf(latest);
				const inFlight = Math.max(
					1,
					typeof spec.inFlight === 'number' ? spec.inFlight : spec.inFlight(this.records),
				);
				const last = Math.min(
					start + spec.maxPages - 1,
					known === undefined ? page + 1 : Math.min(known, page + inFlight),
				);
				for (; next <= last; next++) asked.set(next, this.ask(next));
				const each = await (asked.get(page + 1) as Promise<HeldPage<T>>);
				asked.delete(++page);
				latest = each.response;
				more = this.add(page, each);
			}
			failed = false;
		} finally {
			// The pages asked ahead end (with their retries) before the walk fails: no request of the
			// node outlives its run, nor reaches the service while the next item or run reads it.
			if (failed) await Promise.allSettled(asked.values());
		}
		// Pages asked with those before them, after one of them ended the list (or the walk had enough).
		for (const [, each] of [...asked].sort(([a], [b]) => a - b)) this.afterEnd(await each);
		return this;
	}

	/** A page asked ahead of its turn; a failure waits for its turn to be thrown (never an unhandled rejection). */
	private ask(page: number): Promise<HeldPage<T>> {
		const held = (async () => this.held(await this.fetch(page)))();
		held.catch(() => undefined);
		return held;
	}

	/**
	 * A page asked at once with the pages before it, after one of them ended the list: its count
	 * still counts, and records on it mean the list moved while read (it cannot end before them).
	 */
	private afterEnd({ response, size }: HeldPage<T>): void {
		this.pages++;
		const count = countOf(response);
		if (count !== undefined) this.counts.push(count);
		if (size > 0 && this.ended) this.moved = true;
	}

	/** Whether the list held still while read: one count stated on every page, and that many distinct ids seen. */
	heldStill(): boolean {
		const [count] = this.counts;
		return (
			!this.moved &&
			this.counts.length > 0 &&
			this.counts.every((each) => each === count) &&
			this.records.length === count
		);
	}
}

/** Reads a paged list as `spec` says, proving what it asks. */
export async function walkList<T = IDataObject>(
	ctx: ApiContext,
	http: HttpCall,
	spec: WalkSpec<T>,
): Promise<Walked<T>> {
	let range = spec.range;
	const once = async (): Promise<OneWalk<T>> => {
		const read = await new OneWalk(ctx, http, spec, range).read();
		if (read) return read;
		range = undefined;
		return (await new OneWalk(ctx, http, spec, range).read()) as OneWalk<T>;
	};
	const walks = spec.proof === 'whole' ? (spec.walks ?? 3) : 1;
	let pages = 0;
	let before: OneWalk<T> | undefined;
	for (let walk = 1; ; walk++) {
		const read = await once();
		pages += read.pages;
		const accepted =
			spec.proof === 'limit' ||
			read.heldStill() ||
			(read.counts.length === 0 &&
				!read.moved &&
				before !== undefined &&
				before.counts.length === 0 &&
				sameKeys(before.keys, read.keys));
		if (accepted)
			return {
				records: read.records,
				first: read.first as ApiResponse,
				pages,
				walks: walk,
				ended: read.ended,
				lastPage: read.lastPage,
			};
		if (walk >= walks)
			throw spec.fail({ kind: 'moving', walks, seen: read.records.length, counts: read.counts });
		before = read;
	}
}

/**
 * Reads made at once, as `Promise.all` gives them, except that a failure is thrown once every read
 * has ended: no read is left running after its caller failed. The failure thrown is the first in
 * time, as `Promise.all`'s.
 */
export async function allRead<T extends readonly unknown[] | []>(
	reads: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
	let failed: { error: unknown } | undefined;
	const values = await Promise.all(
		reads.map(async (read) => {
			try {
				return await read;
			} catch (error) {
				failed ??= { error };
				return undefined;
			}
		}),
	);
	if (failed) throw failed.error;
	return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}

const sameKeys = (a: Set<string>, b: Set<string>) =>
	a.size === b.size && [...a].every((key) => b.has(key));

/** The words of a `moving` problem: what the last walk saw against what the list said it held. */
export function movingWords(problem: Extract<WalkProblem, { kind: 'moving' }>): string {
	const { walks, seen, counts } = problem;
	if (counts.length === 0)
		return `changed under every one of ${walks} reads (no two reads in a row saw the same records, and the list states no count)`;
	const stated = [...new Set(counts)];
	return `changed under every one of ${walks} reads (the last saw ${seen} distinct records while its pages stated ${stated.join(', then ')})`;
}
