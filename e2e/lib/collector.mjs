// A tiny HTTP receiver on loopback: e2e workflows POST what they received here, so the test can
// count executions and read their payloads without going through n8n's execution store.
import http from 'node:http';

/**
 * Reads a request's whole body, then calls `then(body)`: its JSON, or its text when that is not
 * JSON (an empty body is '').
 */
export function withBody(req, then) {
	const chunks = [];
	req.on('data', (c) => chunks.push(c));
	req.on('end', () => {
		const text = Buffer.concat(chunks).toString('utf8');
		let body;
		try {
			body = JSON.parse(text);
		} catch {
			body = text;
		}
		then(body);
	});
}

export async function startCollector() {
	const hits = [];
	/** path → how many of its next requests are answered 500 (an endpoint that fails, then recovers). */
	const failing = new Map();
	const server = http.createServer((req, res) =>
		withBody(req, (body) => {
			const fails = failing.get(req.url) ?? 0;
			if (fails) failing.set(req.url, fails - 1);
			hits.push({
				at: Date.now(),
				method: req.method,
				path: req.url,
				headers: req.headers,
				body,
				status: fails ? 500 : 200,
			});
			res.writeHead(fails ? 500 : 200, { 'content-type': 'application/json' });
			res.end(
				fails
					? '{"ok":false,"message":"the local receiver was told to fail this request"}'
					: '{"ok":true}',
			);
		}),
	);
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		port,
		url: `http://127.0.0.1:${port}`,
		hits,
		on(path) {
			return hits.filter((hit) => hit.path === path);
		},
		/** Answers the next `count` requests to `path` with 500. */
		failNext(path, count = 1) {
			failing.set(path, count);
		},
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
