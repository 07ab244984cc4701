/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads the withdrawals example workflow */
/**
 * What a withdrawal found under its External ID means (issue 33, points 8 to 10), through n8n-core's
 * engine against a real local HTTP server:
 * - a refunded one (every refunded status of the statuses table) is never this payment's success,
 *   found before the send or after an in-doubt send;
 * - after the node's own send proved nothing, a record that cannot be matched is named as what may
 *   have been made, never as an External ID "already used";
 * - a row already paid is reported as paid whatever a guardrail now says about a new send.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import {
	actionWorkflow,
	ACTION_NODE,
	CREDENTIAL_TYPE,
	loadPackage,
	PACKAGE_ROOT,
	runWorkflow,
} from '../../helpers';
import { LIFECYCLES } from '../../../nodes/service/catalog';
import {
	CREDENTIALS,
	cryptoWithdrawal,
	RETRY_ON_FAIL,
	runNode,
	serversClosedAfterEach,
	shortBackoff,
	shortInDoubtWindow,
} from '../../helpers/node';
import {
	envelope,
	localService,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';

/** The withdrawal statuses whose money went back, read from the one statuses table. */
const REFUNDED = Object.entries(LIFECYCLES.withdrawal)
	.filter(([, status]) => 'refunded' in status && status.refunded)
	.map(([name]) => name);

const RATES = [
	{ symbol: 'USDT', rate: { NGN: 1500, GHS: 15 }, priceUSD: 1 },
	{ symbol: 'BTC', rate: { NGN: 90_000_000, GHS: 900_000 }, priceUSD: 60_000 },
];

const isWithdrawalPost = (request: Seen) =>
	request.method === 'POST' && request.path.startsWith('/v1/payments/withdraw/');

/**
 * The service: withdrawals stored by External ID (`onPost` scripts the answer to a send after it is
 * stored, or instead of storing it), today's list of them, and the sell rates.
 */
async function service(
	onPost: (store: () => IDataObject, request: Seen) => Reply | undefined = () => undefined,
	lookupDown?: string,
) {
	const withdrawals = withdrawalService();
	const created = new Map<string, string>();
	const server = await localService((request: Seen): Reply => {
		const route = `${request.method} ${request.path.replace(/^\/v1/, '')}`;
		if (route === 'GET /trades/pbc/sell/rates') return { status: 200, body: envelope(RATES) };
		if (route === `GET /payments/withdrawal/${lookupDown}`)
			return { status: 500, body: { success: false, message: 'lookup down' } };
		if (route === 'GET /payments/withdrawals') {
			const listed = [...withdrawals.byExternalId.values()].map((record) => ({
				createdAt: created.get(String(record.id)) ?? new Date().toISOString(),
				...record,
			}));
			return {
				status: 200,
				body: {
					...envelope(Number(request.query.get('page')) === 1 ? listed : []),
					meta: { hasNextPage: false },
				},
			};
		}
		if (isWithdrawalPost(request)) {
			// Stored as the fake API stores it: a UTXO payout shows its fee level.
			const store = () => {
				const reply = withdrawals.handler(request);
				const record = withdrawals.byExternalId.get(
					String(request.body?.externalId),
				) as IDataObject;
				record.feeLevel ??= request.body?.feeLevel ?? null;
				created.set(String(record.id), new Date().toISOString());
				return { record, reply };
			};
			return onPost(() => store().record, request) ?? store().reply;
		}
		return withdrawals.handler(request);
	});
	servers.push(server);
	return {
		server,
		withdrawals,
		baseUrl: server.baseUrl,
		posts: () => server.requests.filter(isWithdrawalPost).length,
	};
}

const servers = serversClosedAfterEach();

/** 100 USD of USDT on TRC20 to TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp under External ID ord-9, and the record the service would store for it. */
const crypto = (extra: IDataObject = {}) =>
	cryptoWithdrawal({ amount: 100, externalId: 'ord-9', ...extra });
const SAME = {
	id: 'wd-7',
	externalId: 'ord-9',
	type: 'crypto',
	amount: 100,
	token: 'USDT',
	network: 'TRC20',
	walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
};

const inDoubt = (error: unknown) =>
	(error as { context?: IDataObject } | undefined)?.context?.inDoubt;

describe('8. a refunded withdrawal under the External ID is not this payment', () => {
	test('the statuses table has refunded withdrawal statuses (the cases below are read from it)', () => {
		expect(REFUNDED.length).toBeGreaterThan(0);
	});

	test.each(REFUNDED)(
		'found %s before sending: the item fails naming it, its id and amount; nothing is sent',
		async (status) => {
			const { withdrawals, baseUrl, posts } = await service();
			withdrawals.store({ ...SAME, status });
			const run = await runNode(crypto(), { credentials: { baseUrl } });
			expect(run.error?.message).toBe(
				`External ID ord-9 holds withdrawal wd-7 (100 USD, ${status}), which was ${status} and refunded: it is not this payment's success, and nothing was sent`,
			);
			expect(run.error?.description).toMatch(
				/first check withdrawal wd-7 .* then give the item a new External ID: a new External ID pays a new withdrawal, while the same one finds withdrawal wd-7 again and sends nothing\.$/,
			);
			expect(run.items).toHaveLength(0);
			expect(posts()).toBe(0);
			// A re-run with the same External ID finds it again and sends nothing.
			expect((await runNode(crypto(), { credentials: { baseUrl } })).error?.message).toMatch(
				/^External ID ord-9 holds withdrawal wd-7/,
			);
			expect(posts()).toBe(0);
		},
	);

	test.each(REFUNDED)('found %s with Dry Run: the dry run fails the same way', async (status) => {
		const { withdrawals, baseUrl, posts } = await service();
		withdrawals.store({ ...SAME, status: status.toUpperCase() });
		const run = await runNode(crypto({ additionalFields: { dryRun: true } }), {
			credentials: { baseUrl },
		});
		expect(run.error?.message).toMatch(
			new RegExp(
				`^External ID ord-9 holds withdrawal wd-7 \\(100 USD, ${status.toUpperCase()}\\), which was ${status} and refunded`,
			),
		);
		expect(posts()).toBe(0);
	});

	test.each(REFUNDED)(
		'found %s after an in-doubt send (HTTP 500): one POST, the item fails in doubt naming it, and asks to check first',
		async (status) => {
			const { baseUrl, posts } = await service((store) => {
				store().status = status;
				return { status: 500, body: { success: false, message: 'gateway timeout' } };
			});
			const run = await runNode(crypto(), { credentials: { baseUrl } });
			expect(run.error?.message).toBe(
				`External ID ord-9 holds withdrawal wd-1 (100 USD, ${status}), which was ${status} and refunded: it is not this payment's success; it was found after this item's send proved nothing (HTTP 500: gateway timeout), so check before any retry`,
			);
			expect(run.error?.description).toMatch(
				/before any retry; only once you have made sure it was not paid, give the item a new External ID: a new External ID pays a new withdrawal/,
			);
			expect(inDoubt(run.error)).toBe(true);
			expect(posts()).toBe(1);
		},
	);

	test.each(REFUNDED)(
		"found %s after an in-doubt send, with n8n's Retry On Fail: looked up again, never sent again, still named",
		async (status) => {
			const { baseUrl, posts } = await service((store) => {
				store().status = status;
				return { status: 200, reset: true };
			});
			const result = await runWorkflow({
				workflow: actionWorkflow(crypto(), RETRY_ON_FAIL),
				credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl } as never },
			});
			expect(result.error?.message).toBe(
				`External ID ord-9 holds withdrawal wd-1 (100 USD, ${status}), which was ${status} and refunded: it is not this payment's success; it was found after this item's send proved nothing (an earlier attempt of this run had no clear answer), so check before any retry`,
			);
			expect(posts()).toBe(1);
		},
	);

	test('a completed withdrawal is still reported as this payment', async () => {
		const { withdrawals, baseUrl, posts } = await service();
		withdrawals.store({ ...SAME, status: 'completed' });
		const run = await runNode(crypto(), { credentials: { baseUrl } });
		expect(run.items[0].json).toMatchObject({
			id: 'wd-7',
			status: 'completed',
			alreadySubmitted: true,
		});
		expect(posts()).toBe(0);
	});
});

describe("9. after the node's own send proved nothing, an unmatched record is what may have been made", () => {
	/** The service stores a record that shows neither token nor network, and answers the send with `reply`. */
	const unmatched = (reply: Reply) => async () =>
		await service((store) => {
			const record = store();
			delete record.token;
			delete record.network;
			delete record.walletAddress;
			delete record.cryptoAmount;
			return reply;
		});

	test.each([
		[
			'a 5xx',
			{ status: 503, body: { success: false, message: 'upstream unavailable' } },
			'HTTP 503: upstream unavailable',
		],
		[
			'an HTML page with 200',
			{
				status: 200,
				raw: '<html><body>Welcome</body></html>',
				headers: { 'content-type': 'text/html' },
			},
			'HTTP 200 without a JSON answer',
		],
		['an empty 204', { status: 204 }, 'HTTP 204 without a JSON answer'],
		[
			'a 200 without an id',
			{ status: 200, body: envelope({}) },
			'HTTP 200 without a withdrawal id (success: true)',
		],
	] as Array<[string, Reply, string]>)(
		'%s: one POST; the item fails in doubt, naming the withdrawal found, never "already used"',
		async (_name, reply, reason) => {
			const { baseUrl, posts } = await unmatched(reply)();
			const run = await runNode(crypto(), { credentials: { baseUrl } });
			expect(run.error?.message).toBe(
				`The withdrawal with External ID ord-9 may have been made (${reason}): the service shows withdrawal wd-1 (100 USD, pending) under it, which cannot be matched to this payment (it does not show type, token, network, walletAddress); check it before any retry`,
			);
			expect(`${run.error?.message} ${run.error?.description}`).not.toMatch(/already used/);
			expect(run.error?.description).toMatch(
				/Check withdrawal wd-1 .* before any retry: if it is this payment, it is paid\. Do not pay this item under a new External ID until you have made sure it was not paid\./,
			);
			expect(inDoubt(run.error)).toBe(true);
			expect(posts()).toBe(1);
		},
	);

	test("n8n's Retry On Fail after it: the record is looked up again, nothing sent again, still named as what may have been made", async () => {
		const { baseUrl, posts } = await unmatched({
			status: 502,
			body: { success: false, message: 'bad gateway' },
		})();
		const result = await runWorkflow({
			workflow: actionWorkflow(crypto(), RETRY_ON_FAIL),
			credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl } as never },
		});
		expect(result.error?.message).toMatch(
			/^The withdrawal with External ID ord-9 may have been made \(an earlier attempt of this run had no clear answer\): the service shows withdrawal wd-1 \(100 USD, pending\)/,
		);
		expect(posts()).toBe(1);
	});

	test('before any send, the same record still reads as an External ID already used (nothing was sent)', async () => {
		const { withdrawals, baseUrl, posts } = await service();
		withdrawals.store({ id: 'wd-3', externalId: 'ord-9', amount: 100, status: 'pending' });
		const run = await runNode(crypto(), { credentials: { baseUrl } });
		expect(run.error?.message).toMatch(
			/^External ID ord-9 is already used; the service's record cannot be matched/,
		);
		expect(inDoubt(run.error)).toBeUndefined();
		expect(posts()).toBe(0);
	});
});

describe('10. a row already paid is reported as paid whatever a guardrail now says', () => {
	// A lookup that is down is retried before the row says it could not be checked; the pauses are not what this tests.
	shortBackoff();
	/** The withdrawals example (e2e/workflows/withdrawals.json): its order, and its two withdrawal nodes reading it as their input. */
	const example = JSON.parse(
		readFileSync(path.join(PACKAGE_ROOT, 'e2e', 'workflows', 'withdrawals.json'), 'utf8'),
	) as {
		nodes: Array<{ name: string; parameters: IDataObject }>;
	};
	const exampleNode = (name: string) =>
		example.nodes.find((node) => node.name === name) as { parameters: IDataObject };
	const order = JSON.parse(
		String(exampleNode('Payout Order').parameters.jsonOutput),
	) as IDataObject;
	const asInput = (parameters: IDataObject) =>
		JSON.parse(
			JSON.stringify(parameters).replace(/\$\('Payout Order'\)\.item\.json/g, '$json'),
		) as IDataObject;
	const USDT = asInput(exampleNode('USDT Withdrawal').parameters);
	const BTC = asInput(exampleNode('BTC Withdrawal').parameters);
	const bothListed = `USDT:TRC20:${String(order.usdtAddress)}\nBTC::${String(order.btcAddress)}`;

	async function runExample(credentials: IDataObject, items: IDataObject[] = [order]) {
		const usdt = await runNode(USDT, { items, credentials });
		const btc = await runNode(BTC, { items, credentials });
		return { usdt, btc };
	}

	test('paid, then the allow list tightened: the BTC payout is reported as paid, not refused; a new one is refused', async () => {
		const { baseUrl, posts } = await service();
		const first = await runExample({
			baseUrl,
			destinations: 'allowList',
			allowedAddresses: bothListed,
		});
		expect([first.usdt.error, first.btc.error]).toEqual([undefined, undefined]);
		const paid = first.btc.items[0].json;
		expect(paid).toMatchObject({ externalId: order.btcPayoutId, alreadySubmitted: false });
		expect(posts()).toBe(2);

		const tightened = {
			baseUrl,
			destinations: 'allowList',
			allowedAddresses: `USDT:TRC20:${String(order.usdtAddress)}`,
		};
		const again = await runExample(tightened);
		expect(again.btc.error).toBeUndefined();
		expect(again.btc.items[0].json).toMatchObject({
			id: paid.id,
			externalId: order.btcPayoutId,
			alreadySubmitted: true,
		});
		expect(again.usdt.items[0].json).toMatchObject({
			externalId: order.orderId,
			alreadySubmitted: true,
		});
		expect(posts()).toBe(2);

		const fresh = await runNode(BTC, {
			items: [{ ...order, btcPayoutId: 'payout-btc-0008' }],
			credentials: tightened,
		});
		expect(fresh.error?.message).toBe(
			`Destination ${String(order.btcAddress)} (BTC) is not in the credential's allowed addresses`,
		);
		expect(posts()).toBe(2);
	});

	test('paid, then the limits lowered below it: reported as paid, nothing sent', async () => {
		const { baseUrl, posts } = await service();
		await runExample({ baseUrl });
		expect(posts()).toBe(2);
		for (const lowered of [{ maxPerWithdrawalUsd: 10 }, { maxPerDayUsd: 1 }]) {
			const again = await runExample({ baseUrl, ...lowered });
			expect([again.usdt.error?.message, again.btc.error?.message]).toEqual([undefined, undefined]);
			expect([
				again.usdt.items[0].json.alreadySubmitted,
				again.btc.items[0].json.alreadySubmitted,
			]).toEqual([true, true]);
		}
		expect(posts()).toBe(2);
	});

	test('paid, then run by an AI agent that may not pay: reported as paid, nothing sent', async () => {
		const { baseUrl, posts } = await service();
		await runExample({ baseUrl });
		const { nodeTypes } = await loadPackage();
		const type = `${ACTION_NODE}Tool`;
		nodeTypes.register(type, nodeTypes.getByName(ACTION_NODE));
		const agent = await runWorkflow({
			workflow: actionWorkflow(BTC, { type }),
			items: [{ json: order }],
			credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl } as never },
		});
		expect(agent.error).toBeUndefined();
		expect(agent.output('Crypto Settlement')[0].json).toMatchObject({
			externalId: order.btcPayoutId,
			alreadySubmitted: true,
		});
		expect(posts()).toBe(2);
	});

	test('a batch: the row already paid does not count again toward the day, so the new row within the limit is sent', async () => {
		const { baseUrl, posts } = await service();
		const rows = cryptoWithdrawal({
			amount: '={{ $json.amount }}',
			externalId: '={{ $json.ref }}',
		});
		await runNode(rows, { items: [{ amount: 100, ref: 'day-1' }], credentials: { baseUrl } });
		// Today holds day-1 (100 USD); 100 + 350 is within 500, counting day-1 twice is not.
		const run = await runNode(rows, {
			items: [
				{ amount: 100, ref: 'day-1' },
				{ amount: 350, ref: 'day-2' },
			],
			credentials: { baseUrl, maxPerDayUsd: 500 },
		});
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => [item.json.externalId, item.json.alreadySubmitted])).toEqual([
			['day-1', true],
			['day-2', false],
		]);
		expect(posts()).toBe(2);
	});

	test('a batch with a new row over the limit still sends nothing, whatever rows are already paid', async () => {
		const { baseUrl, posts } = await service();
		const rows = cryptoWithdrawal({
			amount: '={{ $json.amount }}',
			externalId: '={{ $json.ref }}',
		});
		await runNode(rows, { items: [{ amount: 100, ref: 'b-1' }], credentials: { baseUrl } });
		const run = await runNode(rows, {
			items: [
				{ amount: 100, ref: 'b-1' },
				{ amount: 20, ref: 'b-2' },
				{ amount: 600, ref: 'b-3' },
			],
			credentials: { baseUrl, maxPerWithdrawalUsd: 50 },
		});
		expect(run.error?.message).toBe(
			'1 of 3 rows are invalid, so nothing was sent: row 3 (b-3, n8n item 2): Max per withdrawal is 50.00 USD; this item is 600.00 USD',
		);
		expect(posts()).toBe(1);
	});

	test.each(REFUNDED)(
		'a row whose External ID holds a %s withdrawal is refused naming it, not the guardrail',
		async (status) => {
			const { withdrawals, baseUrl, posts } = await service();
			withdrawals.store({ ...SAME, status });
			const run = await runNode(crypto(), { credentials: { baseUrl, maxPerWithdrawalUsd: 50 } });
			expect(run.error?.message).toMatch(
				new RegExp(
					`^External ID ord-9 holds withdrawal wd-7 \\(100 USD, ${status}\\), which was ${status} and refunded`,
				),
			);
			expect(posts()).toBe(0);
		},
	);

	test('a row whose External ID holds another payment is refused naming it, not the guardrail', async () => {
		const { withdrawals, baseUrl, posts } = await service();
		withdrawals.store({
			...SAME,
			walletAddress: 'TJ1oLciuSkVMDorz4vFy7yckiRfjp5jEdC',
			status: 'completed',
		});
		const run = await runNode(crypto(), {
			credentials: {
				baseUrl,
				destinations: 'allowList',
				allowedAddresses: 'TJ1oLciuSkVMDorz4vFy7yckiRfjp5jEdC',
			},
		});
		expect(run.error?.message).toBe(
			'External ID ord-9 was already used for a different withdrawal (walletAddress: "TJ1oLciuSkVMDorz4vFy7yckiRfjp5jEdC" there, "TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp" here)',
		);
		expect(posts()).toBe(0);
	});

	test('a refused row whose External ID cannot be looked up keeps its refusal, saying the check failed; a paid row beside it is reported', async () => {
		const { baseUrl, posts } = await service(undefined, 'x-2');
		const rows = cryptoWithdrawal({
			amount: '={{ $json.amount }}',
			externalId: '={{ $json.ref }}',
		});
		await runNode(rows, { items: [{ amount: 100, ref: 'x-1' }], credentials: { baseUrl } });
		const run = await runNode(rows, {
			continueOnFail: true,
			items: [
				{ amount: 100, ref: 'x-1' },
				{ amount: 100, ref: 'x-2' },
			],
			credentials: { baseUrl, maxPerWithdrawalUsd: 50 },
		});
		expect(run.items[0].json).toMatchObject({ externalId: 'x-1', alreadySubmitted: true });
		expect(run.items[1].json.error).toBe(
			'Max per withdrawal is 50.00 USD; this item is 100.00 USD',
		);
		expect(run.items[1].json.message).toMatch(
			/Whether External ID x-2 already holds a withdrawal could not be checked \(.*lookup down.*\): check it \(Withdrawal → Get\) before paying this item another way\.$/,
		);
		expect(posts()).toBe(1);
	}, 60_000);
});

describe('11. an External ID is compared exactly: a record showing INV-1 is never inv-1 (issue 69, point 3)', () => {
	// The lookup waits between attempts after an unclear send; how long is not what this tests.
	shortInDoubtWindow(300);
	shortBackoff();

	/** The payout INV-1, as a service whose lookup folds case (issue 69) answers for inv-1 too. */
	const INV_1 = { ...SAME, id: 'wd-77', externalId: 'INV-1', status: 'completed' };

	/**
	 * A service holding INV-1 whose lookup of inv-1 answers it, from the start or only once a send
	 * came (`afterSend`); a send is answered `onPost`.
	 */
	async function foldingService(onPost: Reply, afterSend = false) {
		let sent = false;
		const server = await localService((request: Seen): Reply => {
			const route = `${request.method} ${request.path.replace(/^\/v1/, '')}`;
			if (route === 'GET /trades/pbc/sell/rates') return { status: 200, body: envelope(RATES) };
			if (route === 'GET /payments/withdrawals')
				return { status: 200, body: { ...envelope([]), meta: { hasNextPage: false } } };
			if (/^GET \/payments\/withdrawal\/inv-1$/i.test(route) && (sent || !afterSend))
				return { status: 200, body: envelope(INV_1) };
			if (isWithdrawalPost(request)) {
				sent = true;
				return onPost;
			}
			return { status: 404, body: { success: false, message: 'withdrawal not found' } };
		});
		servers.push(server);
		return {
			baseUrl: server.baseUrl,
			posts: () => server.requests.filter(isWithdrawalPost).length,
			lookups: () =>
				server.requests
					.filter((r) => r.path.startsWith('/v1/payments/withdrawal/'))
					.map((r) => r.path),
		};
	}

	test('Create with inv-1 whose lookup before sending answers INV-1 (the same payment otherwise): nothing is sent, the item fails naming both', async () => {
		const { baseUrl, posts, lookups } = await foldingService({
			status: 200,
			body: envelope({ id: 'wd-78' }),
		});
		const run = await runNode(crypto({ externalId: 'inv-1' }), { credentials: { baseUrl } });
		expect(lookups()).toContain('/v1/payments/withdrawal/inv-1');
		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toBe(
			'Could not check whether External ID inv-1 was already used, so the withdrawal was not sent: the lookup answered withdrawal wd-77, which shows the External ID "INV-1"',
		);
		expect(posts()).toBe(0);
	});

	test('with Dry Run: the dry run fails the same way, and is never reported as already submitted', async () => {
		const { baseUrl, posts } = await foldingService({
			status: 200,
			body: envelope({ id: 'wd-78' }),
		});
		const run = await runNode(crypto({ externalId: 'inv-1', additionalFields: { dryRun: true } }), {
			credentials: { baseUrl },
		});
		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toMatch(
			/^Could not check whether External ID inv-1 was already used/,
		);
		expect(posts()).toBe(0);
	});

	test("after an unclear answer (HTTP 500), a lookup answering INV-1 is not inv-1's late commit: one POST, the item fails in doubt", async () => {
		const { baseUrl, posts } = await foldingService(
			{ status: 500, body: { success: false, message: 'gateway timeout' } },
			true,
		);
		const run = await runNode(crypto({ externalId: 'inv-1' }), { credentials: { baseUrl } });
		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toBe(
			'The withdrawal with External ID inv-1 may or may not have been made (HTTP 500: gateway timeout); check before re-running with the same External ID',
		);
		expect(inDoubt(run.error)).toBe(true);
		expect(posts()).toBe(1);
	});
});
