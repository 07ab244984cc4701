/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * Case 2 end to end: the local API sandbox's real webhook delivery and retry code (fake-api/src/webhooks.ts,
 * fake-api/src/core.ts) posts to the trigger served on a real local HTTP server, while the trigger's
 * confirmation lookup first hangs 6 s and then answers 502 (the sandbox gives up on that socket
 * after 2 s). The retry that arrives while the first copy is still being confirmed must get a
 * retryable status, so a later retry is confirmed and exactly one execution starts.
 *
 * The sandbox runs its default retry schedule (1 s, 5 s, …); only its per-attempt timeout is set
 * below the slow confirmation (`webhookTimeoutMs`, default 5 s), as in the reported incident.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeApi, type FakeApi } from '../../fake-api/src/server';
import {
	captureLogs,
	CREDENTIALS,
	TriggerHarness,
	WEBHOOK_SECRET,
	type ServedTrigger,
} from '../helpers/webhook';

/** In front of the sandbox API: the first request hangs, then 502; later ones are passed through. */
async function slowThenProxy(target: string, hangMs: number) {
	const seen: Array<{ path: string; at: number; status?: number }> = [];
	const server = http.createServer((req, res) => {
		const entry: { path: string; at: number; status?: number } = {
			path: req.url ?? '',
			at: Date.now(),
		};
		seen.push(entry);
		if (seen.length === 1) {
			setTimeout(() => {
				entry.status = 502;
				res.statusCode = 502;
				res.setHeader('content-type', 'text/html');
				res.end('<html>502 Bad Gateway</html>');
			}, hangMs);
			return;
		}
		const upstream = http.request(
			new URL(req.url ?? '/', target),
			{ method: req.method, headers: req.headers },
			(answer) => {
				entry.status = answer.statusCode;
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		seen,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const value = probe();
		if (value !== undefined) return value;
		if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

let sandbox: FakeApi | undefined;
let served: ServedTrigger | undefined;
let proxy: Awaited<ReturnType<typeof slowThenProxy>> | undefined;
afterEach(async () => {
	await sandbox?.close();
	await served?.close();
	await proxy?.close();
});

test('withdrawal.pending: slow 502 confirmation, the retry arriving meanwhile gets 503, a later retry starts one execution', async () => {
	captureLogs();
	sandbox = await startFakeApi({
		lifecycleDelayMs: 600_000,
		webhookSecret: WEBHOOK_SECRET,
		webhookTimeoutMs: 2000,
	});
	proxy = await slowThenProxy(new URL(sandbox.url).origin, 6000);
	const h = await TriggerHarness.create({
		events: ['withdrawal.pending'],
		credentials: {
			...CREDENTIALS,
			appId: sandbox.appId,
			appSecret: sandbox.appSecret,
			baseUrl: `${proxy.origin}/v1`,
		},
	});
	await h.activate();
	served = await h.serve();
	sandbox.setWebhook(served.url);

	const created = await fetch(`${sandbox.url}/payments/withdraw/address`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-app-id': sandbox.appId,
			'x-app-secret': sandbox.appSecret,
			'X-Service-Env': 'sandbox',
		},
		body: JSON.stringify({
			token: 'USDC',
			network: 'SOL',
			walletAddress: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
			amount: 12.5,
			pin: sandbox.pin,
			externalId: 'slow-confirmation-1',
		}),
	});
	expect(created.status).toBe(200);
	const withdrawalId = ((await created.json()) as { data: { id: string } }).data.id;

	const event = await waitFor(
		() =>
			sandbox!.state.webhookEvents.find(
				(e) => e.reference === withdrawalId && e.status === 'delivered',
			),
		25_000,
		'the sandbox to mark withdrawal.pending delivered',
	);
	expect(event.eventType).toBe('withdrawal.pending');
	// Attempt 1 timed out on the sandbox's side (no status), attempt 2 was refused as retryable,
	// attempt 3 was accepted.
	expect(event.attempts.map((a) => a.responseStatus)).toEqual([null, 503, 200]);

	const calls = served.calls;
	await waitFor(
		() => (calls.every((c) => c.answeredAt !== undefined) ? true : undefined),
		5000,
		'every call answered',
	);
	expect(calls).toHaveLength(3);
	const [first, second, third] = calls;
	// The first copy: confirmation hung, then 502 → 503, written to a socket the sandbox had left.
	expect(first).toMatchObject({ status: 503, started: false, socketClosed: true });
	// The retry arrived while the first was still being confirmed, and was not answered 2xx.
	expect(second.receivedAt).toBeLessThan(first.answeredAt!);
	expect(second).toMatchObject({ status: 503, started: false });
	expect(JSON.parse(second.body)).toMatchObject({ event: 'withdrawal.pending', id: withdrawalId });
	// The next retry was confirmed with the (now answering) API and started the only execution.
	expect(third).toMatchObject({ status: 200, started: true });
	expect(calls.filter((c) => c.started)).toHaveLength(1);
	expect(third.items).toHaveLength(1);
	expect(third.items[0]).toMatchObject({
		event: 'withdrawal.pending',
		id: withdrawalId,
		status: 'pending',
		externalId: 'slow-confirmation-1',
		verification: { secret: 'verified', confirmedWithApi: true },
	});
	expect(proxy.seen.map((s) => s.status)).toEqual([502, 200]);
});
