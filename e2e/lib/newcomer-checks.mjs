// Browser check (issue 50, points 4 and 6): which credential a Crypto Settlement node placed by
// hand gets, and what its lists say when there is no Crypto Settlement credential at all. The last
// check of a line: it deletes the line's Crypto Settlement credentials.
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';

import { START_CREDENTIALS } from '../../tooling/setup.mjs';
import { REPO_ROOT, sleep } from '../../tooling/util.mjs';
import { openNode, withEditor } from './browser.mjs';

const TYPE = 'n8n-nodes-crypto-settlement.cryptoSettlement';

/** A workflow holding one Crypto Settlement node without a credential, as one placed by hand. */
async function placedByHand(n8n, name) {
	const node = {
		id: crypto.randomUUID(),
		name: 'New Wallet',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'wallet', operation: 'create', label: 'newcomer' },
	};
	return await n8n.rest('POST', '/workflows', {
		name,
		nodes: [node],
		connections: {},
		settings: { executionOrder: 'v1' },
		active: false,
	});
}

/** The entries of the open option list. */
const listed = async (page) =>
	await page.evaluate(() =>
		[...document.querySelectorAll('.el-select-dropdown__item')]
			.filter((el) => el.offsetParent !== null)
			.map((el) => el.innerText.split('\n')[0].trim()),
	);

/**
 * 1. A node without a credential, opened: n8n selects the credential of its type updated last
 *    (NodeCredentials.vue), which `npm start` makes the safest (START_CREDENTIALS.safest).
 * 2. With no Crypto Settlement credential left, the node's Asset list holds one entry saying to
 *    select a credential (methods/lookups.ts), and the service is asked nothing.
 */
export async function newcomerCredentialCheck({ n8n, sandbox, artifacts }) {
	const { NO_CREDENTIAL } = createRequire(path.join(REPO_ROOT, 'package.json'))(
		path.join(REPO_ROOT, 'dist/nodes/CryptoSettlement/methods/lookups.js'),
	);
	const first = await placedByHand(n8n, 'e2e: a Crypto Settlement node placed by hand');
	return await withEditor(n8n, async (page) => {
		const notes = [];
		const shot = async (file) => {
			await page.screenshot({ path: path.join(artifacts, file) });
			return path.join(artifacts, file);
		};
		await openNode(
			page,
			n8n.baseUrl,
			first,
			'New Wallet',
			'[data-test-id="parameter-input-assetId"]',
		);
		let chosen = '';
		for (let waited = 0; waited < 20000 && !chosen; waited += 500) {
			chosen = await page
				.locator('[data-test-id="node-credentials-select"] input')
				.first()
				.inputValue()
				.catch(() => '');
			if (!chosen) await sleep(500);
		}
		let file = await shot('new-node-credential.png');
		if (chosen !== START_CREDENTIALS.safest.name)
			throw new Error(
				`a node placed by hand got ${JSON.stringify(chosen)}, not the safest credential (screenshot ${file})`,
			);
		notes.push(`a node placed by hand gets "${chosen}"`);

		const credentials = await n8n.rest('GET', '/credentials');
		for (const credential of (credentials ?? []).filter((c) => c.type === 'cryptoSettlementApi'))
			await n8n.rest('DELETE', `/credentials/${credential.id}`);
		const bare = await placedByHand(
			n8n,
			'e2e: a Crypto Settlement node with no credential anywhere',
		);
		const asked = sandbox.requests.length;
		await openNode(
			page,
			n8n.baseUrl,
			bare,
			'New Wallet',
			'[data-test-id="parameter-input-assetId"]',
		);
		await sleep(1500);
		await page.locator('[data-test-id="parameter-input-assetId"]').first().click();
		await sleep(2000);
		const offered = await listed(page);
		file = await shot('no-credential-asset-list.png');
		if (JSON.stringify(offered) !== JSON.stringify([NO_CREDENTIAL]))
			throw new Error(
				`with no credential, Asset offers ${JSON.stringify(offered)} (screenshot ${file})`,
			);
		if (sandbox.requests.length !== asked)
			throw new Error(`the list without a credential asked the service (screenshot ${file})`);
		notes.push(
			`with no credential anywhere, Asset offers only "${NO_CREDENTIAL}" and the service is asked nothing`,
		);
		return notes.join('; ');
	});
}
