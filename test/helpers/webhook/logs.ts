/** What the node logs through `this.logger`, recorded per test (n8n's own logger stays silent). */
import nock from 'nock';

export interface LogEntry {
	level: string;
	message: string;
}

let currentLogs: LogEntry[] = [];

/** Starts a fresh record of what the node logs through `this.logger` (n8n's logger stays silent). */
export function captureLogs(): LogEntry[] {
	currentLogs = [];
	return currentLogs;
}

/**
 * The usual setup of a trigger test file: the logs of each test captured in the returned array, no
 * network but `allowedHosts` (nock answers the rest), and every nock interceptor used by the end.
 */
export function triggerTestSetup(allowedHosts: string[] = []): LogEntry[] {
	const logs: LogEntry[] = [];
	beforeAll(() => {
		nock.disableNetConnect();
		for (const host of allowedHosts) nock.enableNetConnect(host);
	});
	beforeEach(() => {
		logs.length = 0;
		currentLogs = logs;
	});
	afterEach(() => {
		const pending = nock.pendingMocks();
		nock.cleanAll();
		expect(pending).toEqual([]);
	});
	afterAll(() => nock.enableNetConnect());
	return logs;
}

/** The logger handed to the node: records into the array of the latest `captureLogs()`. */
function recordingLogger(): unknown {
	const record = (level: string) => (message: string) => {
		currentLogs.push({ level, message });
	};
	const logger: Record<string, unknown> = {
		error: record('error'),
		warn: record('warn'),
		info: record('info'),
		debug: record('debug'),
	};
	logger.scoped = () => logger;
	return logger;
}

/** Contexts read `this.logger` from a prototype getter (n8n's DI logger); shadow it per context. */
export function withRecordingLogger<T extends object>(context: T): T {
	Object.defineProperty(context, 'logger', { value: recordingLogger(), configurable: true });
	return context;
}
