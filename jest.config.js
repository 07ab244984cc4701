/** Unit and workflow tests. End-to-end tests in real n8n live in e2e/ and run with `npm run test:e2e`. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/fake-api/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json', diagnostics: false }],
	},
	// n8n-core's logger stays quiet during expected failures (see the file).
	setupFiles: ['<rootDir>/test/setup/quiet-logs.js'],
	// A bound that only catches a hang: no verdict reads the machine's speed (fake clocks, or services
	// that wait for the node), but integration tests send hundreds of requests through n8n and a
	// loaded 2-core machine may need minutes for what takes seconds when idle.
	testTimeout: 600_000,
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
