/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startFakeApi } from '../src/server';

interface Envelope {
	data: { id: string; status?: string } & Record<string, unknown>;
}
import { ASSET_IDS, cryptoWithdrawal, start, type Client } from './helpers';

describe('sandbox: fault switches', () => {
	let client: Client;
	beforeEach(async () => {
		client = await start({ balances: { usd: 1000 } });
	});
	afterEach(() => client.sandbox.close());
	const withdraw = () => client.call('POST', '/payments/withdraw/address', cryptoWithdrawal());

	it('429 fault: only a message and Retry-After, nothing happens', async () => {
		client.sandbox.setFaults({
			'POST /payments/withdraw/address': { nextN: { '429': 1 }, retryAfterSeconds: 2 },
		});
		const response = await withdraw();
		expect(response.status).toBe(429);
		expect(response.body).toEqual({ message: expect.any(String) });
		expect(response.headers.get('retry-after')).toBe('2');
		expect(response.headers.get('x-ratelimit-limit')).toBe('200');
		expect(client.sandbox.state.withdrawals).toHaveLength(0);
		expect((await withdraw()).status).toBe(200);
	});

	it('5xx fault: nothing happens', async () => {
		client.sandbox.setFaults({ '*': { nextN: { '5xx': 1 }, status5xx: 503 } });
		const response = await withdraw();
		expect(response.status).toBe(503);
		expect(response.body).toEqual({
			success: false,
			message: 'something went wrong!',
			meta: {},
			errors: [],
		});
		expect(client.sandbox.state.withdrawals).toHaveLength(0);
	});

	it('5xx after commit: the withdrawal exists, the answer fails', async () => {
		client.sandbox.setFaults({
			'POST /payments/withdraw/address': { nextN: { '5xxAfterCommit': 1 } },
		});
		const response = await client.call(
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ externalId: 'commit-1' }),
		);
		expect(response.status).toBe(500);
		expect(client.sandbox.state.withdrawals).toHaveLength(1);
		expect(client.sandbox.state.account.fiatWallets.usd).toBe(990);
		// a retry with the same externalId is refused and the record can be found by externalId
		expect(
			(
				await client.call(
					'POST',
					'/payments/withdraw/address',
					cryptoWithdrawal({ externalId: 'commit-1' }),
				)
			).status,
		).toBe(400);
		expect((await client.call('GET', '/payments/withdrawal/commit-1')).status).toBe(200);
	});

	it('dropped connections, before and after commit', async () => {
		client.sandbox.setFaults({
			'POST /payments/withdraw/address': { nextN: { drop: 1, dropAfterCommit: 1 } },
		});
		await expect(withdraw()).rejects.toThrow();
		expect(client.sandbox.state.withdrawals).toHaveLength(0);
		await expect(withdraw()).rejects.toThrow();
		expect(client.sandbox.state.withdrawals).toHaveLength(1);
		expect((await withdraw()).status).toBe(200);
	});

	it('route templates match any parameter name; rates use the random source', async () => {
		await client.sandbox.close();
		client = await start({ random: () => 0.3 });
		const id = (
			await client.call('POST', `/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`, {
				label: 'f',
			})
		).body.data.id;
		client.sandbox.setFaults({ 'GET /trades/wallets/{id}': { rate5xx: 0.5 } });
		expect((await client.call('GET', `/trades/wallets/${id}`)).status).toBe(500);
		client.sandbox.setFaults({ 'GET /trades/wallets/{id}': { rate5xx: 0.2 } });
		expect((await client.call('GET', `/trades/wallets/${id}`)).status).toBe(200);
		expect((await client.call('GET', '/trades/wallets')).status).toBe(200);
	});

	it('the request log shows faulted requests and can prove none arrived', async () => {
		client.sandbox.clearRequests();
		expect(client.sandbox.requests).toEqual([]);
		client.sandbox.setFaults({ 'GET *': { nextN: { '429': 1 } } });
		await client.call('GET', '/trades/assets');
		expect(client.sandbox.requests).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/v1/trades/assets',
				status: 429,
				fault: '429',
			}),
		]);
	});
});

describe('sandbox: persistence and admin routes', () => {
	let dir: string;
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-'));
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	it('keeps state across a restart and resumes pending withdrawals', async () => {
		const stateFile = path.join(dir, 'state.json');
		const first = await startFakeApi({ stateFile, lifecycleDelayMs: 60_000 });
		const headers = {
			'x-app-id': first.appId,
			'x-app-secret': first.appSecret,
			'X-Service-Env': 'sandbox',
			'content-type': 'application/json',
		};
		const wallet = (await (
			await fetch(`${first.url}/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ label: 'kept' }),
			})
		).json()) as Envelope;
		const withdrawal = (await (
			await fetch(`${first.url}/payments/withdraw/address`, {
				method: 'POST',
				headers,
				body: JSON.stringify(cryptoWithdrawal({ externalId: 'persisted' })),
			})
		).json()) as Envelope;
		await first.close();
		expect(fs.existsSync(stateFile)).toBe(true);

		const second = await startFakeApi({ stateFile, lifecycleDelayMs: 60_000 });
		try {
			expect(second.state.wallets.map((w) => w.id)).toEqual([wallet.data.id]);
			expect(second.state.account.fiatWallets.usd).toBe(9990);
			const repeat = await fetch(
				`${second.url}/trades/sell/assets/${ASSET_IDS.SOL_TEST}/generate-address`,
				{ method: 'POST', headers, body: JSON.stringify({ label: 'kept' }) },
			);
			expect(repeat.status).toBe(400);
			await second.settle();
			const fetched = (await (
				await fetch(`${second.url}/payments/withdrawal/persisted`, { headers })
			).json()) as Envelope;
			expect(fetched.data).toMatchObject({ id: withdrawal.data.id, status: 'completed' });
		} finally {
			await second.close();
		}
	});

	it('admin routes under /_sandbox help out-of-process scripts', async () => {
		const sandbox = await startFakeApi({ lifecycleDelayMs: 60_000 });
		try {
			const origin = sandbox.url.replace(/\/v1$/, '');
			expect((await fetch(`${origin}/_sandbox/health`)).status).toBe(200);
			await fetch(`${origin}/_sandbox/webhook`, {
				method: 'PUT',
				body: JSON.stringify({ url: 'http://127.0.0.1:9/x', secret: 's' }),
			});
			expect(sandbox.webhookUrl).toBe('http://127.0.0.1:9/x');
			await fetch(`${origin}/_sandbox/balances`, {
				method: 'PUT',
				body: JSON.stringify({ usd: 5 }),
			});
			expect(sandbox.state.account.fiatWallets.usd).toBe(5);
			await fetch(`${origin}/_sandbox/faults`, {
				method: 'PUT',
				body: JSON.stringify({ '*': { nextN: { '5xx': 1 } } }),
			});
			expect((await fetch(`${sandbox.url}/trades/pbc/sell/rates`)).status).toBe(500);
			const requests = (await (await fetch(`${origin}/_sandbox/requests`)).json()) as {
				data: unknown[];
			};
			expect(requests.data).toHaveLength(1);
			expect((await fetch(`${origin}/_sandbox/settle`, { method: 'POST' })).status).toBe(200);
		} finally {
			await sandbox.close();
		}
	});
});
