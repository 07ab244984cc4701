import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INode,
	type INodeExecutionData,
} from 'n8n-workflow';
import { isJsonObject, REQUEST_TIMEOUT_MS } from '../../service/transport';
import type { ApiResponse, HttpCall } from '../../service/api';
import { itemError } from '../record/params';

/**
 * The n8n-core behaviours this node relies on beyond the documented node API, in one place, each
 * checked at run time so that an n8n version that changes them fails loudly instead of silently
 * (docs/architecture.md, "What the node relies on in n8n-core"; test/CryptoSettlement/engine/engine.test.ts).
 */

/** The items the node received in this run (the engine gives each item's context the whole input). */
export function inputItems(ctx: IExecuteSingleFunctions): INodeExecutionData[] {
	const data = ctx.getExecuteData()?.data;
	// Run as an AI agent's tool, the engine reads the tool's input instead of the main input.
	const items = (data?.main ?? data?.ai_tool)?.[0];
	if (!Array.isArray(items))
		throw engineChanged(ctx, 'the input items of this run are not available');
	return items;
}

/** The context of another item of the same run, as the engine derives its own (Object.create with `itemIndex`). */
export function contextForItem<T extends IExecuteSingleFunctions>(ctx: T, itemIndex: number): T {
	if (itemIndex === ctx.getItemIndex()) return ctx;
	const view = Object.create(ctx, { itemIndex: { value: itemIndex } }) as T;
	if (view.getItemIndex() !== itemIndex)
		throw engineChanged(ctx, 'the parameters of the other items cannot be read before sending');
	return view;
}

/** Whether a node is the AI-agent tool variant n8n generates: the node's type, ending in 'Tool'. */
export function isToolVariant(node: Pick<INode, 'type'>): boolean {
	return node.type.endsWith('Tool');
}

/**
 * Whether this run is an AI agent calling the node as a tool: n8n gives such a node the generated
 * `…Tool` type, and feeds it the tool's input (`ai_tool`) instead of the main input.
 */
export function isAgentRun(ctx: IExecuteSingleFunctions): boolean {
	if (isToolVariant(ctx.getNode())) return true;
	const data = ctx.getExecuteData()?.data;
	return !!data && data.main === undefined && data.ai_tool !== undefined;
}

/**
 * The execution modes in which a person, a trigger, a webhook or n8n's CLI started the workflow itself;
 * every other mode, and one that cannot be read, counts as started by another workflow (docs/guardrails.md,
 * "Payments in sub-workflows").
 */
const STARTED_ON_ITS_OWN = ['manual', 'trigger', 'webhook', 'retry', 'cli', 'chat', 'evaluation'];

/** The execution mode of this run when another workflow started it (see STARTED_ON_ITS_OWN), else undefined. */
export function startedByAnotherWorkflow(ctx: IExecuteSingleFunctions): string | undefined {
	let mode: unknown;
	try {
		mode = ctx.getMode();
	} catch {
		// Unreadable: counted as started by another workflow.
	}
	if (typeof mode === 'string' && STARTED_ON_ITS_OWN.includes(mode)) return undefined;
	return typeof mode === 'string' && mode !== '' ? mode : 'unknown';
}

/** The node whose request ran this node (the run's one `main` source entry): an agent, or its human review node. */
export function requestingNode(ctx: IExecuteSingleFunctions): string | undefined {
	const main = ctx.getExecuteData()?.source?.main;
	if (!Array.isArray(main) || main.length !== 1) return undefined;
	const previous = main[0]?.previousNode;
	return typeof previous === 'string' && previous !== '' ? previous : undefined;
}

/** The type of an enabled node of this run's workflow, by name, read from the context's `workflow`; undefined otherwise. */
export function workflowNodeType(ctx: IExecuteSingleFunctions, name: string): string | undefined {
	const workflow = (ctx as unknown as { workflow?: { getNode?: unknown } }).workflow;
	if (typeof workflow?.getNode !== 'function') return undefined;
	const node = (workflow.getNode as (name: string) => unknown).call(workflow, name) as {
		type?: unknown;
		disabled?: unknown;
	} | null;
	return node && typeof node.type === 'string' && node.disabled !== true ? node.type : undefined;
}

/** An object that stays the same for every item and every Retry On Fail attempt of one node run. */
export function runOf(ctx: IExecuteSingleFunctions): object {
	const run = ctx.getExecuteData();
	if (!run || typeof run !== 'object')
		throw engineChanged(ctx, 'the node run cannot be identified');
	return run;
}

/** n8n's declarative default for one request; the node uses a shorter one unless the user set theirs. */
const ENGINE_DEFAULT_TIMEOUT_MS = 300_000;

/** The HTTP call of the pagination hook, on the engine's own routing request, its `postReceive` keeping the full response. */
export function createHttpCall(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): HttpCall {
	requestData.postReceive = [{ data: { parameterValue: undefined }, actions: [keepFullResponse] }];
	// The user's own Timeout option wins; otherwise a shorter one than the engine's default.
	const own = requestData.options.timeout;
	const timeout = own && own !== ENGINE_DEFAULT_TIMEOUT_MS ? own : REQUEST_TIMEOUT_MS;
	return async (options) => {
		const [item] = await ctx.makeRoutingRequest({
			...requestData,
			options: {
				...requestData.options,
				...options,
				json: true,
				ignoreHttpStatusErrors: true,
				// A redirect would carry the credentials (headers, and the PIN in the body) to its target.
				disableFollowRedirect: true,
				timeout,
			},
		});
		const response = item?.json as Partial<ApiResponse> | undefined;
		if (typeof response?.statusCode !== 'number' || typeof response.json !== 'boolean') {
			throw engineChanged(ctx, 'the routing request did not return the full response');
		}
		return response as ApiResponse;
	};
}

async function keepFullResponse(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const { statusCode, headers } = response;
	const json = isJsonObject(response.body);
	const body = json ? response.body : {};
	return [{ json: { statusCode, headers, body, json } as unknown as IDataObject }];
}

function engineChanged(ctx: IExecuteSingleFunctions, what: string): NodeOperationError {
	return itemError(
		ctx,
		`This n8n version is not supported: ${what}`,
		'The node checks every item before it moves any money and needs n8n behaviour that this version does not offer. Nothing was sent. Please report your n8n version.',
	);
}

/**
 * Makes the routing engine raise a node error itself, unchanged, at the item's turn (Continue On Fail off
 * only; docs/architecture.md, "What the node relies on in n8n-core"). Every read but the promise's `then`
 * check throws, so an engine that consumed results differently still raises it instead of dropping the item.
 */
export function raisedByEngine(error: Error): INodeExecutionData[] {
	return new Proxy([] as INodeExecutionData[], {
		get(_target, property) {
			if (property === 'then') return undefined;
			if (property === Symbol.iterator)
				return (): Iterator<INodeExecutionData> => {
					throw error;
				};
			throw error;
		},
	});
}
