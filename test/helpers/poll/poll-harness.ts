/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Drives the poll trigger as n8n does: n8n-core's real PollContext around a real Workflow built
 * from the package loaded from dist/, with requests through n8n's real HTTP stack and the
 * credential's declared authentication (the shared harness). A `Poller` keeps one Workflow between
 * polls, as an active workflow does in n8n (its static data object lives on); `restart()` builds a
 * new one from the static data as saved (JSON), as n8n does after a restart.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExecutionLifecycleHooks, PollContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type IWorkflowBase,
	type WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	CREDENTIAL_TYPE,
	createAdditionalData,
	HarnessCredentialsHelper,
	loadPackage,
	PACKAGE_NAME,
} from '../index';

export const POLL_NODE = `${PACKAGE_NAME}.cryptoSettlementPollTrigger`;
export const POLL_NAME = 'Crypto Settlement Poll Trigger';

export interface PollResult {
	/** The items the poll returned (n8n emits them as one execution), or null. */
	items: IDataObject[] | null;
	error?: Error;
	logs: Array<{ level: string; message: string }>;
	/** How long the poll took (ms). */
	ms: number;
	/** n8n abandoned the poll (past its budget, or `commit: false`): nothing ran, its state was not committed. */
	abandoned: boolean;
}

export interface PollerOptions {
	/** What `this.getPollBudgetMs()` answers (n8n 2.x: 36 s by default). A poll that takes longer is abandoned. */
	budgetMs?: number;
	/** n8n 1.x: the poll context has no `getPollBudgetMs`. */
	withoutBudget?: boolean;
	/**
	 * n8n 2.x with durable poll cursors: each poll reads its own copy of the node's static data (as
	 * committed when it started) and commits it when it returns, if it changed; the last commit wins.
	 */
	stateCopies?: boolean;
}

export interface PollOptions {
	/** false: n8n abandons this poll after it returned (its items do not run, its state is not committed). */
	commit?: boolean;
}

/** The poll trigger node of the test workflows. */
export function pollTriggerNode(parameters: IDataObject): INode {
	return {
		id: 'poll-node-1',
		name: POLL_NAME,
		type: POLL_NODE,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-poll', name: 'Crypto Settlement account' } },
	};
}

/** What n8n hands a poll besides its node: the credential through n8n's credentials helper. */
export function pollAdditionalData(
	loaded: Awaited<ReturnType<typeof loadPackage>>,
	credentials: ICredentialDataDecryptedObject,
	mode: WorkflowExecuteMode,
) {
	const hooks = new ExecutionLifecycleHooks(mode, 'poll-execution', {} as IWorkflowBase);
	const credentialsHelper = new HarnessCredentialsHelper(
		{ [CREDENTIAL_TYPE]: loaded.credentialType },
		{ [CREDENTIAL_TYPE]: credentials },
	);
	return createAdditionalData({ hooks, credentialsHelper, executionId: 'poll-execution' });
}

/** The poll's log lines go to `logs`. */
export function logInto(context: PollContext, logs: PollResult['logs']): void {
	const logger: Record<string, unknown> = {};
	for (const level of ['error', 'warn', 'info', 'debug']) {
		logger[level] = (message: string) => logs.push({ level, message });
	}
	logger.scoped = () => logger;
	Object.defineProperty(context, 'logger', { value: logger, configurable: true });
}

export class Poller {
	private workflow!: Workflow;

	private saved: IDataObject = {};

	private constructor(
		private parameters: IDataObject,
		private readonly credentials: ICredentialDataDecryptedObject,
		private readonly loaded: Awaited<ReturnType<typeof loadPackage>>,
		private readonly options: PollerOptions,
	) {
		this.build();
	}

	static async create(
		parameters: IDataObject,
		credentials: ICredentialDataDecryptedObject,
		options: PollerOptions = {},
	): Promise<Poller> {
		return new Poller(parameters, credentials, await loadPackage(), options);
	}

	private node(): INode {
		return pollTriggerNode(this.parameters);
	}

	private build(): void {
		this.workflow = new Workflow({
			id: 'poll-workflow-1',
			name: 'poll',
			nodes: [this.node()],
			connections: {},
			active: true,
			nodeTypes: this.loaded.nodeTypes,
			staticData: JSON.parse(JSON.stringify(this.saved)) as IDataObject,
		});
	}

	/** The node's static data as n8n would save it now. */
	get staticData(): IDataObject {
		return JSON.parse(
			JSON.stringify(this.workflow.getStaticData('node', this.node())),
		) as IDataObject;
	}

	/** n8n saves the static data after a poll (with or without events); a restart starts from that. */
	restart(parameters?: IDataObject): void {
		if (parameters) this.parameters = parameters;
		this.build();
	}

	async poll(
		mode: WorkflowExecuteMode = 'trigger',
		options: PollOptions = {},
	): Promise<PollResult> {
		const { nodeTypes } = this.loaded;
		const node = this.workflow.getNode(POLL_NAME)!;
		const additionalData = pollAdditionalData(this.loaded, this.credentials, mode);
		const logs: PollResult['logs'] = [];
		const budgetMs = this.options.budgetMs ?? 36_000;
		const copy = this.options.stateCopies ? this.copyOfState(node) : undefined;
		const context = new PollContext(
			this.workflow,
			node,
			additionalData,
			mode,
			mode === 'manual' ? 'manual' : 'activate',
			() => undefined,
			() => undefined,
			async () => undefined,
			async (poll) => await poll(),
			() => copy?.state ?? this.workflow.getStaticData('node', node),
			() => budgetMs,
		);
		if (this.options.withoutBudget)
			Object.defineProperty(context, 'getPollBudgetMs', { value: undefined, configurable: true });
		logInto(context, logs);
		const nodeType = nodeTypes.getByNameAndVersion(POLL_NODE, 1);
		const startedAt = Date.now();
		let result: Omit<PollResult, 'ms' | 'abandoned'>;
		try {
			const returned = (await nodeType.poll!.call(context)) as INodeExecutionData[][] | null;
			result = { items: returned ? returned[0].map((item) => item.json) : null, logs };
		} catch (error) {
			result = { items: null, error: error as Error, logs };
		}
		const ms = Date.now() - startedAt;
		// n8n abandons a poll past its budget: its items never run and its state is not committed.
		if (options.commit === false || (!this.options.withoutBudget && ms > budgetMs)) {
			this.build();
			return { items: null, logs, ms, abandoned: true };
		}
		// A poll that failed commits nothing (n8n records the error instead).
		if (copy && !result.error) this.commitCopy(node, copy);
		this.saved = this.staticDataRoot();
		return { ...result, ms, abandoned: false };
	}

	private copyOfState(node: INode): { seed: string; state: IDataObject } {
		const seed = JSON.stringify(this.workflow.getStaticData('node', node));
		return { seed, state: JSON.parse(seed) as IDataObject };
	}

	/** n8n commits a poll's copy when it changed, over whatever was committed meanwhile. */
	private commitCopy(node: INode, copy: { seed: string; state: IDataObject }): void {
		if (JSON.stringify(copy.state) === copy.seed) return;
		const committed = this.workflow.getStaticData('node', node);
		for (const key of Object.keys(committed)) delete committed[key];
		Object.assign(committed, JSON.parse(JSON.stringify(copy.state)) as IDataObject);
	}

	private staticDataRoot(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
	}
}

export interface LocalServer {
	url: string;
	requests: Array<{ method: string; path: string; query: URLSearchParams; at: number }>;
	close(): Promise<void>;
}

export interface LocalAnswer {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

/** A small local API: `handle` answers each request (at once or later) with a status, a JSON body and headers. */
export async function startLocalServer(
	handle: (
		method: string,
		path: string,
		query: URLSearchParams,
	) => LocalAnswer | Promise<LocalAnswer>,
): Promise<LocalServer> {
	const server: LocalServer = { url: '', requests: [], close: async () => undefined };
	const srv = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://local');
		const path = url.pathname.replace(/^\/v1/, '');
		server.requests.push({
			method: req.method ?? 'GET',
			path,
			query: url.searchParams,
			at: Date.now(),
		});
		void Promise.resolve(handle(req.method ?? 'GET', path, url.searchParams)).then((answer) => {
			res.writeHead(answer.status, {
				'content-type': 'application/json',
				...(answer.headers ?? {}),
			});
			res.end(JSON.stringify(answer.body));
		});
	});
	await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
	server.url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`;
	server.close = () =>
		new Promise<void>((resolve) => {
			srv.close(() => resolve());
			srv.closeAllConnections();
		});
	return server;
}
