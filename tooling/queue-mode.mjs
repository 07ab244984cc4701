// n8n's queue mode on one machine, from Debian's postgresql and redis-server: a throwaway PostgreSQL
// cluster and a Redis server on loopback ports, and the environment that points n8n's main and its
// workers at them (EXECUTIONS_MODE=queue). Used by `npm run bench -- --webhooks`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort, runCommand, sleep, waitFor } from './util.mjs';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Debian's PostgreSQL server binaries (/usr/lib/postgresql/<version>/bin), newest first. */
function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	const versions = fs.existsSync(root)
		? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
		: [];
	versions.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(root, versions[0], 'bin') : undefined;
}

function hasRedis() {
	return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs Debian's postgresql and redis-server when they are missing (as root, with apt-get), or
 * says how to. Returns the PostgreSQL bin directory.
 */
export async function ensureQueueModePackages({ log = () => {} } = {}) {
	if (postgresBinDir() && hasRedis()) return postgresBinDir();
	if (!isRoot)
		throw new Error(
			'PostgreSQL and Redis are needed: sudo apt-get install postgresql redis-server',
		);
	log('installing postgresql and redis-server (apt-get)');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [
		['update'],
		['install', '-y', '--no-install-recommends', 'postgresql', 'redis-server'],
	]) {
		const res = await runCommand('apt-get', args, { env, timeoutMs: 900000 });
		if (res.code !== 0)
			throw new Error(
				`apt-get ${args.join(' ')} failed:\n${res.stdout.slice(-2000)}\n${res.stderr.slice(-2000)}`,
			);
	}
	const bin = postgresBinDir();
	if (!bin || !hasRedis())
		throw new Error('postgresql / redis-server still missing after apt-get install');
	return bin;
}

/** Runs a PostgreSQL tool as the `postgres` user when we are root (PostgreSQL refuses to run as root). */
function asPostgresUser(command, args) {
	return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/**
 * A new PostgreSQL cluster in a temporary folder, listening on 127.0.0.1:<free port> only, trust
 * authentication (loopback, throwaway). Resolves { host, port, user, database, stop() }.
 */
export async function startPostgres({ log = () => {}, binDir, statementStats = false } = {}) {
	const bin = binDir ?? postgresBinDir();
	if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-bench-pg-'));
	const data = path.join(dir, 'data');
	fs.mkdirSync(data);
	if (isRoot) spawnSync('chown', ['-R', 'postgres:postgres', dir]);
	const port = await freePort();
	const [initCmd, initArgs] = asPostgresUser(path.join(bin, 'initdb'), [
		'-D',
		data,
		'-U',
		'postgres',
		'--auth=trust',
		'--no-sync',
		'-E',
		'UTF8',
	]);
	const init = await runCommand(initCmd, initArgs, { timeoutMs: 120000 });
	if (init.code !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
	// Durability is not what is measured: the same settings for both rows, fsync off to spare the shared disk.
	const [cmd, args] = asPostgresUser(path.join(bin, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-k',
		dir,
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=100',
		...(statementStats ? ['-c', 'shared_preload_libraries=pg_stat_statements'] : []),
	]);
	const logFile = path.join(dir, 'postgres.log');
	const out = fs.openSync(logFile, 'a');
	const child = spawn(cmd, args, { stdio: ['ignore', out, out], detached: true });
	fs.closeSync(out);
	let exited = false;
	child.on('exit', () => (exited = true));
	const [readyCmd, readyArgs] = asPostgresUser(path.join(bin, 'pg_isready'), [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
	]);
	await waitFor(
		async () => {
			if (exited)
				throw Object.assign(
					new Error(`postgres exited:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`),
					{ fatal: true },
				);
			return (await runCommand(readyCmd, readyArgs, { timeoutMs: 10000 })).code === 0;
		},
		{ timeoutMs: 60000, intervalMs: 300, what: `PostgreSQL on 127.0.0.1:${port}` },
	);
	/**
	 * Runs SQL with psql; resolves its rows as text (unaligned, `|` between columns). The statement goes
	 * on psql's standard input: as an argument, one past 128 KiB (a full duplicate memory) cannot be run.
	 */
	const sql = async (statement, database = 'n8n') => {
		const [psqlCmd, psqlArgs] = asPostgresUser(path.join(bin, 'psql'), [
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			'-U',
			'postgres',
			'-d',
			database,
			'-At',
			'-v',
			'ON_ERROR_STOP=1',
		]);
		const res = await runCommand(psqlCmd, psqlArgs, { timeoutMs: 30000, input: statement });
		if (res.code !== 0) throw new Error(`psql failed (${statement.slice(0, 60)}): ${res.stderr}`);
		return res.stdout;
	};
	await sql('CREATE DATABASE n8n', 'postgres');
	if (statementStats) await sql('CREATE EXTENSION pg_stat_statements');
	log(`PostgreSQL on 127.0.0.1:${port} (${bin})`);
	return {
		host: '127.0.0.1',
		port,
		user: 'postgres',
		database: 'n8n',
		sql,
		async stop() {
			if (!exited) {
				try {
					process.kill(-child.pid, 'SIGINT');
				} catch {
					/* gone */
				}
				for (let i = 0; i < 100 && !exited; i++) await sleep(100);
			}
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** A Redis server on 127.0.0.1:<free port>, nothing persisted. Resolves { host, port, stop() }. */
export async function startRedis({ log = () => {} } = {}) {
	const port = await freePort();
	const child = spawn(
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{
			stdio: 'ignore',
			detached: true,
		},
	);
	let exited = false;
	child.on('exit', () => (exited = true));
	await waitFor(
		async () => {
			if (exited) throw Object.assign(new Error('redis-server exited'), { fatal: true });
			return (
				(
					await runCommand('redis-cli', ['-p', String(port), 'ping'], { timeoutMs: 5000 })
				).stdout.trim() === 'PONG'
			);
		},
		{ timeoutMs: 30000, intervalMs: 200, what: `Redis on 127.0.0.1:${port}` },
	);
	log(`Redis on 127.0.0.1:${port}`);
	return {
		host: '127.0.0.1',
		port,
		async stop() {
			if (exited) return;
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				/* gone */
			}
			for (let i = 0; i < 50 && !exited; i++) await sleep(100);
		},
	};
}

/** n8n's environment for its database on this PostgreSQL (main and workers alike, either mode). */
export function postgresEnv(postgres) {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: 'trust',
	};
}

/** n8n's environment for queue mode on these servers (main and workers alike). */
export function queueModeEnv(postgres, redis) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		...postgresEnv(postgres),
	};
}
