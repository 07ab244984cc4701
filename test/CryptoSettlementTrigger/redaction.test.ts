/**
 * Secrets never leave the trigger: a confirmation answer that echoes the app secret and the webhook
 * secret (a 4-character one too) reaches no log line, error, answer or item.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import {
	BASE_URL,
	CREDENTIALS,
	triggerTestSetup,
	TriggerHarness,
	tradePayload,
	type DeliveryResult,
} from '../helpers/webhook';

const logs = triggerTestSetup();

/** Fixture secrets (built at runtime): a long app secret and a 4-character webhook secret. */
const APP_SECRET = ['echoed', 'app', 'secret', '5e1f'].join('-');
const SHORT_SECRET = ['q7', 'Zx'].join('');
const SECRETS = [APP_SECRET, SHORT_SECRET];

const harness = () =>
	TriggerHarness.create({
		events: ['*'],
		credentials: { ...CREDENTIALS, appSecret: APP_SECRET, webhookSecret: SHORT_SECRET },
	});

/** Everything the delivery left behind: log lines, the answer, what webhook() returned or threw. */
function everything(r: DeliveryResult): string {
	return JSON.stringify({
		logs: logs.map((line) => line.message),
		response: r.response,
		result: r.result,
		items: r.items,
		error: r.threw ? { ...r.threw, message: r.threw.message, stack: r.threw.stack } : undefined,
	});
}

describe.each([500, 502, 503])('the lookup answers %i echoing both secrets', (status) => {
	test('503 to the service, nothing started, no secret in any log line, error or answer', async () => {
		const h = await harness();
		const body = tradePayload('trade.completed');
		const echo: IDataObject = {
			success: false,
			// The short secret also inside a longer run of characters (an echoed, URL-encoded query).
			message: `internal error: app secret ${APP_SECRET} and webhook secret ${SHORT_SECRET} refused (query secret%3D${SHORT_SECRET})`,
			errors: [
				{ field: 'x-app-secret', message: APP_SECRET },
				{ field: 'webhookSecret', message: SHORT_SECRET },
			],
			data: { appSecret: APP_SECRET, webhookSecret: SHORT_SECRET },
		};
		const lookup = nock(BASE_URL).get(`/trades/transactions/${body.id}`).reply(status, echo);
		const r = await h.deliver({ body, secret: SHORT_SECRET });
		expect(lookup.isDone()).toBe(true);
		expect(r).toMatchObject({ status: 503, started: false });
		expect(r.threw).toBeUndefined();
		// The failure is logged with the service's message, secrets replaced, so the test looks at a line that exists.
		expect(
			logs.some(
				(line) => line.level === 'warn' && line.message.includes(`HTTP ${status}: internal error`),
			),
		).toBe(true);
		const text = everything(r);
		for (const secret of SECRETS) expect(text).not.toContain(secret);
	});
});

test('a confirmed record echoing both secrets emits an item without them', async () => {
	const h = await harness();
	const body = tradePayload('trade.completed', { note: `sent with ${APP_SECRET}` });
	nock(BASE_URL)
		.get(`/trades/transactions/${body.id}`)
		.reply(200, {
			success: true,
			data: {
				id: body.id,
				status: 'completed',
				webhookSecret: SHORT_SECRET,
				memo: `app secret ${APP_SECRET}`,
				pin: SHORT_SECRET,
			},
		});
	const r = await h.deliver({
		body,
		secret: SHORT_SECRET,
		headers: { 'x-app-secret': APP_SECRET },
	});
	expect(r).toMatchObject({ status: 200, started: true });
	expect(r.items[0]).toMatchObject({ id: body.id, status: 'completed' });
	const text = everything(r);
	for (const secret of SECRETS) expect(text).not.toContain(secret);
});
