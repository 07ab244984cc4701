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
	testTimeout: 30000,
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
