/**
 * Unit and workflow tests, in two lanes: `npm test` runs the quick one, `npm run test:slow` the soak
 * tests (thousands of events through n8n, minutes each), and CI (.ci/run) runs both. `npx jest <file>`
 * runs a file of either lane; `npx jest` runs both. End-to-end tests in real n8n live in e2e/ and
 * run with `npm run test:e2e`.
 */
const fs = require('node:fs');
const path = require('node:path');

/**
 * The soak tests: volume, a day of retries, the size of the poll state, a sustained backlog, a busy
 * list on a lagging replica and a list growing at its end, each over many polls; a thousand wallets'
 * failures through the webhook trigger; a statement day of 120,000 lines; and Return All walked page
 * by page to its 100,000-record and page bounds.
 */
const SLOW_LANE = [
	'test/CryptoSettlementPollTrigger/volume.test.ts',
	'test/CryptoSettlementTrigger/retry-window.test.ts',
	'test/CryptoSettlementPollTrigger/state-size.test.ts',
	'test/CryptoSettlementPollTrigger/backlog.test.ts',
	'test/CryptoSettlementPollTrigger/busy-lag.test.ts',
	'test/CryptoSettlementPollTrigger/oldest-first-growing.test.ts',
	'test/events/wallet-failures.test.ts',
	'test/CryptoSettlement/statement/busy-day.test.ts',
	'test/CryptoSettlement/engine/list-bounds.test.ts',
];
const missing = SLOW_LANE.filter((file) => !fs.existsSync(path.join(__dirname, file)));
if (missing.length)
	throw new Error(`jest.config.js names slow-lane tests that do not exist: ${missing.join(', ')}`);

const lane = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/fake-api/test'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json', diagnostics: false }],
	},
	// n8n-core's logger stays quiet during expected failures (see the file).
	setupFiles: ['<rootDir>/test/setup/quiet-logs.js'],
	// Tests load the built package: a run after an edit builds first (see the file).
	globalSetup: '<rootDir>/test/setup/fresh-build.js',
};

module.exports = {
	projects: [
		{
			...lane,
			displayName: 'quick',
			testMatch: ['**/*.test.ts'],
			testPathIgnorePatterns: ['/node_modules/', ...SLOW_LANE.map((file) => `<rootDir>/${file}`)],
		},
		{ ...lane, displayName: 'slow', testMatch: SLOW_LANE.map((file) => `<rootDir>/${file}`) },
	],
	// A bound that only catches a hang: no verdict reads the machine's speed (fake clocks, or services
	// that wait for the node), but integration tests send hundreds of requests through n8n and a
	// loaded 2-core machine may need minutes for what takes seconds when idle.
	testTimeout: 600_000,
	// The lanes are bound by the CPU (each test file loads n8n-core anew): on the 2-core machine a third
	// worker took 15 to 20% more CPU for the same ten files, and was not reliably faster.
	maxWorkers: 2,
	// Each HTTP request made after nock is loaded leaves two parsers that Node never frees
	// (nock 14's @mswjs/interceptors, mswjs/interceptors#779), and with them each test file's
	// modules: a worker grew to ~1.5 GB over a run. A worker past this size is replaced before its
	// next file. The size is what a worker takes to exit: at the end of a run, with nothing left open
	// but its pipes to jest, a worker of 870 to 890 MB (the limit was 700 MB; the last file adds to
	// it) took 700 to 800 ms to die on a busy 2-core machine, freeing its memory, past the 500 ms
	// jest waits ("A worker process has failed to exit gracefully … tests leaking", though nothing
	// leaked); at 400 MB workers ended at 125 to 355 MB and exited within 320 ms on that machine, and
	// `npm test` took as long. jest reads this option at the top level only (set in a project, it
	// was accepted and ignored).
	workerIdleMemoryLimit: '400MB',
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
