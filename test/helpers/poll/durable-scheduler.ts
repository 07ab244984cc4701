/**
 * n8n 2.x's durable scheduler with durable poll cursors (N8N_SCHEDULER_ENABLED,
 * N8N_SCHEDULER_POLL_TRIGGERS_ENABLED, N8N_POLLER_DURABLE_CURSORS_ENABLED), as n8n 2.41 runs a poll
 * trigger (docs/trigger.md, "n8n's scheduler drops the first poll's state"). The poll itself runs
 * through n8n-core's real PollTriggerExecutor and PollContext; around it, what n8n's server package
 * (not a dependency here) does, step for step:
 * - the node's state lives in the `poller_state` row (`cursor`), created at the first poll from the
 *   node's static data; each poll gets a copy of it (`resolveNodeStaticData`), committed when the
 *   poll emits (with its execution) or returns nothing (`__commitCursor`), if it changed;
 * - at activation n8n runs the poll as a test (`executePollTrigger(true)`): a poll that returns
 *   nothing commits no cursor, and the workflow's static data is saved when the activation ends;
 * - each scheduled poll builds the workflow afresh from the saved static data and is handed the row.
 */
import { PollContext, PollTriggerExecutor, TriggersAndPollers } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INodeExecutionData,
	type INode,
} from 'n8n-workflow';
import { loadPackage } from '../index';
import { logInto, pollAdditionalData, pollTriggerNode, type PollResult } from './poll-harness';

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const noop = () => undefined;
const logger = { scoped: () => logger, error: noop, warn: noop, info: noop, debug: noop };
const tracing = {
	startSpan: async <T>(_: unknown, run: (span: { setStatus: () => void }) => Promise<T>) =>
		await run({ setStatus: noop }),
	startNewTraceSpan: async <T>(_: unknown, run: (span: { setStatus: () => void }) => Promise<T>) =>
		await run({ setStatus: noop }),
	pickWorkflowAttributes: () => ({}),
	pickNodeAttributes: () => ({}),
};

export class DurableScheduler {
	/** `poller_state.cursor` of the trigger node (undefined: no row yet). */
	row?: IDataObject;

	/** The workflow's static data as saved in its database row. */
	saved: IDataObject = {};

	private readonly executor = new PollTriggerExecutor(
		logger as never,
		new TriggersAndPollers(),
		tracing as never,
		{ error: noop } as never,
	);

	private constructor(
		private readonly parameters: IDataObject,
		private readonly credentials: ICredentialDataDecryptedObject,
		private readonly loaded: Awaited<ReturnType<typeof loadPackage>>,
	) {}

	static async create(
		parameters: IDataObject,
		credentials: ICredentialDataDecryptedObject,
	): Promise<DurableScheduler> {
		return new DurableScheduler(parameters, credentials, await loadPackage());
	}

	/** Publishing: the poll n8n runs when it inserts the trigger's scheduled job. */
	async activate(): Promise<PollResult> {
		return await this.run(true);
	}

	/** A scheduled poll (n8n's poll-trigger task). */
	async poll(): Promise<PollResult> {
		return await this.run(false);
	}

	private async run(activation: boolean): Promise<PollResult> {
		const node: INode = pollTriggerNode(this.parameters);
		const workflow = new Workflow({
			id: 'poll-workflow-1',
			name: 'poll',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes: this.loaded.nodeTypes,
			staticData: json(this.saved),
		});
		const logs: PollResult['logs'] = [];
		const result: Omit<PollResult, 'ms' | 'abandoned'> = { items: null, logs };
		// The task hands the poll the row it read; the activation reads it, or creates it from the node's static data.
		const prefetched = activation ? undefined : this.row;
		let staged: { snapshot: IDataObject; seed: IDataObject } | undefined;
		const takeStaged = (): IDataObject | null => {
			if (!staged || JSON.stringify(staged.snapshot) === JSON.stringify(staged.seed)) return null;
			staged.seed = json(staged.snapshot);
			return json(staged.snapshot);
		};
		const saveStaticData = () => {
			this.saved = json(workflow.staticData);
		};
		const context = new PollContext(
			workflow,
			node,
			pollAdditionalData(this.loaded, this.credentials, 'trigger'),
			'trigger',
			activation ? 'activate' : 'update',
			(data: INodeExecutionData[][]) => {
				const cursor = takeStaged();
				saveStaticData();
				if (cursor) this.row = cursor;
				result.items = data[0].map((item) => item.json);
			},
			(error: Error) => {
				result.error = error;
			},
			async () => {
				const cursor = takeStaged();
				if (cursor) this.row = cursor;
			},
			async (poll) => {
				const cursor = prefetched ?? (this.row ??= json(workflow.getStaticData('node', node)));
				staged = { snapshot: json(cursor), seed: json(cursor) };
				return await poll();
			},
			() => {
				if (!staged) throw new Error('the poll read its static data outside of a poll');
				return staged.snapshot;
			},
			() => 36_000,
		);
		logInto(context, logs);
		const startedAt = Date.now();
		try {
			await this.executor.create(workflow, node, context, () => true)(activation);
			// The activation ends by saving the workflow's static data (a failed one fails the publishing).
			if (activation) saveStaticData();
		} catch (error) {
			result.error = error as Error;
		}
		return { ...result, ms: Date.now() - startedAt, abandoned: false };
	}
}
