/**
 * Return All's bounds reached the long way (engine/lists.ts, MAX_LIST_ITEMS and maxPagesFor): a list
 * that never says how long it is, walked page by page through n8n-core's engine against a real
 * local HTTP server until the node stops it. A thousand pages each, so in the slow lane
 * (jest.config.js); a list that announces its length is stopped at once in concurrency.test.ts.
 */
import { runNode, serversClosedAfterEach } from '../../helpers/node';
import { envelope, localService, type Reply, type Seen } from '../../helpers/local-service';

const servers = serversClosedAfterEach();
async function serve(handler: (request: Seen) => Reply) {
	const server = await localService(handler);
	servers.push(server);
	return server;
}

test('more than 100,000 records stops with a hint to use Limit or filters', async () => {
	const server = await serve((request) => {
		const page = Number(request.query.get('page'));
		const data = Array.from({ length: 100 }, (_, i) => ({ id: `r${(page - 1) * 100 + i}` }));
		return { status: 200, body: { ...envelope(data), meta: { page, hasNextPage: true } } };
	});
	const run = await runNode(
		{ resource: 'wallet', operation: 'getAll', returnAll: true },
		{ credentials: { baseUrl: server.baseUrl } },
	);
	expect(run.error?.message).toBe('Return All stopped: the list returned more than 100000 records');
	expect(run.error?.description).toMatch(/set a Limit, or narrow the list with filters/);
});

test('a list that always brings one new record is capped at the pages 100,000 records need, plus a margin', async () => {
	const server = await serve((request) => {
		const page = Number(request.query.get('page'));
		return {
			status: 200,
			body: { ...envelope([{ id: `e${page}` }]), meta: { page, hasNextPage: true } },
		};
	});
	// Webhook events are read 200 a page: 500 pages hold 100,000 records.
	const run = await runNode(
		{ resource: 'webhookEvent', operation: 'getAll', returnAll: true },
		{ credentials: { baseUrl: server.baseUrl } },
	);
	expect(run.error?.message).toBe('Return All stopped: the list returned more than 510 pages');
	expect(server.requests).toHaveLength(510);
});
