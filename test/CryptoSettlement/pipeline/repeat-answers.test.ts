/**
 * A write repeated after an unclear answer (a dropped connection, a 502) may have taken effect the
 * first time: a refusal of the repeat says so before anything else, so a 404 after a delete is not
 * taken for a wrong id (docs/usage.md, "Pacing, retries and timeouts"). Through n8n-core's engine
 * against a local HTTP server.
 */
import { expectNoSecrets, runNode, serversClosedAfterEach, shortBackoff } from '../../helpers/node';
import { envelope, localService, refusal, type Reply } from '../../helpers/local-service';
import { CASES } from '../../helpers/operation-cases';

const servers = serversClosedAfterEach();
shortBackoff();

/** Answers the first request with `first`, every later one with `then`. */
async function serving(first: Reply, then: Reply) {
	let calls = 0;
	const server = await localService(() => (calls++ === 0 ? first : then));
	servers.push(server);
	return server;
}

const DROPPED: Reply = { status: 200, reset: true };
const BAD_GATEWAY: Reply = {
	status: 502,
	raw: '<html>Bad Gateway</html>',
	headers: { 'content-type': 'text/html' },
};

test.each([
	['bankAccount → delete', DROPPED],
	['payoutAddress → delete', BAD_GATEWAY],
])(
	'%s whose first attempt got no clear answer and whose repeat is answered 404 says it was most likely deleted',
	async (name, first) => {
		const server = await serving(first, { status: 404, body: refusal('bank account not found') });
		const result = await runNode(CASES[name].params, { credentials: { baseUrl: server.baseUrl } });
		expect(server.requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE']);
		expect(result.error?.message).toBe('bank account not found (HTTP 404)');
		expect(result.error?.description).toMatch(
			/^This answer came to a repeat: an earlier attempt got no clear answer \(.+\) and may have taken effect, so the record was most likely deleted by it; Get Many shows whether it is still there\./,
		);
		expectNoSecrets(result.text);
	},
);

test('an update refused on its repeat says the first attempt may have taken effect', async () => {
	const server = await serving(DROPPED, {
		status: 422,
		body: refusal('validation errors', [
			{ field: 'autoSettlement', message: 'auto settlement requires a linked bank account' },
		]),
	});
	const result = await runNode(CASES['wallet → setAutoSettlement'].params, {
		credentials: { baseUrl: server.baseUrl },
	});
	expect(server.requests).toHaveLength(2);
	expect(result.error?.description).toMatch(
		/^This answer came to a repeat: an earlier attempt got no clear answer \(.+\) and may have taken effect; this answer may be about what it did\./,
	);
});

test.each([
	[
		'a delete answered 404 at once',
		'bankAccount → delete',
		{ status: 404, body: refusal('bank account not found') },
	],
	[
		'a read answered 404 after a dropped connection',
		'transaction → get',
		{ status: 404, body: refusal('transaction not found') },
	],
])('%s says nothing of a repeat', async (_name, name, reply) => {
	const server = name.endsWith('get')
		? await serving(DROPPED, reply as Reply)
		: await serving(reply as Reply, reply as Reply);
	const result = await runNode(CASES[name].params, { credentials: { baseUrl: server.baseUrl } });
	expect(result.error?.message).toMatch(/not found \(HTTP 404\)$/);
	expect(result.error?.description ?? '').not.toMatch(/repeat/);
});

test('a delete whose repeat succeeds is output as deleted', async () => {
	const server = await serving(DROPPED, { status: 200, body: envelope({}) });
	const result = await runNode(CASES['bankAccount → delete'].params, {
		credentials: { baseUrl: server.baseUrl },
	});
	expect(result.items.map((item) => item.json)).toEqual([{ deleted: true, id: 'ba1' }]);
});
