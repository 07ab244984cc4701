#!/usr/bin/env node
// `npm run test:e2e`: the package inside a real n8n, installed the way users install community
// nodes, against the local sandbox — on n8n 2.41.x (Node 24) and n8n 1.123.x (Node 20).
//
//   node e2e/run.mjs [--line=2|1|all] [--skip-build] [--no-browser] [--keep] [--update-screenshot]
//   env: E2E_LINES=2,1   E2E_BROWSER=0   E2E_KEEP=1 (keep user folders)   N8N_CS_CACHE=<cache dir>
//   --update-screenshot (E2E_UPDATE_SCREENSHOT=1): the browser check on n8n 2.x also saves the
//   node's panel to docs/images/crypto-settlement-node.png, the README's screenshot
//
// Per line: fresh n8n user folder; `npm pack` tarball unpacked into <userFolder>/.n8n/nodes as
// n8n's community-package installer does; credential + workflows imported with n8n's CLI; the
// action workflows run by `n8n execute --id … --rawOutput`; then `n8n start` with the trigger
// workflow active receives the sandbox's webhooks; then a headless Chromium opens the editor.
// Prints PASS/FAIL per check and ends with `e2e: N passed, M failed`.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { cacheDir, LINES } from '../tooling/n8n-install.mjs';
import { browserCheck, DOCS_PANELS, DOCS_SCREENSHOT, ensureChromium } from './lib/browser.mjs';
import { startCollector } from './lib/collector.mjs';
import { N8n, tail } from '../tooling/n8n.mjs';
import { buildPackage, packPackage } from '../tooling/pack.mjs';
import { startFakeApi } from '../tooling/fake-api.mjs';
import { CREDENTIAL_ID, CREDENTIAL_NAME, E2E, EXAMPLES, loadWorkflow, sandboxApi, sandboxCredential, triggerUrl, WEBHOOK_SECRET } from '../tooling/setup.mjs';
import { freePort, httpJson, REPO_ROOT, secs, sleep, waitFor } from '../tooling/util.mjs';
import { tourExpectations, RESOURCES } from './expectations.mjs';

const args = new Set(process.argv.slice(2));
const argValue = (name) => process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const lineArg = argValue('line') || process.env.E2E_LINES || 'all';
const linesToRun = lineArg === 'all' ? ['2', '1'] : lineArg.split(',').map((s) => s.trim());
const browserWanted = !args.has('--no-browser') && process.env.E2E_BROWSER !== '0';
const keep = args.has('--keep') || process.env.E2E_KEEP === '1';
const updateScreenshot = args.has('--update-screenshot') || process.env.E2E_UPDATE_SCREENSHOT === '1';
const ARTIFACTS = path.join(REPO_ROOT, 'artifacts', 'e2e');

const results = [];
let currentLine = '';
const t0 = Date.now();

function say(msg) {
	process.stdout.write(`${msg}\n`);
}

/** Runs one named check; a thrown error is a FAIL with its message. */
async function check(name, fn) {
	const label = currentLine ? `[n8n ${currentLine}] ${name}` : name;
	const start = Date.now();
	try {
		const detail = await fn();
		results.push({ label, ok: true });
		say(`PASS ${label} (${secs(Date.now() - start)})${detail ? ` — ${detail}` : ''}`);
		return true;
	} catch (error) {
		results.push({ label, ok: false, error });
		say(`FAIL ${label} (${secs(Date.now() - start)})\n     ${String(error?.stack || error).split('\n').slice(0, 12).join('\n     ')}`);
		return false;
	}
}

function skip(name, why) {
	say(`SKIP ${currentLine ? `[n8n ${currentLine}] ` : ''}${name} — ${why}`);
}

function assert(cond, message) {
	if (!cond) throw new Error(message);
}

/** Installs the n8n lines in parallel child processes (the installer is idempotent and cached). */
async function installLines(lines) {
	const runs = lines.map(
		(line) =>
			new Promise((resolve) => {
				const child = spawn(process.execPath, [path.join(REPO_ROOT, 'tooling', 'n8n-install.mjs'), line], {
					stdio: ['ignore', 'pipe', 'pipe'],
				});
				let out = '';
				child.stdout.on('data', (c) => {
					out += c;
					for (const l of String(c).split('\n').filter(Boolean)) say(`  [install ${line}] ${l.replace(/^\[n8n-install\] /, '')}`);
				});
				child.stderr.on('data', (c) => (out += c));
				child.on('close', (code) => resolve({ line, code, out }));
			}),
	);
	return await Promise.all(runs);
}

/** Items of a node's first run, first output. */
function itemsOf(exec, nodeName) {
	const run = exec.runData[nodeName]?.[0];
	if (!run) return undefined;
	return (run.data?.main?.[0] ?? []).map((item) => item.json);
}

function nodeError(exec, nodeName) {
	const run = exec.runData[nodeName]?.[0];
	if (!run) return `node "${nodeName}" did not run`;
	if (run.error) return run.error.message || JSON.stringify(run.error);
	const items = itemsOf(exec, nodeName);
	if (!items?.length) return `node "${nodeName}" output no items`;
	const failed = items.find((json) => json && typeof json.error !== 'undefined' && Object.keys(json).length <= 3);
	if (failed) return `node "${nodeName}" output an error item: ${JSON.stringify(failed).slice(0, 300)}`;
	return undefined;
}

function describeFailure(exec) {
	if (!exec.run) return `no run data printed (exit ${exec.code ?? exec.signal}):\n${tail(exec.stdout + '\n' + exec.stderr, 25)}`;
	return `status ${exec.status}, error: ${exec.error?.message ?? 'none'} ${exec.error?.description ?? ''}`;
}

async function runLine(line, tarball, chromium) {
	currentLine = `${LINES[line].version}`;
	const lineStart = Date.now();
	say(`\n=== n8n ${LINES[line].version} (Node ${LINES[line].node}) ===`);
	const root = path.join(cacheDir(), 'e2e');
	const userFolder = path.join(root, `n8n-${LINES[line].version}`);
	fs.rmSync(userFolder, { recursive: true, force: true });
	fs.mkdirSync(userFolder, { recursive: true });
	const artifacts = path.join(ARTIFACTS, `n8n-${LINES[line].version}`);
	fs.rmSync(artifacts, { recursive: true, force: true });
	fs.mkdirSync(artifacts, { recursive: true });

	const collector = await startCollector();
	const sandbox = await startFakeApi({
		port: 0,
		maxPageSize: 5,
		lifecycleDelayMs: 300,
		webhookSecret: WEBHOOK_SECRET,
		// phase 1 (n8n execute, no server): the sandbox's webhooks go to the collector's sink
		webhookUrl: `${collector.url}/sink`,
		webhookRetryDelaysMs: [500, 1000],
	});
	const port = await freePort(5700 + Number(line) * 10);
	const n8n = new N8n({ line, userFolder, port, logFile: path.join(artifacts, 'n8n-start.log') });
	const workflows = {
		tour: loadWorkflow('tour'),
		withdrawals: loadWorkflow('withdrawals'),
		batch: loadWorkflow('batch-payouts'),
		trigger: loadWorkflow('trigger'),
		pagination: loadWorkflow('e2e-pagination'),
		fieldRule: loadWorkflow('e2e-field-rule'),
		e2eTrigger: loadWorkflow('e2e-trigger', { COLLECTOR_URL: `${collector.url}/hook` }),
		pollExample: loadWorkflow('poll-trigger'),
		e2ePollTrigger: loadWorkflow('e2e-poll-trigger', { COLLECTOR_URL: `${collector.url}/poll` }),
	};
	// e2e only: keep going after a failed node so every operation gets its own PASS/FAIL
	for (const node of workflows.tour.nodes) if (node.type.endsWith('.cryptoSettlement')) node.onError = 'continueRegularOutput';
	const covered = new Set();

	try {
		let pkg;
		const installed = await check('community package installed into <userFolder>/.n8n/nodes', async () => {
			const info = (pkg = await n8n.installPackage(tarball));
			const ledger = JSON.parse(fs.readFileSync(path.join(n8n.nodesDir, 'package.json'), 'utf8'));
			assert(ledger.dependencies[info.name] === info.version, 'nodes/package.json does not list the package');
			assert(fs.existsSync(path.join(info.dir, 'dist', 'nodes', 'CryptoSettlement', 'CryptoSettlement.node.js')), 'node file missing');
			return `${info.name}@${info.version}`;
		});
		if (!installed) return;

		const imported = await check('credential + workflows imported with the n8n CLI', async () => {
			await n8n.importCredentials([sandboxCredential(sandbox)]);
			await n8n.importWorkflows(Object.values(workflows));
			return `${Object.keys(workflows).length} workflows`;
		});
		if (!imported) return;

		await check("package recorded in n8n's database as an installed community package", async () => {
			const rows = await n8n.registerPackage(pkg);
			assert(rows.nodes.length === 3, `nodes recorded: ${JSON.stringify(rows.nodes)}`);
			return rows.nodes.map((node) => `${node.type} v${node.latestVersion}`).join(', ');
		});

		await check(`trigger workflow activated (${line === '1' ? 'update:workflow --active=true' : 'publish:workflow'})`, async () => {
			await n8n.activate(E2E.trigger);
		});

		await check('poll trigger workflow activated (every minute)', async () => {
			await n8n.activate(E2E.pollTrigger);
		});

		// ---- phase 1: workflows run by `n8n execute` -------------------------------------
		const before = sandbox.requests.length;
		const tour = await n8n.execute(EXAMPLES.tour);
		await check('tour workflow ran (n8n execute --rawOutput)', async () => {
			assert(tour.run, describeFailure(tour));
			assert(tour.status === 'success', describeFailure(tour));
			return `${Object.keys(tour.runData).length} nodes, ${sandbox.requests.length - before} API requests, ${secs(tour.ms)}`;
		});
		if (tour.run) {
			for (const [nodeName, expectation] of Object.entries(tourExpectations)) {
				await check(`${expectation.resource} → ${expectation.operation} ("${nodeName}")`, async () => {
					const error = nodeError(tour, nodeName);
					assert(!error, error);
					const detail = await expectation.verify(itemsOf(tour, nodeName), { sandbox, items: (name) => itemsOf(tour, name) });
					covered.add(expectation.resource);
					return detail;
				});
			}
		}

		await check('withdrawals run to completion (USDT by USD amount, BTC by crypto amount)', async () => {
			const exec = await n8n.execute(EXAMPLES.withdrawals);
			assert(exec.ok, describeFailure(exec));
			for (const name of ['USDT Withdrawal', 'BTC Withdrawal', 'Get USDT Withdrawal', 'Get BTC Withdrawal by External ID', 'List Withdrawals']) {
				const error = nodeError(exec, name);
				assert(!error, error);
			}
			const usdt = itemsOf(exec, 'USDT Withdrawal')[0];
			const btc = itemsOf(exec, 'BTC Withdrawal')[0];
			assert(usdt.id && usdt.externalId, `createCrypto output lacks id/externalId: ${JSON.stringify(usdt)}`);
			assert(usdt.externalId === 'order-1042' && btc.externalId === 'payout-btc-0007', `External IDs not mapped from the order: ${JSON.stringify([usdt.externalId, btc.externalId])}`);
			assert(usdt.status && usdt.fee !== undefined && usdt.alreadySubmitted === false, `Create Crypto did not return the full record: ${JSON.stringify(usdt)}`);
			const gotUsdt = itemsOf(exec, 'Get USDT Withdrawal')[0];
			const gotBtc = itemsOf(exec, 'Get BTC Withdrawal by External ID')[0];
			assert(gotUsdt.status === 'completed', `USDT withdrawal status in n8n: ${gotUsdt.status}`);
			assert(gotBtc.status === 'completed' && gotBtc.id === btc.id, `BTC withdrawal by externalId: ${JSON.stringify(gotBtc).slice(0, 200)}`);
			const stateUsdt = sandbox.state.withdrawals.find((w) => w.id === usdt.id);
			const stateBtc = sandbox.state.withdrawals.find((w) => w.id === btc.id);
			assert(stateUsdt?.status === 'completed' && stateUsdt.token === 'USDT' && stateUsdt.network === 'TRC20' && stateUsdt.amount === 25 && stateUsdt.cryptoAmount !== undefined, `sandbox USDT withdrawal: ${JSON.stringify(stateUsdt)}`);
			assert(stateUsdt.feeLevel === null, 'feeLevel was sent for a stablecoin');
			assert(stateBtc?.status === 'completed' && stateBtc.feeLevel === 'low' && stateBtc.network === null && stateBtc.cryptoAmount === 0.0005, `sandbox BTC withdrawal: ${JSON.stringify(stateBtc)}`);
			const sent = sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payments/withdraw/address')).map((r) => r.body);
			const btcBody = sent.find((b) => b.token === 'BTC');
			const usdtBody = sent.find((b) => b.token === 'USDT');
			assert(btcBody && !('network' in btcBody) && !('amount' in btcBody) && btcBody.cryptoAmount === 0.0005, `BTC request body: ${JSON.stringify(btcBody)}`);
			assert(usdtBody && !('feeLevel' in usdtBody) && !('cryptoAmount' in usdtBody) && usdtBody.amount === 25, `USDT request body: ${JSON.stringify(usdtBody)}`);
			const listed = itemsOf(exec, 'List Withdrawals');
			assert(listed.length === sandbox.state.withdrawals.length, `List Withdrawals returned ${listed.length} of ${sandbox.state.withdrawals.length}`);
			covered.add('withdrawal');
			return `USDT ${usdt.id} and BTC ${btc.id} completed; External IDs ${usdt.externalId}, ${btc.externalId} from the order`;
		});

		await check('batch example: two rows paid, the 3-decimal row refused to the error output, nothing paid twice on a re-run', async () => {
			const first = await n8n.execute(EXAMPLES.batch);
			assert(first.ok, describeFailure(first));
			const paid = itemsOf(first, 'Paid') ?? [];
			const refused = itemsOf(first, 'Refused or Failed') ?? [];
			assert(paid.length === 2 && paid.every((p) => p.alreadySubmitted === false && p.status), `Paid: ${JSON.stringify(paid).slice(0, 300)}`);
			assert(paid.map((p) => p.externalId).join() === 'payout-2001,payout-2002', `paid External IDs ${paid.map((p) => p.externalId)}`);
			assert(refused.length === 1, `Refused: ${JSON.stringify(refused).slice(0, 300)}`);
			const posts = () => sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/payments/withdraw/address') && /^payout-200/.test(r.body?.externalId ?? '')).length;
			const sent = posts();
			assert(sent === 2, `${sent} withdrawal requests for the batch`);
			const again = await n8n.execute(EXAMPLES.batch);
			assert(again.ok, describeFailure(again));
			const repaid = itemsOf(again, 'Paid') ?? [];
			assert(repaid.length === 2 && repaid.every((p) => p.alreadySubmitted === true), `re-run: ${JSON.stringify(repaid).slice(0, 300)}`);
			assert(posts() === 2, 'the re-run sent a withdrawal again');
			return '2 paid, 1 refused; re-run: 2 alreadySubmitted, 0 sent';
		});

		await check('field rule refused before any request reaches the sandbox', async () => {
			const n = sandbox.requests.length;
			const exec = await n8n.execute(E2E.fieldRule);
			assert(exec.run, describeFailure(exec));
			assert(exec.status === 'error' && exec.error, `expected the execution to fail, got ${exec.status}`);
			const message = `${exec.error.message} ${exec.error.description ?? ''}`;
			assert(/decimal/i.test(message), `error does not explain the rule: ${message}`);
			assert(exec.code !== 0, 'n8n execute exited 0 on a failed execution');
			assert(sandbox.requests.length === n, `${sandbox.requests.length - n} request(s) reached the sandbox: ${JSON.stringify(sandbox.requests.slice(n).map((r) => `${r.method} ${r.path}`))}`);
			return `"${exec.error.message}"`;
		});

		await check('Return All fetches every page (page size capped at 5 by the sandbox)', async () => {
			for (let i = 0; i < 12; i++) {
				await sandboxApi(sandbox, 'POST', '/trades/sell/assets/64f1a2b3c4d5e6f7a8b9c0d3/generate-address', { label: `page-seed-${i}` });
			}
			const total = sandbox.state.wallets.length;
			const n = sandbox.requests.length;
			const exec = await n8n.execute(E2E.pagination);
			assert(exec.ok, describeFailure(exec));
			const all = itemsOf(exec, 'All Wallets');
			assert(all.length === total, `Return All gave ${all.length} wallets, the sandbox has ${total}`);
			assert(new Set(all.map((w) => w.id)).size === total, 'duplicate wallets across pages');
			const pages = sandbox.requests.slice(n).filter((r) => r.method === 'GET' && r.path.endsWith('/trades/wallets'));
			const expectedPages = Math.ceil(total / 5);
			// Return All pages: 1..expectedPages; then the limited list (7 → 2 pages)
			assert(pages.length >= expectedPages + 1, `only ${pages.length} wallet page requests for ${total} wallets`);
			const wds = itemsOf(exec, 'All Withdrawals');
			assert(wds.length === sandbox.state.withdrawals.length, `All Withdrawals gave ${wds.length} of ${sandbox.state.withdrawals.length}`);
			const limited = itemsOf(exec, 'First 7 Wallets');
			assert(limited.length === 7, `limit 7 gave ${limited.length}`);
			return `${total} wallets over ${expectedPages} pages, ${wds.length} withdrawals, limit 7 → 7`;
		});

		await check('every resource exercised at least once', async () => {
			const missing = RESOURCES.filter((r) => !covered.has(r));
			assert(!missing.length, `not exercised successfully: ${missing.join(', ')}`);
			return RESOURCES.join(', ');
		});

		// ---- phase 2: n8n start with the trigger workflow active ------------------------
		const hookUrl = triggerUrl(n8n.baseUrl, workflows.e2eTrigger);
		sandbox.setWebhook(hookUrl, WEBHOOK_SECRET);
		await sandbox.settle();
		const started = await check('n8n start serves the editor and /healthz', async () => {
			const ms = await n8n.start();
			// n8n compiles the editor's index.html into <userFolder>/.cache on start; /healthz can answer first
			let editor;
			await waitFor(
				async () => {
					editor = await httpJson('GET', `${n8n.baseUrl}/`, { headers: { accept: 'text/html' } });
					return editor.status === 200 && /<html/i.test(editor.text);
				},
				{ timeoutMs: 60000, intervalMs: 1000, what: 'the editor page' },
			).catch(() => {
				throw new Error(`editor answered ${editor?.status}: ${JSON.stringify(editor?.text?.slice(0, 200))}`);
			});
			return `up in ${secs(ms)} on ${n8n.baseUrl}`;
		});
		if (!started) return;

		await check('owner set up through REST and logged in', async () => {
			await n8n.setupOwner();
			return n8n.jar.size ? 'session cookie set' : undefined;
		});

		await check('n8n lists the package\'s node types', async () => {
			const types = await httpJson('GET', `${n8n.baseUrl}/types/nodes.json`, { jar: n8n.jar });
			assert(types.status === 200 && Array.isArray(types.json), `/types/nodes.json answered ${types.status}`);
			const names = types.json.map((t) => t.name);
			for (const name of ['n8n-nodes-crypto-settlement.cryptoSettlement', 'n8n-nodes-crypto-settlement.cryptoSettlementTrigger']) {
				assert(names.includes(name), `${name} not loaded`);
			}
			const creds = await httpJson('GET', `${n8n.baseUrl}/types/credentials.json`, { jar: n8n.jar });
			assert((creds.json || []).some((c) => c.name === 'cryptoSettlementApi'), 'credential type cryptoSettlementApi not loaded');
			return 'cryptoSettlement, cryptoSettlementTrigger, cryptoSettlementApi';
		});

		await check('Settings → Community nodes lists the package as loaded', async () => {
			const list = await n8n.rest('GET', '/community-packages');
			const entry = (Array.isArray(list) ? list : []).find((p) => p.packageName === pkg.name);
			assert(entry, `not listed: ${JSON.stringify(list).slice(0, 300)}`);
			assert(entry.installedVersion === pkg.version && entry.failedLoading !== true, `entry ${JSON.stringify(entry).slice(0, 300)}`);
			return `${entry.packageName}@${entry.installedVersion}, ${entry.installedNodes?.length} nodes`;
		});

		await check("editor lists through n8n's REST: asset dropdown, wallet search, a failing bank list", async () => {
			// The calls the editor makes when a dropdown or a resource locator opens.
			const ask = (endpoint, body) =>
				n8n.restResponse('POST', `/dynamic-node-parameters/${endpoint}`, {
					nodeTypeAndVersion: { name: 'n8n-nodes-crypto-settlement.cryptoSettlement', version: 1 },
					credentials: { cryptoSettlementApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
					...body,
				});
			const assets = await ask('options', {
				methodName: 'getDepositAssets',
				path: 'assetId',
				currentNodeParameters: { resource: 'wallet', operation: 'create' },
			});
			const choices = assets.json?.data;
			assert(assets.status === 200 && Array.isArray(choices) && choices.length > 0, `assets answered ${assets.status}: ${assets.text.slice(0, 200)}`);
			assert(choices.every((c) => /\(.+\)/.test(c.name) && c.value), `asset choices ${JSON.stringify(choices).slice(0, 200)}`);

			const probe = await sandboxApi(sandbox, 'POST', '/trades/sell/assets/64f1a2b3c4d5e6f7a8b9c0d2/generate-address', { label: 'Editor-List-Probe' });
			const found = await ask('resource-locator-results', {
				methodName: 'searchWallets',
				path: 'walletId',
				filter: 'editor-list',
				currentNodeParameters: { resource: 'wallet', operation: 'get' },
			});
			const results = found.json?.data?.results;
			assert(found.status === 200 && Array.isArray(results), `wallet search answered ${found.status}: ${found.text.slice(0, 200)}`);
			assert(results.length === 1 && results[0].value === probe.id, `search for "editor-list" gave ${JSON.stringify(results).slice(0, 300)}`);

			const refused = await ask('options', {
				methodName: 'getBanks',
				path: 'bankId',
				currentNodeParameters: { resource: 'bank', operation: 'verifyAccount', currency: 'usd' },
			});
			assert(refused.status >= 400 && refused.text.includes('Could not load the list: validation errors (HTTP 422)'), `bad currency answered ${refused.status}: ${refused.text.slice(0, 300)}`);
			assert(!refused.text.includes(sandbox.appSecret), 'the app secret is in the error');
			return `${choices.length} assets; search found ${probe.id}; bad list → ${refused.status}`;
		});

		const hooked = await check('trigger webhook registered (production URL answers)', async () => {
			// a delivery with a wrong secret: 401 once the webhook is registered (404 before)
			const res = await waitFor(
				async () => {
					const r = await httpJson('POST', hookUrl, { body: { event: 'trade.completed', id: 'probe', status: 'completed' }, headers: { 'x-webhook-secret': 'probe' } });
					return r.status !== 404 ? r : undefined;
				},
				{ timeoutMs: 30000, intervalMs: 500, what: `webhook ${hookUrl}` },
			);
			assert(res.status === 401, `a wrong secret got ${res.status}: ${res.text.slice(0, 200)}`);
			return hookUrl.replace(n8n.baseUrl, '');
		});

		if (hooked) {
			await check('trigger: mockDeposit → one execution with the trade.completed payload', async () => {
				const wallet = await sandboxApi(sandbox, 'POST', '/trades/sell/assets/64f1a2b3c4d5e6f7a8b9c0d2/generate-address', { label: 'trigger-deposit' });
				const trade = await sandboxApi(sandbox, 'POST', '/trades/sell/mock-trade', {
					walletAddress: wallet.address,
					asset: 'TRX_TEST',
					amountInUSD: 40,
					cryptoReceived: '333.3',
					reference: 'e2e-trigger-deposit',
					txHash: 'e2etriggertx0001',
				});
				const hit = await waitFor(() => collector.on('/hook').find((h) => h.body?.id === trade.id), { timeoutMs: 30000, what: 'trade.completed execution' });
				await sandbox.settle();
				await sleep(1500);
				const forTrade = collector.on('/hook').filter((h) => h.body?.id === trade.id);
				assert(forTrade.length === 1, `${forTrade.length} executions for the trade (want 1: trade.pending filtered out)`);
				assert(hit.body.event === 'trade.completed' && hit.body.status === 'completed', `payload: ${JSON.stringify(hit.body).slice(0, 300)}`);
				assert(hit.body.reference === 'e2e-trigger-deposit' && hit.body.amountInUSD === 40, `payload fields: ${JSON.stringify(hit.body).slice(0, 300)}`);
				const events = sandbox.state.webhookEvents.filter((e) => e.reference === trade.id);
				assert(events.every((e) => e.status === 'delivered'), `sandbox deliveries: ${JSON.stringify(events.map((e) => [e.eventType, e.status, e.attempts.map((a) => a.responseStatus)]))}`);
				return `trade ${trade.id}: ${events.map((e) => e.eventType).join(', ')} delivered, 1 execution`;
			});

			await check('trigger: withdrawal completes → one execution with the withdrawal.completed payload', async () => {
				const wd = await sandboxApi(sandbox, 'POST', '/payments/withdraw/address', {
					token: 'USDC',
					network: 'SOL',
					walletAddress: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
					amount: 12.5,
					pin: sandbox.pin,
					externalId: 'e2e-trigger-withdrawal',
				});
				const hit = await waitFor(() => collector.on('/hook').find((h) => h.body?.id === wd.id), { timeoutMs: 30000, what: 'withdrawal.completed execution' });
				await sandbox.settle();
				await sleep(1500);
				const forWd = collector.on('/hook').filter((h) => h.body?.id === wd.id);
				assert(forWd.length === 1, `${forWd.length} executions for the withdrawal (want 1: withdrawal.pending filtered out)`);
				assert(hit.body.event === 'withdrawal.completed' && hit.body.status === 'completed' && hit.body.externalId === 'e2e-trigger-withdrawal', `payload: ${JSON.stringify(hit.body).slice(0, 300)}`);
				assert(sandbox.state.withdrawals.find((w) => w.id === wd.id)?.status === 'completed', 'sandbox withdrawal not completed');
				return `withdrawal ${wd.id} completed, 1 execution`;
			});

			await check('trigger: a resent (duplicate) delivery runs nothing', async () => {
				const trade = sandbox.state.trades.find((t) => t.reference === 'e2e-trigger-deposit');
				const before = collector.on('/hook').length;
				const resent = await sandboxApi(sandbox, 'POST', `/transactions/webhooks/resend/${trade.id}`);
				assert(Array.isArray(resent) && resent.every((r) => r.status === 'delivered'), `resend: ${JSON.stringify(resent)}`);
				await sleep(1500);
				if (collector.on('/hook').length !== before) {
					const wf = await n8n.rest('GET', `/workflows/${E2E.trigger}`).catch((e) => ({ error: e.message }));
					throw new Error(`${collector.on('/hook').length - before} new execution(s) after a duplicate delivery of ${trade.id}; events now ${JSON.stringify(collector.on('/hook').map((h) => [h.body?.event, h.body?.id]))}; workflow staticData ${JSON.stringify(wf.staticData ?? wf)}`);
				}
				return `${resent.length} deliveries answered 200, no execution`;
			});

			await check('trigger: a delivery with a wrong secret is refused (401) and runs nothing', async () => {
				const before = collector.on('/hook').length;
				const trade = sandbox.state.trades.find((t) => t.reference === 'e2e-trigger-deposit');
				const forged = { event: 'withdrawal.completed', id: 'forged-0001', status: 'completed', amount: 999 };
				const wrong = await httpJson('POST', hookUrl, { body: forged, headers: { 'x-webhook-secret': 'not-the-secret' } });
				const missing = await httpJson('POST', hookUrl, { body: { ...forged, id: 'forged-0002', reference: trade?.id } });
				assert(wrong.status === 401, `wrong secret answered ${wrong.status}`);
				assert(missing.status === 401, `missing secret answered ${missing.status}`);
				await sleep(1500);
				assert(collector.on('/hook').length === before, 'a refused delivery started an execution');
				return 'wrong and missing secret → 401';
			});

			await check("trigger: n8n's execution list holds exactly the runs that reached the workflow", async () => {
				const executions = await n8n.executions(E2E.trigger);
				const list = Array.isArray(executions) ? executions : [];
				const forwarded = collector.on('/hook').length;
				assert(list.length === forwarded, `n8n has ${list.length} executions of the trigger workflow, ${forwarded} reached its last node: ${JSON.stringify(list.map((e) => [e.id, e.status, e.mode]))}`);
				assert(list.every((e) => e.status === 'success' && e.mode === 'webhook'), `executions: ${JSON.stringify(list.map((e) => [e.status, e.mode]))}`);
				return list.map((e) => `#${e.id} ${e.status}`).join(', ');
			});
		}

		// ---- poll trigger: an active workflow polling every minute --------------------------
		await check('poll trigger: a mock deposit → exactly one execution (polled every minute)', async () => {
			const listPolls = () => sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/v1/trades/transactions').length;
			// The first poll (at activation) records where things stand.
			await waitFor(() => listPolls() > 0, { timeoutMs: 90000, what: 'the first poll of the transaction list' });
			const wallet = await sandboxApi(sandbox, 'POST', '/trades/sell/assets/64f1a2b3c4d5e6f7a8b9c0d2/generate-address', { label: 'poll-deposit' });
			const trade = await sandboxApi(sandbox, 'POST', '/trades/sell/mock-trade', {
				walletAddress: wallet.address,
				asset: 'TRX_TEST',
				amountInUSD: 41,
				cryptoReceived: '341.6',
				reference: 'e2e-poll-deposit',
				txHash: 'e2epolltx0001',
			});
			await sandbox.settle();
			const hit = await waitFor(() => collector.on('/poll').find((h) => h.body?.id === trade.id), { timeoutMs: 150000, intervalMs: 1000, what: 'the poll trigger execution for the deposit' });
			// One more poll after it: the same event is not emitted again.
			const after = listPolls();
			await waitFor(() => listPolls() > after, { timeoutMs: 90000, intervalMs: 1000, what: 'the next poll' });
			await sleep(3000);
			const forTrade = collector.on('/poll').filter((h) => h.body?.id === trade.id);
			assert(forTrade.length === 1, `${forTrade.length} executions for the trade (want 1)`);
			assert(hit.body.event === 'trade.completed' && hit.body.source === 'records' && hit.body.amountInUSD === 41, `payload: ${JSON.stringify(hit.body).slice(0, 300)}`);
			assert(hit.body.verification?.confirmedWithApi === true && hit.body.record?.id === trade.id, `payload: ${JSON.stringify(hit.body).slice(0, 300)}`);
			const executions = await n8n.executions(E2E.pollTrigger);
			const list = Array.isArray(executions) ? executions : [];
			// One execution per poll that found events (it may carry several items); no event twice.
			const forwarded = collector.on('/poll').map((h) => `${h.body?.event} ${h.body?.id}`);
			assert(new Set(forwarded).size === forwarded.length, `an event was forwarded twice: ${JSON.stringify(forwarded)}`);
			assert(list.length >= 1 && list.length <= forwarded.length, `n8n has ${list.length} executions of the poll workflow for ${forwarded.length} forwarded events`);
			assert(list.every((e) => e.status === 'success' && e.mode === 'trigger'), `executions: ${JSON.stringify(list.map((e) => [e.status, e.mode]))}`);
			return `trade ${trade.id}: emitted once; ${list.length} poll execution(s) for ${forwarded.join(', ')}; ${listPolls()} list polls`;
		});

		// ---- browser -------------------------------------------------------------------
		if (!browserWanted) skip('browser check', 'disabled (--no-browser / E2E_BROWSER=0)');
		else if (!chromium.ok && chromium.impossible && process.env.CI !== 'true') {
			skip('browser check', `${chromium.reason} (install Debian's chromium to run it; on CI this is a failure)`);
		} else if (!chromium.ok) {
			await check('browser check', async () => {
				throw new Error(`chromium unavailable: ${chromium.reason}`);
			});
		} else {
			await check('browser: withdrawal parameters (BTC: fee level, no network; USDT: network, no fee level)', async () => {
				const docsScreenshot = updateScreenshot && line === '2' ? DOCS_SCREENSHOT : undefined;
				const panels = DOCS_PANELS.map((p) => ({ ...p, workflowId: EXAMPLES[p.workflow] }));
				const out = await browserCheck({ n8n, workflowId: EXAMPLES.withdrawals, artifacts, log: say, docsScreenshot, panels });
				return out;
			});
		}
	} finally {
		await n8n.stop().catch(() => {});
		await sandbox.close().catch(() => {});
		await collector.close().catch(() => {});
		if (!keep) fs.rmSync(userFolder, { recursive: true, force: true });
		say(`--- n8n ${LINES[line].version} done in ${secs(Date.now() - lineStart)}${keep ? ` (kept ${userFolder})` : ''}`);
		currentLine = '';
	}
}

async function main() {
	say(`e2e: n8n lines ${linesToRun.map((l) => LINES[l]?.version ?? l).join(', ')}; cache ${cacheDir()}`);
	for (const l of linesToRun) if (!LINES[l]) throw new Error(`unknown line ${l}`);

	// Slow, independent preparations in parallel: n8n installs, chromium, build + pack.
	const chromiumP = browserWanted ? ensureChromium({ log: say }) : Promise.resolve({ ok: false, reason: 'disabled' });
	const installsP = installLines(linesToRun);
	let tarball;
	const packed = await check('package built (npm run build) and packed (npm pack)', async () => {
		if (!args.has('--skip-build')) await buildPackage({ log: say });
		tarball = await packPackage({ log: say });
		return path.basename(tarball);
	});
	const installs = await installsP;
	const chromium = await chromiumP;
	for (const inst of installs) {
		await check(`n8n ${LINES[inst.line].version} installed in the cache`, async () => {
			assert(inst.code === 0, `installer failed:\n${tail(inst.out, 30)}`);
		});
	}
	if (packed) {
		for (const line of linesToRun) {
			if (installs.find((i) => i.line === line)?.code !== 0) continue;
			await runLine(line, tarball, chromium);
		}
	}
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	say(`\n${failed ? 'Failed checks:\n' + results.filter((r) => !r.ok).map((r) => `  - ${r.label}`).join('\n') + '\n' : ''}e2e total time ${secs(Date.now() - t0)}`);
	say(`e2e: ${passed} passed, ${failed} failed`);
	process.exitCode = failed || !results.length ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		say(`interrupted (${signal}): stopping n8n`);
		process.exit(130); // the 'exit' handler in lib/n8n.mjs kills running n8n processes
	});
}

main().catch((error) => {
	say(`FAIL e2e harness: ${error?.stack || error}`);
	const passed = results.filter((r) => r.ok).length;
	say(`e2e: ${passed} passed, ${results.length - passed + 1} failed`);
	process.exit(1);
});
