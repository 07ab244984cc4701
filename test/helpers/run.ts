/** Runs workflows through n8n-core's real WorkflowExecute, with the additional data node execution reads. */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialsHelper,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';
import { HarnessCredentialsHelper } from './credentials';
import { ACTION_NODE, CREDENTIAL_TYPE, loadPackage } from './package';

export interface RunOptions {
	/** The workflow (nodes + connections); the first node listed receives `items`. */
	workflow: Pick<IWorkflowBase, 'nodes' | 'connections'> &
		Partial<Pick<IWorkflowBase, 'settings' | 'staticData'>>;
	items?: INodeExecutionData[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	mode?: WorkflowExecuteMode;
	executionId?: string;
	/** Extra node types (for example a benchmark's HTTP Request node). */
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
}

export interface RunResult {
	run: IRun;
	/** Output items of a node's first run, main output 0. */
	output(nodeName: string, runIndex?: number): INodeExecutionData[];
	/** The error a node ended with, if any. */
	nodeError(nodeName: string): IRun['data']['resultData']['error'] | undefined;
	/** The error the whole workflow ended with, if any. */
	error: IRun['data']['resultData']['error'] | undefined;
}

/** Runs a workflow through WorkflowExecute and returns every node's output. */
export async function runWorkflow(options: RunOptions): Promise<RunResult> {
	const { nodeTypes, credentialType } = await loadPackage();
	for (const [name, type] of Object.entries(options.nodeTypes ?? {}))
		nodeTypes.register(name, type);

	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'harness',
		nodes: options.workflow.nodes,
		connections: options.workflow.connections,
		nodeTypes,
		active: false,
		settings: options.workflow.settings,
		staticData: options.workflow.staticData,
	});

	const executionId = options.executionId ?? 'harness-execution-1';
	const hooks = new ExecutionLifecycleHooks(options.mode ?? 'manual', executionId, {
		id: 'harness-workflow',
		name: 'harness',
		active: false,
		isArchived: false,
		nodes: options.workflow.nodes,
		connections: options.workflow.connections,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as unknown as IWorkflowBase);
	let finished!: (run: IRun) => void;
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => finished(fullRunData));

	const credentialsHelper = new HarnessCredentialsHelper(
		{ [CREDENTIAL_TYPE]: credentialType },
		options.credentials ?? {},
	);
	const additionalData = createAdditionalData({ hooks, credentialsHelper, executionId });

	const startNode = workflow.getNode(options.workflow.nodes[0].name);
	if (!startNode) throw new Error('workflow has no nodes');
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: [options.items ?? [{ json: {} }]] }, source: null },
			],
		},
	});

	const workflowExecute = new WorkflowExecute(
		additionalData,
		options.mode ?? 'manual',
		runExecutionData,
	);
	await workflowExecute.processRunExecutionData(workflow);
	const run = await done;
	const { runData } = run.data.resultData;
	return {
		run,
		error: run.data.resultData.error,
		output: (nodeName, runIndex = 0) => runData[nodeName]?.[runIndex]?.data?.main?.[0] ?? [],
		nodeError: (nodeName) => runData[nodeName]?.[0]?.error,
	};
}

/**
 * The parts of n8n's additional data that node execution reads; everything else is undefined,
 * as it is for a manual run without the optional services.
 */
export function createAdditionalData(parts: {
	hooks: ExecutionLifecycleHooks;
	credentialsHelper: ICredentialsHelper;
	executionId: string;
	/** What the editor holds while it asks for a dropdown's choices. */
	currentNodeParameters?: INodeParameters;
}): IWorkflowExecuteAdditionalData {
	const base: Record<string, unknown> = {
		hooks: parts.hooks,
		credentialsHelper: parts.credentialsHelper,
		executionId: parts.executionId,
		currentNodeParameters: parts.currentNodeParameters,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		executionTimeoutTimestamp: undefined,
		userId: 'harness-user',
		variables: {},
		parentExecution: undefined,
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
	};
	return new Proxy(base, {
		get(target, property) {
			if (typeof property === 'symbol' || property === 'then') return undefined;
			return target[property];
		},
	}) as unknown as IWorkflowExecuteAdditionalData;
}

/** A one-node workflow around the action node, with the credential attached. */
export function actionWorkflow(
	parameters: IDataObject,
	extra: Partial<INode> = {},
): RunOptions['workflow'] {
	return {
		nodes: [
			{
				id: 'node-1',
				name: 'Crypto Settlement',
				type: ACTION_NODE,
				typeVersion: 1,
				position: [0, 0],
				parameters,
				credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Crypto Settlement account' } },
				...extra,
			} as INode,
		],
		connections: {},
	};
}

/** Everything a run produced, as text: for "the secret never appears anywhere" assertions. */
export function serializeRun(result: RunResult): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(result.run, (_key, value: unknown) => {
		if (value instanceof Error) {
			const copy: Record<string, unknown> = {};
			for (const name of Object.getOwnPropertyNames(value))
				copy[name] = (value as unknown as Record<string, unknown>)[name];
			return copy;
		}
		if (value && typeof value === 'object') {
			if (seen.has(value)) return '[circular]';
			seen.add(value);
		}
		return value;
	});
}
