// The bench's local server, in a child process so the client side (the part we own) is what is
// measured: a keep-alive HTTP server answering wallet get, the paged wallet list, the withdrawal
// lookups by id or External ID and crypto withdrawals under 200 per rolling minute.
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

// ---- the server (child process) ---------------------------------------------------------------
// argv: serve <latency ms> <records in the wallet list>. Answers wallet get, the paged wallet list,
// withdrawals by id or External ID and crypto withdrawals under 200 per rolling minute.
export function serve() {
	const latencyMs = Number(process.argv[3] ?? 0);
	const listTotal = Number(process.argv[4] ?? 5000);
	const sent = [];
	let refused = 0;
	let lookups = 0;
	let created = 0;
	const withdrawals = new Map();
	const received = [];
	const wallet = (id) => ({
		id,
		label: `wallet ${id}`,
		address: 'TUDicd4DY4cnv5wmnsufft6f5sw1zV8Nbw',
		asset: 'USDT',
		network: 'TRC20',
	});
	const answer = (res, status, payload, headers = {}) => {
		const body = JSON.stringify(payload);
		const send = () => {
			res.writeHead(status, {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(body),
				...headers,
			});
			res.end(body);
		};
		if (latencyMs) setTimeout(send, latencyMs);
		else send();
	};
	const server = http.createServer({ keepAlive: true, keepAliveTimeout: 60_000 }, (req, res) => {
		const url = new URL(req.url, 'http://bench');
		const parts = url.pathname.split('/').filter(Boolean);
		if (req.method === 'POST' && url.pathname === '/payments/withdraw/address') {
			const chunks = [];
			req.on('data', (chunk) => chunks.push(chunk));
			req.on('end', () => {
				const now = Date.now();
				while (sent.length && sent[0] <= now - 60_000) sent.shift();
				if (sent.length >= 200) {
					refused++;
					return answer(
						res,
						429,
						{ message: 'too many requests' },
						{ 'retry-after': String(Math.ceil((sent[0] + 60_000 - now) / 1000)) },
					);
				}
				sent.push(now);
				received.push(now);
				const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
				const id = `wd-${++created}`;
				const record = {
					id,
					type: 'crypto',
					status: 'pending',
					externalId: body.externalId,
					token: body.token,
					network: body.network,
					walletAddress: body.walletAddress,
					amount: body.amount,
					createdAt: new Date(now).toISOString(),
				};
				withdrawals.set(id, record);
				if (body.externalId) withdrawals.set(body.externalId, record);
				return answer(res, 200, {
					success: true,
					message: 'withdrawal initiated successfully',
					data: { id },
				});
			});
			return;
		}
		req.resume();
		if (url.pathname === '/stats')
			return answer(res, 200, { refused, sent: sent.length, lookups, received });
		if (parts[0] === 'payments' && parts[1] === 'withdrawal') {
			lookups++;
			const record = withdrawals.get(decodeURIComponent(parts[2] ?? ''));
			if (record)
				return answer(res, 200, {
					success: true,
					message: 'withdrawal retrieved successfully',
					data: record,
				});
			return answer(res, 404, {
				success: false,
				message: 'withdrawal not found',
				errors: [],
				meta: {},
				data: {},
			});
		}
		if (parts.length === 2 && parts[1] === 'wallets') {
			const page = Number(url.searchParams.get('page') ?? 1);
			const size = Number(url.searchParams.get('size') ?? 10);
			const pages = Math.ceil(listTotal / size);
			const data = Array.from(
				{ length: Math.max(0, Math.min(size, listTotal - (page - 1) * size)) },
				(_, i) => wallet(`w-${(page - 1) * size + i}`),
			);
			return answer(res, 200, {
				success: true,
				message: 'wallets retrieved successfully',
				data,
				meta: { page, pages, totalDocs: listTotal, hasNextPage: page < pages },
			});
		}
		return answer(res, 200, {
			success: true,
			message: 'Wallet retrieved successfully',
			data: wallet(decodeURIComponent(parts.pop() ?? '')),
		});
	});
	server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
	process.on('disconnect', () => process.exit(0));
}

export async function startServer(latencyMs = 0, listTotal = 5000) {
	const child = fork(
		fileURLToPath(import.meta.url),
		['serve', String(latencyMs), String(listTotal)],
		{ stdio: 'inherit' },
	);
	const { port } = await new Promise((resolve, reject) => {
		child.once('message', resolve);
		child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
	});
	return { port, stop: () => child.kill() };
}

if (process.argv[2] === 'serve') serve();
