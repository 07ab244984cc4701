import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';
import { credentialProblem } from '../../credentials/CryptoSettlementApi.credentials';
import { CREDENTIAL_TYPE, secretsOf } from '../service/credentials';
import { redactError } from '../service/redact';
import { isObject } from '../service/values';
import { isEventSelected } from '../events/events';
import { lifecycleRank } from '../events/identity';
import { Budget, PollClient, STOPPED } from './client';
import { newCursor, readCursor, type ListCursor } from './cursor';
import { describeEvents, type PolledEvent, type Source } from './items';
import { latestEvent } from './latest';
import { followOpen, pollList, RECORD_LISTS, STORED_DELIVERIES, type ListName } from './sources';
import { ListWalk } from './pollWalk';
import { pollBalances, type Threshold } from './balanceAlerts';

/**
 * One poll (docs/trigger.md, "How it polls"): each list walked within its share of n8n's poll budget; the
 * state replaced only once every list was read, so a poll that fails half way emits nothing and moves nothing.
 */

/** Key of the poll trigger's state in the node's static data. */
const STATE_KEY = 'pollState';
/**
 * Key of the first looks' copies in the workflow's static data, by node name (docs/trigger.md,
 * "n8n's scheduler drops the first poll's state"): n8n 2.x's scheduler does not commit the node's
 * state of the poll it runs at activation, but saves the workflow's.
 */
const FIRST_LOOK_KEY = 'cryptoSettlementPollFirstLooks';
export const DEFAULT_MAX_PAGES = 10;
/** Resuming a walk that stopped may take two pages (docs/trigger.md, "Cost"): the least that always makes progress. */
export const MIN_PAGES = 2;

interface PollState extends IDataObject {
	version: 2;
	source: Source;
	/** The service's clock minus n8n's (ms), from its last `Date` header. */
	offsetMs?: number;
	/** When the first look this state grew from was taken (n8n's clock, ms); unknown for older states. */
	since?: number;
	lists: Partial<Record<ListName, ListCursor>>;
}

export interface PollSettings {
	source: Source;
	events: string[];
	maxPages: number;
	/** Source `balances`: the thresholds (balanceAlerts.ts, readThresholds). */
	thresholds?: Threshold[];
}

/**
 * The polls of this process under way, by workflow and node: one that finds another under way reads,
 * commits and emits nothing; one held past twice the budget is lost (docs/trigger.md, "How it polls").
 */
const underWay = new Map<string, { startedAt: number; expiresAt: number }>();

function pollKey(ctx: IPollFunctions): string {
	const node = ctx.getNode();
	return `${String(ctx.getWorkflow().id)}:${node.id ?? node.name}`;
}

function isState(value: unknown): value is PollState {
	return isObject(value) && value.version === 2 && typeof value.lists === 'object';
}

function readState(value: unknown, source: Source): PollState | undefined {
	return isState(value) && value.source === source ? value : undefined;
}

function firstLooks(ctx: IPollFunctions): IDataObject {
	const copies = ctx.getWorkflowStaticData('global')[FIRST_LOOK_KEY];
	return copies && typeof copies === 'object' ? (copies as IDataObject) : {};
}

/**
 * The state of this node's latest first look, when the node's own state does not hold it: none at
 * all (n8n 2.x's scheduler dropped the activation poll's state), or a state of the other source
 * begun before that first look. An unreadable state, or one begun later, is never replaced.
 */
function keptFirstLook(ctx: IPollFunctions, own: unknown, source: Source): PollState | undefined {
	const copy = readState(firstLooks(ctx)[ctx.getNode().name], source);
	if (copy?.since === undefined) return undefined;
	if (own === undefined || own === null) return copy;
	return isState(own) && (own.since ?? Number.NEGATIVE_INFINITY) < copy.since ? copy : undefined;
}

/** Keeps a copy of a first look's state in the workflow's static data, which n8n saves at activation. */
function keepFirstLook(ctx: IPollFunctions, state: PollState): void {
	const global = ctx.getWorkflowStaticData('global');
	global[FIRST_LOOK_KEY] = {
		...firstLooks(ctx),
		[ctx.getNode().name]: JSON.parse(JSON.stringify(state)) as IDataObject,
	};
}

export async function runPoll(
	ctx: IPollFunctions,
	settings: PollSettings,
): Promise<INodeExecutionData[][] | null> {
	if (settings.source !== 'balances' && settings.events.length === 0)
		throw new NodeOperationError(
			ctx.getNode(),
			'Select at least one event (or "All Events") in Events',
		);
	if (ctx.getMode() === 'manual') return await readAndEmit(ctx, settings);
	// Taken before the first await: two polls started together cannot both pass.
	const key = pollKey(ctx);
	const now = Date.now();
	const running = underWay.get(key);
	if (running && running.expiresAt > now) {
		ctx.logger.warn(
			`Crypto Settlement Poll Trigger: the previous poll of this trigger is still running (since ${Math.round((now - running.startedAt) / 1000)} s); this poll reads nothing and the next one continues from where the previous one ends`,
		);
		return null;
	}
	const mine = { startedAt: now, expiresAt: now + 2 * Budget.of(ctx).totalMs };
	underWay.set(key, mine);
	try {
		return await readAndEmit(ctx, settings);
	} finally {
		if (underWay.get(key) === mine) underWay.delete(key);
	}
}

async function readAndEmit(
	ctx: IPollFunctions,
	settings: PollSettings,
): Promise<INodeExecutionData[][] | null> {
	const credentials = await ctx.getCredentials<IDataObject>(CREDENTIAL_TYPE);
	const secrets = secretsOf(credentials);
	try {
		const problem = credentialProblem(credentials);
		if (problem)
			throw new NodeOperationError(ctx.getNode(), problem.message, {
				description: `Fix '${problem.field}' in the Crypto Settlement API credential. Nothing was sent to the service.`,
			});
		const warn = (message: string) => ctx.logger.warn(`Crypto Settlement Poll Trigger: ${message}`);
		if (settings.source === 'balances') {
			const client = new PollClient(ctx, Budget.of(ctx), undefined, secrets);
			const alerts = await pollBalances(ctx, client, settings.thresholds ?? [], warn);
			return alerts.length ? [alerts.map((event) => ({ json: event.json }))] : null;
		}
		const events =
			ctx.getMode() === 'manual'
				? await latestEvent(ctx, settings, secrets)
				: await pollOnce(ctx, settings, warn, secrets);
		const items = await describeEvents(ctx, credentials, events);
		return items.length ? [items.map((json) => ({ json }))] : null;
	} catch (error) {
		// The node's words stay; what could quote the request (details, a library's cause) is cleaned (service/redact.ts).
		throw redactError(error, secrets);
	}
}

async function pollOnce(
	ctx: IPollFunctions,
	settings: PollSettings,
	warn: (message: string) => void,
	secrets: readonly string[],
): Promise<PolledEvent[]> {
	const staticData = ctx.getWorkflowStaticData('node');
	const previous =
		readState(staticData[STATE_KEY], settings.source) ??
		keptFirstLook(ctx, staticData[STATE_KEY], settings.source);
	const budget = Budget.of(ctx);
	const client = new PollClient(ctx, budget, previous?.offsetMs, secrets);
	const specs = settings.source === 'webhookEvents' ? [STORED_DELIVERIES] : RECORD_LISTS;
	const state: PollState = {
		version: 2,
		source: settings.source,
		since: previous ? previous.since : Date.now(),
		lists: {},
	};
	let looked = false;
	const events: PolledEvent[] = [];
	for (const [turn, spec] of specs.entries()) {
		// Lists take the time in turn: a busy one cannot starve the next.
		const lastStart = budget.lastStart(turn + 1, specs.length);
		const list = pollList(ctx, client, spec, lastStart);
		const cursor = readCursor(previous?.lists[spec.name]) ?? newCursor();
		const firstLook = cursor.position === undefined;
		looked ||= firstLook;
		const walk = new ListWalk(cursor, list.source, settings.maxPages, () => client.serviceNow());
		await walk.run();
		const stoppedBy = walk.cut ? (list.stopped ?? 'maxPages') : undefined;
		const followed =
			!firstLook && cursor.position
				? await followOpen(client, list, cursor, walk.visited, settings.maxPages, lastStart)
				: undefined;
		const changes = [...walk.changes, ...(followed?.changes ?? [])];
		events.push(...changes.flatMap((change) => list.toEvent(change.record) ?? []));
		const warnings = [
			followed?.unread &&
				`${followed.unread} ${spec.name} not yet final could not be read by id (HTTP 404, an answer without the record or about another one, or a failed lookup${
					followed.failure === undefined ? '' : `: ${followed.failure}`
				}); they are still followed, and a status change is emitted once a page or a later lookup shows it`,
			stoppedBy &&
				`this poll stopped reading ${spec.name} because ${STOPPED[stoppedBy](settings.maxPages)}; what it read is emitted and the next poll continues from there${
					stoppedBy === 'rateLimit' ? '' : ' (raise Max Pages per Poll or poll more often)'
				}`,
			!firstLook &&
				walk.unidentified.size &&
				`${walk.unidentified.size} ${spec.name} read by this poll show no ${spec.kind ? 'id' : 'event'}, so they cannot be told apart and are not emitted; check them in the dashboard`,
			walk.droppedOpen &&
				`${walk.droppedOpen} ${spec.name} not yet final are no longer followed (more than the trigger keeps); their later status changes will not be emitted`,
		];
		for (const warning of warnings) if (warning) warn(warning);
		if (cursor.position) state.lists[spec.name] = cursor;
	}
	state.offsetMs = Math.round(client.offsetMs);
	staticData[STATE_KEY] = state;
	if (looked) keepFirstLook(ctx, state);
	const time = (at: number) => (Number.isFinite(at) ? at : Number.POSITIVE_INFINITY);
	// Oldest first; the same moment in the service: pending before completed, as the record lived it.
	return events
		.filter((event) => isEventSelected(settings.events, event.event))
		.sort((a, b) => time(a.at) - time(b.at) || lifecycleRank(a.event) - lifecycleRank(b.event));
}
