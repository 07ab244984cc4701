/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console */
/**
 * `npm run fake-api`: starts the fake API on loopback and prints how to use it.
 * Flags win over environment variables; see docs/fake-api.md.
 */
import { DEFAULTS, startFakeApi, type FaultConfig, type FakeApiOptions } from './server';

interface Flag {
	flag: string;
	env: string;
	help: string;
}

const FLAGS: Record<string, Flag> = {
	port: {
		flag: '--port',
		env: 'SANDBOX_PORT',
		help: 'port on 127.0.0.1 (default 5680; 0 = any free port)',
	},
	appId: {
		flag: '--app-id',
		env: 'SANDBOX_APP_ID',
		help: `demo app id (default ${DEFAULTS.appId})`,
	},
	appSecret: {
		flag: '--app-secret',
		env: 'SANDBOX_APP_SECRET',
		help: `demo app secret (default ${DEFAULTS.appSecret})`,
	},
	pin: { flag: '--pin', env: 'SANDBOX_PIN', help: `transaction PIN (default ${DEFAULTS.pin})` },
	webhookUrl: {
		flag: '--webhook-url',
		env: 'SANDBOX_WEBHOOK_URL',
		help: 'where webhooks are POSTed (default: none)',
	},
	webhookSecret: {
		flag: '--webhook-secret',
		env: 'SANDBOX_WEBHOOK_SECRET',
		help: `sent as x-webhook-secret (default ${DEFAULTS.webhookSecret})`,
	},
	stateFile: {
		flag: '--state-file',
		env: 'SANDBOX_STATE_FILE',
		help: 'JSON file that keeps state across restarts',
	},
	lifecycleDelayMs: {
		flag: '--lifecycle-delay-ms',
		env: 'SANDBOX_LIFECYCLE_DELAY_MS',
		help: `delay before pending -> completed (default ${DEFAULTS.lifecycleDelayMs})`,
	},
	maxPageSize: {
		flag: '--max-page-size',
		env: 'SANDBOX_MAX_PAGE_SIZE',
		help: `largest page size (default ${DEFAULTS.maxPageSize})`,
	},
	rateLimitWithdraw: {
		flag: '--rate-limit-withdraw',
		env: 'SANDBOX_RATE_LIMIT_WITHDRAW',
		help: 'POST /payments/withdraw/address per minute (default 200)',
	},
	rateLimitSellRates: {
		flag: '--rate-limit-sell-rates',
		env: 'SANDBOX_RATE_LIMIT_SELL_RATES',
		help: 'GET /trades/pbc/sell/rates per minute (default 20)',
	},
	rejectAddresses: {
		flag: '--reject-addresses',
		env: 'SANDBOX_REJECT_ADDRESSES',
		help: 'comma-separated destinations whose withdrawals end rejected',
	},
	reverseAddresses: {
		flag: '--reverse-addresses',
		env: 'SANDBOX_REVERSE_ADDRESSES',
		help: 'comma-separated destinations whose withdrawals end reversed',
	},
	stuckAddresses: {
		flag: '--stuck-addresses',
		env: 'SANDBOX_STUCK_ADDRESSES',
		help: 'comma-separated destinations whose withdrawals stay pending',
	},
	pageDelayMs: {
		flag: '--page-delay-ms',
		env: 'SANDBOX_PAGE_DELAY_MS',
		help: 'each list page is answered this much later (default 0)',
	},
	clock: {
		flag: '--clock',
		env: 'SANDBOX_CLOCK',
		help: 'the instant the service stands at, running on from there, e.g. 2026-03-11T00:05:00Z (default: now)',
	},
	faults: {
		flag: '--faults',
		env: 'SANDBOX_FAULTS',
		help: 'fault switches as JSON, e.g. \'{"*":{"rate5xx":0.1}}\'',
	},
};

function usage(): string {
	const lines = Object.values(FLAGS).map(
		(f) => `  ${`${f.flag} <value>`.padEnd(32)} ${f.env.padEnd(30)} ${f.help}`,
	);
	return [
		'Usage: npm run fake-api -- [flags]',
		'',
		'  flag                             environment variable',
		...lines,
	].join('\n');
}

function readArgs(argv: string[]): Record<string, string> {
	const values: Record<string, string> = {};
	for (const [key, spec] of Object.entries(FLAGS)) {
		const fromEnv = process.env[spec.env];
		if (fromEnv !== undefined && fromEnv !== '') values[key] = fromEnv;
	}
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index];
		if (arg === '--help' || arg === '-h') {
			console.log(usage());
			process.exit(0);
		}
		const [name, inline] = arg.split(/=(.*)/s, 2);
		const entry = Object.entries(FLAGS).find(([, spec]) => spec.flag === name);
		if (!entry) throw new Error(`unknown flag ${arg}\n\n${usage()}`);
		const value = inline ?? argv[++index];
		if (value === undefined) throw new Error(`flag ${name} needs a value`);
		values[entry[0]] = value;
	}
	return values;
}

function integer(name: string, value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const parsed = Number(value);
	if (!Number.isInteger(parsed) || parsed < 0)
		throw new Error(`${name} must be a non-negative integer, got ${value}`);
	return parsed;
}

function list(value: string | undefined): string[] | undefined {
	return value === undefined
		? undefined
		: value
				.split(',')
				.map((item) => item.trim())
				.filter(Boolean);
}

async function main(): Promise<void> {
	const args = readArgs(process.argv.slice(2));
	const options: FakeApiOptions = {
		port: integer('--port', args.port) ?? 5680,
		appId: args.appId,
		appSecret: args.appSecret,
		pin: args.pin,
		webhookUrl: args.webhookUrl,
		webhookSecret: args.webhookSecret,
		stateFile: args.stateFile,
		lifecycleDelayMs: integer('--lifecycle-delay-ms', args.lifecycleDelayMs),
		maxPageSize: integer('--max-page-size', args.maxPageSize),
		rateLimits: {
			...(args.rateLimitWithdraw
				? { withdraw: integer('--rate-limit-withdraw', args.rateLimitWithdraw) }
				: {}),
			...(args.rateLimitSellRates
				? { sellRates: integer('--rate-limit-sell-rates', args.rateLimitSellRates) }
				: {}),
		},
		rejectAddresses: list(args.rejectAddresses),
		reverseAddresses: list(args.reverseAddresses),
		stuckAddresses: list(args.stuckAddresses),
		pageDelayMs: integer('--page-delay-ms', args.pageDelayMs),
		faults: args.faults ? (JSON.parse(args.faults) as FaultConfig) : undefined,
		clock: args.clock,
	};
	const sandbox = await startFakeApi(options);
	const origin = sandbox.url.replace(/\/v1$/, '');
	console.log(
		[
			'Crypto Settlement fake API is running.',
			'',
			`  Base URL        ${sandbox.url}`,
			`  App ID          ${sandbox.appId}`,
			`  App secret      ${sandbox.appSecret}`,
			`  Environment     sandbox (X-Service-Env: sandbox; production is accepted too, without mock trades)`,
			`  Transaction PIN ${sandbox.pin}`,
			`  Webhook URL     ${sandbox.webhookUrl ?? '(none: events are recorded, not delivered; set one with --webhook-url)'}`,
			`  Webhook secret  ${sandbox.webhookSecret || '(none)'} (header x-webhook-secret)`,
			`  State file      ${options.stateFile ?? '(none: state is kept in memory)'}`,
			`  Service clock   ${new Date(sandbox.now()).toISOString()}${args.clock ? ' (--clock)' : ''}; move it with POST ${origin}/_sandbox/clock {"at": "…"} or {"advance": "PT10M"}`,
			`  Admin           ${origin}/_sandbox/health, /_sandbox/state, /_sandbox/requests, GET|PUT /_sandbox/webhook, PUT /_sandbox/faults`,
			`  Send webhooks elsewhere (e.g. a trigger's Test URL):`,
			`                  node fake-api/webhook.mjs <url> --fake-api=${origin}`,
			'',
			'Press Ctrl-C to stop.',
		].join('\n'),
	);
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal} received, stopping the fake API...`);
		sandbox
			.close()
			.then(() => process.exit(0))
			.catch((error) => {
				console.error(error);
				process.exit(1);
			});
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: Error) => {
	console.error(`fake-api: ${error.message}`);
	process.exit(1);
});
