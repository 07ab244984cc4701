/**
 * Drives the trigger as n8n does: n8n-core's real WebhookContext (for `webhook()`) and HookContext
 * (for `webhookMethods.default.*`) around a real Workflow built from the package loaded from dist/.
 * Only the HTTP request/response pair is fake (an Express-like object); outgoing API calls go
 * through n8n's real HTTP stack, so tests intercept them with nock.
 *
 * What n8n's webhook server does around the node is reproduced in `deliver()` (see `answerAsN8n`):
 * - `responseMode: onReceived`: when the node returns `workflowData`, n8n starts one execution and
 *   answers 200 (body per the description's `responseData`, see `onReceivedBody`); when it returns
 *   neither data nor `noWebhookResponse`, n8n answers 200 (with `webhookResponse` as the body, or
 *   `{ message: 'Webhook call received' }`) and starts nothing; with `noWebhookResponse` the node has
 *   answered itself.
 * - if `webhook()` throws, n8n answers 500 and records a failed execution: reported as `threw`.
 * - static data (n8n 2.x): n8n saves the call's static data only when it is marked changed, after the
 *   node returns; for an emitted delivery after starting the execution, which marks it unchanged
 *   (`startExecution`), and before answering. `savedStaticData()` is what n8n saved last.
 * - body parsing (n8n's `parseBody`): `rawBody` is always the bytes sent; `body` is parsed JSON for
 *   `application/json`, the text for `text/plain`, otherwise `{}`. Real n8n answers 422 itself for
 *   `application/json` bodies that do not parse (the node never sees them); the harness still hands
 *   them to the node (with `body: {}`) so the node's own 400 path is exercised.
 */
import { ExecutionLifecycleHooks, HookContext, WebhookContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeType,
	type IWebhookData,
	type IWebhookDescription,
	type IWebhookResponseData,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	CREDENTIAL_TYPE,
	createAdditionalData,
	HarnessCredentialsHelper,
	loadPackage,
	TRIGGER_NODE,
} from '../index';
import { CREDENTIALS, TRIGGER_NAME, WEBHOOK_ID, WORKFLOW_ID } from './constants';
import { withRecordingLogger } from './logs';
import { buildRequest, FakeResponse, type Delivery } from './request';
import {
	answerAsN8n,
	itemsOf,
	serveWebhook,
	type N8nAroundCall,
	type ServedTrigger,
	type WebhookOutcome,
} from './server';

export interface TriggerSetup {
	events?: string[];
	/** Top-level parameters besides `events` (e.g. `{ confirmWithApi: false }`); absent = the node's defaults. */
	parameters?: IDataObject;
	/** The `options` collection; absent = not set on the node (n8n's default `{}`). */
	options?: IDataObject;
	/** Workflow id; each harness gets its own unless set (the node keeps per-workflow memory in the process). */
	workflowId?: string;
	/** Credential data given to n8n; `null` = no credential selected on the node. */
	credentials?: ICredentialDataDecryptedObject | null;
	/** Workflow static data to start from (e.g. a copy saved by an earlier "process"). */
	staticData?: IDataObject;
	/** Execution mode: `webhook` for an active workflow, `manual` for "Listen for test event". */
	mode?: WorkflowExecuteMode;
	/** The node's version in the workflow; absent = the node's default version (what a new node gets). */
	typeVersion?: number;
}

export interface DeliveryResult {
	/** HTTP status the caller receives. */
	status: number;
	/** Response body the caller receives. */
	response: unknown;
	/** Whether n8n would start an execution. */
	started: boolean;
	/** Items of that execution (the trigger's output). */
	items: IDataObject[];
	/** What `webhook()` returned. */
	result?: IWebhookResponseData;
	/** Set when `webhook()` threw (n8n would answer 500). */
	threw?: Error;
}

let harnessCount = 0;

/** The trigger node as a workflow holds it (with the test credential unless told otherwise). */
export function triggerNode(
	parameters: IDataObject,
	withCredential = true,
	typeVersion = 1,
): INode {
	return {
		id: 'trigger-node-1',
		name: TRIGGER_NAME,
		type: TRIGGER_NODE,
		typeVersion,
		position: [0, 0],
		webhookId: WEBHOOK_ID,
		parameters,
		...(withCredential
			? {
					credentials: {
						[CREDENTIAL_TYPE]: { id: 'cred-trigger', name: 'Crypto Settlement account' },
					},
				}
			: {}),
	} as INode;
}

export class TriggerHarness {
	readonly workflow: Workflow;
	readonly workflowId: string;
	readonly node: INode;
	private executions = 0;
	/** The static data as n8n last saved it (its database copy). */
	private saved: IDataObject;

	private constructor(
		private readonly nodeType: INodeType,
		private readonly setup: TriggerSetup,
		private readonly credentialsHelper: HarnessCredentialsHelper,
		private readonly nodeTypes: ConstructorParameters<typeof Workflow>[0]['nodeTypes'],
	) {
		const parameters: IDataObject = { events: setup.events ?? ['*'], ...setup.parameters };
		if (setup.options !== undefined) parameters.options = setup.options;
		this.workflowId = setup.workflowId ?? `${WORKFLOW_ID}-${++harnessCount}`;
		const version = nodeType.description.defaultVersion ?? nodeType.description.version;
		this.node = triggerNode(
			parameters,
			setup.credentials !== null,
			setup.typeVersion ?? (Array.isArray(version) ? Math.max(...version) : version),
		);
		this.workflow = new Workflow({
			id: this.workflowId,
			name: 'trigger tests',
			nodes: [this.node],
			connections: {},
			nodeTypes,
			active: (setup.mode ?? 'webhook') === 'webhook',
			staticData: setup.staticData ? structuredClone(setup.staticData) : undefined,
		});
		this.saved = structuredClone(setup.staticData ?? {});
	}

	/** n8n's WorkflowStaticDataService.saveStaticData: saves only static data marked changed. */
	private saveStaticData(): void {
		if (this.workflow.staticData.__dataChanged !== true) return;
		this.saved = JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
		this.workflow.staticData.__dataChanged = false;
	}

	/**
	 * What starting the execution does to the call's static data (n8n 2.x WorkflowRunner.run,
	 * `establishContextForPersistence`): a Workflow built on the same static data object marks it
	 * unchanged.
	 */
	private startExecution(): void {
		new Workflow({
			id: this.workflowId,
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes: this.nodeTypes,
			staticData: this.workflow.staticData,
		});
	}

	/** n8n around a call the node did not answer itself: start the execution, save, answer. */
	private get n8n(): N8nAroundCall {
		return {
			startExecution: () => this.startExecution(),
			saveStaticData: () => this.saveStaticData(),
		};
	}

	static async create(setup: TriggerSetup = {}): Promise<TriggerHarness> {
		const { nodeTypes, credentialType } = await loadPackage();
		const nodeType = nodeTypes.getByNameAndVersion(TRIGGER_NODE, 1);
		const credentials = setup.credentials === undefined ? CREDENTIALS : setup.credentials;
		const helper = new HarnessCredentialsHelper(
			{ [CREDENTIAL_TYPE]: credentialType },
			credentials ? { [CREDENTIAL_TYPE]: credentials } : {},
		);
		return new TriggerHarness(nodeType, setup, helper, nodeTypes);
	}

	get mode(): WorkflowExecuteMode {
		return this.setup.mode ?? 'webhook';
	}

	get description(): IWebhookDescription {
		const found = this.nodeType.description.webhooks?.find((w) => w.name === 'default');
		if (!found) throw new Error('the trigger declares no default webhook');
		return found;
	}

	private additionalData(
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): IWorkflowExecuteAdditionalData {
		const executionId = `trigger-exec-${++this.executions}`;
		const hooks = new ExecutionLifecycleHooks(this.mode, executionId, {
			id: this.workflowId,
			name: 'trigger tests',
			active: true,
			isArchived: false,
			nodes: [this.node],
			connections: {},
			createdAt: new Date(),
			updatedAt: new Date(),
			activeVersionId: null,
		} as unknown as IWorkflowBase);
		const data = createAdditionalData({
			hooks,
			credentialsHelper: this.credentialsHelper,
			executionId,
		});
		// The harness's additional data answers unknown keys with a function; these must be absent.
		const overrides: Record<string, unknown> = { evalLlmMockHandler: undefined, ...extra };
		for (const [key, value] of Object.entries(overrides))
			(data as unknown as Record<string, unknown>)[key] = value;
		return data;
	}

	private webhookData(
		additionalData: IWorkflowExecuteAdditionalData,
		isTest: boolean,
	): IWebhookData {
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: `${WEBHOOK_ID}/webhook`,
			webhookDescription: this.description,
			workflowId: this.workflowId,
			workflowExecuteAdditionalData: additionalData,
			webhookId: WEBHOOK_ID,
			isTest,
		} as IWebhookData;
	}

	/** Runs `webhook()` in n8n-core's WebhookContext for one request/response pair. */
	private async runWebhook(req: Record<string, unknown>, res: unknown): Promise<WebhookOutcome> {
		const additionalData = this.additionalData({
			httpRequest: req as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
			httpResponse: res as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
		});
		const context = withRecordingLogger(
			new WebhookContext(
				this.workflow,
				this.node,
				additionalData,
				this.mode,
				this.webhookData(additionalData, this.mode === 'manual'),
				[],
				null,
			),
		);
		try {
			return { result: await this.nodeType.webhook!.call(context) };
		} catch (error) {
			return { threw: error as Error };
		}
	}

	/** Sends one delivery through `webhook()` and reports what the caller and n8n would see. */
	async deliver(delivery: Delivery): Promise<DeliveryResult> {
		const req = buildRequest(delivery, this.node.typeVersion);
		const res = new FakeResponse();
		const { result, threw } = await this.runWebhook(req, res);
		if (threw || !result) {
			return { status: 500, response: undefined, started: false, items: [], threw };
		}
		if (result.noWebhookResponse) {
			if (!res.ended) throw new Error('noWebhookResponse returned but nothing was answered');
			this.saveStaticData();
			const started = result.workflowData !== undefined;
			return {
				status: res.statusCode,
				response: res.body,
				started,
				items: itemsOf(result),
				result,
			};
		}
		if (res.ended) throw new Error('the node answered but did not return noWebhookResponse');
		if (result.workflowData !== undefined && this.description.responseMode !== 'onReceived') {
			throw new Error('the trigger must answer on receipt');
		}
		answerAsN8n(this.description, result, res, this.n8n);
		return {
			status: res.statusCode,
			response: res.body,
			started: result.workflowData !== undefined,
			items: itemsOf(result),
			result,
		};
	}

	/**
	 * Runs `webhook()` for a delivery the node emits, and holds n8n's answer: `answer(status)` writes
	 * it later. 200 is n8n's answer once the execution is handed over and the static data saved; any
	 * other status means n8n started and saved nothing (the static data goes back to what it was).
	 */
	async deliverHeld(
		delivery: Delivery,
	): Promise<{ items: IDataObject[]; answer(status: number): void }> {
		const before = this.savedStaticData();
		const res = new FakeResponse();
		const { result, threw } = await this.runWebhook(
			buildRequest(delivery, this.node.typeVersion),
			res,
		);
		if (threw || !result?.workflowData || result.noWebhookResponse)
			throw new Error('the delivery was not emitted');
		return {
			items: itemsOf(result),
			answer: (status) => {
				if (status >= 200 && status < 300)
					return answerAsN8n(this.description, result, res, this.n8n);
				this.workflow.overrideStaticData(before);
				this.workflow.staticData.__dataChanged = false;
				res.status(status).json({ message: 'Error in workflow' });
			},
		};
	}

	/**
	 * Serves the trigger's webhook on a real local HTTP server (127.0.0.1, any free port), answering
	 * as n8n's webhook server does around the node. Every call is recorded with the status answered
	 * and whether an execution would have started.
	 */
	async serve(): Promise<ServedTrigger> {
		return await serveWebhook(
			(req, res) => this.runWebhook(req, res),
			this.description,
			this.node.typeVersion,
			this.n8n,
		);
	}

	/** Runs one lifecycle method as n8n does on activation (`activate`) or "Listen for test event" (`manual`). */
	async hook(
		method: 'checkExists' | 'create' | 'delete',
		activation: WorkflowActivateMode = 'activate',
	): Promise<boolean> {
		const isTest = this.mode === 'manual';
		const additionalData = this.additionalData();
		const context = withRecordingLogger(
			new HookContext(
				this.workflow,
				this.node,
				additionalData,
				this.mode,
				activation,
				this.webhookData(additionalData, isTest),
			),
		);
		const methods = this.nodeType.webhookMethods?.default;
		if (!methods?.[method]) throw new Error(`webhookMethods.default.${method} is missing`);
		const answer = await methods[method].call(context);
		this.saveStaticData();
		return answer;
	}

	/** n8n's activation sequence: checkExists, then create when it answered false. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<void> {
		if (!(await this.hook('checkExists', activation))) await this.hook('create', activation);
	}

	/** The static data as n8n saved it last (a copy). */
	savedStaticData(): IDataObject {
		return structuredClone(this.saved);
	}

	nodeStaticData(): IDataObject {
		return (this.savedStaticData()[`node:${TRIGGER_NAME}`] as IDataObject | undefined) ?? {};
	}
}
