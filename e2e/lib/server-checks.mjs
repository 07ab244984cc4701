// Phase 2 of a line: `n8n start` serving the editor; the owner logged in through REST; the
// package's node types, its Community nodes entry and the editor's dropdown lists as n8n serves them.
import { CREDENTIAL_ID, CREDENTIAL_NAME, sandboxApi } from '../../tooling/setup.mjs';
import { httpJson, secs, waitFor } from '../../tooling/util.mjs';
import { assert, check } from './report.mjs';

/** False when n8n did not start (the later checks of the line are then skipped). */
export async function serverChecks({ n8n, sandbox, pkg }) {
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
			throw new Error(
				`editor answered ${editor?.status}: ${JSON.stringify(editor?.text?.slice(0, 200))}`,
			);
		});
		return `up in ${secs(ms)} on ${n8n.baseUrl}`;
	});
	if (!started) return false;

	await check('owner set up through REST and logged in', async () => {
		await n8n.setupOwner();
		return n8n.jar.size ? 'session cookie set' : undefined;
	});

	await check("n8n lists the package's node types", async () => {
		const types = await httpJson('GET', `${n8n.baseUrl}/types/nodes.json`, { jar: n8n.jar });
		assert(
			types.status === 200 && Array.isArray(types.json),
			`/types/nodes.json answered ${types.status}`,
		);
		const names = types.json.map((t) => t.name);
		for (const name of [
			'n8n-nodes-crypto-settlement.cryptoSettlement',
			'n8n-nodes-crypto-settlement.cryptoSettlementTrigger',
		]) {
			assert(names.includes(name), `${name} not loaded`);
		}
		const creds = await httpJson('GET', `${n8n.baseUrl}/types/credentials.json`, { jar: n8n.jar });
		assert(
			(creds.json || []).some((c) => c.name === 'cryptoSettlementApi'),
			'credential type cryptoSettlementApi not loaded',
		);
		return 'cryptoSettlement, cryptoSettlementTrigger, cryptoSettlementApi';
	});

	await check('Settings → Community nodes lists the package as loaded', async () => {
		const list = await n8n.rest('GET', '/community-packages');
		const entry = (Array.isArray(list) ? list : []).find((p) => p.packageName === pkg.name);
		assert(entry, `not listed: ${JSON.stringify(list).slice(0, 300)}`);
		assert(
			entry.installedVersion === pkg.version && entry.failedLoading !== true,
			`entry ${JSON.stringify(entry).slice(0, 300)}`,
		);
		return `${entry.packageName}@${entry.installedVersion}, ${entry.installedNodes?.length} nodes`;
	});

	await check(
		"editor lists through n8n's REST: asset dropdown, wallet search, a failing bank list",
		async () => {
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
			assert(
				assets.status === 200 && Array.isArray(choices) && choices.length > 0,
				`assets answered ${assets.status}: ${assets.text.slice(0, 200)}`,
			);
			assert(
				choices.every((c) => /\(.+\)/.test(c.name) && c.value),
				`asset choices ${JSON.stringify(choices).slice(0, 200)}`,
			);

			const probe = await sandboxApi(
				sandbox,
				'POST',
				'/trades/sell/assets/64f1a2b3c4d5e6f7a8b9c0d2/generate-address',
				{ label: 'Editor-List-Probe' },
			);
			const found = await ask('resource-locator-results', {
				methodName: 'searchWallets',
				path: 'walletId',
				filter: 'editor-list',
				currentNodeParameters: { resource: 'wallet', operation: 'get' },
			});
			const results = found.json?.data?.results;
			assert(
				found.status === 200 && Array.isArray(results),
				`wallet search answered ${found.status}: ${found.text.slice(0, 200)}`,
			);
			assert(
				results.length === 1 && results[0].value === probe.id,
				`search for "editor-list" gave ${JSON.stringify(results).slice(0, 300)}`,
			);

			const refused = await ask('options', {
				methodName: 'getBanks',
				path: 'bankId',
				currentNodeParameters: { resource: 'bank', operation: 'verifyAccount', currency: 'usd' },
			});
			assert(
				refused.status >= 400 &&
					refused.text.includes('Could not load the list: validation errors (HTTP 422)'),
				`bad currency answered ${refused.status}: ${refused.text.slice(0, 300)}`,
			);
			assert(!refused.text.includes(sandbox.appSecret), 'the app secret is in the error');
			return `${choices.length} assets; search found ${probe.id}; bad list → ${refused.status}`;
		},
	);
	return true;
}
