/**
 * Issue "Hostile answers and inputs": each case through n8n-core's engine against real local
 * HTTP servers.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { loadEditorList, testCredential } from '../helpers';
import {
	CREDENTIALS,
	cryptoWithdrawal,
	expectNoSecrets,
	PIN,
	rl,
	runNode,
	SECRET,
	shortInDoubtWindow,
	WEBHOOK_SECRET,
} from '../helpers/node';
import { envelope, localService, refusal, withdrawalService } from '../helpers/local-service';

beforeAll(() => nock.enableNetConnect());

const servers: Array<Awaited<ReturnType<typeof localService>>> = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map(async (s) => await s.close()));
});
async function serve(...args: Parameters<typeof localService>) {
	const server = await localService(...args);
	servers.push(server);
	return server;
}

const crypto = cryptoWithdrawal({ externalId: 'h-1' });

describe('1. redirects are never followed', () => {
	// The 307 leaves the withdrawal in doubt: its lookups run over the window, which is not what this tests.
	shortInDoubtWindow();
	test('a withdrawal answered 307 to another origin: nothing reaches it, and the item is not "created"', async () => {
		const elsewhere = await serve(() => ({ status: 200, body: envelope({ id: 'evil' }) }));
		const service = withdrawalService(() => ({
			status: 307,
			headers: { location: `${elsewhere.origin}/steal?x=1` },
		}));
		const server = await serve(service.handler);
		const run = await runNode(crypto, { credentials: { baseUrl: server.baseUrl } });
		expect(elsewhere.requests).toHaveLength(0);
		expect(run.error?.message).toMatch(
			/may or may not have been made \(HTTP 307: redirected to http:\/\/127\.0\.0\.1:\d+\); check before re-running/,
		);
		expect(run.error?.message).not.toContain('steal');
		expectNoSecrets(run.text);
	});

	test('a read answered 302 fails naming only the origin', async () => {
		const elsewhere = await serve(() => ({ status: 200, body: envelope({ id: 'w1' }) }));
		const server = await serve(() => ({
			status: 302,
			headers: { location: `${elsewhere.origin}/v1/trades/wallets/w1` },
		}));
		const run = await runNode(
			{ resource: 'wallet', operation: 'get', walletId: rl('w1') },
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(elsewhere.requests).toHaveLength(0);
		expect(run.error?.message).toMatch(
			/redirected GET \/trades\/wallets\/w1 to http:\/\/127\.0\.0\.1:\d+; the redirect was not followed/,
		);
		expect(server.requests).toHaveLength(1);
	});

	test('editor lists and the credential test do not follow redirects either', async () => {
		const elsewhere = await serve(() => ({ status: 200, body: envelope([]) }));
		const server = await serve(() => ({
			status: 302,
			headers: { location: `${elsewhere.origin}/v1/x` },
		}));
		const credentials = { ...CREDENTIALS, baseUrl: server.baseUrl };
		await expect(
			loadEditorList({ method: 'getDepositAssets', parameters: {}, credentials }),
		).rejects.toThrow(/redirected GET \/trades\/assets to http:\/\/127\.0\.0\.1/);
		const tested = await testCredential(credentials);
		expect(tested.status).toBe('Error');
		expect(elsewhere.requests).toHaveLength(0);
	});
});

describe('2 and 3. the credential is checked before any request', () => {
	test.each([
		[
			'Production over http://',
			{ environment: 'production' } as IDataObject,
			/Production requires an https:\/\/ Base URL/,
		],
		['a query in the base URL', { baseUrl: 'QUERY' } as IDataObject, /must not contain a query/],
		[
			'a fragment in the base URL',
			{ baseUrl: 'FRAGMENT' },
			/must not contain a query \(\?…\) or a fragment/,
		],
		[
			'credentials in the base URL',
			{ baseUrl: 'USERINFO' },
			/must not contain a user name or password/,
		],
		['a relative base URL', { baseUrl: '/v1' }, /must be an absolute http:\/\/ or https:\/\/ URL/],
	])(
		'%s: refused at once, naming the field, with no request, retry or "may or may not"',
		async (_name, override, message) => {
			const server = await serve(() => ({ status: 200, body: envelope({ id: 'wd-1' }) }));
			const baseUrl =
				{
					QUERY: `${server.baseUrl}?x=1`,
					FRAGMENT: `${server.baseUrl}#frag`,
					USERINFO: server.baseUrl.replace('//', '//u:p@'),
				}[String(override.baseUrl)] ??
				override.baseUrl ??
				server.baseUrl;
			const credentials: IDataObject = { ...override, baseUrl };
			const run = await runNode(crypto, { credentials });
			expect(run.error?.message).toMatch(message);
			expect(run.error?.description).toMatch(
				/Fix 'Base URL' in the Crypto Settlement API credential. Nothing was sent/,
			);
			expect(run.error?.message).not.toMatch(/may or may not/);
			const tested = await testCredential({ ...CREDENTIALS, ...credentials });
			expect(tested.status).toBe('Error');
			expect(tested.message).toMatch(message);
			expect(server.requests).toHaveLength(0);
		},
	);

	test('Production over https and Sandbox over http are accepted', async () => {
		const server = await serve(() => ({ status: 200, body: envelope([]) }));
		const tested = await testCredential({
			...CREDENTIALS,
			baseUrl: server.baseUrl,
			environment: 'sandbox',
		});
		expect(tested.status).toBe('OK');
	});
});

describe('4. secrets echoed by the service never leave the node', () => {
	test('a 422 whose validation entries echo the PIN', async () => {
		const server = await serve((request) =>
			request.method === 'GET'
				? { status: 404, body: refusal('not found') }
				: {
						status: 422,
						body: refusal('validation errors', [
							{ field: 'pin', message: `pin ${PIN} is wrong`, value: PIN, location: 'body' },
						]),
					},
		);
		const run = await runNode(crypto, { credentials: { baseUrl: server.baseUrl } });
		expect(run.error?.message).toMatch(
			/validation errors \(HTTP 422\) — 'PIN' \[redacted\] is wrong/,
		);
		expectNoSecrets(run.text);
	});

	test('a node PIN echoed in a successful answer', async () => {
		const nodePin = '9911-NODE-PIN-SECRET';
		const server = await serve(() => ({
			status: 200,
			body: {
				message: 'currency swap successful',
				success: true,
				data: { echo: nodePin, nested: [{ p: nodePin }] },
			},
		}));
		const run = await runNode(
			{
				resource: 'currency',
				operation: 'swap',
				amount: 5,
				from: 'ngn',
				to: 'ghs',
				additionalFields: { pin: nodePin },
			},
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(JSON.stringify(run.items)).not.toContain(nodePin);
		expect(run.items[0].json).toEqual({ echo: '[redacted]', nested: [{ p: '[redacted]' }] });
	});

	test('Account → Get drops secret-looking keys at any depth and redacts secret values', async () => {
		const server = await serve(() => ({
			status: 200,
			body: envelope({
				name: 'Acme',
				webhook: { url: 'https://acme.example/hook', secret: WEBHOOK_SECRET },
				settings: { apiSecret: 'zzz-api-secret', markupPercent: 2 },
				webhookVerificationKey: 'vk-1',
				note: `echo ${SECRET}`,
			}),
		}));
		const run = await runNode(
			{ resource: 'account', operation: 'get' },
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(run.items[0].json).toEqual({
			name: 'Acme',
			webhook: { url: 'https://acme.example/hook' },
			settings: { markupPercent: 2 },
			note: 'echo [redacted]',
		});
		expectNoSecrets(run.text);
	});
});

describe('5 and 6. IDs and text fields are checked', () => {
	test.each([
		[
			'Wallet → Get ..',
			{ resource: 'wallet', operation: 'get', walletId: rl('..') },
			/^'Wallet' cannot be "\." or "\.\."/,
		],
		[
			'Payout Address → Delete .',
			{ resource: 'payoutAddress', operation: 'delete', payoutAddressId: rl(' . ') },
			/^'Payout Address' cannot be/,
		],
		[
			'Bank Account → Delete ..',
			{ resource: 'bankAccount', operation: 'delete', bankAccountId: rl('..') },
			/^'Bank Account' cannot be/,
		],
		[
			'Webhook Event → Resend ..',
			{ resource: 'webhookEvent', operation: 'resend', reference: '..' },
			/^'Reference' cannot be/,
		],
		[
			'Set Auto Settlement ..',
			{
				resource: 'wallet',
				operation: 'setAutoSettlement',
				walletId: rl('..'),
				autoSettlement: true,
			},
			/^'Wallet' cannot be/,
		],
		[
			'Create Bank ..',
			{
				resource: 'withdrawal',
				operation: 'createBank',
				bankAccountId: rl('..'),
				amount: 5,
				externalId: 'b-1',
			},
			/^'Bank Account' cannot be/,
		],
		[
			'an object wallet address',
			{ ...crypto, walletAddress: '={{ { a: 1 } }}' },
			/^'Wallet Address' must be text, not an object/,
		],
		[
			'a wallet ID list',
			{ resource: 'wallet', operation: 'get', walletId: rl('={{ ["w1", "w2"] }}') },
			/^'Wallet' must be text, not a list/,
		],
		[
			'a huge numeric account number',
			{
				resource: 'bank',
				operation: 'verifyAccount',
				bankId: '39',
				accountNumber: '={{ 1e21 }}',
				currency: 'ngn',
			},
			/^'Account Number' must be text, not a number too large to print exactly/,
		],
	])('%s is refused before any request, naming the field', async (_name, parameters, message) => {
		const server = await serve(() => ({ status: 200, body: envelope({}) }));
		const run = await runNode(parameters as IDataObject, {
			credentials: { baseUrl: server.baseUrl },
		});
		expect(run.error?.message).toMatch(message);
		expect(server.requests).toHaveLength(0);
	});

	test('a whole-number account number is printed exactly', async () => {
		const server = await serve(() => ({ status: 200, body: envelope({ accountName: 'ADA' }) }));
		await runNode(
			{
				resource: 'bank',
				operation: 'verifyAccount',
				bankId: '={{ 39 }}',
				accountNumber: '={{ 123456789012 }}',
				currency: 'ngn',
			},
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(server.requests[0].body).toEqual({
			id: '39',
			accountNumber: '123456789012',
			currency: 'ngn',
		});
	});
});

describe('7. Return All is bounded', () => {
	// Its 100,000 records, reached page by page: test/CryptoSettlement/engine/list-bounds.test.ts (the slow lane).
	const meta = (page: number, pages: number, hasNextPage: boolean) => ({
		page,
		pages,
		totalDocs: pages * 2,
		hasNextPage,
	});

	test('stops at meta.pages even when hasNextPage stays true, and drops repeated records', async () => {
		const server = await serve((request) => {
			const page = Number(request.query.get('page'));
			return {
				status: 200,
				body: { ...envelope([{ id: `r${page}` }, { id: 'r1' }]), meta: meta(page, 3, true) },
			};
		});
		const run = await runNode(
			{ resource: 'wallet', operation: 'getAll', returnAll: true },
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(run.items.map((i) => i.json.id)).toEqual(['r1', 'r2', 'r3']);
		expect(server.requests).toHaveLength(3);
	});

	test('a page that repeats the previous one stops with a clear error', async () => {
		const server = await serve((request) => ({
			status: 200,
			body: {
				...envelope([{ id: 'same' }]),
				meta: { page: Number(request.query.get('page')), hasNextPage: true },
			},
		}));
		const run = await runNode(
			{ resource: 'wallet', operation: 'getAll', returnAll: true },
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(run.error?.message).toBe(
			'Return All stopped: the list returned page 2 with no record not already read (it repeats earlier pages)',
		);
		expect(server.requests).toHaveLength(2);
	});
});

describe('8. pacing never starves other routes', () => {
	test('hung reads on one route do not hold the slots of a withdrawal', async () => {
		const service = withdrawalService();
		// The reads hang until the withdrawal is done, then are answered at once (a closed server would
		// leave them to retry with backoff, a wait this test does not need).
		let release: () => void = () => undefined;
		const released = new Promise<void>((resolve) => (release = resolve));
		const server = await serve(async (request) => {
			if (!request.path.startsWith('/v1/trades/wallets')) return service.handler(request);
			await released;
			return { status: 200, body: envelope({ id: request.path.split('/').pop() }) };
		});
		const reads = runNode(
			{ resource: 'wallet', operation: 'get', walletId: rl('={{ $json.id }}') },
			{
				items: Array.from({ length: 40 }, (_, i) => ({ id: `w${i}` })),
				credentials: { baseUrl: server.baseUrl },
				executionId: 'reads',
			},
		);
		const withdrawal = await runNode(crypto, {
			credentials: { baseUrl: server.baseUrl },
			executionId: 'pay',
		});
		expect(withdrawal.error).toBeUndefined();
		expect(withdrawal.items[0].json).toMatchObject({ externalId: 'h-1', alreadySubmitted: false });
		release();
		expect((await reads).items).toHaveLength(40);
	});
});
