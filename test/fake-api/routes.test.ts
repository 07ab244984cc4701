/**
 * Every operation of the node has a route in the fake API: each record's method and path, called
 * over HTTP, reaches a route (whatever that route then answers), so an operation added without its
 * fake-API route fails here at once. The list comes from the operation records. (The fake API's
 * README lists every route: a generated section, test/package/docs.test.ts.)
 */
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';
import { fillPath } from '../../nodes/service/transport';
import { startFakeApi, type FakeApi } from '../../fake-api/src/server';

let fakeApi: FakeApi;
beforeAll(async () => {
	fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000 });
});
afterAll(async () => await fakeApi.close());

const operations = Object.entries(RESOURCES).flatMap(([resource, entry]) =>
	Object.entries(entry.specs).map(([operation, spec]) => ({
		name: `${resource} → ${operation}`,
		spec,
	})),
);

test('the records list operations', () => {
	expect(operations.length).toBeGreaterThan(0);
});

test.each(operations.map(({ name, spec }) => [name, spec.method, spec.path] as const))(
	'%s: %s %s has a route',
	async (_name, method, path) => {
		// Every placeholder filled with an id that exists nowhere: the route answers, even if only 404 for the record.
		const url = `${fakeApi.url}${fillPath(path, new Proxy({}, { get: () => 'no-such-id' }))}`;
		const response = await fetch(url, {
			method,
			headers: {
				'x-app-id': fakeApi.appId,
				'x-app-secret': fakeApi.appSecret,
				'x-service-env': 'sandbox',
				'content-type': 'application/json',
			},
			...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
		});
		const body = (await response.json()) as { message?: string };
		expect(body.message ?? '').not.toMatch(/route not found/);
	},
);
