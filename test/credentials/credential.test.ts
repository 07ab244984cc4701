import nock from 'nock';
import { CREDENTIAL_TYPE, testCredential } from '../helpers';
import { api, BASE, CREDENTIALS, ok, rl, runNode, setupNock } from '../helpers/node';

setupNock();

describe('credential cryptoSettlementApi', () => {
	test.each(['sandbox', 'production'])(
		'every request carries the three headers for %s',
		async (environment) => {
			const scope = api({ ...CREDENTIALS, environment })
				.get('/trades/wallets/w1')
				.reply(200, ok({ id: 'w1' }));
			const run = await runNode(
				{ resource: 'wallet', operation: 'get', walletId: rl('w1') },
				{ credentials: { environment } },
			);
			expect(run.error).toBeUndefined();
			expect(scope.isDone()).toBe(true);
		},
	);

	test.each([BASE, `${BASE}/`, `${BASE}//`])(
		'base URL %s is joined without a double slash',
		async (baseUrl) => {
			const scope = nock('https://api.settlement.test')
				.get('/v1/trades/wallets/w1')
				.reply(200, ok({ id: 'w1' }));
			const run = await runNode(
				{ resource: 'wallet', operation: 'get', walletId: rl('w1') },
				{ credentials: { baseUrl } },
			);
			expect(run.error).toBeUndefined();
			expect(scope.isDone()).toBe(true);
		},
	);

	test('the credential test passes on 200 from an authenticated endpoint', async () => {
		const scope = api().get('/trades/wallets').query({ page: '1', size: '1' }).reply(200, ok([]));
		await expect(testCredential(CREDENTIALS)).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(scope.isDone()).toBe(true);
	});

	test("the credential test fails on 401 with the service's message", async () => {
		nock(BASE).persist().get('/trades/wallets').query(true).reply(401, {
			success: false,
			message: 'wrong app id and secret combination',
			meta: {},
			errors: [],
			data: {},
		});
		const result = await testCredential({ ...CREDENTIALS, appSecret: 'bad-secret-123' });
		expect(result.status).toBe('Error');
		// What n8n's credential dialog shows (its tester words a 401 by the credential's rules).
		expect(result.message).toMatch(
			/^The service refused this App ID and App Secret \(HTTP 401: wrong app id and secret combination\)\. Copy both again from the dashboard/,
		);
		expect(result.message).toContain('check that Environment matches them');
		expect(result.message).not.toContain('bad-secret-123');
	});

	test.each([
		[403, /no API access \(HTTP 403\)/],
		[
			404,
			/Nothing answers at this Base URL \(HTTP 404\)\. It must be the API base including the version segment/,
		],
		[500, /^Internal Server Error$/],
	])('the credential test explains HTTP %s', async (status, message) => {
		nock(BASE)
			.persist()
			.get('/trades/wallets')
			.query(true)
			.reply(status, { success: false, message: 'x', meta: {}, errors: [], data: {} });
		const result = await testCredential(CREDENTIALS);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
	});

	test('secrets are password fields', async () => {
		const { loadPackage } = await import('../helpers');
		const { credentialType } = await loadPackage();
		expect(credentialType.name).toBe(CREDENTIAL_TYPE);
		const byName = Object.fromEntries(credentialType.properties.map((p) => [p.name, p]));
		for (const name of ['appSecret', 'pin', 'webhookSecret'])
			expect(byName[name].typeOptions?.password).toBe(true);
		expect(byName.environment.default).toBe('sandbox');
	});
});

// Issue 45: a guardrail is a fixed value. n8n lets a credential's field take an expression unless
// it says noDataExpression; a limit read from an expression could change with the data it guards.
test('every guardrail field of the credential takes a fixed value, never an expression', async () => {
	const { CryptoSettlementApi } = await import('../../credentials/CryptoSettlementApi.credentials');
	const { properties } = new CryptoSettlementApi();
	const start = properties.findIndex((property) => property.name === 'guardrailsNotice');
	const guardrails = properties.slice(start + 1).filter((property) => property.type !== 'notice');
	expect(guardrails.map((property) => property.name)).toEqual([
		'maxPerWithdrawalUsd',
		'maxPerDayUsd',
		'destinations',
		'allowedAddresses',
		'requireExternalId',
		'allowAgentPayments',
		'agentPaymentsNeedHumanReview',
		'allowSubWorkflowPayments',
	]);
	for (const property of guardrails)
		expect({ name: property.name, noDataExpression: property.noDataExpression }).toEqual({
			name: property.name,
			noDataExpression: true,
		});
});
