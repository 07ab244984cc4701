import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
} from 'n8n-workflow';
import { isInDoubt } from '../../service/apiErrors';
import { checkGuardrails } from '../money/guardrails';
import type { HttpCall } from '../../service/api';
import { contextForItem, inputItems, runOf } from '../engine/engine';
import { itemError, Params } from '../record/params';
import { keptFor, type OperationSpec, type RequestParts, type SendTurn } from '../record/record';
import { rowOf } from '../../service/rows';
import { externalIdTurnKey, sameExternalId } from '../../service/ids';
import { lookUp } from '../money/withdrawals';
import { checkAddressesWithService } from '../money/addressCheck';
import { RunDebits } from '../money/balanceCover';

/** Writes that must not repeat are planned for the whole run before any is sent (docs/architecture.md, "Batches that move money"). */

/** Writes of one run in flight at once: few, so a failure stops most of a batch before it is sent. */
export const MONEY_IN_FLIGHT = 4;
/**
 * Items beyond those in flight whose reads before sending (a withdrawal's lookup) may start: enough
 * that a read is done by the item's turn, few enough that reads of items sent a minute later do not
 * compete with the sends of now.
 */
export const READ_AHEAD = 4 * MONEY_IN_FLIGHT;
/** Items named in one error message at most; the rest are counted. */
const LISTED = 10;

/** An item's request, or why it cannot go; and its External ID, to name the row in messages. */
type ItemPlan = ({ parts: RequestParts } | { error: Error }) & { externalId?: string };

/** The External ID an item shows, planned or as typed; undefined when it has none (or it cannot be read). */
function typedExternalId(ctx: IExecuteSingleFunctions): string | undefined {
	try {
		const value = ctx.getNodeParameter('externalId', '') as unknown;
		return (typeof value === 'string' && value.trim() !== '') || typeof value === 'number'
			? String(value).trim()
			: undefined;
	} catch {
		return undefined;
	}
}

type Settled =
	| { state: 'submitted'; externalId?: string; id?: string }
	| { state: 'failed'; message: string }
	| { state: 'not sent' }
	| { state: 'invalid' };

interface Entry {
	settled?: Settled;
	externalId?: string;
	done: Promise<void>;
	markDone: () => void;
	start?: () => void;
	started: boolean;
}

class Batch {
	readonly entries = new Map<number, Entry>();

	private joined!: () => void;

	/**
	 * Resolves once every item of the run has joined. With n8n's Batching option the engine starts
	 * items apart in time and awaits them only after the last one started: an item that failed
	 * earlier waits for this, so n8n never sees a rejection it is not awaiting yet.
	 */
	readonly allJoined = new Promise<void>((resolve) => (this.joined = resolve));

	constructor(private readonly size: number) {}

	plans: Promise<ItemPlan[]> | undefined;

	stoppedBy: number | undefined;

	/** What each item of a Dry Run takes from the balance, for whether the balance covers the batch (money/balanceCover.ts). */
	readonly debits = new RunDebits();

	private inFlight = 0;

	private readonly queue: number[] = [];

	/** Items whose send was answered without a creation, not settled yet: nothing new starts meanwhile. */
	private readonly held = new Set<number>();

	/** Items waiting to be near their turn (`near`), and how to tell them whether they will be sent. */
	private readonly nearing = new Map<number, (needed: boolean) => void>();

	register(itemIndex: number): void {
		let markDone!: () => void;
		const done = new Promise<void>((resolve) => (markDone = resolve));
		this.entries.set(itemIndex, { done, markDone, started: false });
		this.debits.expect(itemIndex);
		this.queue.push(itemIndex);
		if (this.entries.size >= this.size) this.joined();
	}

	/** Resolves when it is this item's turn: items start in order, a few at a time. */
	async turn(itemIndex: number): Promise<void> {
		const entry = this.entries.get(itemIndex) as Entry;
		await new Promise<void>((resolve) => {
			entry.start = resolve;
			this.pump();
		});
	}

	/** Resolves once the item is among the next READ_AHEAD to start (true), or settled without starting (false: no read needed). */
	async near(itemIndex: number): Promise<boolean> {
		const entry = this.entries.get(itemIndex) as Entry;
		if (entry.started) return true;
		if (entry.settled) return false;
		const position = this.queue.indexOf(itemIndex);
		if (position >= 0 && position < READ_AHEAD) return true;
		return await new Promise<boolean>((resolve) => this.nearing.set(itemIndex, resolve));
	}

	private tellNear(itemIndex: number, needed: boolean): void {
		const resolve = this.nearing.get(itemIndex);
		if (!resolve) return;
		this.nearing.delete(itemIndex);
		resolve(needed);
	}

	private pump(): void {
		while (this.inFlight < MONEY_IN_FLIGHT && this.queue.length && !this.held.size) {
			const entry = this.entries.get(this.queue[0]) as Entry;
			if (!entry.start) break; // the next item in order is not ready yet: keep the order
			const itemIndex = this.queue.shift() as number;
			entry.started = true;
			this.inFlight++;
			this.tellNear(itemIndex, true);
			entry.start();
		}
		if (this.nearing.size)
			for (const itemIndex of this.queue.slice(0, READ_AHEAD)) this.tellNear(itemIndex, true);
	}

	hold(itemIndex: number): void {
		if (!this.entries.get(itemIndex)?.settled) this.held.add(itemIndex);
	}

	settle(itemIndex: number, settled: Settled): void {
		const entry = this.entries.get(itemIndex) as Entry;
		this.held.delete(itemIndex);
		this.debits.settle(itemIndex);
		if (entry.settled) return;
		this.tellNear(itemIndex, entry.started);
		entry.settled = settled;
		const queued = this.queue.indexOf(itemIndex);
		if (queued >= 0) this.queue.splice(queued, 1);
		if (entry.started) this.inFlight--;
		entry.markDone();
		this.pump();
	}

	async allSettled(): Promise<void> {
		await Promise.all([...this.entries.values()].map(async (entry) => await entry.done));
	}

	summary(): { text: string; submitted: IDataObject[] } {
		const sorted = [...this.entries.entries()].sort(([a], [b]) => a - b);
		const settledAs = (state: Settled['state']) =>
			sorted.filter(([, entry]) => entry.settled?.state === state);
		const submitted = settledAs('submitted').map(([itemIndex, entry]) => {
			const { externalId, id } = entry.settled as Extract<Settled, { state: 'submitted' }>;
			return { itemIndex, ...(externalId ? { externalId } : {}), ...(id ? { id } : {}) };
		});
		const rows = (state: Settled['state']) =>
			settledAs(state).map(([index, entry]) => rowOf(index, entry.externalId));
		const list = (named: string[]) =>
			named.slice(0, LISTED).join(', ') +
			(named.length > LISTED ? ` and ${named.length - LISTED} more` : '');
		const failed = rows('failed');
		const notSent = rows('not sent');
		const parts = [
			submitted.length
				? `Already submitted: ${list(submitted.map((s) => rowOf(s.itemIndex, s.externalId)))}.`
				: 'Nothing was submitted.',
			failed.length ? `Failed: ${list(failed)}.` : '',
			notSent.length ? `Not sent: ${list(notSent)}.` : '',
		];
		return { text: parts.filter(Boolean).join(' '), submitted };
	}
}

const batches = new WeakMap<object, Batch>();
/** Results of writes that must not repeat, per run and item, for n8n's Retry On Fail. */
const ledgers = keptFor<object, Map<number, { records: IDataObject[] } | { error: Error }>>();

/** This item's place in the run's batch; a new batch when this item already had one (Retry On Fail). */
export function joinBatch(ctx: IExecuteSingleFunctions): Batch {
	const run = runOf(ctx);
	const itemIndex = ctx.getItemIndex();
	let batch = batches.get(run);
	if (!batch || batch.entries.has(itemIndex)) {
		batch = new Batch(inputItems(ctx).length);
		batches.set(run, batch);
	}
	batch.register(itemIndex);
	return batch;
}

/** Checks every item of the run once, and gives this item its request, or the reason it cannot go. */
export async function planItem(
	ctx: IExecuteSingleFunctions,
	batch: Batch,
	spec: OperationSpec,
	http: HttpCall,
): Promise<RequestParts> {
	const itemIndex = ctx.getItemIndex();
	batch.plans ??= planAll(ctx, spec, http, batch).then((plans) => {
		plans.forEach((plan, index) => {
			const entry = batch.entries.get(index);
			if (entry) entry.externalId = plan.externalId;
		});
		return plans;
	});
	const plans = await batch.plans;
	const own = plans[itemIndex];
	const invalid = plans.flatMap((plan, index) =>
		'error' in plan ? [{ index, error: plan.error, externalId: plan.externalId }] : [],
	);
	if (invalid.length && !ctx.continueOnFail()) {
		batch.settle(itemIndex, { state: 'invalid' });
		await batch.allJoined;
		throw plans.length === 1 ? invalid[0].error : invalidBatchError(ctx, invalid, plans.length);
	}
	if (!own || 'error' in own) {
		batch.settle(itemIndex, { state: 'invalid' });
		throw own
			? own.error
			: new NodeOperationError(ctx.getNode(), 'This item was not checked', { itemIndex });
	}
	return own.parts;
}

async function planAll(
	ctx: IExecuteSingleFunctions,
	spec: OperationSpec,
	http: HttpCall,
	batch: Batch,
): Promise<ItemPlan[]> {
	const count = inputItems(ctx).length;
	const plans: ItemPlan[] = [];
	for (let index = 0; index < count; index++) {
		const itemCtx = contextForItem(ctx, index);
		try {
			const parts = spec.build ? await spec.build(new Params(itemCtx, spec)) : {};
			plans.push({ parts, externalId: parts.idempotency?.externalId ?? typedExternalId(itemCtx) });
		} catch (error) {
			plans.push({ error: error as Error, externalId: typedExternalId(itemCtx) });
		}
	}
	refuseCaseTwins(ctx, plans);
	// Payout addresses whose form cannot decide are checked by the service (addressCheck.ts) before
	// any item is sent, in a Dry Run too: a refused address makes its item invalid.
	const toConfirm = plans.flatMap((plan, index) =>
		'parts' in plan && plan.parts.addressCheck ? [{ index, check: plan.parts.addressCheck }] : [],
	);
	for (const [index, error] of await checkAddressesWithService(ctx, http, spec, toConfirm))
		plans[index] = { error, externalId: plans[index].externalId };
	// The credential's guardrails, over the items whose fields passed: a refused item is invalid.
	const valid = plans.flatMap((plan, index) =>
		'parts' in plan ? [{ index, parts: plan.parts }] : [],
	);
	let checked = await checkGuardrails(ctx, http, spec, valid);
	let found = new Map<number, Found>();
	if (checked.refused.size && spec.kind === 'withdrawal') {
		// A guardrail speaks of a new send. A row whose External ID already holds this withdrawal is
		// reported as it whatever the guardrails now say, and is left out of their check (it is in the
		// day's list already); a refunded or unmatched one is refused naming it.
		found = await foundUnderExternalIds(ctx, http, spec.lookupPath, valid);
		const settled: number[] = [];
		for (const [index, outcome] of found) {
			if ('unchecked' in outcome) continue;
			settled.push(index);
			const { parts, externalId } = plans[index] as { parts: RequestParts; externalId?: string };
			plans[index] =
				'existing' in outcome
					? { parts: { ...parts, existing: outcome.existing }, externalId }
					: { error: outcome.error, externalId };
		}
		if (settled.length) {
			checked.release();
			const unsettled = valid.filter(({ index }) => !settled.includes(index));
			checked = await checkGuardrails(ctx, http, spec, unsettled);
		}
	}
	for (const [index, error] of checked.refused) {
		const { externalId } = plans[index];
		const outcome = found.get(index);
		if (outcome && 'unchecked' in outcome) {
			const refusal = error as { description?: string };
			refusal.description =
				`${refusal.description ?? ''} Whether External ID ${externalId ?? ''} already holds a withdrawal could not be checked (${outcome.unchecked}): check it (Withdrawal → Get) before paying this item another way.`.trim();
		}
		plans[index] = { error, externalId };
	}
	void batch.allSettled().then(checked.release);
	return plans;
}

/**
 * Rows whose External IDs differ only in letter case (inv-1, INV-1) are refused, every one of them,
 * before anything is sent (docs/usage.md, "Never paid twice"). External IDs are compared exactly
 * (service/ids.ts), so to the node they are two payments; but the service's lookup may find one
 * under the other, so neither could be proven unpaid once the other is sent, and such rows are most
 * often one payment typed twice. Rows with exactly the same External ID are repeats of one payment:
 * they take turns, and the later finds the earlier (withdrawals.ts).
 */
function refuseCaseTwins(ctx: IExecuteSingleFunctions, plans: ItemPlan[]): void {
	const byTurn = new Map<string, Array<{ index: number; externalId: string }>>();
	plans.forEach((plan, index) => {
		const key = 'parts' in plan ? plan.parts.idempotency : undefined;
		if (!key || key.derived) return;
		const turn = externalIdTurnKey(key.externalId);
		byTurn.set(turn, [...(byTurn.get(turn) ?? []), { index, externalId: key.externalId }]);
	});
	for (const rows of byTurn.values()) {
		for (const { index, externalId } of rows) {
			const others = rows.filter((row) => !sameExternalId(row.externalId, externalId));
			if (others.length === 0) continue;
			const [first] = others;
			plans[index] = {
				error: itemError(
					ctx,
					`External ID ${externalId} differs only in letter case from ${others.map((row) => rowOf(row.index, row.externalId)).join(', ')}, so neither is sent`,
					`External IDs are compared exactly, so ${externalId} and ${first.externalId} would be two payments; but the service may look one up under the other, so neither could be proven unpaid once the other is sent. Nothing was sent for these rows. If they are one payment, keep one row; if they are two, give them External IDs that differ by more than letter case.`,
					index,
				),
				externalId,
			};
		}
	}
}

/** What a row's External ID holds: this withdrawal, one that cannot be this row's, or no answer. */
type Found = { existing: IDataObject } | { error: Error } | { unchecked: string };

/** Each row's External ID looked up (withdrawals.ts, lookUp); a row with nothing under it is left out. */
async function foundUnderExternalIds(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	lookupPath: string,
	rows: Array<{ index: number; parts: RequestParts }>,
): Promise<Map<number, Found>> {
	const found = new Map<number, Found>();
	await Promise.all(
		rows.map(async ({ index, parts }) => {
			// A derived External ID is new in this execution: no earlier run can have paid it.
			if (!parts.idempotency || parts.idempotency.derived) return;
			try {
				const existing = await lookUp(contextForItem(ctx, index), http, {
					...parts.idempotency,
					lookupPath,
				});
				if (existing) found.set(index, { existing });
			} catch (error) {
				// The lookup got no answer (an API error): the guardrail's refusal stands, saying so. A
				// NodeOperationError is the record's own verdict (refunded, another payment's).
				found.set(
					index,
					error instanceof NodeApiError ? { unchecked: error.message } : { error: error as Error },
				);
			}
		}),
	);
	return found;
}

function invalidBatchError(
	ctx: IExecuteSingleFunctions,
	invalid: Array<{ index: number; error: Error; externalId?: string }>,
	count: number,
): NodeOperationError {
	const named = invalid
		.slice(0, LISTED)
		.map(({ index, error, externalId }) => ({ error, row: rowOf(index, externalId) }));
	const listed = named.map(({ error, row }) => `${row}: ${error.message}`).join('; ');
	const more = invalid.length > LISTED ? `; and ${invalid.length - LISTED} more` : '';
	// What to do about each row named, once: the message already says that nothing was sent and why.
	const todo = named
		.map(({ error, row }) => whatToDo(error, row))
		.filter(Boolean)
		.join(' ');
	return itemError(
		ctx,
		`${invalid.length} of ${count} rows are invalid, so nothing was sent: ${listed}${more}`,
		`${todo ? `${todo} ` : ''}Every row is checked before any payment is sent, so running the node again after the fix cannot pay twice. To send the valid rows and get the invalid ones as error items instead, turn on Settings → On Error → Continue.`,
		invalid[0].index,
	);
}

/**
 * A refused row's advice for the batch's description: its error's description without the
 * sentences saying that nothing was sent (the batch says it once) and without its own row's name,
 * which leads it instead, as a sentence: "Row 2 (pay-2, n8n item 1): fix 'Amount (USD)'."
 */
function whatToDo(error: Error, row: string): string {
	const description = (error as { description?: unknown }).description;
	if (typeof description !== 'string') return '';
	const advice = description
		.replace(/\s*Nothing was sent[^.]*\./g, '')
		.split(` for ${row}`)
		.join('')
		.trim();
	if (!advice) return '';
	return `${row.charAt(0).toUpperCase()}${row.slice(1)}: ${advice.charAt(0).toLowerCase()}${advice.slice(1)}`;
}

/**
 * Sends this item in its turn. With Continue On Fail off, an earlier failure means it is not sent,
 * and a failure names what the run already submitted. An in-doubt attempt of this item earlier in
 * the run is given to kinds that can resolve it without sending (`resolvesInDoubt`); other kinds
 * get its error back.
 */
export async function sendInTurn(
	ctx: IExecuteSingleFunctions,
	batch: Batch,
	parts: RequestParts,
	send: (turn: SendTurn) => Promise<IDataObject[]>,
	resolvesInDoubt: boolean,
): Promise<IDataObject[]> {
	const itemIndex = ctx.getItemIndex();
	const continueOnFail = ctx.continueOnFail();
	const ledger = ledgers(runOf(ctx), () => new Map());
	const earlier = ledger.get(itemIndex);

	// Nothing moves until the engine has started every item: an item it refuses itself (an
	// expression that fails) stops the run before any money moves.
	await batch.allJoined;
	await batch.turn(itemIndex);
	if (batch.stoppedBy !== undefined && !continueOnFail) {
		batch.settle(itemIndex, { state: 'not sent' });
		await batch.allSettled();
		throw notSentError(ctx, batch);
	}
	try {
		if (earlier && 'error' in earlier && !resolvesInDoubt) throw earlier.error;
		const submitted = (id?: string) =>
			batch.settle(itemIndex, {
				state: 'submitted',
				externalId: parts.idempotency?.externalId,
				id,
			});
		const turn: SendTurn = {
			earlierInDoubt: earlier && 'error' in earlier ? earlier.error : undefined,
			created: submitted,
			// With Continue On Fail on, a failure stops nothing, so there is nothing to hold for.
			notCreated: () => (continueOnFail ? undefined : batch.hold(itemIndex)),
		};
		const records = earlier && 'records' in earlier ? earlier.records : await send(turn);
		ledger.set(itemIndex, { records });
		const [first] = records;
		submitted(typeof first?.id === 'string' ? first.id : undefined);
		return records;
	} catch (error) {
		if (isInDoubt(error)) ledger.set(itemIndex, { error: error as Error });
		batch.settle(itemIndex, { state: 'failed', message: (error as Error).message });
		batch.stoppedBy ??= continueOnFail ? undefined : itemIndex;
		if (!continueOnFail) {
			await batch.allJoined;
			await batch.allSettled();
		}
		throw withSummary(asNodeError(ctx, error), batch, !continueOnFail, itemIndex);
	}
}

function asNodeError(
	ctx: IExecuteSingleFunctions,
	error: unknown,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex: ctx.getItemIndex() });
}

/**
 * With Continue On Fail off, the failing item's error also says what the run already submitted.
 * Its message then names the failing row, so the count of other rows cannot be read as n8n's
 * " [item K]" suffix's: "… — row 2 (pay-2, n8n item 1) failed; 1 other row was already submitted".
 */
function withSummary<E extends Error>(
	error: E,
	batch: Batch,
	stopped: boolean,
	itemIndex: number,
): E {
	if (!stopped) return error;
	const { text, submitted } = batch.summary();
	if (!submitted.length && batch.entries.size <= 1) return error;
	const target = error as E & { description?: string; context?: IDataObject };
	target.description = `${target.description ? `${target.description} ` : ''}${text}`;
	target.context = { ...(target.context ?? {}), submittedItems: submitted };
	if (submitted.length) {
		const others =
			submitted.length === 1 ? '1 other row was' : `${submitted.length} other rows were`;
		target.message = `${target.message} — ${rowOf(itemIndex, batch.entries.get(itemIndex)?.externalId)} failed; ${others} already submitted (see details)`;
	}
	return error;
}

function notSentError(ctx: IExecuteSingleFunctions, batch: Batch): NodeOperationError {
	const { text, submitted } = batch.summary();
	const error = itemError(
		ctx,
		`Not sent: ${rowOf(ctx.getItemIndex(), batch.entries.get(ctx.getItemIndex())?.externalId)}, because ${rowOf(batch.stoppedBy ?? 0, batch.entries.get(batch.stoppedBy ?? 0)?.externalId)} failed first and stopped the rows after it`,
		text,
	);
	error.context = { ...(error.context ?? {}), submittedItems: submitted };
	return error;
}
