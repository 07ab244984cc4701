/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: timers stand for a service that commits late */
/**
 * Payments, second pass: the remaining ways to pay twice, report the wrong payment, or leak a
 * secret. Each case runs through n8n-core's engine against a real local HTTP server.
 */
import type { IDataObject } from 'n8n-workflow';
import { actionWorkflow, CREDENTIAL_TYPE, runWorkflow, serializeRun } from '../../helpers';
import {
	builtRetry,
	CREDENTIALS,
	cryptoWithdrawal,
	expectNoSecrets,
	RETRY_ON_FAIL,
	rl,
	runNode,
	serversClosedAfterEach,
} from '../../helpers/node';
import {
	envelope,
	localService,
	refusal,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';
import { SINGLE_WRITES, parametersOf } from '../../helpers/single-writes';

const servers = serversClosedAfterEach();
async function serve(handler: (request: Seen) => Reply | Promise<Reply>, port = 0) {
	const server = await localService(handler, port);
	servers.push(server);
	return server;
}

/** 100 USD of USDT on TRC20 to TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp, External ID ord-9. */
const crypto = (extra: IDataObject = {}): IDataObject =>
	cryptoWithdrawal({ amount: 100, externalId: 'ord-9', ...extra });
const bank = (extra: IDataObject = {}): IDataObject => ({
	resource: 'withdrawal',
	operation: 'createBank',
	bankAccountId: rl('bank-1'),
	amount: 100,
	externalId: 'ord-9',
	...extra,
});

const isWithdrawalPost = (request: Seen) =>
	request.method === 'POST' && request.path.startsWith('/v1/payments/withdraw/');
const posts = (server: { requests: Seen[] }) => server.requests.filter(isWithdrawalPost);

/** A withdrawal service whose POSTs are scripted: `commit` stores the withdrawal (now or later), the reply is what the client sees. */
function lateCommitService(script: (commit: (delayMs?: number) => void, request: Seen) => Reply) {
	const service = withdrawalService();
	const handler = (request: Seen): Reply => {
		if (!isWithdrawalPost(request)) return service.handler(request);
		const commit = (delayMs = 0) => {
			const store = () => service.handler(request);
			if (delayMs) setTimeout(store, delayMs);
			else store();
		};
		return script(commit, request);
	};
	return { service, handler };
}

/** Sets the in-doubt lookup window for one test and puts it back. */
async function withWindow<T>(ms: number, work: () => Promise<T>): Promise<T> {
	const retry = builtRetry();
	const saved = retry.inDoubtLookupWindowMs;
	retry.inDoubtLookupWindowMs = ms;
	try {
		return await work();
	} finally {
		retry.inDoubtLookupWindowMs = saved;
	}
}

describe('1. an External ID used by another payment is never reported as this one', () => {
	test('a bank withdrawal ord-9 of 100 USD: a crypto withdrawal ord-9 of 100 USD fails, nothing sent', async () => {
		const { service, handler } = lateCommitService(() => ({ status: 500 }));
		service.store({
			id: 'wd-1',
			externalId: 'ord-9',
			type: 'bank',
			amount: 100,
			bankAccount: 'bank-1',
			walletAddress: null,
			token: null,
			network: null,
		});
		const server = await serve(handler);
		const run = await runNode(crypto(), { credentials: { baseUrl: server.baseUrl } });
		expect(run.error?.message).toMatch(
			/^External ID ord-9 was already used for a different withdrawal \(type: "bank" there, "crypto" here; token: null there, "USDT" here/,
		);
		expect(posts(server)).toHaveLength(0);
		expect(run.items).toHaveLength(0);
	});

	test('told by its destination when the record has no type: a crypto record does not answer for a bank payment', async () => {
		const { service, handler } = lateCommitService(() => ({ status: 500 }));
		service.store({
			id: 'wd-2',
			externalId: 'ord-9',
			amount: 100,
			walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
			token: 'USDT',
			network: 'TRC20',
		});
		const server = await serve(handler);
		const run = await runNode(bank(), { credentials: { baseUrl: server.baseUrl } });
		expect(run.error?.message).toMatch(
			/^External ID ord-9 was already used for a different withdrawal \(type: "crypto" there, "bank" here/,
		);
		expect(posts(server)).toHaveLength(0);
	});

	test('a record that does not show the fields this payment sets is not claimed: the item fails, nothing sent', async () => {
		const { service, handler } = lateCommitService(() => ({ status: 500 }));
		service.store({ id: 'wd-3', externalId: 'ord-9', amount: 100, status: 'pending' });
		const server = await serve(handler);
		const run = await runNode(crypto(), { credentials: { baseUrl: server.baseUrl } });
		expect(run.error?.message).toBe(
			"External ID ord-9 is already used; the service's record cannot be matched to this payment (it does not show type, token, network, walletAddress)",
		);
		expect(posts(server)).toHaveLength(0);
	});

	test('the same payment found again is reported as already submitted, with a message', async () => {
		const { service, handler } = lateCommitService(() => ({ status: 500 }));
		service.store({
			id: 'wd-4',
			externalId: 'ord-9',
			type: 'crypto',
			amount: 100,
			walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
			token: 'USDT',
			network: 'TRC20',
		});
		const server = await serve(handler);
		const run = await runNode(crypto(), { credentials: { baseUrl: server.baseUrl } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({
			id: 'wd-4',
			externalId: 'ord-9',
			alreadySubmitted: true,
			message: 'Already submitted: found under External ID ord-9, not sent again',
		});
		expect(posts(server)).toHaveLength(0);
	});
});

describe('2. an in-doubt send is looked up for a late commit, never sent again', () => {
	test('500 with the commit 1.5 s later: one POST, the late record is reported', async () => {
		const { handler } = lateCommitService(
			(commit) => (commit(1500), { status: 500, body: refusal('gateway timeout') }),
		);
		const server = await serve(handler);
		const run = await runNode(crypto(), { credentials: { baseUrl: server.baseUrl } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ externalId: 'ord-9', alreadySubmitted: true });
		expect(posts(server)).toHaveLength(1);
	});

	test("the node's own short Timeout: the service commits after the client gave up; one POST, reported", async () => {
		const { handler } = lateCommitService(
			(commit) => (commit(900), { status: 200, body: envelope({ id: 'late' }), delayMs: 1200 }),
		);
		const server = await serve(handler);
		const run = await runNode(crypto({ requestOptions: { timeout: 300 } }), {
			credentials: { baseUrl: server.baseUrl },
		});
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ externalId: 'ord-9', alreadySubmitted: true });
		expect(posts(server)).toHaveLength(1);
	});

	test('a dropped connection after the commit: one POST, reported', async () => {
		const { handler } = lateCommitService((commit) => (commit(), { status: 200, reset: true }));
		const server = await serve(handler);
		const run = await runNode(bank(), { credentials: { baseUrl: server.baseUrl } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ externalId: 'ord-9', alreadySubmitted: true });
		expect(posts(server)).toHaveLength(1);
	});

	test('never found within the window: one POST, the item fails in doubt, and a re-run finds it once it shows', async () => {
		let commitLater: (() => void) | undefined;
		const { handler } = lateCommitService(
			(commit) => ((commitLater = () => commit()), { status: 502, raw: 'Bad Gateway' }),
		);
		const server = await serve(handler);
		const started = Date.now();
		const run = await withWindow(
			1500,
			async () => await runNode(crypto(), { credentials: { baseUrl: server.baseUrl } }),
		);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
		expect(run.error?.message).toBe(
			'The withdrawal with External ID ord-9 may or may not have been made (HTTP 502 without a JSON answer); check before re-running with the same External ID',
		);
		expect(posts(server)).toHaveLength(1);
		// The lookups went on over the window, with backoff.
		expect(server.requests.filter((r) => r.method === 'GET').length).toBeGreaterThan(2);

		commitLater?.();
		const rerun = await runNode(crypto(), { credentials: { baseUrl: server.baseUrl } });
		expect(rerun.items[0].json).toMatchObject({ externalId: 'ord-9', alreadySubmitted: true });
		expect(posts(server)).toHaveLength(1);
	});

	test('a refused connection (nothing sent) is sent again once the service listens', async () => {
		const service = withdrawalService();
		const probe = await localService(() => ({ status: 200 }));
		const { port } = probe;
		await probe.close();
		const baseUrl = `http://127.0.0.1:${port}/v1`;
		let server: Awaited<ReturnType<typeof serve>> | undefined;
		// The first attempts meet a closed port; the service starts while the node backs off.
		const opening = new Promise<void>((resolve) =>
			setTimeout(
				() =>
					void serve((request) => service.handler(request), port).then(
						(s) => ((server = s), resolve()),
					),
				300,
			),
		);
		const run = await runNode(crypto(), { credentials: { baseUrl } });
		await opening;
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ externalId: 'ord-9', alreadySubmitted: false });
		expect(posts(server as NonNullable<typeof server>)).toHaveLength(1);
	});
});

describe('3. External IDs are one path segment', () => {
	test.each([['..'], ['.'], ['  ..  ']])(
		'%j is refused before any request, naming the field',
		async (externalId) => {
			const server = await serve(() => ({ status: 500 }));
			const run = await runNode(crypto({ externalId }), {
				credentials: { baseUrl: server.baseUrl },
			});
			expect(run.error?.message).toMatch(/^'External ID' cannot be "\." or "\.\."/);
			expect(server.requests).toHaveLength(0);
		},
	);

	test('"a/../b" stays one segment under /payments/withdrawal/, and a second run pays nothing', async () => {
		const service = withdrawalService();
		const server = await serve((request) => service.handler(request));
		const first = await runNode(crypto({ externalId: 'a/../b' }), {
			credentials: { baseUrl: server.baseUrl },
		});
		const second = await runNode(crypto({ externalId: 'a/../b' }), {
			credentials: { baseUrl: server.baseUrl },
		});
		expect(first.items[0].json).toMatchObject({ externalId: 'a/../b', alreadySubmitted: false });
		expect(second.items[0].json).toMatchObject({ externalId: 'a/../b', alreadySubmitted: true });
		expect(posts(server)).toHaveLength(1);
		const lookups = server.requests.filter((r) => r.method === 'GET').map((r) => r.path);
		expect(lookups.length).toBeGreaterThan(0);
		for (const path of lookups)
			expect(
				path === '/v1/payments/withdrawal/a%2F..%2Fb' || path === '/v1/payments/withdrawal/wd-1',
			).toBe(true);
	});
});

describe('4. short secrets inside service text never leave the node', () => {
	const shortSecrets = { pin: '4711', appSecret: 'Zq9', webhookSecret: 'wh7' };

	test.each([[false], [true]])(
		'a 4-digit PIN echoed in a 400 message (Continue On Fail %s)',
		async (continueOnFail) => {
			const server = await serve((request) =>
				isWithdrawalPost(request)
					? {
							status: 400,
							body: refusal(`invalid transaction pin 4711 for app Zq9 (hook wh7)`, [
								{ field: 'pin', message: 'pin 4711 is wrong' },
							]),
						}
					: { status: 404, body: refusal('withdrawal not found') },
			);
			const run = await runNode(crypto(), {
				continueOnFail,
				credentials: { baseUrl: server.baseUrl, ...shortSecrets },
			});
			// What leaves the node: its error (every field but n8n's timestamp) and its items.
			const error = { ...((run.error ?? {}) as unknown as IDataObject) };
			delete error.timestamp;
			const text = JSON.stringify({
				error,
				errorText: `${run.error?.message} ${run.error?.description} ${run.error?.stack}`,
				items: run.items,
			});
			expect(text).toContain('invalid transaction pin [redacted]');
			for (const secret of Object.values(shortSecrets)) expect(text).not.toContain(secret);
		},
	);

	test('in output records a short secret is replaced where it stands alone in text, never in a figure', async () => {
		const server = await serve(() => ({
			status: 200,
			body: envelope({ id: 'w1', note: 'pin 4711 used', accountNumber: '0123471199', fee: 4711 }),
		}));
		const run = await runNode(
			{ resource: 'wallet', operation: 'get', walletId: rl('w1') },
			{ credentials: { baseUrl: server.baseUrl, pin: '4711' } },
		);
		expect(run.items[0].json).toMatchObject({
			note: 'pin [redacted] used',
			accountNumber: '0123471199',
			fee: 4711,
		});
	});
});

describe('6. Return All ends on pages that bring nothing new', () => {
	// A list that always brings one new record, capped by its page bound: test/CryptoSettlement/engine/list-bounds.test.ts (the slow lane).
	test('pages alternating between the same records with hasNextPage always true stop at the first page with nothing new', async () => {
		const server = await serve((request) => {
			const page = Number(request.query.get('page'));
			const data = page % 2 ? [{ id: 'a1' }, { id: 'a2' }] : [{ id: 'b1' }, { id: 'b2' }];
			return { status: 200, body: { ...envelope(data), meta: { page, hasNextPage: true } } };
		});
		const run = await runNode(
			{ resource: 'wallet', operation: 'getAll', returnAll: true },
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(run.error?.message).toBe(
			'Return All stopped: the list returned page 3 with no record not already read (it repeats earlier pages)',
		);
		expect(server.requests).toHaveLength(3);
	});
});

describe("7. n8n's Retry On Fail never repeats a write after a dropped connection", () => {
	// Every operation the records mark never repeated, with its contract case (test/helpers/single-writes.ts), none listed here.
	test.each(SINGLE_WRITES)(
		"$name applied, then the connection reset: sent once, and the error is the node's own",
		async ({ name, sends }) => {
			const server = await serve(() => ({ status: 200, reset: true }));
			const result = await runWorkflow({
				workflow: actionWorkflow(parametersOf(name), RETRY_ON_FAIL),
				credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl: server.baseUrl } as never },
			});
			expect(server.requests.filter(sends)).toHaveLength(1);
			expect(result.error?.message).toMatch(
				/^[A-Z]+ \/.* may or may not have taken effect: .*(ECONNRESET|socket hang up)/,
			);
			expect(result.error?.message).not.toMatch(/retry the request/i);
			expectNoSecrets(serializeRun(result));
		},
	);

	test.each([
		['a crypto withdrawal', crypto()],
		['a bank withdrawal', bank()],
	])(
		'%s reset and never recorded: one POST across every try, failed in doubt',
		async (_name, parameters) => {
			const { handler } = lateCommitService(() => ({ status: 200, reset: true }));
			const server = await serve(handler);
			const result = await withWindow(
				600,
				async () =>
					await runWorkflow({
						workflow: actionWorkflow(parameters, RETRY_ON_FAIL),
						credentials: {
							[CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl: server.baseUrl } as never,
						},
					}),
			);
			expect(posts(server)).toHaveLength(1);
			expect(result.error?.message).toMatch(
				/^The withdrawal with External ID ord-9 may or may not have been made \(.*(ECONNRESET|socket hang up).*\); check before re-running/,
			);
		},
	);

	test('a withdrawal reset, then recorded while Retry On Fail waits: the retry finds it, nothing sent again', async () => {
		const { handler } = lateCommitService((commit) => (commit(900), { status: 200, reset: true }));
		const server = await serve(handler);
		const result = await withWindow(
			300,
			async () =>
				await runWorkflow({
					workflow: actionWorkflow(crypto(), {
						retryOnFail: true,
						maxTries: 3,
						waitBetweenTries: 1000,
					}),
					credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl: server.baseUrl } as never },
				}),
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Crypto Settlement')[0].json).toMatchObject({
			externalId: 'ord-9',
			alreadySubmitted: true,
		});
		expect(posts(server)).toHaveLength(1);
	});
});

test('errors name the real path, not its template', async () => {
	const server = await serve(() => ({ status: 418, body: refusal('teapot') }));
	const run = await runNode(
		{ resource: 'withdrawal', operation: 'get', withdrawalId: 'wd-7' },
		{ credentials: { baseUrl: server.baseUrl } },
	);
	expect(run.error?.description).toBe(
		'The service answered GET /payments/withdrawal/wd-7 with HTTP 418.',
	);
});
