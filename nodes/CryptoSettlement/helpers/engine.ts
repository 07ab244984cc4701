import { NodeOperationError, type IExecuteSingleFunctions, type INodeExecutionData } from 'n8n-workflow';

/**
 * The n8n-core behaviours this node relies on beyond the documented node API, in one place, each
 * checked at run time so that an n8n version that changes them fails loudly instead of silently
 * (docs/architecture.md, "What the node relies on"; test/node/engine.test.ts).
 */

/** The items the node received in this run (the engine gives each item's context the whole input). */
export function inputItems(ctx: IExecuteSingleFunctions): INodeExecutionData[] {
	const items = ctx.getExecuteData()?.data?.main?.[0];
	if (!Array.isArray(items)) throw engineChanged(ctx, 'the input items of this run are not available');
	return items;
}

/**
 * The context of another item of the same run. n8n-core's ExecuteSingleContext reads everything
 * item-specific (parameters, expressions, credentials) through its `itemIndex`; the engine itself
 * derives the pagination context from it the same way (Object.create).
 */
export function contextForItem<T extends IExecuteSingleFunctions>(ctx: T, itemIndex: number): T {
	if (itemIndex === ctx.getItemIndex()) return ctx;
	const view = Object.create(ctx, { itemIndex: { value: itemIndex } }) as T;
	if (view.getItemIndex() !== itemIndex) {
		throw engineChanged(ctx, 'the parameters of the other items cannot be read before sending');
	}
	return view;
}

/** An object that stays the same for every item and every Retry On Fail attempt of one node run. */
export function runOf(ctx: IExecuteSingleFunctions): object {
	const run = ctx.getExecuteData();
	if (!run || typeof run !== 'object') throw engineChanged(ctx, 'the node run cannot be identified');
	return run;
}

function engineChanged(ctx: IExecuteSingleFunctions, what: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `This n8n version is not supported: ${what}`, {
		itemIndex: ctx.getItemIndex(),
		description:
			'The node checks every item before it moves any money and needs n8n behaviour that this version does not offer. Nothing was sent. Please report your n8n version.',
	});
}

/**
 * Makes the routing engine raise a node error itself, unchanged. n8n-core's RoutingNode turns a
 * rejected hook's error into a NodeApiError with "Error code: none" unless it already is one, so a
 * check that failed before anything was sent would read like an API failure. A hook that instead
 * resolves with this list has the error raised by the engine the moment it reads the list, at the
 * item's turn in item order, exactly as a rejection would be. Every read other than the promise's
 * `then` check throws, so an engine that consumed results differently still raises the error
 * instead of dropping the item. Only for Continue On Fail off: with it on, the engine keeps a
 * rejected hook's error as it is, as the item's error output.
 */
export function raisedByEngine(error: Error): INodeExecutionData[] {
	return new Proxy([] as INodeExecutionData[], {
		get(_target, property) {
			if (property === 'then') return undefined;
			if (property === Symbol.iterator) {
				return (): Iterator<INodeExecutionData> => {
					throw error;
				};
			}
			throw error;
		},
	});
}
