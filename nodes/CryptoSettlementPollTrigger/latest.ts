import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';
import { isEventSelected } from '../events/events';
import { Budget, PollClient } from './client';
import type { ListSource } from './cursor';
import type { PolledEvent } from './items';
import type { PollSettings } from './poll';
import { orderAcross, orderOf, type PageRead } from './pageOrder';
import { pollList, RECORD_LISTS, STORED_DELIVERIES } from './sources';

/**
 * "Fetch Test Event": the most recent matching event, whatever was emitted before; the state is
 * not touched. The newest page of each list first, older pages (within Max Pages per Poll) only
 * when it has no match.
 */
export async function latestEvent(
	ctx: IPollFunctions,
	settings: PollSettings,
	secrets: readonly string[],
): Promise<PolledEvent[]> {
	const budget = Budget.of(ctx);
	const client = new PollClient(ctx, budget, undefined, secrets);
	const specs = settings.source === 'webhookEvents' ? [STORED_DELIVERIES] : RECORD_LISTS;
	const found: PolledEvent[] = [];
	let stopped = false;
	for (const spec of specs) {
		const list = pollList(ctx, client, spec, budget.lastStart());
		for await (const records of newestPages(list.source, settings.maxPages)) {
			const best = latest(records.map(list.toEvent), settings.events);
			if (best) {
				found.push(best);
				break;
			}
		}
		stopped ||= list.stopped !== undefined;
	}
	const best = latest(found, settings.events);
	if (best) return [best];
	if (stopped)
		throw new NodeOperationError(
			ctx.getNode(),
			'The service answered 429 (rate limit) before a matching event was found',
			{ description: 'Nothing was changed. Fetch the test event again in a minute.' },
		);
	throw new NodeOperationError(ctx.getNode(), 'No matching event found to show as a test event', {
		description:
			settings.source === 'webhookEvents'
				? "The service has no stored webhook delivery of the selected events (it keeps them about 7 days). Create one (for example with the action node's Sandbox → Mock Deposit on the sandbox) and fetch again."
				: "No transaction or withdrawal has a status matching the selected events. Create one (for example with the action node's Sandbox → Mock Deposit on the sandbox) and fetch again.",
	});
}

function latest(
	candidates: Array<PolledEvent | undefined>,
	events: string[],
): PolledEvent | undefined {
	const time = (at: number) => (Number.isFinite(at) ? at : Number.NEGATIVE_INFINITY);
	return candidates
		.filter(
			(candidate): candidate is PolledEvent =>
				candidate !== undefined && isEventSelected(events, candidate.event),
		)
		.sort((a, b) => time(b.at) - time(a.at))[0];
}

/** The list's pages from its newest end (the last page first for a list sorted oldest first), at most `maxPages`. */
async function* newestPages(source: ListSource, maxPages: number): AsyncGenerator<IDataObject[]> {
	const pages = new Map<number, PageRead | undefined>();
	const read = async (n: number) => {
		if (!pages.has(n)) pages.set(n, pages.size < maxPages ? await source.fetch(n) : undefined);
		return pages.get(n);
	};
	const first = await read(1);
	if (!first) return;
	const last =
		first.hasNextPage && first.pages && !orderOf(first.records)
			? await read(first.pages)
			: undefined;
	const order = orderOf(first.records) ?? (last && orderAcross(first, last));
	if (order !== 'oldestFirst' || !first.hasNextPage) {
		for (
			let n = 1, page: PageRead | undefined = first;
			page;
			page = page.hasNextPage ? await read(++n) : undefined
		)
			yield page.records;
		return;
	}
	if (first.pages) {
		for (
			let n = first.pages, page = await read(n);
			page;
			page = n > 1 ? await read(--n) : undefined
		)
			yield page.records;
		return;
	}
	// Oldest first without `meta.pages`: step to the end, then read back.
	const forward: PageRead[] = [first];
	for (let n = 2, page: PageRead | undefined = first; page?.hasNextPage; n++) {
		page = await read(n);
		if (page) forward.push(page);
	}
	for (const page of forward.reverse()) yield page.records;
}
