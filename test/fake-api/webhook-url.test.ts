/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * "Execute step" on a new trigger receives fake-API events (issue 19.7): the one command `npm start`
 * prints (fake-api/webhook.mjs) points the running fake API at any URL, here a trigger
 * listening for a test event, served on a real local HTTP server.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFakeApi, type FakeApi } from '../../fake-api/src/server';
import {
	captureLogs,
	CREDENTIALS,
	TriggerHarness,
	WEBHOOK_SECRET,
	type ServedTrigger,
} from '../helpers/webhook';

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '../../fake-api/webhook.mjs');

let sandbox: FakeApi | undefined;
let served: ServedTrigger | undefined;
afterEach(async () => {
	await sandbox?.close();
	await served?.close();
});

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
	const until = Date.now() + 15_000;
	for (;;) {
		const value = probe();
		if (value !== undefined) return value;
		if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

test('the fake API delivers to a URL set with fake-api/webhook.mjs (a trigger waiting for a test event)', async () => {
	captureLogs();
	sandbox = await startFakeApi({ lifecycleDelayMs: 600_000, webhookSecret: WEBHOOK_SECRET });
	const origin = new URL(sandbox.url).origin;
	const h = await TriggerHarness.create({
		mode: 'manual',
		events: ['withdrawal.pending'],
		credentials: {
			...CREDENTIALS,
			appId: sandbox.appId,
			appSecret: sandbox.appSecret,
			baseUrl: sandbox.url,
		},
	});
	await h.activate('manual');
	served = await h.serve();

	const set = await run(process.execPath, [SCRIPT, served.url, `--fake-api=${origin}`]);
	expect(set.stdout).toContain(`posts its webhooks to ${served.url}`);
	expect(sandbox.webhookUrl).toBe(served.url);
	// The former flag name still works.
	const shown = await run(process.execPath, [SCRIPT, `--sandbox=${sandbox.url}`]);
	expect(shown.stdout).toContain(served.url);

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
		}),
	});
	const id = ((await created.json()) as { data: { id: string } }).data.id;
	const call = await waitFor(
		() => served!.calls.find((c) => c.answeredAt !== undefined),
		'the delivery',
	);
	expect(call).toMatchObject({ status: 200, started: true });
	expect(call.items[0]).toMatchObject({
		event: 'withdrawal.pending',
		id,
		verification: { confirmedWithApi: true },
	});

	// Stop deliveries again; a URL that is not http(s) is refused without changing anything.
	await expect(
		run(process.execPath, [SCRIPT, 'file:///etc/passwd', `--sandbox=${origin}`]),
	).rejects.toMatchObject({ code: 1 });
	expect(sandbox.webhookUrl).toBe(served.url);
	const off = await run(process.execPath, [SCRIPT, 'off', `--sandbox=${origin}`]);
	expect(off.stdout).toContain('without delivering');
	expect(sandbox.webhookUrl).toBeNull();
});
