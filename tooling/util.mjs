// Small helpers shared by scripts/start.mjs and e2e/run.mjs (plain ESM, no dependencies).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when nothing listens on 127.0.0.1:port (and we can bind it). */
export function isPortFree(port, host = '127.0.0.1') {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
	});
}

/** First free port at or after `start` (0 = any free port). */
export async function freePort(start = 0) {
	if (!start) {
		return await new Promise((resolve, reject) => {
			const server = net.createServer();
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				const { port } = server.address();
				server.close(() => resolve(port));
			});
		});
	}
	for (let port = start; port < start + 200; port++) {
		// n8n binds 0.0.0.0 or 127.0.0.1 depending on settings: check both
		if ((await isPortFree(port, '127.0.0.1')) && (await isPortFree(port, '0.0.0.0'))) return port;
	}
	throw new Error(`no free port in ${start}..${start + 199}`);
}

/** Polls fn() until it returns a truthy value or the time runs out. */
export async function waitFor(
	fn,
	{ timeoutMs = 60000, intervalMs = 250, what = 'condition' } = {},
) {
	const deadline = Date.now() + timeoutMs;
	let lastError;
	while (Date.now() < deadline) {
		try {
			const value = await fn();
			if (value) return value;
		} catch (error) {
			lastError = error;
		}
		await sleep(intervalMs);
	}
	throw new Error(
		`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError.message})` : ''}`,
	);
}

/**
 * Runs a command and collects its output. Resolves { code, signal, stdout, stderr, ms }; never rejects
 * on a non-zero exit. `timeoutMs` kills the process group.
 */
export function runCommand(cmd, args, { env, cwd, timeoutMs = 600000, input, echo = false } = {}) {
	return new Promise((resolve, reject) => {
		const t0 = Date.now();
		const child = spawn(cmd, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => {
			stdout += chunk;
			if (echo) process.stdout.write(chunk);
		});
		child.stderr.on('data', (chunk) => {
			stderr += chunk;
			if (echo) process.stderr.write(chunk);
		});
		const timer = setTimeout(() => {
			stderr += `\n[killed after ${timeoutMs} ms]`;
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				/* already gone */
			}
		}, timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 });
		});
		if (input !== undefined) child.stdin.end(input);
		else child.stdin.end();
	});
}

/** Minimal JSON HTTP client on node:http (keeps cookies in `jar` when given). */
export function httpJson(method, url, { body, headers = {}, jar, timeoutMs = 30000 } = {}) {
	return new Promise((resolve, reject) => {
		const target = new URL(url);
		const data =
			body === undefined
				? undefined
				: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
		const allHeaders = { accept: 'application/json', ...headers };
		if (data) {
			allHeaders['content-type'] = allHeaders['content-type'] || 'application/json';
			allHeaders['content-length'] = String(data.length);
		}
		if (jar && jar.size) allHeaders.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
		const req = http.request(target, { method, headers: allHeaders, timeout: timeoutMs }, (res) => {
			const chunks = [];
			res.on('data', (c) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				if (jar) {
					for (const cookie of [].concat(res.headers['set-cookie'] || [])) {
						const [pair] = cookie.split(';');
						const eq = pair.indexOf('=');
						jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
					}
				}
				let json;
				try {
					json = text ? JSON.parse(text) : undefined;
				} catch {
					json = undefined;
				}
				resolve({ status: res.statusCode, headers: res.headers, text, json });
			});
			res.on('error', reject);
		});
		req.on('timeout', () => req.destroy(new Error(`timeout ${method} ${url}`)));
		req.on('error', reject);
		req.end(data);
	});
}

export function readJson(file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

export function writeJson(file, data) {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
}

/** Human-friendly seconds. */
export const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;

/**
 * Extracts the JSON document `n8n execute --rawOutput` prints. n8n prints log lines around it
 * (task broker, warnings; on failure "Execution error:" then the run data), so this returns the
 * last document that starts with a line "{" and ends with a line "}" (both at column 0).
 */
export function extractExecutionJson(text) {
	const lines = text.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
	let found;
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		const end = lines.indexOf('}', i + 1);
		if (end < 0) break;
		try {
			found = JSON.parse(lines.slice(i, end + 1).join('\n'));
			i = end;
		} catch {
			/* not a document: keep looking */
		}
	}
	return found;
}
