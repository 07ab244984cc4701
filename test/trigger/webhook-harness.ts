/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Drives the trigger as n8n does: n8n-core's real WebhookContext (for `webhook()`) and HookContext
 * (for `webhookMethods.default.*`) around a real Workflow built from the package loaded from dist/.
 * Only the HTTP request/response pair is fake (an Express-like object); outgoing API calls go
 * through n8n's real HTTP stack, so tests intercept them with nock.
 *
 * What n8n's webhook server does around the node is reproduced in `deliver()`:
 * - `responseMode: onReceived`: when the node returns `workflowData`, n8n answers 200 at once (body
 *   per the description's `responseData`) and starts one execution; when it returns neither data nor `noWebhookResponse`, n8n answers 200
 *   (with `webhookResponse` as the body, or `{ message: 'Webhook call received' }`) and starts nothing;
 *   with `noWebhookResponse` the node has answered itself.
 * - if `webhook()` throws, n8n answers 500 and records a failed execution: reported as `threw`.
 * - body parsing (n8n's `parseBody`): `rawBody` is always the bytes sent; `body` is parsed JSON for
 *   `application/json`, the text for `text/plain`, otherwise `{}`. Real n8n answers 422 itself for
 *   `application/json` bodies that do not parse (the node never sees them); the harness still hands
 *   them to the node (with `body: {}`) so the node's own 400 path is exercised.
 */
import http from 'node:http';
import nock from 'nock';
import type { AddressInfo } from 'node:net';
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
} from '../harness';

export const TRIGGER_NAME = 'Crypto Settlement Trigger';
export const WORKFLOW_ID = 'trigger-workflow-1';
export const WEBHOOK_ID = '5f0c4c1e-8e47-4bb4-9c55-0c6f1b1e2a01';

/** IP addresses third parties report for the service's webhook deliveries (docs/trigger.md, "Source IPs"). */
export const SERVICE_IPS = ['46.101.201.155', '46.101.225.109', '46.101.225.97', '46.101.225.251', '159.89.20.62'];

export const BASE_URL = 'https://api.trigger.test/v1';
/** The shared secret the tests configure (built at runtime: it is a fixture, not a real secret). */
export const WEBHOOK_SECRET = ['whsec', '3b9f2c81', 'd7e64a0f'].join('-');

export const CREDENTIALS: ICredentialDataDecryptedObject = {
	appId: 'app-trigger',
	appSecret: 'app-secret-trigger',
	environment: 'sandbox',
	baseUrl: `${BASE_URL}/`,
	pin: '',
	webhookSecret: WEBHOOK_SECRET,
};

/** Top-level parameters for tests that are not about confirmation (no API is reachable there). */
export const WITHOUT_CONFIRMATION: IDataObject = { confirmWithApi: false };

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
}

export interface Delivery {
	/** JSON body; serialised into the raw body unless `raw` is given. */
	body?: unknown;
	/** Raw bytes as sent (string or Buffer). */
	raw?: string | Buffer;
	/** Extra request headers (lowercase names). */
	headers?: Record<string, string | string[] | undefined>;
	/**
	 * `x-webhook-secret` header (unless `headers` sets it): absent = the right secret, as the service
	 * sends it; `null` = no header.
	 */
	secret?: string | null;
	/** Source address as Express reports it in `req.ip`. */
	ip?: string;
	contentType?: string;
	/** Leave `req.rawBody` unset (only n8n's parsed `body`), as when something upstream consumed the bytes. */
	omitRawBody?: boolean;
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

export interface ServedCall {
	receivedAt: number;
	answeredAt?: number;
	/** Status the node (or n8n around it) answered, whether or not the caller was still listening. */
	status: number;
	/** Whether the caller had already closed the connection when the answer was written. */
	socketClosed?: boolean;
	started: boolean;
	items: IDataObject[];
	body: string;
}

export interface ServedTrigger {
	url: string;
	calls: ServedCall[];
	close(): Promise<void>;
}

/** The Express-like methods the node uses, on a real `http.ServerResponse`. */
class HttpResponseAdapter {
	statusCode = 200;

	constructor(private readonly res: http.ServerResponse) {
		// A caller that gave up (timeout) leaves a closed socket: writing to it must not throw.
		res.on('error', () => undefined);
	}

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string): this {
		if (!this.res.headersSent) this.res.setHeader(name, value);
		return this;
	}

	json(body: unknown): this {
		this.setHeader('content-type', 'application/json');
		return this.send(JSON.stringify(body));
	}

	send(body?: string): this {
		if (this.res.headersSent) throw new Error('response already sent');
		this.res.statusCode = this.statusCode;
		this.res.end(body);
		return this;
	}

	end(): this {
		return this.send();
	}
}

/** Express-like response recording what the node writes. */
export class FakeResponse {
	statusCode = 200;
	body: unknown = undefined;
	headers: Record<string, string> = {};
	headersSent = false;
	ended = false;

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	json(body: unknown): this {
		this.headers['content-type'] = 'application/json';
		return this.send(body);
	}

	send(body?: unknown): this {
		if (this.ended) throw new Error('response already sent');
		this.body = body;
		this.headersSent = true;
		this.ended = true;
		return this;
	}

	end(): this {
		this.headersSent = true;
		this.ended = true;
		return this;
	}

	setHeader(name: string, value: string): this {
		this.headers[name.toLowerCase()] = value;
		return this;
	}

	header(name: string, value: string): this {
		return this.setHeader(name, value);
	}

	set(name: string, value: string): this {
		return this.setHeader(name, value);
	}
}

/** Builds the Express-like request n8n hands to the node after its body parser ran. */
export function buildRequest(delivery: Delivery): Record<string, unknown> {
	const contentType = delivery.contentType ?? 'application/json';
	let raw: Buffer;
	if (delivery.raw !== undefined) raw = Buffer.isBuffer(delivery.raw) ? delivery.raw : Buffer.from(delivery.raw, 'utf8');
	else if (delivery.body === undefined) raw = Buffer.alloc(0);
	else raw = Buffer.from(JSON.stringify(delivery.body), 'utf8');

	let body: unknown = {};
	const mime = contentType.split(';')[0].trim().toLowerCase();
	if (raw.length > 0 && mime === 'application/json') {
		try {
			body = JSON.parse(raw.toString('utf8'));
		} catch {
			body = {};
		}
	} else if (raw.length > 0 && mime === 'text/plain') {
		body = raw.toString('utf8');
	}

	const headers: Record<string, string | string[]> = {
		host: 'n8n.example.test',
		'content-type': contentType,
		'content-length': String(raw.length),
		'user-agent': 'service-webhooks/1.0',
	};
	const secret = delivery.secret === undefined ? WEBHOOK_SECRET : delivery.secret;
	if (secret !== null) headers['x-webhook-secret'] = secret;
	for (const [name, value] of Object.entries(delivery.headers ?? {})) {
		if (value === undefined) delete headers[name];
		else headers[name] = value;
	}
	const ip = delivery.ip ?? SERVICE_IPS[0];
	return {
		method: 'POST',
		url: `/webhook/${WEBHOOK_ID}/webhook`,
		path: `/webhook/${WEBHOOK_ID}/webhook`,
		headers,
		body,
		rawBody: delivery.omitRawBody ? undefined : raw,
		contentType: mime,
		encoding: 'utf-8',
		query: {},
		params: {},
		ip,
		ips: [],
		socket: { remoteAddress: ip },
	};
}

export interface LogEntry {
	level: string;
	message: string;
}

let currentLogs: LogEntry[] = [];

/** Starts a fresh record of what the node logs through `this.logger` (n8n's logger stays silent). */
export function captureLogs(): LogEntry[] {
	currentLogs = [];
	return currentLogs;
}

/**
 * The usual setup of a trigger test file: the logs of each test captured in the returned array, no
 * network but `allowedHosts` (nock answers the rest), and every nock interceptor used by the end.
 */
export function triggerTestSetup(allowedHosts: string[] = []): LogEntry[] {
	const logs: LogEntry[] = [];
	beforeAll(() => {
		nock.disableNetConnect();
		for (const host of allowedHosts) nock.enableNetConnect(host);
	});
	beforeEach(() => {
		logs.length = 0;
		currentLogs = logs;
	});
	afterEach(() => {
		const pending = nock.pendingMocks();
		nock.cleanAll();
		expect(pending).toEqual([]);
	});
	afterAll(() => nock.enableNetConnect());
	return logs;
}

/** The logger handed to the node: records into the array of the latest `captureLogs()`. */
function recordingLogger(): unknown {
	const record = (level: string) => (message: string) => {
		currentLogs.push({ level, message });
	};
	const logger: Record<string, unknown> = {
		error: record('error'),
		warn: record('warn'),
		info: record('info'),
		debug: record('debug'),
	};
	logger.scoped = () => logger;
	return logger;
}

/** Contexts read `this.logger` from a prototype getter (n8n's DI logger); shadow it per context. */
function withRecordingLogger<T extends object>(context: T): T {
	Object.defineProperty(context, 'logger', { value: recordingLogger(), configurable: true });
	return context;
}

let harnessCount = 0;

export class TriggerHarness {
	readonly workflow: Workflow;
	readonly workflowId: string;
	readonly node: INode;
	private executions = 0;

	private constructor(
		private readonly nodeType: INodeType,
		private readonly setup: TriggerSetup,
		private readonly credentialsHelper: HarnessCredentialsHelper,
		nodeTypes: ConstructorParameters<typeof Workflow>[0]['nodeTypes'],
	) {
		const parameters: IDataObject = { events: setup.events ?? ['*'], ...setup.parameters };
		if (setup.options !== undefined) parameters.options = setup.options;
		this.workflowId = setup.workflowId ?? `${WORKFLOW_ID}-${++harnessCount}`;
		this.node = {
			id: 'trigger-node-1',
			name: TRIGGER_NAME,
			type: TRIGGER_NODE,
			typeVersion: 1,
			position: [0, 0],
			webhookId: WEBHOOK_ID,
			parameters,
			...(setup.credentials === null
				? {}
				: { credentials: { [CREDENTIAL_TYPE]: { id: 'cred-trigger', name: 'Crypto Settlement account' } } }),
		} as INode;
		this.workflow = new Workflow({
			id: this.workflowId,
			name: 'trigger tests',
			nodes: [this.node],
			connections: {},
			nodeTypes,
			active: (setup.mode ?? 'webhook') === 'webhook',
			staticData: setup.staticData ? structuredClone(setup.staticData) : undefined,
		});
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

	private additionalData(extra: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData {
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
		const data = createAdditionalData({ hooks, credentialsHelper: this.credentialsHelper, executionId });
		// The harness's additional data answers unknown keys with a function; these must be absent.
		const overrides: Record<string, unknown> = { evalLlmMockHandler: undefined, ...extra };
		for (const [key, value] of Object.entries(overrides)) (data as unknown as Record<string, unknown>)[key] = value;
		return data;
	}

	private webhookData(additionalData: IWorkflowExecuteAdditionalData, isTest: boolean): IWebhookData {
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
	private async runWebhook(req: Record<string, unknown>, res: unknown): Promise<{ result?: IWebhookResponseData; threw?: Error }> {
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
		const req = buildRequest(delivery);
		const res = new FakeResponse();
		const { result, threw } = await this.runWebhook(req, res);
		if (threw || !result) {
			return { status: 500, response: undefined, started: false, items: [], threw };
		}
		if (result.noWebhookResponse) {
			if (!res.ended) throw new Error('noWebhookResponse returned but nothing was answered');
			const started = result.workflowData !== undefined;
			return { status: res.statusCode, response: res.body, started, items: itemsOf(result), result };
		}
		if (res.ended) throw new Error('the node answered but did not return noWebhookResponse');
		if (result.workflowData === undefined) {
			return {
				status: 200,
				response: result.webhookResponse ?? { message: 'Webhook call received' },
				started: false,
				items: [],
				result,
			};
		}
		// onReceived with responseData 'noData': n8n answers 200 with an empty body, then runs the workflow.
		if (this.description.responseMode !== 'onReceived') throw new Error('the trigger must answer on receipt');
		const response = this.description.responseData === 'noData' ? undefined : (this.description.responseData ?? 'firstEntryJson');
		return { status: 200, response, started: true, items: itemsOf(result), result };
	}

	/**
	 * Serves the trigger's webhook on a real local HTTP server (127.0.0.1, any free port), answering
	 * as n8n's webhook server does around the node. Every call is recorded with the status answered
	 * and whether an execution would have started.
	 */
	async serve(): Promise<ServedTrigger> {
		const calls: ServedCall[] = [];
		const server = http.createServer((incoming, outgoing) => {
			const chunks: Buffer[] = [];
			incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
			incoming.on('end', () => {
				void (async () => {
					const raw = Buffer.concat(chunks);
					const headers: Record<string, string | string[] | undefined> = { ...incoming.headers };
					const req = buildRequest({
						raw,
						contentType: String(incoming.headers['content-type'] ?? 'application/json'),
						secret: null,
						headers,
						ip: incoming.socket.remoteAddress ?? '',
					});
					const res = new HttpResponseAdapter(outgoing);
					const call: ServedCall = { receivedAt: Date.now(), status: 0, started: false, items: [], body: raw.toString('utf8') };
					calls.push(call);
					const { result, threw } = await this.runWebhook(req, res);
					call.started = Boolean(!threw && result?.workflowData);
					call.items = result ? itemsOf(result) : [];
					if (threw || !result) res.status(500).json({ message: 'Error in workflow' });
					else if (!result.noWebhookResponse) {
						if (result.workflowData === undefined) res.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
						else res.status(200).end();
					}
					call.status = res.statusCode;
					call.answeredAt = Date.now();
					call.socketClosed = outgoing.destroyed || incoming.socket.destroyed;
				})();
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		return {
			url: `http://127.0.0.1:${port}/webhook/${WEBHOOK_ID}/webhook`,
			calls,
			close: async () => {
				server.closeAllConnections();
				await new Promise<void>((resolve) => server.close(() => resolve()));
			},
		};
	}

	/** Runs one lifecycle method as n8n does on activation (`activate`) or "Listen for test event" (`manual`). */
	async hook(
		method: 'checkExists' | 'create' | 'delete',
		activation: WorkflowActivateMode = 'activate',
	): Promise<boolean> {
		const isTest = this.mode === 'manual';
		const additionalData = this.additionalData();
		const context = withRecordingLogger(
			new HookContext(this.workflow, this.node, additionalData, this.mode, activation, this.webhookData(additionalData, isTest)),
		);
		const methods = this.nodeType.webhookMethods?.default;
		if (!methods?.[method]) throw new Error(`webhookMethods.default.${method} is missing`);
		return await methods[method].call(context);
	}

	/** n8n's activation sequence: checkExists, then create when it answered false. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<void> {
		if (!(await this.hook('checkExists', activation))) await this.hook('create', activation);
	}

	/** The node's static data, as n8n would save it (a JSON copy). */
	savedStaticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
	}

	nodeStaticData(): IDataObject {
		return (this.savedStaticData()[`node:${TRIGGER_NAME}`] as IDataObject | undefined) ?? {};
	}
}

function itemsOf(result: IWebhookResponseData): IDataObject[] {
	return (result.workflowData ?? []).flatMap((output) => output.map((item) => item.json));
}

// ------------------------------------------------------------------ payload fixtures

let counter = 0;

/** A `trade.*` payload shaped like the documented trade payload (docs/trigger.md, "The item": numbers in epoch ms, string block height). */
export function tradePayload(event: string, overrides: IDataObject = {}): IDataObject {
	counter++;
	const status = event.split('.').slice(1).join('.');
	return {
		event,
		id: `66f1c0ffee${String(counter).padStart(14, '0')}`,
		asset: 'SOL_TEST',
		feePercentage: 1.5,
		feeAmountInUsd: 0.32,
		cryptoAmount: 0.15,
		amountInUSD: 21.379,
		flagFeeUSD: 0,
		vaultId: '12',
		destinationAddress: 'So1DepositAddress1111111111111111111111111',
		destinationDescription: 'customer-42',
		txHash: '5uXf2hash',
		status,
		confirmations: status === 'pending' ? 0 : 32,
		note: '',
		createdAt: 1732250000000,
		updatedAt: 1732250060000,
		index: 0,
		blockInfo: { blockHeight: '301234567', blockHash: 'blockhash' },
		...overrides,
	};
}

/** A `withdrawal.*` payload (only `event`, `id`, `status` are documented). */
export function withdrawalPayload(event: string, overrides: IDataObject = {}): IDataObject {
	counter++;
	return {
		event,
		id: `77a2beef${String(counter).padStart(16, '0')}`,
		status: event.split('.')[1],
		amount: 25,
		txHash: null,
		...overrides,
	};
}

/** A `trade.address.created` payload (address, asset, label). */
export function addressPayload(overrides: IDataObject = {}): IDataObject {
	counter++;
	return {
		event: 'trade.address.created',
		id: `88b3cafe${String(counter).padStart(16, '0')}`,
		address: `TAddr${counter}`,
		asset: 'TRX_TEST',
		label: `customer-${counter}`,
		...overrides,
	};
}

/** The event names of docs/trigger.md, written independently of the node's own list. */
export const CONTRACT_EVENTS = [
	'trade.address.created',
	'trade.pending',
	'trade.completed',
	'trade.flagged',
	'withdrawal.pending',
	'withdrawal.completed',
	'withdrawal.reversed',
	'withdrawal.rejected',
];

/** Small seeded PRNG so a failure is reproducible. */
export function mulberry32(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
