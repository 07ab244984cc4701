/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- test code, outside the scanned folders */
import nock from 'nock';
import type { IDataObject, INodeExecutionData, WorkflowExecuteMode } from 'n8n-workflow';
import path from 'node:path';
import {
	actionWorkflow,
	ACTION_NODE,
	CREDENTIAL_TYPE,
	loadPackage,
	PACKAGE_ROOT,
	runWorkflow,
	serializeRun,
	type RunResult,
} from './index';
import type { OperationKind } from '../../nodes/CryptoSettlement/record/record';
import { SPECS } from '../../nodes/CryptoSettlement/operations';

/** The [resource, operation] pairs whose record has this kind: tests read the records, never a list of their own. */
export const operationsOfKind = (kind: OperationKind): Array<[string, string]> =>
	Object.entries(SPECS).flatMap(([resource, specs]) =>
		Object.entries(specs)
			.filter(([, spec]) => spec.kind === kind)
			.map(([operation]): [string, string] => [resource, operation]),
	);

export const BASE = 'https://api.settlement.test/v1';
export const SECRET = 'app-secret-DO-NOT-LEAK-7f3a';
export const PIN = '4711-PIN-DO-NOT-LEAK';
export const WEBHOOK_SECRET = 'webhook-secret-DO-NOT-LEAK-9b2c';
export const CREDENTIALS = {
	appId: 'app-123',
	appSecret: SECRET,
	environment: 'sandbox',
	baseUrl: `${BASE}/`,
	pin: PIN,
	webhookSecret: WEBHOOK_SECRET,
};
export const NODE = 'Crypto Settlement';

export const rl = (value: string) => ({ __rl: true, mode: 'id', value });

/** Withdrawal → Create Crypto parameters: 10 USD of USDT on TRC20, External ID order-1. */
export const cryptoWithdrawal = (overrides: IDataObject = {}): IDataObject => ({
	resource: 'withdrawal',
	operation: 'createCrypto',
	token: 'USDT',
	network: 'TRC20',
	walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
	amountType: 'usd',
	amount: 10,
	externalId: 'order-1',
	...overrides,
});

export interface NodeRun extends RunResult {
	items: INodeExecutionData[];
	text: string;
}

/** Runs the action node once over `items` (one empty item by default). */
export async function runNode(
	parameters: IDataObject,
	options: {
		items?: IDataObject[];
		credentials?: IDataObject;
		continueOnFail?: boolean;
		executionId?: string;
		mode?: WorkflowExecuteMode;
	} = {},
): Promise<NodeRun> {
	const result = await runWorkflow({
		workflow: actionWorkflow(
			parameters,
			options.continueOnFail ? { onError: 'continueRegularOutput' } : {},
		),
		items: (options.items ?? [{}]).map((json) => ({ json })),
		credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, ...(options.credentials ?? {}) } as never },
		executionId: options.executionId,
		mode: options.mode,
	});
	return { ...result, items: result.output(NODE), text: serializeRun(result) };
}

/** Runs the node as n8n's generated tool type (`…Tool`), the way an AI Agent runs it. */
export async function runAsTool(
	parameters: IDataObject,
	credentials: IDataObject,
	items: IDataObject[] = [{}],
	mode?: WorkflowExecuteMode,
): Promise<RunResult> {
	const { nodeTypes } = await loadPackage();
	const type = `${ACTION_NODE}Tool`;
	nodeTypes.register(type, nodeTypes.getByName(ACTION_NODE));
	return await runWorkflow({
		workflow: actionWorkflow(parameters, { type }),
		items: items.map((json) => ({ json })),
		credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, ...credentials } as never },
		mode,
	});
}

/** An interceptor on the service that also requires the three authentication headers. */
export function api(
	credentials: { appId: string; appSecret: string; environment: string } = CREDENTIALS,
) {
	return nock(BASE)
		.matchHeader('x-app-id', credentials.appId)
		.matchHeader('x-app-secret', credentials.appSecret)
		.matchHeader('x-service-env', credentials.environment);
}

export const ok = (data: unknown, message = 'ok', meta: IDataObject = {}) => ({
	message,
	success: true,
	data,
	meta,
	summary: {},
	stats: {},
});

export const fail = (status: number, message: string, errors: IDataObject[] = []) => ({
	success: false,
	message,
	meta: {},
	errors,
	data: {},
});

/** The withdrawal lookup the node makes before every send: nothing is stored under any External ID yet. */
export function noWithdrawalsYet(times = 1000) {
	return api()
		.get(/\/payments\/withdrawal\/.+/)
		.times(times)
		.reply(404, fail(404, 'withdrawal not found'));
}

/** Counts any request at all that reaches the service (answered, so a leak would also show in the output). */
export function recordRequests(): { count: () => number } {
	let count = 0;
	const scope = nock(/.*/).persist();
	for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
		scope.intercept(/.*/, method).reply(() => {
			count++;
			return [200, ok({ id: 'x' })];
		});
	}
	return { count: () => count };
}

export function setupNock(): void {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	afterAll(() => nock.enableNetConnect());
}

export function expectNoSecrets(text: string): void {
	expect(text).not.toContain(SECRET);
	expect(text).not.toContain(PIN);
	expect(text).not.toContain(WEBHOOK_SECRET);
}

/**
 * n8n's Retry On Fail, three tries, for tests of what is tried again rather than of the pause
 * between tries: n8n reads a Wait Between Tries of 0 as its default, 1000 ms (WorkflowExecute's
 * `waitBetweenTries || 1000`), so the pause is 1 ms.
 */
export const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 };

/** The waits of nodes/service/pacing.ts's RETRY that a test may shorten. */
type Waits = { inDoubtLookupWindowMs: number; baseBackoffMs: number; maxBackoffMs: number };

/**
 * The pacing constants of the build n8n loads (the same module instance as the package loader's),
 * for tests that shorten a wait which is not what they test.
 */
export function builtRetry(): Waits {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built module, as n8n loads it
	return (require(path.join(PACKAGE_ROOT, 'dist/nodes/service/pacing.js')) as { RETRY: Waits })
		.RETRY;
}

/** Sets some of the build's waits for the tests of this file or block, and puts them back after it. */
function shortenWaits(waits: Partial<Waits>): void {
	const saved: Partial<Waits> = {};
	beforeAll(() => {
		for (const [name, ms] of Object.entries(waits) as Array<[keyof Waits, number]>) {
			saved[name] = builtRetry()[name];
			builtRetry()[name] = ms;
		}
	});
	afterAll(() => {
		Object.assign(builtRetry(), saved);
	});
}

/** Shortens the in-doubt lookup window (12 s) for the tests of this file or block that do not test it. */
export const shortInDoubtWindow = (ms = 400): void => shortenWaits({ inDoubtLookupWindowMs: ms });

/**
 * Shortens the pauses between retries (500 ms, doubling up to 8 s) to 5 ms doubling up to 80 ms,
 * for the tests of this file or block that test what is retried, not how long it waits: the same
 * attempts are made in the same order.
 */
export const shortBackoff = (): void => shortenWaits({ baseBackoffMs: 5, maxBackoffMs: 80 });

/**
 * The local HTTP servers a test file starts (push each one), closed after each test; nock lets
 * connections to them through.
 */
export function serversClosedAfterEach(): Array<{ close: () => Promise<void> }> {
	const servers: Array<{ close: () => Promise<void> }> = [];
	beforeAll(() => nock.enableNetConnect());
	afterEach(async () => {
		await Promise.all(servers.splice(0).map(async (server) => await server.close()));
	});
	return servers;
}
