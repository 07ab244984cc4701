/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * Workflow-test harness: runs workflows through n8n-core's real WorkflowExecute with the package
 * loaded from dist/ by n8n-core's PackageDirectoryLoader, the way n8n loads community packages.
 *
 * Unlike n8n's own test helper, the credentials helper applies the credential type's declared
 * `authenticate` (function or generic), so request headers are exactly what n8n would send.
 * HTTP is left to the caller (nock, or the local sandbox).
 */
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { ExecutionLifecycleHooks, LoadOptionsContext, PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	ICredentialsHelper,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type INodeListSearchResult,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

export const PACKAGE_NAME = 'n8n-nodes-crypto-settlement';
/** The package root, found upward so the harness also works compiled into .build/ (the benchmark). */
export const PACKAGE_ROOT = findPackageRoot(__dirname);

function findPackageRoot(from: string): string {
	for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		try {
			if (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name === PACKAGE_NAME) return dir;
		} catch {
			// no package.json here: keep walking up
		}
	}
	throw new Error(`package root of ${PACKAGE_NAME} not found above ${from}`);
}
export const ACTION_NODE = `${PACKAGE_NAME}.cryptoSettlement`;
export const TRIGGER_NODE = `${PACKAGE_NAME}.cryptoSettlementTrigger`;
export const CREDENTIAL_TYPE = 'cryptoSettlementApi';

export interface LoadedPackage {
	loader: PackageDirectoryLoader;
	nodeTypes: HarnessNodeTypes;
	credentialType: ICredentialType;
}

let loaded: Promise<LoadedPackage> | undefined;

/** Loads dist/ once per test file, exactly as n8n loads an installed community package. */
export async function loadPackage(): Promise<LoadedPackage> {
	loaded ??= (async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		const credentialType = loader.credentialTypes[CREDENTIAL_TYPE]?.type;
		if (!credentialType) throw new Error(`credential ${CREDENTIAL_TYPE} not found in dist: run npm run build`);
		return { loader, nodeTypes: new HarnessNodeTypes(loader), credentialType };
	})();
	return await loaded;
}

/** Node types of the package (by full type name), plus extra types a test registers. */
export class HarnessNodeTypes implements INodeTypes {
	private readonly extra = new Map<string, INodeType | IVersionedNodeType>();

	constructor(private readonly loader: PackageDirectoryLoader) {}

	register(typeName: string, type: INodeType | IVersionedNodeType): void {
		this.extra.set(typeName, type);
	}

	getByName(typeName: string): INodeType | IVersionedNodeType {
		const extra = this.extra.get(typeName);
		if (extra) return extra;
		const short = typeName.startsWith(`${PACKAGE_NAME}.`) ? typeName.slice(PACKAGE_NAME.length + 1) : typeName;
		const found = this.loader.nodeTypes[short]?.type;
		if (!found) throw new Error(`unknown node type ${typeName}`);
		return found;
	}

	getByNameAndVersion(typeName: string, version?: number): INodeType {
		const type = this.getByName(typeName);
		return 'nodeVersions' in type ? type.getNodeType(version) : type;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** Resolves `={{ $credentials.x }}`-style values of a generic `authenticate` with n8n's own expression engine. */
function resolveWithCredentials(
	value: unknown,
	credentials: ICredentialDataDecryptedObject,
	workflow: Workflow | undefined,
	node: INode | undefined,
): unknown {
	if (typeof value !== 'string' || !value.startsWith('=') || !workflow || !node) return value;
	return workflow.expression.getParameterValue(value, null, 0, 0, node.name, [], 'internal', {
		$credentials: credentials,
	});
}

/** Applies the credential type's declared authentication, as n8n's CredentialsHelper does. */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.types[typeName]?.authenticate;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const options: IHttpRequestOptions = { ...requestOptions };
		for (const [target, values] of Object.entries(authenticate.properties)) {
			const key = target as 'headers' | 'qs' | 'body';
			const resolved: IDataObject = {};
			for (const [name, value] of Object.entries(values as IDataObject)) {
				resolved[name] = resolveWithCredentials(value, credentials, workflow, node) as IDataObject[string];
			}
			options[key] = { ...((options[key] as IDataObject) ?? {}), ...resolved };
		}
		return options;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by the harness');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const found = this.credentials[type];
		if (!found) throw new Error(`no credentials of type ${type} were given to the harness`);
		return { ...found };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}

export interface RunOptions {
	/** The workflow (nodes + connections); the first node listed receives `items`. */
	workflow: Pick<IWorkflowBase, 'nodes' | 'connections'> & Partial<Pick<IWorkflowBase, 'settings' | 'staticData'>>;
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
	for (const [name, type] of Object.entries(options.nodeTypes ?? {})) nodeTypes.register(name, type);

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
			nodeExecutionStack: [{ node: startNode, data: { main: [options.items ?? [{ json: {} }]] }, source: null }],
		},
	});

	const workflowExecute = new WorkflowExecute(additionalData, options.mode ?? 'manual', runExecutionData);
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
export function actionWorkflow(parameters: IDataObject, extra: Partial<INode> = {}): RunOptions['workflow'] {
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

export interface EditorListRequest {
	/** A `methods.loadOptions` or `methods.listSearch` method of the action node. */
	method: string;
	/** The node's parameters as the editor holds them when it asks. */
	parameters: INodeParameters;
	credentials: ICredentialDataDecryptedObject;
	/** For list search: the text typed in the search box and the token of the next page. */
	filter?: string;
	paginationToken?: string;
}

/**
 * Asks the action node for an editor list the way n8n's DynamicNodeParametersService does (the
 * REST call behind a dropdown or a resource locator): a temporary node holding the current
 * parameters and the credential, and the method called on n8n-core's LoadOptionsContext.
 */
export async function loadEditorList(
	request: EditorListRequest,
): Promise<INodePropertyOptions[] | INodeListSearchResult> {
	const { nodeTypes, credentialType } = await loadPackage();
	const nodeType = nodeTypes.getByNameAndVersion(ACTION_NODE, 1);
	const { loadOptions = {}, listSearch = {} } = nodeType.methods ?? {};
	const node = actionWorkflow(request.parameters).nodes[0];
	node.name = 'Temp-Node';
	const workflow = new Workflow({ nodes: [node], connections: {}, nodeTypes, active: false });
	const hooks = new ExecutionLifecycleHooks('internal', 'harness-editor', {} as IWorkflowBase);
	const credentialsHelper = new HarnessCredentialsHelper(
		{ [CREDENTIAL_TYPE]: credentialType },
		{ [CREDENTIAL_TYPE]: request.credentials },
	);
	const additionalData = createAdditionalData({
		hooks,
		credentialsHelper,
		executionId: 'harness-editor',
		currentNodeParameters: request.parameters,
	});
	const context = new LoadOptionsContext(workflow, node, additionalData, `parameters.${request.method}`);
	if (loadOptions[request.method]) return await loadOptions[request.method].call(context);
	if (listSearch[request.method]) {
		return await listSearch[request.method].call(context, request.filter, request.paginationToken);
	}
	throw new Error(`the action node has no editor list method ${request.method}`);
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Runs the credential's `test.request` the way n8n's credential tester does: a temporary
 * declarative node whose request defaults are the test request, executed with the credential.
 */
export async function testCredential(credentials: ICredentialDataDecryptedObject): Promise<CredentialTestResult> {
	const { credentialType } = await loadPackage();
	const testRequest = credentialType.test?.request;
	if (!testRequest) throw new Error('the credential declares no test request');
	const description: INodeTypeDescription = {
		displayName: 'Credential Test',
		name: 'credentialTest',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'Credential Test' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		requestDefaults: testRequest,
		properties: [],
	} as INodeTypeDescription;
	const result = await runWorkflow({
		workflow: actionWorkflow({}, { type: 'harness.credentialTest', name: 'Credential Test' }),
		credentials: { [CREDENTIAL_TYPE]: credentials },
		nodeTypes: { 'harness.credentialTest': { description } },
	});
	const error = result.nodeError('Credential Test');
	if (error) {
		// As n8n's CredentialsTester words it: a rule for the HTTP status, else the bare status text
		// ("Unauthorized"), else the error's message (no answer at all, a refused Base URL).
		const status = Number((error as { httpCode?: unknown }).httpCode);
		if (status >= 100) {
			const rule = (credentialType.test?.rules ?? []).find(
				(candidate) => candidate.type === 'responseCode' && candidate.properties.value === status,
			);
			if (rule) return { status: 'Error', message: rule.properties.message };
			if (status < 199 || status > 299) {
				return { status: 'Error', message: STATUS_CODES[status] ?? `Received HTTP status code: ${status}` };
			}
		}
		return { status: 'Error', message: error.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
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
