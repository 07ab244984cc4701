import type { IDataObject } from 'n8n-workflow';
import { startListService, trade, type ListService } from './list-service';
import { onlyDateAt } from '../clock';

// Apart from list-service.ts, which the bench compiles without jest (bench/tsconfig.json).
/**
 * For a test file: a fresh list service before each test, its clock at `start`, closed after it.
 * `local.created` counts the records a test made; `local.credentials()` point at the service;
 * `local.aMinuteOf(count)` adds `count` trades spread over one minute of the service and moves its
 * clock to that minute's end.
 *
 * `testClock`: n8n's clock is the test's. Only `Date` is faked (timers, sockets and the event loop
 * stay real) and it moves only by the service's `latencyMs` per answer, so how long a poll takes
 * against n8n's poll budget counts answers, whatever the machine's speed.
 */
export function listServiceForEachTest(start: number, options: { testClock?: boolean } = {}) {
	const local = {
		service: undefined as unknown as ListService,
		created: 0,
		credentials: () => ({
			appId: 'app-local',
			appSecret: 'secret-local-1',
			environment: 'sandbox',
			baseUrl: local.service.url,
			pin: '',
		}),
		aMinuteOf: (count: number): IDataObject[] => {
			const start = local.service.clock as number;
			const added = Array.from({ length: count }, (_, i) =>
				trade(++local.created, start + Math.floor(((i + 1) * MINUTE) / (count + 1))),
			);
			local.service.records.trades.push(...added);
			local.service.clock = start + MINUTE;
			return added;
		},
	};
	beforeEach(async () => {
		local.service = await startListService();
		local.service.clock = start;
		local.created = 0;
		if (options.testClock) {
			onlyDateAt(start);
			local.service.wait = async (ms) => jest.setSystemTime(Date.now() + ms);
		}
	});
	afterEach(async () => {
		jest.useRealTimers();
		await local.service.close();
	});
	return local;
}

const MINUTE = 60_000;
