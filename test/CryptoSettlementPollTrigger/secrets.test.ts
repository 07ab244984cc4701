import { startListService, trade, type ListService } from '../helpers/poll/list-service';
import { Poller } from '../helpers/poll/poll-harness';
import { shortBackoff } from '../helpers/node';

/**
 * Issue #24, point 5 (poll trigger): the service may echo the app secret (or the webhook secret)
 * in an answer; it never reaches the poll trigger's errors, their details, its log lines or its
 * items (nodes/service/redact.ts, with the credential's secrets).
 */
/** The credential's app secret and webhook secret, which the service echoes below. */
const APP_ECHO = 'app-secret-DO-NOT-LEAK-poll-5f1e';
const HOOK_ECHO = 'webhook-secret-DO-NOT-LEAK-poll-9a8b';

// A 5xx is retried before the poll fails; the pauses between retries are not what this tests.
shortBackoff();

let service: ListService;
beforeEach(async () => {
	service = await startListService();
});
afterEach(async () => await service.close());

const credentials = () => ({
	appId: 'app-local',
	appSecret: APP_ECHO,
	environment: 'sandbox',
	baseUrl: service.url,
	pin: '',
	webhookSecret: HOOK_ECHO,
});

/** Everything an error or value holds as text: own properties at any depth (message, description, context, cause…). */
function textOf(value: unknown, depth = 0): string {
	if (depth > 6 || value === null || value === undefined) return '';
	if (typeof value !== 'object') return String(value);
	return Object.getOwnPropertyNames(value)
		.map((key) => `${key}: ${textOf((value as Record<string, unknown>)[key], depth + 1)}`)
		.join('\n');
}

const leaks = (value: unknown) =>
	[APP_ECHO, HOOK_ECHO].filter((secret) => textOf(value).includes(secret));

test.each([
	{
		name: 'a refused page (400) whose message and validation entry echo the secrets',
		source: 'records',
		status: 400,
	},
	{
		name: 'a 403 on the stored deliveries whose message echoes them',
		source: 'webhookEvents',
		status: 403,
	},
	{
		name: 'a 5xx whose message echoes them (retried, then failed)',
		source: 'records',
		status: 503,
	},
])(
	'$name: neither the error, its details nor the log lines hold a secret',
	async ({ source, status }) => {
		const poller = await Poller.create({ source, events: ['*'] }, credentials());
		await poller.poll();
		service.fault = () => ({
			status,
			body: {
				success: false,
				message: `bad credentials ${APP_ECHO} / ${HOOK_ECHO}`,
				errors: [{ field: 'x-app-secret', message: `${APP_ECHO} is not valid`, value: APP_ECHO }],
				meta: {},
				data: {},
			},
		});
		const result = await poller.poll();
		expect(result.error).toBeDefined();
		// The service's words are kept, the secrets in them replaced.
		expect(textOf(result.error)).toContain('bad credentials [redacted]');
		expect(leaks(result.error)).toEqual([]);
		expect(leaks(result.logs)).toEqual([]);
	},
);

test('a record that carries a secret is emitted with it redacted', async () => {
	service.clock = Date.parse('2026-03-01T12:00:00.000Z');
	const poller = await Poller.create({ source: 'records', events: ['*'] }, credentials());
	await poller.poll();
	service.records.trades.push({ ...trade(1, service.clock), note: `echo ${HOOK_ECHO}` });
	const { items } = await poller.poll();
	expect(items).toHaveLength(1);
	expect(leaks(items)).toEqual([]);
	expect(items![0]).toMatchObject({ id: 't000001', record: { note: 'echo [redacted]' } });
});
