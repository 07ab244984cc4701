import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { sandboxCredentials } from '../helpers/credentials';
import { start, type Client } from '../../fake-api/test/helpers';
import { Poller, startLocalServer, type PollResult } from '../helpers/poll/poll-harness';

/**
 * The balance alerts are the node's own words (docs/trigger.md, "Balance alerts"; docs/guardrails.md,
 * "Secrets: what is hidden where"): their figures, summaries, keys and times are the same bytes
 * whatever the PIN, even a PIN that is one of them (a 9000 threshold, a 1000 balance, a year 2026,
 * 0000); a refusal of the account's balances that echoes the secrets is still hidden. Through
 * n8n-core's PollContext against the fake API, its clock driven (POST /_sandbox/clock).
 */
const DAY_START = '2026-03-11T00:00:00Z';
const parameters = {
	source: 'balances',
	thresholds: {
		threshold: [
			{ currency: 'USD', amount: 9000 },
			{ currency: 'NGN', amount: 1000 },
			{ currency: 'GHS', amount: 2026 },
		],
	},
};
/** A PIN that is none of the output's figures: the run every other is compared with. */
const NOWHERE = 'pin-nowhere-3a90';
const PINS = ['9000', '1000', '2026', '0000', '000000', '8800'];
/** The service's time of a poll (its Date header plus the milliseconds since: they vary run to run). */
const TIME = /2026-03-11T[0-2]\d:[0-5]\d:[0-5]\d\.\d{3}Z/g;

let client: Client;
let credentials: ICredentialDataDecryptedObject;

beforeEach(async () => {
	client = await start({ clock: DAY_START });
	credentials = sandboxCredentials(client.sandbox, { pin: NOWHERE });
});
afterEach(async () => await client.sandbox.close());

const ok = (result: PollResult) => {
	if (result.error) throw result.error;
	return {
		items: result.items ?? [],
		logs: result.logs.map((log) => `${log.level} ${log.message}`),
	};
};

/**
 * Low USD (8,800 below 9,000) and GHS (0 below 2,026), NGN at its 1,000; then USD and GHS back at
 * their thresholds; then Fetch Test Event. What the polls emitted and logged, as one text, each time
 * of the service checked and then written as `<time>`.
 */
async function alertsWith(pin: string): Promise<string> {
	client.sandbox.setBalances({ usd: 8800, ngn: 1000, ghs: 0 });
	const poller = await Poller.create(parameters, { ...credentials, pin });
	const polls = [ok(await poller.poll())];
	await client.sandbox.advanceClock('15m');
	client.sandbox.setBalances({ usd: 9000, ghs: 2026 });
	polls.push(ok(await poller.poll()));
	await client.sandbox.advanceClock('15m');
	polls.push(ok(await poller.poll('manual')));
	await client.sandbox.advanceClock('1h');
	for (const item of polls.flatMap(({ items }) => items))
		expect(item.at).toMatch(new RegExp(`^${TIME.source}$`));
	return JSON.stringify(polls).replace(TIME, '<time>');
}

test('the alerts are the same bytes whatever the PIN, a PIN that is a threshold, a balance, the year or zeros included', async () => {
	const without = await alertsWith(NOWHERE);
	const polls = JSON.parse(without) as Array<{ items: IDataObject[] }>;
	expect(
		polls.map(({ items }) => items.map((item) => `${String(item.event)} ${String(item.currency)}`)),
	).toEqual([
		['balance.low USD', 'balance.low GHS'],
		['balance.restored USD', 'balance.restored GHS'],
		['balance.restored USD', 'balance.restored NGN', 'balance.restored GHS'],
	]);
	expect(polls[0].items[0]).toEqual({
		event: 'balance.low',
		eventKey: 'balance.low:USD:<time>',
		currency: 'USD',
		balance: 8800,
		threshold: 9000,
		summary: 'The USD balance is USD 8,800.00, below the threshold of USD 9,000.00',
		at: '<time>',
		source: 'balances',
	});
	expect(polls[2].items[1]).toMatchObject({
		balance: 1000,
		threshold: 1000,
		summary: 'The NGN balance is back at NGN 1,000.00, at or above the threshold of NGN 1,000.00',
	});
	expect(polls[1].items[1]).toMatchObject({ balance: 2026, threshold: 2026 });
	for (const pin of PINS) expect(await alertsWith(pin)).toBe(without);
});

describe('a refusal of the balances that echoes the secrets is still hidden', () => {
	const APP = 'app-secret-echoed-alerts-71c4';
	const HOOK = 'webhook-secret-echoed-alerts-2d8b';
	/** The PIN where it stands alone (not inside a longer figure), and either secret anywhere. */
	const leaks = (text: string, pin: string, appSecret: string) =>
		[appSecret, HOOK]
			.filter((secret) => text.includes(secret))
			.concat(new RegExp(`(?<![\\w.:-])${pin}(?![\\w.-])`).test(text) ? [pin] : []);
	/** Every text an error holds at any depth, but its node: the parameters the user set (its thresholds) are never rewritten. */
	const textOf = (value: unknown, depth = 0): string => {
		if (depth > 6 || value === null || value === undefined) return '';
		if (typeof value !== 'object') return String(value);
		return Object.getOwnPropertyNames(value)
			.filter((key) => depth > 0 || key !== 'node')
			.map((key) => `${key}: ${textOf((value as Record<string, unknown>)[key], depth + 1)}`)
			.join('\n');
	};

	test.each([...PINS.map((pin) => ({ pin, appSecret: APP })), { pin: '1000', appSecret: '9000' }])(
		'PIN $pin, app secret $appSecret',
		async ({ pin, appSecret }) => {
			let refuse = false;
			const local = await startLocalServer(() =>
				refuse
					? {
							status: 400,
							body: {
								success: false,
								message: `bad pin ${pin} (${appSecret} / ${HOOK})`,
								errors: [{ field: 'pin', message: `${pin} is wrong`, value: pin }],
								meta: {},
								data: {},
							},
						}
					: {
							status: 200,
							body: {
								success: true,
								message: 'ok',
								data: { fiatWallets: { usd: '8800', ngn: 1000 } },
							},
						},
			);
			try {
				const poller = await Poller.create(parameters, {
					...credentials,
					baseUrl: local.url,
					appSecret,
					pin,
					webhookSecret: HOOK,
				});
				// Before the refusal: the service's figures (a text 8800, a number 1000) are read as they are.
				const first = ok(await poller.poll());
				expect(first.items.map((item) => [item.currency, item.balance, item.summary])).toEqual([
					['USD', 8800, 'The USD balance is USD 8,800.00, below the threshold of USD 9,000.00'],
				]);
				refuse = true;
				const result = await poller.poll();
				expect(result.items).toBeNull();
				expect(textOf(result.error)).toContain('bad pin [redacted] ([redacted] / [redacted])');
				expect(leaks(textOf(result.error), pin, appSecret)).toEqual([]);
				expect(
					(result.error as { node?: { parameters?: IDataObject } }).node?.parameters?.thresholds,
				).toEqual(parameters.thresholds);
				expect(leaks(result.logs.map((log) => log.message).join('\n'), pin, appSecret)).toEqual([]);
			} finally {
				await local.close();
			}
		},
	);
});
