/**
 * A PIN never rewrites a figure (docs/usage.md, "Hostile answers and careless inputs", Redaction):
 * PINs of 4 to 6 digits equal to amounts, years and parts of account numbers, in every operation's
 * output, the statement (summary, lines, its file), Match, both triggers and the errors. Each check
 * compares a run whose credential holds such a PIN with the same run without one: the outputs are
 * the same, except where the service's text holds the PIN as a whole token.
 */
import { sandboxCredentials } from '../helpers/credentials';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi } from '../../fake-api/src/server';
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';
import { startListService, trade, type ListService } from '../helpers/poll/list-service';
import { Poller } from '../helpers/poll/poll-harness';
import {
	BASE_URL,
	CREDENTIALS as TRIGGER_CREDENTIALS,
	TriggerHarness,
	tradePayload,
	triggerTestSetup,
} from '../helpers/webhook';
import {
	api,
	noWithdrawalsYet,
	PIN,
	runNode,
	serversClosedAfterEach,
	WEBHOOK_SECRET,
} from '../helpers/node';
import { envelope, localService, refusal, type Reply, type Seen } from '../helpers/local-service';
import { CASES, type Case } from '../helpers/operation-cases';
import { redactError } from '../../nodes/service/redact';

const logs = triggerTestSetup();
const servers = serversClosedAfterEach();
async function serve(handler: (request: Seen) => Reply | Promise<Reply>) {
	const server = await localService(handler);
	servers.push(server);
	return server;
}

/** Runs of 4 to 6 digits inside a text: PINs that equal a part of one of its figures. */
const digitRuns = (text: string): string[] => [...new Set(text.match(/\d{4,6}/g) ?? [])];

describe('every operation: a PIN equal to a figure of its answer changes nothing in its output', () => {
	afterEach(() => nock.cleanAll());

	/** The case run once, with `secrets` added to the credential (a body that sends the PIN keeps the contract's PIN). */
	async function runCase(c: Case, secret: string) {
		const spec = RESOURCES[String(c.params.resource)]?.specs[String(c.params.operation)];
		if (spec?.kind === 'withdrawal') noWithdrawalsYet(1);
		let interceptor = api().intercept(
			c.path,
			c.method.toUpperCase(),
			c.body as nock.RequestBodyMatcher | undefined,
		);
		interceptor = c.query
			? interceptor.query(c.query as nock.DataMatcherMap)
			: interceptor.query(true);
		interceptor.reply(200, c.reply as nock.Body);
		const sendsPin = JSON.stringify(c.body ?? {}).includes(PIN);
		// A delivery's secret header (Verify Delivery's input) carries the credential's webhook secret.
		const items = c.items?.map(
			(item) => JSON.parse(JSON.stringify(item).split(WEBHOOK_SECRET).join(secret)) as IDataObject,
		);
		const run = await runNode(c.params, {
			items,
			credentials: { webhookSecret: secret, ...(sendsPin ? {} : { pin: secret }) },
		});
		expect(run.error).toBeUndefined();
		return run.items.map((item) => item.json);
	}

	const runs = Object.entries(CASES)
		.filter(([, c]) => c.params.resource !== 'statement')
		.flatMap(([name, c]) =>
			[...digitRuns(JSON.stringify(c.output)), '2026', '1234']
				.slice(0, 4)
				.map((secret) => ({ name, secret, c })),
		);

	test.each(runs)('$name with the secret $secret', async ({ c, secret }) => {
		expect(await runCase(c, secret)).toEqual(c.output);
	});

	test('the table above holds figures that contain such PINs (it can fail)', () => {
		const inside = runs.filter(({ c, secret }) => JSON.stringify(c.output).includes(secret));
		expect(inside.length).toBeGreaterThanOrEqual(4);
	});
});

describe("the issue's withdrawal: payoutAmount 1,234 with the PIN 1234", () => {
	const record = {
		id: 'wd-1',
		externalId: 'INV-2026-1234',
		payoutAmount: 1234,
		amount: '1234',
		fee: '-1234.00',
		accountNumber: '0123456789',
		createdAt: '2026-03-10T08:12:34.000Z',
		reason: 'invalid pin 1234. Try again',
		pin: '1234',
	};

	test.each(['1234', '2026', '3456', '123456'])(
		'PIN %s: every figure, date and id as the service gave it; the PIN alone in text and under its key hidden',
		async (pin) => {
			const server = await serve(() => ({ status: 200, body: envelope(record) }));
			const run = await runNode(
				{ resource: 'withdrawal', operation: 'get', withdrawalId: 'wd-1' },
				{ credentials: { baseUrl: server.baseUrl, pin } },
			);
			expect(run.error).toBeUndefined();
			const expected =
				pin === '1234'
					? { ...record, reason: 'invalid pin [redacted]. Try again', pin: '[redacted]' }
					: record;
			expect(run.items[0].json).toMatchObject(expected);
		},
	);

	// The other PIN: 1000 inside 21,000 read "-2[redacted].00" in the accountant's CSV.
	test('PIN 1000: 21,000 and -21000.00 stay as the service gave them', async () => {
		const thousands = {
			...record,
			payoutAmount: 21000,
			amount: '21000',
			fee: '-21000.00',
			reason: 'refused',
		};
		const server = await serve(() => ({ status: 200, body: envelope(thousands) }));
		const run = await runNode(
			{ resource: 'withdrawal', operation: 'get', withdrawalId: 'wd-1' },
			{ credentials: { baseUrl: server.baseUrl, pin: '1000' } },
		);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject(thousands);
	});
});

describe('every error: the PIN hidden where it stands alone, figures kept', () => {
	test.each([[false], [true]])(
		'a 400 that echoes the PIN beside the amount, the date and the account (Continue On Fail %s)',
		async (continueOnFail) => {
			const server = await serve(() => ({
				status: 400,
				body: refusal('invalid pin 1234: amount -1234.00 on 2026-03-10 to 0123456789 refused', [
					{ field: 'pin', message: 'pin "1234" is wrong', value: '1234' },
					{ field: 'amount', message: 'amount 1234.5 is over the limit', value: 1234 },
				]),
			}));
			const run = await runNode(
				{
					resource: 'bank',
					operation: 'verifyAccount',
					bankId: 'b1',
					accountNumber: '0123456789',
					currency: 'ngn',
				},
				{ continueOnFail, credentials: { baseUrl: server.baseUrl, pin: '1234' } },
			);
			const text = continueOnFail
				? JSON.stringify(run.items)
				: JSON.stringify({
						message: run.error?.message,
						description: run.error?.description,
						context: (run.error as unknown as IDataObject)?.context,
					});
			expect(text).toContain(
				'invalid pin [redacted]: amount -1234.00 on 2026-03-10 to 0123456789 refused',
			);
			expect(text).not.toMatch(/(?<![\d.-])1234(?![\d.])/);
		},
	);
});

/**
 * A fake API started for the describe block that calls it, with a seeded day of 60 records that
 * `prepare` may edit, and the credentials that read it (no PIN: each test adds its own).
 */
function seededDay(
	day: string,
	prepare: (fakeApi: FakeApi) => void = () => undefined,
): { fakeApi: FakeApi; credentials: IDataObject } {
	const seeded = { fakeApi: undefined as unknown as FakeApi, credentials: {} as IDataObject };
	beforeAll(async () => {
		const fakeApi = (seeded.fakeApi = await startFakeApi({
			lifecycleDelayMs: 60_000,
			requestLogLimit: 100_000,
		}));
		seeded.credentials = sandboxCredentials(fakeApi, { pin: '' });
		fakeApi.seedDay({ day, records: 60 });
		prepare(fakeApi);
	});
	afterAll(async () => await seeded.fakeApi.close());
	return seeded;
}

describe('the statement, its file and Match: the same with a PIN equal to its figures as without one', () => {
	const DAY = '2026-03-10';
	const seeded = seededDay(DAY);

	const statement = async (output: string, pin: string) => {
		const run = await runNode(
			{
				resource: 'statement',
				operation: 'get',
				day: DAY,
				output,
				options: { fileCurrency: 'all' },
			},
			{ credentials: { ...seeded.credentials, pin } },
		);
		if (run.error) throw new Error(run.error.message);
		return run.items.map((item) => ({
			json: item.json,
			file: item.binary?.data
				? Buffer.from(String(item.binary.data.data), 'base64').toString('utf8')
				: undefined,
		}));
	};

	/** The output without the moment it was read (`readAt`), which differs between any two runs. */
	const withoutReadAt = (items: Array<{ json: IDataObject; file?: string }>) =>
		items.map(({ json, file }) => ({ json: { ...json, readAt: undefined }, file }));

	/** PINs users meet: the year, and runs of 4 to 6 digits inside the output's amounts, ids and account numbers. */
	const pinsIn = (text: string) => [
		'2026',
		...digitRuns(text)
			.filter((run) => run !== '2026')
			.slice(0, 5),
	];

	test.each(['summary', 'lines', 'file'])('Statement → Get (%s)', async (output) => {
		const without = withoutReadAt(await statement(output, ''));
		const pins = pinsIn(JSON.stringify(without));
		expect(pins.length).toBeGreaterThanOrEqual(5);
		for (const pin of pins) expect(withoutReadAt(await statement(output, pin))).toEqual(without);
	});

	test('Statement → Match', async () => {
		const payouts = seeded.fakeApi.state.withdrawals.filter((w) => w.externalId).slice(0, 20);
		const match = async (pin: string) => {
			const run = await runNode(
				{
					resource: 'statement',
					operation: 'match',
					matchBy: 'externalId',
					value: '={{ $json.ref }}',
					expectedAmount: '={{ $json.usd }}',
				},
				{
					credentials: { ...seeded.credentials, pin },
					items: payouts.map((w) => ({ ref: w.externalId, usd: w.amount })),
				},
			);
			if (run.error) throw new Error(run.error.message);
			return run.items.map((item) => item.json);
		};
		const without = await match('');
		for (const pin of ['2026', ...digitRuns(JSON.stringify(without)).slice(0, 3)])
			expect(await match(pin)).toEqual(without);
	});
});

describe('both triggers: an event with figures equal to the PIN is emitted unchanged', () => {
	afterEach(() => nock.cleanAll());

	test('the webhook trigger, the record confirmed with the API', async () => {
		const deliver = async (pin: string) => {
			const h = await TriggerHarness.create({
				events: ['*'],
				credentials: { ...TRIGGER_CREDENTIALS, pin },
			});
			const body = tradePayload('trade.completed', {
				id: '66f1c0ffee00000000002026',
				amountInUSD: 1234,
				cryptoAmount: '1234.5',
				note: 'pin 1234 used',
			});
			nock(BASE_URL)
				.get(`/trades/transactions/${body.id}`)
				.reply(200, {
					success: true,
					data: { ...body, accountNumber: '0123456789', createdAt: '2026-03-10T08:00:00.000Z' },
				});
			const r = await h.deliver({ body, secret: TRIGGER_CREDENTIALS.webhookSecret as string });
			expect(r.started).toBe(true);
			return r.items;
		};
		const without = await deliver('');
		const text = JSON.stringify(without);
		for (const pin of ['1234', '2026', '3456']) {
			expect(text).toContain(pin);
			const items = await deliver(pin);
			// Only the note's "1234" stands alone as a word.
			expect(JSON.stringify(items)).toBe(
				pin === '1234' ? text.split('pin 1234 used').join('pin [redacted] used') : text,
			);
		}
		expect(logs.map((line) => line.message).join('\n')).not.toMatch(/\[redacted\]/);
	});

	test('the poll trigger, Records source', async () => {
		const emitted = async (pin: string) => {
			const service: ListService = await startListService();
			try {
				service.clock = Date.parse('2026-03-10T12:00:00.000Z');
				const poller = await Poller.create(
					{ source: 'records', events: ['*'] },
					{
						appId: 'a',
						appSecret: 'app-secret-poll-redaction',
						environment: 'sandbox',
						baseUrl: service.url,
						pin,
						webhookSecret: '',
					},
				);
				await poller.poll();
				service.records.trades.push({ ...trade(1234, service.clock), accountNumber: '0123456789' });
				const { items } = await poller.poll();
				return items;
			} finally {
				await service.close();
			}
		};
		const without = await emitted('');
		expect(without).toHaveLength(1);
		for (const pin of ['1234', '2026', '3456']) {
			expect(JSON.stringify(without)).toContain(pin);
			expect(await emitted(pin)).toEqual(without);
		}
	});
});

/**
 * Issue #69, point 2: secrets are hidden where the service can put them, and nothing the node writes
 * itself is rewritten (docs/guardrails.md, "Secrets: what is hidden where"). Each PIN below is also
 * a figure the node writes: an amount, an id, a year, a count.
 */
const PINS = ['1000', '1234', '2026', '0000', '000000'];

describe('what the node writes itself is never rewritten, whatever the PIN', () => {
	const DAY = '2026-03-10';
	const seeded = seededDay(DAY, (fakeApi) => {
		const payouts = fakeApi.state.withdrawals.filter(
			(w) => w.createdAt.startsWith(DAY) && w.type === 'crypto' && !w.trade,
		);
		expect(payouts.length).toBeGreaterThanOrEqual(4);
		// The payout: 1,234 USDT, its id 1000; and payouts whose ids are the other PINs.
		Object.assign(payouts[0], { id: '1000', cryptoAmount: 1234, token: 'USDT', network: 'TRC20' });
		['2026', '0000', '000000'].forEach((id, index) => Object.assign(payouts[index + 1], { id }));
	});

	const statement = async (options: IDataObject, output: string, pin: string) => {
		const run = await runNode(
			{
				resource: 'statement',
				operation: 'get',
				day: DAY,
				output,
				options: { fileCurrency: 'all', ...options },
			},
			{ credentials: { ...seeded.credentials, pin } },
		);
		if (run.error) throw new Error(run.error.message);
		return run.items.map((item) => ({
			json: { ...item.json, readAt: undefined } as IDataObject,
			file: item.binary?.data
				? Buffer.from(String(item.binary.data.data), 'base64').toString('utf8')
				: undefined,
		}));
	};

	test.each(PINS)(
		'PIN %s: Statement → Lines keeps the payout of 1234 USDT, its lineKey cryptoWithdrawal:1000 and every line',
		async (pin) => {
			const without = await statement({}, 'lines', '');
			const payout = without.find(({ json }) => json.recordId === '1000')?.json;
			expect(payout).toMatchObject({
				lineKey: 'cryptoWithdrawal:1000',
				description: expect.stringContaining("(the record's crypto amount: 1234 USDT on TRC20)"),
			});
			for (const id of ['2026', '0000', '000000'])
				expect(without.some(({ json }) => json.lineKey === `cryptoWithdrawal:${id}`)).toBe(true);
			expect(await statement({}, 'lines', pin)).toEqual(without);
		},
	);

	test.each(
		PINS.flatMap((pin) => ['xeroCsv', 'quickbooksCsv', 'ofx'].map((format) => ({ pin, format }))),
	)('PIN $pin: the $format file is the same bytes as without a PIN', async ({ pin, format }) => {
		const without = await statement({ fileFormat: format }, 'file', '');
		const text = without.map(({ file }) => file).join('\n');
		expect(text).toContain("(the record's crypto amount: 1234 USDT on TRC20)");
		expect(text).toContain(
			format === 'ofx' ? '<FITID>cryptoWithdrawal:1000' : 'cryptoWithdrawal:1000',
		);
		expect(await statement({ fileFormat: format }, 'file', pin)).toEqual(without);
	});

	test.each(PINS)(
		'PIN %s: the poll trigger warns of as many trades without an id as it read, the count as it is',
		async (pin) => {
			// A count equal to the PIN where the PIN is a count (1000, 2026); 1234 otherwise.
			const count = /^[1-9]/.test(pin) ? Number(pin) : 1234;
			const service: ListService = await startListService();
			try {
				service.clock = Date.parse('2026-03-10T12:00:00.000Z');
				const poller = await Poller.create(
					{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 30 } },
					{
						appId: 'a',
						appSecret: 'app-secret-poll-count',
						environment: 'sandbox',
						baseUrl: service.url,
						pin,
						webhookSecret: '',
					},
				);
				service.records.trades.push(trade(1, service.clock));
				await poller.poll();
				for (let n = 2; n < count + 2; n++) {
					const nameless: IDataObject = trade(n, (service.clock += 10));
					delete nameless.id;
					service.records.trades.push(nameless);
				}
				const { logs, error } = await poller.poll();
				expect(error).toBeUndefined();
				expect(logs.filter((log) => log.level === 'warn').map((log) => log.message)).toEqual([
					`Crypto Settlement Poll Trigger: ${count} trades read by this poll show no id, so they cannot be told apart and are not emitted; check them in the dashboard`,
				]);
			} finally {
				await service.close();
			}
		},
	);
});

describe('what the service writes is still cleaned of every secret, whatever the PIN', () => {
	const APP = 'app-secret-echoed-5c1d';
	const HOOK = 'webhook-secret-echoed-8e2a';
	afterEach(() => nock.cleanAll());

	/** The PIN where it stands alone (not inside a longer figure), and either secret anywhere. */
	const leaks = (text: string, pin: string) =>
		[APP, HOOK]
			.filter((secret) => text.includes(secret))
			.concat(new RegExp(`(?<![\\w.:-])${pin}(?![\\w.-])`).test(text) ? [pin] : []);

	/** Every text an error holds: its own properties at any depth (message, description, context, errorResponse, cause…). */
	const textOf = (value: unknown, depth = 0): string => {
		if (depth > 6 || value === null || value === undefined) return '';
		if (typeof value !== 'object') return String(value);
		return Object.getOwnPropertyNames(value)
			.map((key) => `${key}: ${textOf((value as Record<string, unknown>)[key], depth + 1)}`)
			.join('\n');
	};

	test.each(PINS)(
		'PIN %s: a record whose text field, `pin` and `secret` echo the secrets',
		async (pin) => {
			const record = {
				id: 'wd-7',
				status: 'completed',
				note: `echo ${pin} and ${APP}`,
				pin,
				secret: HOOK,
				reason: `hook ${HOOK}`,
				amount: '1234.00',
				fee: 1000,
			};
			const server = await serve(() => ({
				status: 200,
				body: envelope(record, `answered for ${APP}`),
			}));
			const run = await runNode(
				{ resource: 'withdrawal', operation: 'get', withdrawalId: 'wd-7' },
				{ credentials: { baseUrl: server.baseUrl, appSecret: APP, webhookSecret: HOOK, pin } },
			);
			expect(run.error).toBeUndefined();
			expect(run.items[0].json).toMatchObject({
				id: 'wd-7',
				note: 'echo [redacted] and [redacted]',
				pin: '[redacted]',
				secret: '[redacted]',
				reason: 'hook [redacted]',
				amount: '1234.00',
				fee: 1000,
			});
			expect(leaks(JSON.stringify(run.items), pin)).toEqual([]);
		},
	);

	test.each(
		PINS.flatMap((pin) => [false, true].map((continueOnFail) => ({ pin, continueOnFail }))),
	)(
		'PIN $pin: an error whose message and entries echo the secrets (Continue On Fail $continueOnFail)',
		async ({ pin, continueOnFail }) => {
			const server = await serve(() => ({
				status: 422,
				body: refusal(`invalid pin ${pin} for ${APP}`, [
					{ field: 'pin', message: `pin "${pin}" is wrong (${HOOK})`, value: pin },
				]),
			}));
			const run = await runNode(
				{ resource: 'withdrawal', operation: 'get', withdrawalId: 'wd-7' },
				{
					continueOnFail,
					credentials: { baseUrl: server.baseUrl, appSecret: APP, webhookSecret: HOOK, pin },
				},
			);
			const text = continueOnFail ? JSON.stringify(run.items) : textOf(run.error);
			expect(text).toContain('invalid pin [redacted] for [redacted]');
			expect(leaks(text, pin)).toEqual([]);
		},
	);

	test.each(PINS)(
		'PIN %s: a webhook delivery body and its record that echo the secrets',
		async (pin) => {
			const h = await TriggerHarness.create({
				events: ['*'],
				credentials: { ...TRIGGER_CREDENTIALS, appSecret: APP, pin },
			});
			const body = tradePayload('trade.completed', {
				note: `pin ${pin} ${APP}`,
				secret: TRIGGER_CREDENTIALS.webhookSecret,
				amountInUSD: 1234,
			});
			nock(BASE_URL)
				.get(`/trades/transactions/${String(body.id)}`)
				.reply(200, { success: true, data: { ...body, memo: `pin ${pin}`, pin } });
			const r = await h.deliver({ body, secret: TRIGGER_CREDENTIALS.webhookSecret as string });
			expect(r.started).toBe(true);
			const text = JSON.stringify(r.items);
			expect(r.items[0]).toMatchObject({
				memo: 'pin [redacted]',
				pin: '[redacted]',
				amountInUSD: 1234,
			});
			expect(text).not.toContain(String(TRIGGER_CREDENTIALS.webhookSecret));
			expect(leaks(text, pin)).toEqual([]);
			expect(leaks(logs.map((line) => line.message).join('\n'), pin)).toEqual([]);
		},
	);

	test.each(PINS)('PIN %s: a poll whose page is refused with the secrets echoed', async (pin) => {
		const service: ListService = await startListService();
		try {
			const poller = await Poller.create(
				{ source: 'records', events: ['*'] },
				{
					appId: 'a',
					appSecret: APP,
					environment: 'sandbox',
					baseUrl: service.url,
					pin,
					webhookSecret: HOOK,
				},
			);
			await poller.poll();
			service.fault = () => ({
				status: 400,
				body: {
					success: false,
					message: `bad pin ${pin} (${APP} / ${HOOK})`,
					errors: [{ field: 'pin', message: `${pin} is wrong`, value: pin }],
					meta: {},
					data: {},
				},
			});
			const result = await poller.poll();
			expect(textOf(result.error)).toContain('bad pin [redacted] ([redacted] / [redacted])');
			expect(leaks(textOf(result.error), pin)).toEqual([]);
			expect(leaks(result.logs.map((log) => log.message).join('\n'), pin)).toEqual([]);
		} finally {
			await service.close();
		}
	});
});

describe('the last defence: what could quote the request the node sent', () => {
	test.each(PINS)(
		"PIN %s: an error's details and a library's cause lose the secrets; the node's own words stay",
		(pin) => {
			const APP = 'app-secret-request-echo-3f9a';
			const request = { headers: { 'x-app-secret': APP }, body: { amount: 1234, pin } };
			// A library's error holds the body also as the text it sent.
			const cause = Object.assign(new Error(`socket hang up (${APP})`), {
				config: { ...request, data: JSON.stringify({ amount: 10, pin }) },
			});
			const words = `The withdrawal of ${pin} USD with External ID ${pin} may or may not have been made`;
			const error = Object.assign(new Error(words), {
				description: `Row ${pin}: check it`,
				errorResponse: { message: words, request },
				context: { itemIndex: 0, request },
				cause,
			});
			redactError(error, [APP, pin]);
			// The node's words, which quote what the user typed, as they were.
			expect([error.message, error.description, error.errorResponse.message]).toEqual([
				words,
				`Row ${pin}: check it`,
				words,
			]);
			// The request, wherever it is quoted: its PIN field and its headers' app secret.
			for (const quoted of [error.errorResponse.request, error.context.request]) {
				expect(quoted).toEqual({
					headers: { 'x-app-secret': '[redacted]' },
					body: { amount: 1234, pin: '[redacted]' },
				});
			}
			expect(cause.message).toBe('socket hang up ([redacted])');
			expect(cause.config).toEqual({
				headers: { 'x-app-secret': '[redacted]' },
				body: { amount: 1234, pin: '[redacted]' },
				data: '{"amount":10,"pin":"[redacted]"}',
			});
		},
	);
});
