// The webhook bench's local servers, in a child process so they do not share the sender's CPU: a
// fake of the service's transaction lookup (what Confirm With API reads), and the sink every
// execution posts to, which counts the executions per delivery id.
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

function serve() {
	/** Executions seen by the sink: delivery id → how many times. */
	const executions = new Map();
	let lookups = 0;
	/** Connections whose first request was a lookup: how well Confirm With API's client reuses them (keep-alive). */
	let lookupConnections = 0;
	const json = (res, status, payload) => {
		const body = JSON.stringify(payload);
		res.writeHead(status, {
			'content-type': 'application/json',
			'content-length': Buffer.byteLength(body),
		});
		res.end(body);
	};
	const server = http.createServer({ keepAlive: true, keepAliveTimeout: 60_000 }, (req, res) => {
		const url = new URL(req.url, 'http://bench');
		const firstOnSocket = !req.socket.benchSeen;
		req.socket.benchSeen = true;
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			// GET /v1/trades/transactions/{id}: every trade the bench delivers is completed.
			const trade = /^\/v1\/trades\/transactions\/([^/]+)$/.exec(url.pathname);
			if (req.method === 'GET' && trade) {
				lookups++;
				if (firstOnSocket) lookupConnections++;
				const id = decodeURIComponent(trade[1]);
				// Deposits of one token to 20 customers' wallets: the trigger names the token and the
				// customer (docs/trigger.md, "The item") from the asset list and each wallet, read once.
				const wallet = `w-${[...id].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 20}`;
				return json(res, 200, {
					success: true,
					message: 'transaction retrieved',
					data: {
						id,
						status: 'completed',
						amount: 18750,
						amountReceived: 12.5,
						currency: 'ngn',
						asset: 'a-usdt',
						wallet,
					},
				});
			}
			if (req.method === 'GET' && url.pathname === '/v1/trades/assets') {
				return json(res, 200, {
					success: true,
					message: 'assets',
					data: [{ id: 'a-usdt', identifier: 'USDT_TRX', symbol: 'USDT', network: 'Tron' }],
				});
			}
			const wallet = /^\/v1\/trades\/wallets\/([^/]+)$/.exec(url.pathname);
			if (req.method === 'GET' && wallet) {
				return json(res, 200, {
					success: true,
					message: 'wallet',
					data: {
						id: decodeURIComponent(wallet[1]),
						label: `customer-${decodeURIComponent(wallet[1])}`,
					},
				});
			}
			if (req.method === 'POST' && url.pathname === '/sink') {
				let id;
				try {
					id = String(JSON.parse(Buffer.concat(chunks).toString('utf8')).id);
				} catch {
					id = 'unreadable';
				}
				executions.set(id, (executions.get(id) ?? 0) + 1);
				return json(res, 200, { ok: true });
			}
			// GET /sink/count?prefix=…: executions of the deliveries whose id starts with the prefix.
			if (req.method === 'GET' && url.pathname === '/sink/count') {
				const prefix = url.searchParams.get('prefix') ?? '';
				let distinct = 0;
				let total = 0;
				const repeated = [];
				for (const [id, count] of executions) {
					if (!id.startsWith(prefix)) continue;
					distinct++;
					total += count;
					if (count > 1) repeated.push(id);
				}
				return json(res, 200, {
					distinct,
					total,
					repeated: repeated.slice(0, 10),
					lookups,
					lookupConnections,
				});
			}
			return json(res, 404, { success: false, message: 'not found', data: {} });
		});
	});
	server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
	process.on('disconnect', () => process.exit(0));
}

export async function startWebhookServers() {
	const child = fork(fileURLToPath(import.meta.url), ['serve'], { stdio: 'inherit' });
	const { port } = await new Promise((resolve, reject) => {
		child.once('message', resolve);
		child.once('exit', (code) => reject(new Error(`bench servers exited (${code})`)));
	});
	const origin = `http://127.0.0.1:${port}`;
	return {
		apiUrl: `${origin}/v1`,
		sinkUrl: `${origin}/sink`,
		async count(prefix) {
			return await (
				await fetch(`${origin}/sink/count?prefix=${encodeURIComponent(prefix)}`)
			).json();
		},
		stop: () => child.kill(),
	};
}

if (process.argv[2] === 'serve') serve();
