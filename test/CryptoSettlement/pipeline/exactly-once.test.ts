/**
 * Issue "Payments exactly once, or loudly not": each numbered case, through n8n-core's engine
 * against a real local HTTP server.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { actionWorkflow, CREDENTIAL_TYPE, runWorkflow, serializeRun } from '../../helpers';
import {
	CREDENTIALS,
	expectNoSecrets,
	NODE,
	RETRY_ON_FAIL,
	runNode,
	shortInDoubtWindow,
} from '../../helpers/node';
import {
	envelope,
	localService,
	refusal,
	withdrawalService,
	type Reply,
} from '../../helpers/local-service';
import { SINGLE_WRITES, parametersOf } from '../../helpers/single-writes';

beforeAll(() => nock.enableNetConnect());

const crypto = (extra: IDataObject = {}) => ({
	resource: 'withdrawal',
	operation: 'createCrypto',
	token: 'USDT',
	network: 'TRC20',
	walletAddress: '={{ $json.address ?? "TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp" }}',
	amountType: 'usd',
	amount: '={{ $json.amount }}',
	externalId: '={{ $json.ref }}',
	...extra,
});

async function withService(
	script?: Parameters<typeof withdrawalService>[0],
	extra?: (request: import('../../helpers/local-service').Seen) => Reply | undefined,
) {
	const service = withdrawalService(script);
	const server = await localService((request) => extra?.(request) ?? service.handler(request));
	const run = (parameters: IDataObject, options: Parameters<typeof runNode>[1] = {}) =>
		runNode(parameters, {
			...options,
			credentials: { baseUrl: server.baseUrl, ...(options.credentials ?? {}) },
		});
	return { service, server, run, posts: () => server.sent('POST', '/payments/withdraw/') };
}

let current: Awaited<ReturnType<typeof localService>> | undefined;
afterEach(async () => {
	await current?.close();
	current = undefined;
});
async function setUp(...args: Parameters<typeof withService>) {
	const setup = await withService(...args);
	current = setup.server;
	return setup;
}

describe('1. every item is checked before any money moves', () => {
	test('one bad row: zero requests, and the error names every invalid item', async () => {
		const { run, server } = await setUp();
		const result = await run(crypto(), {
			items: [
				{ amount: 5, ref: 'p-1' },
				{ amount: 1.234, ref: 'p-2' },
				{ amount: 7, ref: 'p-3' },
				{ amount: '0x10', ref: 'p-4' },
			],
		});
		expect(server.requests).toHaveLength(0);
		expect(result.error?.message).toMatch(
			/^2 of 4 rows are invalid, so nothing was sent: row 2 \(p-2, n8n item 1\): 'Amount \(USD\)' must have at most 2 decimal places.*; row 4 \(p-4, n8n item 3\): .*plain decimal number/,
		);
		expect(result.items).toHaveLength(0);
	});

	test('with Continue On Fail the valid items go and the invalid one becomes an error item', async () => {
		const { run, posts } = await setUp();
		const result = await run(crypto(), {
			continueOnFail: true,
			items: [
				{ amount: 5, ref: 'p-1' },
				{ amount: 1.234, ref: 'p-2' },
				{ amount: 7, ref: 'p-3' },
			],
		});
		expect(posts().map((r) => r.body?.externalId)).toEqual(['p-1', 'p-3']);
		expect(result.items[0].json).toMatchObject({ externalId: 'p-1', alreadySubmitted: false });
		expect(result.items[1].json.error).toMatch(
			/^'Amount \(USD\)' must have at most 2 decimal places/,
		);
		expect(result.items[2].json).toMatchObject({ externalId: 'p-3', alreadySubmitted: false });
	});

	test.each([
		['continueRegularOutput', 0],
		['continueErrorOutput', 1],
	] as const)(
		'with %s, an error item keeps its row (from 1, and as pairedItem) and External ID',
		async (onError, output) => {
			const { server } = await setUp();
			const result = await runWorkflow({
				workflow: actionWorkflow(crypto(), { onError }),
				items: [
					{ amount: 5, ref: 'payout-3001' },
					{ amount: 7, ref: 'payout-3002' },
					{ amount: 10.125, ref: 'payout-3003' },
				].map((json) => ({ json })),
				credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl: server.baseUrl } as never },
			});
			const items = result.run.data.resultData.runData[NODE][0].data?.main?.[output] ?? [];
			const failed = items.find((item) => item.json.error !== undefined);
			expect(failed?.json).toEqual({
				error: expect.stringMatching(/^'Amount \(USD\)' must have at most 2 decimal places/),
				message: expect.stringMatching(
					/^Fix 'Amount \(USD\)' \(set by an expression\) for row 3 \(payout-3003, n8n item 2\)\. Nothing was sent/,
				),
			});
			expect(failed?.pairedItem).toEqual({ item: 2 });
		},
	);

	test('a refusal mid-batch stops what was not sent yet and lists what was submitted, with External IDs', async () => {
		const { run, posts, service } = await setUp((body) =>
			body.externalId === 'p-2' ? { status: 400, body: refusal('insufficient balance') } : 'create',
		);
		const items = Array.from({ length: 8 }, (_, i) => ({ amount: 5 + i, ref: `p-${i + 1}` }));
		const result = await run(crypto(), { items });
		expect(result.error?.message).toMatch(/^insufficient balance \(HTTP 400\)/);
		const submitted = (result.error?.context as IDataObject).submittedItems as IDataObject[];
		expect(submitted.map((s) => s.externalId).sort()).toEqual(
			[...service.byExternalId.keys()].sort(),
		);
		expect(submitted.length).toBeGreaterThan(0);
		for (const { itemIndex, externalId } of submitted)
			expect(result.error?.description).toContain(
				`row ${Number(itemIndex) + 1} (${String(externalId)}, n8n item ${Number(itemIndex)})`,
			);
		// Items are sent in order, a few at a time: the tail of the batch was never sent.
		expect(posts().map((r) => r.body?.externalId)).not.toContain('p-8');
		expect(result.error?.description).toMatch(/Not sent: row .*8 \(p-8, n8n item 7\)/);
	});

	test("with n8n's Batching option (items started apart in time), one bad row still sends nothing", async () => {
		const { run, server } = await setUp();
		const result = await run(
			crypto({ requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 30 } } } }),
			{
				items: [
					{ amount: 5, ref: 'b-1' },
					{ amount: 6, ref: 'b-2' },
					{ amount: 7.777, ref: 'b-3' },
				],
			},
		);
		expect(result.error?.message).toMatch(
			/^1 of 3 rows are invalid, so nothing was sent: row 3 \(b-3, n8n item 2\)/,
		);
		expect(server.requests).toHaveLength(0);
	});

	test("with n8n's Batching option, valid items are all sent, in order", async () => {
		const { run, posts } = await setUp();
		const result = await run(
			crypto({ requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 30 } } } }),
			{
				items: [1, 2, 3].map((n) => ({ amount: n, ref: `bo-${n}` })),
			},
		);
		expect(result.error).toBeUndefined();
		expect(posts().map((r) => r.body?.externalId)).toEqual(['bo-1', 'bo-2', 'bo-3']);
	});

	test("n8n's Retry execution with derived External IDs is refused before anything is sent", async () => {
		const { server } = await setUp();
		const result = await runWorkflow({
			workflow: actionWorkflow(crypto({ externalId: '' })),
			items: [{ json: { amount: 5 } }],
			credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl: server.baseUrl } as never },
			mode: 'retry',
		});
		expect(result.error?.message).toMatch(
			/A retried execution cannot recognise withdrawals by a derived External ID/,
		);
		expect(server.requests).toHaveLength(0);
	});

	test('Retry execution with mapped External IDs pays only what the failed run did not', async () => {
		let refuse = true;
		const { service, server, posts } = await setUp((body) =>
			refuse && body.externalId === 'p-2'
				? { status: 400, body: refusal('insufficient balance') }
				: 'create',
		);
		const items = [1, 2, 3].map((n) => ({ json: { amount: n, ref: `p-${n}` } }));
		const options = {
			workflow: actionWorkflow(crypto()),
			items,
			credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl: server.baseUrl } as never },
		};
		const failed = await runWorkflow(options);
		expect(failed.error).toBeDefined();
		refuse = false;
		const retried = await runWorkflow({
			...options,
			mode: 'retry',
			executionId: 'harness-execution-2',
		});
		expect(retried.error).toBeUndefined();
		expect(service.byExternalId.size).toBe(3);
		expect(posts().filter((r) => r.body?.externalId === 'p-1')).toHaveLength(1);
		expect(retried.output(NODE).map((i) => i.json.externalId)).toEqual(['p-1', 'p-2', 'p-3']);
		expect(retried.output(NODE)[0].json.alreadySubmitted).toBe(true);
	});
});

describe('2. a reused External ID on a different payment fails', () => {
	test('two items with one External ID: Alice is paid, Bob fails naming the difference', async () => {
		const { run, service } = await setUp();
		const result = await run(crypto(), {
			continueOnFail: true,
			items: [
				{ amount: 10, ref: 'ord-11', address: 'TX2fR37pjz3iRw5EiyinbtmzuHDgSWyha5' },
				{ amount: 2500, ref: 'ord-11', address: 'TBTXE1SeZn5vdAVtW1rUrJLriwd2eM3Ft8' },
			],
		});
		expect(service.byExternalId.size).toBe(1);
		expect(result.items[0].json).toMatchObject({ externalId: 'ord-11', alreadySubmitted: false });
		expect(result.items[1].json.error).toMatch(
			/^External ID ord-11 was already used for a different withdrawal \(walletAddress: "TX2fR37pjz3iRw5EiyinbtmzuHDgSWyha5" there, "TBTXE1SeZn5vdAVtW1rUrJLriwd2eM3Ft8" here; amount: 10 there, 2500 here\)/,
		);
	});

	test('the same payment twice is reported as already submitted', async () => {
		const { run, service } = await setUp();
		const result = await run(crypto(), {
			items: [
				{ amount: 10, ref: 'ord-12' },
				{ amount: 10, ref: 'ord-12' },
			],
		});
		expect(result.error).toBeUndefined();
		expect(service.byExternalId.size).toBe(1);
		expect(result.items.map((i) => i.json.alreadySubmitted)).toEqual([false, true]);
		expect(result.items[1].json.id).toBe(result.items[0].json.id);
	});

	test('two executions at once with one External ID and different payments: one is paid, one fails', async () => {
		const { run, service } = await setUp();
		const [a, b] = await Promise.all([
			run(crypto(), { items: [{ amount: 10, ref: 'ord-13' }], executionId: 'e-a' }),
			run(crypto(), { items: [{ amount: 2500, ref: 'ord-13' }], executionId: 'e-b' }),
		]);
		expect(service.byExternalId.size).toBe(1);
		const errors = [a.error, b.error].filter(Boolean);
		expect(errors).toHaveLength(1);
		expect(errors[0]?.message).toMatch(
			/External ID ord-13 was already used for a different withdrawal/,
		);
	});
});

describe('3. External ID values are checked', () => {
	test('an object is refused, never sent as "[object Object]"', async () => {
		const { run, server } = await setUp();
		const result = await run(crypto({ externalId: '={{ { a: 1 } }}' }), { items: [{ amount: 5 }] });
		expect(result.error?.message).toMatch(/^'External ID' must be text or a number, not an object/);
		expect(server.requests).toHaveLength(0);
	});

	test('a mapped External ID that resolves empty fails that item instead of falling back to a derived one', async () => {
		const { run, posts } = await setUp();
		const result = await run(crypto(), {
			continueOnFail: true,
			items: [{ amount: 5, ref: 'p-1' }, { amount: 6 }],
		});
		expect(result.items[1].json.error).toBe('External ID is empty for this item');
		expect(posts().map((r) => r.body?.externalId)).toEqual(['p-1']);
	});

	test('a number is accepted and printed exactly', async () => {
		const { run, posts } = await setUp();
		const result = await run(crypto(), { items: [{ amount: 5, ref: 1042 }] });
		expect(result.error).toBeUndefined();
		expect(posts()[0].body?.externalId).toBe('1042');
	});
});

describe('4. only a JSON envelope with success true and data.id counts as created', () => {
	shortInDoubtWindow();
	const odd: Array<[string, Reply]> = [
		[
			'200 text/html',
			{ status: 200, raw: '<html>ok</html>', headers: { 'content-type': 'text/html' } },
		],
		['204 empty', { status: 204 }],
		['202 without data', { status: 202, body: { success: true, message: 'accepted' } }],
		[
			'200 with success "false"',
			{ status: 200, body: { success: 'false', message: 'x', data: { id: 'wd-x' } } },
		],
		['200 without data.id', { status: 200, body: envelope({}) }],
		['303 See Other', { status: 303, headers: { location: '/v1/payments/withdrawals' } }],
	];

	test.each(odd)(
		'%s, and nothing found under the External ID: "may or may not", never sent again',
		async (_name, reply) => {
			const { run, posts } = await setUp(() => reply);
			const result = await run(crypto(), { items: [{ amount: 5, ref: 'odd-1' }] });
			expect(result.error?.message).toMatch(
				/^The withdrawal with External ID odd-1 may or may not have been made/,
			);
			expect(posts()).toHaveLength(1);
			expect(result.items).toHaveLength(0);
		},
	);

	test('200 text/html, and the withdrawal exists: the found record is output', async () => {
		const { run, service } = await setUp((body) => {
			service.store({
				id: 'wd-77',
				externalId: body.externalId,
				amount: body.amount,
				token: 'USDT',
				network: 'TRC20',
				walletAddress: 'TPwzLEPLGKAg4MgensacwZTZsXkHrYsTMp',
			});
			return { status: 200, raw: '<html>ok</html>', headers: { 'content-type': 'text/html' } };
		});
		const result = await run(crypto(), { items: [{ amount: 5, ref: 'odd-2' }] });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			id: 'wd-77',
			externalId: 'odd-2',
			alreadySubmitted: true,
		});
	});
});

describe('5. lookup answers are checked', () => {
	const lookups: Array<[string, unknown]> = [
		['data {}', envelope({})],
		['data []', envelope([])],
		['a record with another External ID', envelope({ id: 'wd-9', externalId: 'someone-else' })],
		['a record without an id', envelope({ externalId: 'r-1' })],
	];
	test.each(lookups)(
		'after a 400, a lookup answering %s is not "already submitted"',
		async (_name, lookupBody) => {
			let posted = false;
			const { run } = await setUp(
				() => ((posted = true), { status: 400, body: refusal('insufficient balance') }),
				(request) =>
					request.method === 'GET'
						? posted
							? { status: 200, body: lookupBody }
							: { status: 404, body: refusal('not found') }
						: undefined,
			);
			const result = await run(crypto(), { items: [{ amount: 5, ref: 'r-1' }] });
			expect(result.error?.message).toBe('insufficient balance (HTTP 400)');
		},
	);

	// A lookup the service refuses proves nothing about the External ID: taken as "not found", a
	// service that cannot look such an ID up would switch the check off and pay every re-run again.
	test.each([
		[400, 'invalid id'],
		[422, 'validation errors'],
	])(
		'a lookup answered %s (%s) is not "not found": nothing is sent, and the error says the check could not be made',
		async (status, message) => {
			const { run, posts, server } = await setUp(undefined, (request) =>
				request.method === 'GET' ? { status, body: refusal(message) } : undefined,
			);
			const result = await run(crypto(), { items: [{ amount: 5, ref: 'ord-11' }] });
			expect(result.error?.message).toBe(
				`Could not check whether External ID ord-11 was already used, so the withdrawal was not sent: ${message} (HTTP ${status})`,
			);
			expect(server.sent('GET', '/payments/withdrawal/ord-11').length).toBeGreaterThan(0);
			expect(posts()).toHaveLength(0);
		},
	);

	// A 200 that is not this External ID's record cannot say whether the ID is taken either: taken as
	// "not found", a withdrawal already sent under it (a record that does not echo its External ID,
	// or a proxy's answer about another) would be paid again.
	test.each<[string, unknown, string]>([
		['data null', envelope(null), 'the lookup answered HTTP 200 without a withdrawal record'],
		['data []', envelope([]), 'the lookup answered HTTP 200 without a withdrawal record'],
		[
			'a record without an id',
			envelope({ externalId: 'ord-13', status: 'pending' }),
			'the lookup answered a withdrawal record without an id',
		],
		[
			'a record that shows no External ID',
			envelope({ id: 'wd-1', status: 'pending', amount: 5 }),
			'the lookup answered withdrawal wd-1, which shows no External ID',
		],
		[
			'a record of another External ID',
			envelope({ id: 'wd-2', externalId: 'ord-99' }),
			'the lookup answered withdrawal wd-2, which shows the External ID "ord-99"',
		],
	])(
		'a lookup answered 200 with %s sends nothing, saying the check could not be made',
		async (_name, body, reason) => {
			const { run, posts } = await setUp(undefined, (request) =>
				request.method === 'GET' ? { status: 200, body } : undefined,
			);
			const result = await run(crypto(), { items: [{ amount: 5, ref: 'ord-13' }] });
			expect(result.error?.message).toBe(
				`Could not check whether External ID ord-13 was already used, so the withdrawal was not sent: ${reason}`,
			);
			expect(posts()).toHaveLength(0);
		},
	);

	test.each([
		[401, 'session expired'],
		[422, 'validation errors'],
	])(
		'a 409 whose lookup is answered %s keeps the 409 message and says the check failed',
		async (status, message) => {
			let posted = false;
			const { run } = await setUp(
				() => ((posted = true), { status: 409, body: refusal('conflict: already exists') }),
				(request) =>
					request.method === 'GET'
						? posted
							? { status, body: refusal(message) }
							: { status: 404, body: refusal('nf') }
						: undefined,
			);
			const result = await run(crypto(), { items: [{ amount: 5, ref: 'r-2' }] });
			expect(result.error?.message).toBe('conflict: already exists (HTTP 409)');
			expect(result.error?.description).toContain(
				`Checking whether External ID r-2 already exists also failed: ${message} (HTTP ${status})`,
			);
		},
	);
});

describe("6. n8n's Retry On Fail never repeats a write that may have taken effect", () => {
	// Every operation the records mark never repeated, with its contract case (test/helpers/single-writes.ts), none listed here.
	test.each(SINGLE_WRITES)(
		'$name applied and answered 500 is sent once, and fails "may or may not"',
		async ({ name, sends }) => {
			const server = await localService(() => ({
				status: 500,
				body: { success: false, message: 'something went wrong!', meta: {}, errors: [] },
			}));
			current = server;
			const result = await runWorkflow({
				workflow: actionWorkflow(parametersOf(name), RETRY_ON_FAIL),
				credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl: server.baseUrl } as never },
			});
			expect(server.requests.filter(sends)).toHaveLength(1);
			expect(result.error?.message).toMatch(/may or may not have taken effect/);
			expectNoSecrets(serializeRun(result));
		},
	);

	// A 2xx that is not the service's envelope with `success: true` (a gateway's `{}`, a proxy's own
	// JSON) proves nothing: reported as done, the item would say money moved that may not have.
	test.each(
		SINGLE_WRITES.flatMap(({ name, sends }) => [
			{ name, sends, answer: 'JSON without success', body: { message: 'ok', data: {} } },
			{
				name,
				sends,
				answer: 'success "true" as text',
				body: { success: 'true', message: 'ok', data: {} },
			},
		]),
	)(
		'$name answered 200 with $answer is sent once, and fails "may or may not"',
		async ({ name, sends, body }) => {
			const server = await localService(() => ({ status: 200, body }));
			current = server;
			const result = await runWorkflow({
				workflow: actionWorkflow(parametersOf(name), RETRY_ON_FAIL),
				credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl: server.baseUrl } as never },
			});
			expect(server.requests.filter(sends)).toHaveLength(1);
			expect(result.error?.message).toMatch(
				/may or may not have taken effect: HTTP 200 without success: true/,
			);
			expect((result.error as unknown as { context?: IDataObject })?.context?.inDoubt).toBe(true);
		},
	);

	test('a swap that succeeded is not sent again when another item makes Retry On Fail run the node again', async () => {
		let swaps = 0;
		const server = await localService((request) => {
			swaps++;
			return request.body?.amount === 6
				? { status: 400, body: refusal('insufficient balance') }
				: { status: 200, body: { message: 'currency swap successful', success: true, data: {} } };
		});
		current = server;
		const result = await runWorkflow({
			workflow: actionWorkflow(
				{
					resource: 'currency',
					operation: 'swap',
					amount: '={{ $json.amount }}',
					from: 'ngn',
					to: 'ghs',
				},
				RETRY_ON_FAIL,
			),
			items: [{ json: { amount: 5 } }, { json: { amount: 6 } }],
			credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl: server.baseUrl } as never },
		});
		expect(result.error?.message).toMatch(/insufficient balance/);
		// 1 success + 3 tries of the refused one; the successful swap was sent once.
		expect(server.requests.filter((r) => r.body?.amount === 5)).toHaveLength(1);
		expect(swaps).toBe(4);
	});
});

describe('7. amounts are exact or refused', () => {
	test.each([
		[
			'Amount Type "CRYPTO"',
			{ amountType: '={{ "CRYPTO" }}', cryptoAmount: '={{ "" }}' },
			{ amount: 5 },
			/^'Amount Type' must be one of usd, crypto/,
		],
		['a hex amount', {}, { amount: '0x10' }, /plain decimal number/],
		['a binary amount', {}, { amount: '0b11' }, /plain decimal number/],
		[
			'a hex crypto amount',
			{ amountType: 'crypto', cryptoAmount: '={{ $json.amount }}' },
			{ amount: '0x1' },
			/plain decimal number/,
		],
		[
			'9 decimals hidden beyond 15 digits',
			{ amountType: 'crypto', cryptoAmount: '={{ $json.amount }}' },
			{ amount: '12345678.123456789' },
			/at most 8 decimal places/,
		],
		['1e21', {}, { amount: 1e21 }, /more than 15 significant digits/],
		['an exponent in text', {}, { amount: '1e3' }, /plain decimal number/],
	])('%s is refused before any request', async (_name, extra, item, message) => {
		const { run, server } = await setUp();
		const result = await run(crypto(extra), { items: [{ ref: 'a-1', ...item }] });
		expect(result.error?.message).toMatch(message);
		expect(server.requests).toHaveLength(0);
	});

	test('decimal text and a tiny crypto amount are sent exactly', async () => {
		const { run, posts } = await setUp();
		await run(crypto(), { items: [{ amount: ' 10.50 ', ref: 'x-1' }] });
		await run(crypto({ amountType: 'crypto', cryptoAmount: '={{ $json.amount }}' }), {
			items: [{ amount: 1e-7, ref: 'x-2' }],
		});
		expect(posts().map((r) => r.body?.amount ?? r.body?.cryptoAmount)).toEqual([10.5, 1e-7]);
	});
});

describe('8. one External ID at a time in one n8n process', () => {
	test('two executions with the same payment and a slow service: one POST, one already submitted', async () => {
		const { run, posts, service } = await setUp(undefined, (request) =>
			request.method === 'POST' ? { ...service_handler(request), delayMs: 300 } : undefined,
		);
		function service_handler(request: import('../../helpers/local-service').Seen): Reply {
			return service.handler(request);
		}
		const [a, b] = await Promise.all([
			run(crypto(), { items: [{ amount: 10, ref: 'same-1' }], executionId: 'e-1' }),
			run(crypto(), { items: [{ amount: 10, ref: 'same-1' }], executionId: 'e-2' }),
		]);
		expect(posts()).toHaveLength(1);
		expect([a.items[0].json.alreadySubmitted, b.items[0].json.alreadySubmitted].sort()).toEqual([
			false,
			true,
		]);
	});
});
