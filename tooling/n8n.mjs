// A real n8n (installed by tooling/n8n-install.mjs) driven through its own CLI and REST API.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureN8n, n8nEnv } from './n8n-install.mjs';
import {
	extractExecutionJson,
	freePort,
	httpJson,
	runCommand,
	secs,
	sleep,
	waitFor,
	writeJson,
} from './util.mjs';

export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Sandbox',
	lastName: 'Owner',
	password: 'CryptoSandbox1',
};

/** The flags n8n's own community-package installer passes to `npm install` (1.123 and 2.41 alike). */
const COMMUNITY_INSTALL_ARGS = [
	'install',
	'--audit=false',
	'--fund=false',
	'--bin-links=false',
	'--install-strategy=shallow',
	'--ignore-scripts=true',
	'--package-lock=false',
];

/** `n8n start` processes of this process: killed if we exit without stopping them (Ctrl-C, crash). */
const running = new Set();
process.on('exit', () => {
	for (const child of running) {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			/* gone */
		}
	}
});

export class N8n {
	/**
	 * @param {object} o
	 * @param {'2'|'1'} o.line
	 * @param {string} o.userFolder N8N_USER_FOLDER (n8n keeps its data in <userFolder>/.n8n)
	 * @param {number} o.port
	 * @param {string} [o.encryptionKey]
	 * @param {(s: string) => void} [o.log]
	 * @param {string} [o.logFile] where `n8n start` output goes
	 */
	constructor({ line, userFolder, port, encryptionKey, log = () => {}, logFile, extraEnv = {} }) {
		this.inst = ensureN8n(line);
		this.line = String(line);
		this.userFolder = userFolder;
		this.port = port;
		this.log = log;
		this.logFile = logFile || path.join(userFolder, 'n8n-start.log');
		this.encryptionKey = encryptionKey || folderKey(userFolder);
		this.extraEnv = extraEnv;
		this.jar = new Map();
		this.proc = undefined;
	}

	get version() {
		return this.inst.version;
	}

	get baseUrl() {
		return `http://localhost:${this.port}`;
	}

	get nodesDir() {
		return path.join(this.userFolder, '.n8n', 'nodes');
	}

	/** Environment of every n8n process of this instance; the task broker port is per process. */
	async env(extra = {}) {
		return n8nEnv(this.inst, {
			userFolder: this.userFolder,
			port: this.port,
			encryptionKey: this.encryptionKey,
			extra: {
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				// 1.x: no task runners (the Code node falls back to in-process); 2.x always starts its broker.
				N8N_RUNNERS_ENABLED: this.line === '1' ? 'false' : 'true',
				...this.extraEnv,
				...extra,
			},
		});
	}

	/** Runs one `n8n <args>` CLI command; resolves { code, stdout, stderr, ms }. */
	async cli(args, { timeoutMs = 300000, echo = false } = {}) {
		const res = await runCommand(this.inst.nodeBin, [this.inst.n8nMain, ...args], {
			env: await this.env(),
			cwd: this.userFolder,
			timeoutMs,
			echo,
		});
		return res;
	}

	async cliOrThrow(args, opts) {
		const res = await this.cli(args, opts);
		if (res.code !== 0) {
			throw new Error(
				`n8n ${args.join(' ')} exited ${res.code ?? res.signal}:\n${tail(res.stdout + res.stderr, 40)}`,
			);
		}
		return res;
	}

	/**
	 * Installs a package tarball the way n8n's community-package installer does: unpack it into
	 * <userFolder>/.n8n/nodes/node_modules/<name>, drop dev/peer/optional dependencies, `npm install`
	 * its own dependencies with the installer's flags, and record it in nodes/package.json.
	 */
	async installPackage(tarball) {
		const nodesDir = this.nodesDir;
		fs.mkdirSync(path.join(nodesDir, 'node_modules'), { recursive: true });
		const ledgerFile = path.join(nodesDir, 'package.json');
		let ledger = { name: 'installed-nodes', private: true, dependencies: {} };
		try {
			const existing = JSON.parse(fs.readFileSync(ledgerFile, 'utf8'));
			if (existing && existing.dependencies) ledger = existing;
		} catch {
			/* new ledger */
		}
		const manifest = await tarballManifest(tarball);
		const packageDir = path.join(nodesDir, 'node_modules', manifest.name);
		fs.rmSync(packageDir, { recursive: true, force: true });
		fs.mkdirSync(packageDir, { recursive: true });
		const untar = await runCommand('tar', [
			'-xzf',
			tarball,
			'-C',
			packageDir,
			'--strip-components=1',
		]);
		if (untar.code !== 0) throw new Error(`tar failed: ${untar.stderr}`);
		const pjFile = path.join(packageDir, 'package.json');
		const { devDependencies, peerDependencies, optionalDependencies, ...pj } = JSON.parse(
			fs.readFileSync(pjFile, 'utf8'),
		);
		fs.writeFileSync(pjFile, JSON.stringify(pj, null, 2));
		const npm = await runCommand('npm', COMMUNITY_INSTALL_ARGS, {
			cwd: packageDir,
			env: {
				...process.env,
				PATH: `${this.inst.binDir}${path.delimiter}${process.env.PATH}`,
				npm_config_loglevel: 'error',
			},
			timeoutMs: 300000,
		});
		if (npm.code !== 0)
			throw new Error(`npm install in ${packageDir} failed:\n${npm.stdout}\n${npm.stderr}`);
		ledger.dependencies[manifest.name] = manifest.version;
		writeJson(ledgerFile, ledger);
		return { name: manifest.name, version: manifest.version, dir: packageDir };
	}

	/**
	 * Records the installed package in n8n's database (installed_packages / installed_nodes) as n8n's
	 * installer does, so Settings → Community nodes lists it. Needs the database: call it after a
	 * first CLI command (import) has run the migrations, and while `n8n start` is not running.
	 */
	async registerPackage(info) {
		const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'register-package.cjs');
		const res = await runCommand(
			this.inst.nodeBin,
			[script, path.join(this.userFolder, '.n8n', 'database.sqlite'), info.dir],
			{
				env: { ...process.env, NODE_PATH: path.join(this.inst.dir, 'node_modules') },
				cwd: this.inst.dir,
				timeoutMs: 60000,
			},
		);
		if (res.code !== 0)
			throw new Error(
				`registering the package in n8n's database failed:\n${res.stdout}\n${res.stderr}`,
			);
		return JSON.parse(res.stdout.trim().split('\n').pop());
	}

	/** n8n import:credentials from a list of { id, name, type, data } (data in plain text; n8n encrypts it). */
	async importCredentials(credentials) {
		const file = path.join(this.userFolder, 'import-credentials.json');
		writeJson(file, credentials);
		try {
			return await this.cliOrThrow(['import:credentials', `--input=${file}`]);
		} finally {
			fs.rmSync(file, { force: true });
		}
	}

	/** n8n import:workflow from workflow objects (one file holding an array). */
	async importWorkflows(workflows) {
		const file = path.join(this.userFolder, 'import-workflows.json');
		writeJson(
			file,
			workflows.map((wf) => ({ ...wf, active: false })),
		);
		try {
			return await this.cliOrThrow(['import:workflow', `--input=${file}`]);
		} finally {
			fs.rmSync(file, { force: true });
		}
	}

	/** Activates a workflow for the next `n8n start`: publish:workflow on 2.x, update:workflow on 1.x. */
	async activate(id) {
		if (this.line === '1')
			return await this.cliOrThrow(['update:workflow', `--id=${id}`, '--active=true']);
		return await this.cliOrThrow(['publish:workflow', `--id=${id}`]);
	}

	/**
	 * `n8n execute --id <id> --rawOutput`; returns { ok, status, run, error, runData, code, stdout, stderr, ms }.
	 * `run` is the run data n8n prints (also on failure, where n8n logs it before the error).
	 */
	async execute(id, { timeoutMs = 180000 } = {}) {
		const res = await this.cli(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs });
		const run = extractExecutionJson(res.stdout);
		const resultData = run?.data?.resultData;
		return {
			...res,
			run,
			status: run?.status,
			ok: res.code === 0 && !!run && !resultData?.error,
			error: resultData?.error,
			runData: resultData?.runData ?? {},
		};
	}

	/** Spawns `n8n <args>` in the background (its own process group), output appended to `logFile`. */
	async spawnCli(args, { logFile = this.logFile, nodeArgs = [], env = {} } = {}) {
		const out = fs.openSync(logFile, 'a');
		const child = spawn(this.inst.nodeBin, [...nodeArgs, this.inst.n8nMain, ...args], {
			env: await this.env(env),
			cwd: this.userFolder,
			stdio: ['ignore', out, out],
			detached: true,
		});
		fs.closeSync(out);
		running.add(child);
		child.on('exit', () => running.delete(child));
		return child;
	}

	/**
	 * Starts `n8n worker` (queue mode) in the background. Resolves { proc, stop({ graceMs }) } once its health
	 * server (on a free loopback port) says it is ready for jobs.
	 */
	async startWorker({ concurrency = 5, logFile, nodeArgs = [], timeoutMs = 180000 } = {}) {
		const healthPort = await freePort();
		const child = await this.spawnCli(['worker', `--concurrency=${concurrency}`], {
			logFile,
			nodeArgs,
			env: {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			},
		});
		let exited = null;
		child.on('exit', (code, signal) => (exited = { code, signal }));
		await waitFor(
			async () => {
				if (exited)
					throw new Error(
						`n8n worker exited (${exited.code ?? exited.signal}); log:\n${tail(readFileSafe(logFile), 40)}`,
					);
				const res = await httpJson('GET', `http://127.0.0.1:${healthPort}/healthz/readiness`, {
					timeoutMs: 2000,
				}).catch(() => null);
				return res?.status === 200;
			},
			{ timeoutMs, intervalMs: 500, what: `n8n worker ready (health port ${healthPort})` },
		);
		return { proc: child, stop: ({ graceMs } = {}) => stopProcess(child, graceMs) };
	}

	/**
	 * Starts `n8n start` in the background; resolves once its REST API answers a login, saying every
	 * 10 s what it waits for through `progress`. n8n answers /healthz, then /rest/settings, before it
	 * registers every route: a login made then met a 404 (issue #70), so the last wait is for
	 * GET /rest/login to answer 401 (not logged in) instead of 404 or 503.
	 * `nodeArgs` go to Node (e.g. --cpu-prof).
	 */
	async start({ timeoutMs = 240000, nodeArgs = [], progress = this.log } = {}) {
		if (this.proc) throw new Error('n8n already started');
		this.proc = await this.spawnCli(['start'], { nodeArgs });
		let exited = null;
		const child = this.proc;
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			if (this.proc === child) this.proc = undefined;
			this.onExit?.(exited);
		});
		const t0 = Date.now();
		const status = async (urlPath) =>
			(
				await httpJson('GET', `${this.baseUrl}${urlPath}`, { timeoutMs: 3000 }).catch(() => ({
					status: 0,
				}))
			).status;
		const stages = [
			{
				what: 'its health check (/healthz): loading its nodes and migrating its database',
				ready: async () => (await status('/healthz')) === 200,
			},
			{
				what: 'its REST API (/rest/settings)',
				ready: async () => (await status('/rest/settings')) === 200,
			},
			{
				what: 'its login route (/rest/login)',
				ready: async () => [200, 401].includes(await status('/rest/login')),
			},
		];
		let said = t0;
		for (const stage of stages) {
			while (!(await stage.ready())) {
				if (exited)
					throw new Error(
						`n8n start exited (${exited.code ?? exited.signal}); log:\n${tail(readFileSafe(this.logFile), 40)}`,
					);
				if (Date.now() - t0 > timeoutMs)
					throw new Error(
						`timed out after ${timeoutMs} ms waiting for n8n ${this.version}'s ${stage.what} on port ${this.port}\nlog:\n${tail(readFileSafe(this.logFile), 40)}`,
					);
				if (Date.now() - said >= 10000) {
					said = Date.now();
					progress(
						`n8n ${this.version} is coming up (${secs(Date.now() - t0)}): waiting for ${stage.what}`,
					);
				}
				await sleep(500);
			}
		}
		// the editor's index.html is compiled into <userFolder>/.cache/n8n/public right after start
		await waitFor(
			async () =>
				/<html/i.test(
					(
						await httpJson('GET', `${this.baseUrl}/`, {
							headers: { accept: 'text/html' },
							timeoutMs: 3000,
						}).catch(() => ({}))
					).text || '',
				),
			{ timeoutMs: 60000, intervalMs: 500, what: 'the editor page' },
		).catch(() => {});
		return Date.now() - t0;
	}

	/** Waits until the log shows that active workflows were activated (or times out quietly). */
	async waitForLog(pattern, timeoutMs = 30000) {
		return await waitFor(() => pattern.test(readFileSafe(this.logFile)), {
			timeoutMs,
			what: `n8n log ${pattern}`,
		});
	}

	/** SIGTERM (n8n shuts down gracefully, writing a --cpu-prof profile), SIGKILL after `graceMs`. */
	async stop({ graceMs } = {}) {
		if (this.proc) await stopProcess(this.proc, graceMs);
	}

	/** Sets up the instance owner through REST (idempotent: an existing owner is fine) and logs in. */
	async setupOwner(owner = OWNER) {
		const res = await httpJson('POST', `${this.baseUrl}/rest/owner/setup`, {
			body: owner,
			jar: this.jar,
		});
		if (res.status !== 200) {
			// already set up: log in instead
			await this.login(owner);
			return { created: false };
		}
		if (!this.jar.size) await this.login(owner);
		return { created: true };
	}

	/**
	 * Logs in. n8n answers /rest/settings before it registers every route, so a login made just after
	 * a (re)start may meet a 404 or 503 for /rest/login (issue #70): tried again every second, saying
	 * so, for up to a minute; any other refusal fails at once.
	 */
	async login(owner = OWNER, { timeoutMs = 60000 } = {}) {
		const t0 = Date.now();
		for (let attempt = 1; ; attempt++) {
			const res = await httpJson('POST', `${this.baseUrl}/rest/login`, {
				body: { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password },
				jar: this.jar,
			}).catch((error) => ({ status: 0, text: String(error?.message ?? error) }));
			if (res.status === 200) return res.json;
			const comingUp = res.status === 0 || res.status === 404 || res.status === 503;
			if (!comingUp || Date.now() - t0 > timeoutMs)
				throw new Error(`n8n login failed: ${res.status} ${res.text.slice(0, 300)}`);
			if (attempt === 1 || attempt % 10 === 0)
				console.log(
					`n8n is still coming up (POST /rest/login answered ${res.status || 'nothing'}); trying again`,
				);
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}

	/** Authenticated REST call (after setupOwner/login), answered whatever its status. */
	async restResponse(method, urlPath, body) {
		return await httpJson(method, `${this.baseUrl}/rest${urlPath}`, {
			body,
			jar: this.jar,
			headers: { 'browser-id': 'crypto-settlement-e2e' },
		});
	}

	/** Authenticated REST call (after setupOwner/login); its data, or an error on a 4xx/5xx. */
	async rest(method, urlPath, body) {
		const res = await this.restResponse(method, urlPath, body);
		if (res.status >= 400)
			throw new Error(`n8n REST ${method} ${urlPath}: ${res.status} ${res.text.slice(0, 300)}`);
		return res.json?.data ?? res.json;
	}

	/** Executions of a workflow, newest first (summaries: id, status, mode, ...). */
	async executions(workflowId) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const data = await this.rest('GET', `/executions?filter=${filter}&limit=100`);
		return data?.results ?? data ?? [];
	}

	/** Executions of a workflow that have ended (not new, running or waiting), newest first. */
	async endedExecutions(workflowId) {
		return (await this.executions(workflowId)).filter(
			(e) => !['running', 'new', 'waiting'].includes(e.status),
		);
	}

	/** Cookie header value of the logged-in session, for the browser. */
	cookies() {
		return [...this.jar].map(([name, value]) => ({ name, value }));
	}
}

/** SIGTERM to a process group spawned by `spawnCli`, SIGKILL after `graceMs`. */
async function stopProcess(proc, graceMs = 20000) {
	if (proc.exitCode !== null || proc.signalCode !== null) return;
	const exited = new Promise((resolve) => proc.once('exit', resolve));
	try {
		process.kill(-proc.pid, 'SIGTERM');
	} catch {
		/* gone */
	}
	const timeout = sleep(graceMs).then(() => 'timeout');
	if ((await Promise.race([exited, timeout])) === 'timeout') {
		try {
			process.kill(-proc.pid, 'SIGKILL');
		} catch {
			/* gone */
		}
		await exited;
	}
}

/**
 * The user folder's encryption key: random, made once and kept in <userFolder>/.n8n/encryption-key,
 * so every n8n command on that folder agrees (and each folder is its own n8n instance: n8n derives
 * the instance id from this key).
 */
function folderKey(userFolder) {
	const file = path.join(userFolder, '.n8n', 'encryption-key');
	fs.mkdirSync(path.dirname(file), { recursive: true });
	if (!fs.existsSync(file)) {
		// a folder n8n already initialised keeps its key (n8n stores it in .n8n/config)
		let key;
		try {
			key = JSON.parse(
				fs.readFileSync(path.join(userFolder, '.n8n', 'config'), 'utf8'),
			).encryptionKey;
		} catch {
			/* new folder */
		}
		fs.writeFileSync(file, key || crypto.randomBytes(24).toString('base64url'), { mode: 0o600 });
	}
	return fs.readFileSync(file, 'utf8').trim();
}

/** name and version from a package tarball. */
export async function tarballManifest(tarball) {
	const res = await runCommand('tar', ['-xzOf', tarball, 'package/package.json']);
	if (res.code !== 0) throw new Error(`cannot read package.json from ${tarball}: ${res.stderr}`);
	const pj = JSON.parse(res.stdout);
	return { name: pj.name, version: pj.version };
}

export function readFileSafe(file) {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}

export function tail(text, n = 30) {
	return String(text).trimEnd().split('\n').slice(-n).join('\n');
}
