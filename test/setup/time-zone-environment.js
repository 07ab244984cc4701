/**
 * A jest environment that runs a test file in another time zone, as n8n runs under its `TZ`:
 * `@jest-environment ./test/setup/time-zone-environment.js` and
 * `@jest-environment-options {"timeZone": "America/New_York"}` in the file's docblock. Jest gives a
 * test file a copy of process.env, so setting TZ inside the file changes nothing; the worker's own
 * TZ is set here and restored after the file.
 */
const { TestEnvironment } = require('jest-environment-node');

class TimeZoneEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.timeZone = config.projectConfig.testEnvironmentOptions.timeZone;
	}

	async setup() {
		await super.setup();
		this.previous = process.env.TZ;
		process.env.TZ = this.timeZone;
		this.global.process.env.TZ = this.timeZone;
	}

	async teardown() {
		if (this.previous === undefined) delete process.env.TZ;
		else process.env.TZ = this.previous;
		await super.teardown();
	}
}

module.exports = TimeZoneEnvironment;
