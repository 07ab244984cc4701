/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The trigger's webhook on a real local HTTP server, answered as n8n's webhook server answers around
 * the node (see `TriggerHarness.deliver` for the rules).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, IWebhookDescription, IWebhookResponseData } from 'n8n-workflow';
import { WEBHOOK_ID } from './constants';
import { buildRequest } from './request';

/** What one call of `webhook()` ended with. */
export interface WebhookOutcome {
	result?: IWebhookResponseData;
	threw?: Error;
}

/** Runs `webhook()` for one request/response pair. */
export type RunWebhook = (req: Record<string, unknown>, res: unknown) => Promise<WebhookOutcome>;

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

	once(event: string, listener: () => void): this {
		this.res.once(event, listener);
		return this;
	}
}

/**
 * The body n8n answers an emitted delivery with in `onReceived` mode (n8n's
 * `extractWebhookOnReceivedResponse`, 1.x and 2.x alike): none for `noData`, the description's
 * `responseData` when set to anything else, else the node's `webhookResponse`.
 */
export function onReceivedBody(
	description: IWebhookDescription,
	result: IWebhookResponseData,
): unknown {
	const responseData =
		description.responseData === undefined ? 'firstEntryJson' : description.responseData;
	if (responseData === 'noData') return undefined;
	if (responseData) return responseData;
	return result.webhookResponse ?? { message: 'Workflow was started' };
}

/** What answers like an Express response: the harness's FakeResponse and the adapter above. */
interface Answerable {
	status(code: number): Answerable;
	json(body: unknown): unknown;
	end(): unknown;
}

/** What n8n does around a call besides answering (see TriggerHarness). */
export interface N8nAroundCall {
	startExecution(): void;
	saveStaticData(): void;
}

/**
 * Answers a call the node did not answer itself, as n8n 2.x's webhook server does: when nothing is
 * started, saves the static data and answers 200 with `webhookResponse` or n8n's message; else
 * starts the execution, takes the `onReceived` body, saves the static data, then answers 200.
 */
export function answerAsN8n(
	description: IWebhookDescription,
	result: IWebhookResponseData,
	res: Answerable,
	n8n: N8nAroundCall,
): void {
	if (result.workflowData === undefined) {
		n8n.saveStaticData();
		res.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
		return;
	}
	n8n.startExecution();
	const body = onReceivedBody(description, result);
	n8n.saveStaticData();
	if (body === undefined) res.status(200).end();
	else res.status(200).json(body);
}

/**
 * Serves `run` on 127.0.0.1 (any free port). Every call is recorded with the status answered and
 * whether an execution would have started.
 */
export async function serveWebhook(
	run: RunWebhook,
	description: IWebhookDescription,
	typeVersion: number,
	n8n: N8nAroundCall,
): Promise<ServedTrigger> {
	const calls: ServedCall[] = [];
	const server = http.createServer((incoming, outgoing) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			void (async () => {
				const raw = Buffer.concat(chunks);
				const headers: Record<string, string | string[] | undefined> = { ...incoming.headers };
				const req = buildRequest(
					{
						raw,
						contentType: String(incoming.headers['content-type'] ?? 'application/json'),
						secret: null,
						headers,
						ip: incoming.socket.remoteAddress ?? '',
					},
					typeVersion,
				);
				const res = new HttpResponseAdapter(outgoing);
				const call: ServedCall = {
					receivedAt: Date.now(),
					status: 0,
					started: false,
					items: [],
					body: raw.toString('utf8'),
				};
				calls.push(call);
				const { result, threw } = await run(req, res);
				call.started = Boolean(!threw && result?.workflowData);
				call.items = result ? itemsOf(result) : [];
				if (threw || !result) res.status(500).json({ message: 'Error in workflow' });
				else if (!result.noWebhookResponse) answerAsN8n(description, result, res, n8n);
				else n8n.saveStaticData();
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

/** The items of the execution n8n would start (the trigger's output). */
export function itemsOf(result: IWebhookResponseData): IDataObject[] {
	return (result.workflowData ?? []).flatMap((output) => output.map((item) => item.json));
}
