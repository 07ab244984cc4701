import { startListService, type ListService } from './list-service';

// Apart from list-service.ts, which the bench compiles without jest (bench/tsconfig.json).
/**
 * For a test file: a fresh list service before each test, its clock at `start`, closed after it.
 * `local.created` counts the records a test made; `local.credentials()` point at the service.
 */
export function listServiceForEachTest(start: number) {
	const local = {
		service: undefined as unknown as ListService,
		created: 0,
		credentials: () => ({ appId: 'app-local', appSecret: 'secret-local-1', environment: 'sandbox', baseUrl: local.service.url, pin: '' }),
	};
	beforeEach(async () => {
		local.service = await startListService();
		local.service.clock = start;
		local.created = 0;
	});
	afterEach(async () => await local.service.close());
	return local;
}
