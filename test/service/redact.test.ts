/**
 * A PIN never rewrites a figure (docs/usage.md, "Hostile answers and careless inputs", Redaction):
 * PINs of 4 to 6 digits equal to amounts, years and parts of account numbers, in every operation's
 * output, the statement (summary, lines, its file), Match, both triggers and the errors. Each check
 * compares a run whose credential holds such a PIN with the same run without one: the outputs are
 * the same, except where the service's text holds the PIN as a whole token.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi } from '../../fake-api/src/server';
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';
import { startListService, trade, type ListService } from '../helpers/poll/list-service';
import { Poller } from '../helpers/poll/poll-harness';
import { BASE_URL, CREDENTIALS as TRIGGER_CREDENTIALS, TriggerHarness, tradePayload, triggerTestSetup } from '../helpers/webhook';
import { api, noWithdrawalsYet, PIN, runNode, serversClosedAfterEach, WEBHOOK_SECRET } from '../helpers/node';
import { envelope, localService, refusal, type Reply, type Seen } from '../helpers/local-service';
import { CASES, type Case } from '../helpers/operation-cases';

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
		let interceptor = api().intercept(c.path, c.method.toUpperCase(), c.body as nock.RequestBodyMatcher | undefined);
		interceptor = c.query ? interceptor.query(c.query as nock.DataMatcherMap) : interceptor.query(true);
		interceptor.reply(200, c.reply as nock.Body);
		const sendsPin = JSON.stringify(c.body ?? {}).includes(PIN);
		// A delivery's secret header (Verify Delivery's input) carries the credential's webhook secret.
		const items = c.items?.map((item) => JSON.parse(JSON.stringify(item).split(WEBHOOK_SECRET).join(secret)) as IDataObject);
		const run = await runNode(c.params, { items, credentials: { webhookSecret: secret, ...(sendsPin ? {} : { pin: secret }) } });
		expect(run.error).toBeUndefined();
		return run.items.map((item) => item.json);
	}

	const runs = Object.entries(CASES)
		.filter(([, c]) => c.params.resource !== 'statement')
		.flatMap(([name, c]) => [...digitRuns(JSON.stringify(c.output)), '2026', '1234'].slice(0, 4).map((secret) => ({ name, secret, c })));

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

	test.each(['1234', '2026', '3456', '123456'])('PIN %s: every figure, date and id as the service gave it; the PIN alone in text and under its key hidden', async (pin) => {
		const server = await serve(() => ({ status: 200, body: envelope(record) }));
		const run = await runNode({ resource: 'withdrawal', operation: 'get', withdrawalId: 'wd-1' }, { credentials: { baseUrl: server.baseUrl, pin } });
		expect(run.error).toBeUndefined();
		const expected = pin === '1234' ? { ...record, reason: 'invalid pin [redacted]. Try again', pin: '[redacted]' } : record;
		expect(run.items[0].json).toMatchObject(expected);
	});

	// The other PIN: 1000 inside 21,000 read "-2[redacted].00" in the accountant's CSV.
	test('PIN 1000: 21,000 and -21000.00 stay as the service gave them', async () => {
		const thousands = { ...record, payoutAmount: 21000, amount: '21000', fee: '-21000.00', reason: 'refused' };
		const server = await serve(() => ({ status: 200, body: envelope(thousands) }));
		const run = await runNode({ resource: 'withdrawal', operation: 'get', withdrawalId: 'wd-1' }, { credentials: { baseUrl: server.baseUrl, pin: '1000' } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject(thousands);
	});
});

describe('every error: the PIN hidden where it stands alone, figures kept', () => {
	test.each([[false], [true]])('a 400 that echoes the PIN beside the amount, the date and the account (Continue On Fail %s)', async (continueOnFail) => {
		const server = await serve(() => ({
			status: 400,
			body: refusal('invalid pin 1234: amount -1234.00 on 2026-03-10 to 0123456789 refused', [
				{ field: 'pin', message: 'pin "1234" is wrong', value: '1234' },
				{ field: 'amount', message: 'amount 1234.5 is over the limit', value: 1234 },
			]),
		}));
		const run = await runNode({ resource: 'bank', operation: 'verifyAccount', bankId: 'b1', accountNumber: '0123456789', currency: 'ngn' }, { continueOnFail, credentials: { baseUrl: server.baseUrl, pin: '1234' } });
		const text = continueOnFail ? JSON.stringify(run.items) : JSON.stringify({ message: run.error?.message, description: run.error?.description, context: (run.error as unknown as IDataObject)?.context });
		expect(text).toContain('invalid pin [redacted]: amount -1234.00 on 2026-03-10 to 0123456789 refused');
		expect(text).not.toMatch(/(?<![\d.-])1234(?![\d.])/);
	});
});

describe('the statement, its file and Match: the same with a PIN equal to its figures as without one', () => {
	const DAY = '2026-03-10';
	let fakeApi: FakeApi;
	let credentials: IDataObject;

	beforeAll(async () => {
		fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000, requestLogLimit: 100_000 });
		credentials = { appId: fakeApi.appId, appSecret: fakeApi.appSecret, environment: 'sandbox', baseUrl: fakeApi.url, pin: '' };
		fakeApi.seedDay({ day: DAY, records: 60 });
	});
	afterAll(async () => await fakeApi.close());

	const statement = async (output: string, pin: string) => {
		const run = await runNode({ resource: 'statement', operation: 'get', day: DAY, output, options: { fileCurrency: 'all' } }, { credentials: { ...credentials, pin } });
		if (run.error) throw new Error(run.error.message);
		return run.items.map((item) => ({ json: item.json, file: item.binary?.data ? Buffer.from(String(item.binary.data.data), 'base64').toString('utf8') : undefined }));
	};

	/** The output without the moment it was read (`readAt`), which differs between any two runs. */
	const withoutReadAt = (items: Array<{ json: IDataObject; file?: string }>) => items.map(({ json, file }) => ({ json: { ...json, readAt: undefined }, file }));

	/** PINs users meet: the year, and runs of 4 to 6 digits inside the output's amounts, ids and account numbers. */
	const pinsIn = (text: string) => ['2026', ...digitRuns(text).filter((run) => run !== '2026').slice(0, 5)];

	test.each(['summary', 'lines', 'file'])('Statement → Get (%s)', async (output) => {
		const without = withoutReadAt(await statement(output, ''));
		const pins = pinsIn(JSON.stringify(without));
		expect(pins.length).toBeGreaterThanOrEqual(5);
		for (const pin of pins) expect(withoutReadAt(await statement(output, pin))).toEqual(without);
	});

	test('Statement → Match', async () => {
		const payouts = fakeApi.state.withdrawals.filter((w) => w.externalId).slice(0, 20);
		const match = async (pin: string) => {
			const run = await runNode(
				{ resource: 'statement', operation: 'match', matchBy: 'externalId', value: '={{ $json.ref }}', expectedAmount: '={{ $json.usd }}' },
				{ credentials: { ...credentials, pin }, items: payouts.map((w) => ({ ref: w.externalId, usd: w.amount })) },
			);
			if (run.error) throw new Error(run.error.message);
			return run.items.map((item) => item.json);
		};
		const without = await match('');
		for (const pin of ['2026', ...digitRuns(JSON.stringify(without)).slice(0, 3)]) expect(await match(pin)).toEqual(without);
	});
});

describe('both triggers: an event with figures equal to the PIN is emitted unchanged', () => {
	afterEach(() => nock.cleanAll());

	test('the webhook trigger, the record confirmed with the API', async () => {
		const deliver = async (pin: string) => {
			const h = await TriggerHarness.create({ events: ['*'], credentials: { ...TRIGGER_CREDENTIALS, pin } });
			const body = tradePayload('trade.completed', { id: '66f1c0ffee00000000002026', amountInUSD: 1234, cryptoAmount: '1234.5', note: 'pin 1234 used' });
			nock(BASE_URL)
				.get(`/trades/transactions/${body.id}`)
				.reply(200, { success: true, data: { ...body, accountNumber: '0123456789', createdAt: '2026-03-10T08:00:00.000Z' } });
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
			expect(JSON.stringify(items)).toBe(pin === '1234' ? text.split('pin 1234 used').join('pin [redacted] used') : text);
		}
		expect(logs.map((line) => line.message).join('\n')).not.toMatch(/\[redacted\]/);
	});

	test('the poll trigger, Records source', async () => {
		const emitted = async (pin: string) => {
			const service: ListService = await startListService();
			try {
				service.clock = Date.parse('2026-03-10T12:00:00.000Z');
				const poller = await Poller.create({ source: 'records', events: ['*'] }, { appId: 'a', appSecret: 'app-secret-poll-redaction', environment: 'sandbox', baseUrl: service.url, pin, webhookSecret: '' });
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
