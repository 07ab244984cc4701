// Browser check (n8n 2.x): issue 45's first-hour points in a real editor, in the e2e-first-hour
// workflow (e2e/workflows/e2e-first-hour.json).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { REPO_ROOT, sleep } from '../../tooling/util.mjs';
import { withEditor } from './browser.mjs';

/** The built node's texts, so the check reads what the package says. */
const built = (file) =>
	createRequire(path.join(REPO_ROOT, 'package.json'))(
		path.join(REPO_ROOT, 'dist/nodes/CryptoSettlement', file),
	);

/** Pictures for docs/addresses.md and the README (docs/images/). */
export const FIRST_HOUR_PICTURES = {
	batch: 'batch-wrong-network-refused.png',
	tool: 'agent-tool-manual-run.png',
};

const WRONG_NETWORK =
	"1 of 3 rows are invalid, so nothing was sent: row 2 (e2e-first-hour-vendor-2, n8n item 1): 'Wallet Address' is not a USDT address on TRC20: it looks like an Ethereum-style (0x…) address";
const NOT_APPROVED =
	"This call was not approved by a person, so nothing was sent: a payment by this tool goes only when a person approved that very call in its review step ('Approve by Email'), and a manual run of the tool never is.";

/**
 * 1. "Dry Run Vendors" and "Pay Vendors" (three vendors in USDT on TRC20, vendor 2 with an
 *    Ethereum-style address): each is refused whole, naming row 2, before any request that moves
 *    money; the fake API gets no withdrawal.
 * 4. "Pay Supplier", an AI tool gated by "Approve by Email", run by hand from the canvas: told that
 *    this call was not approved by a person, never to add the review step it has; nothing sent.
 * 5. "New Wallet"'s Asset list asked without a credential (the editor's own REST call): one entry
 *    saying to select a credential, no request to the service; in the editor, once the node has its
 *    credential, the list loads.
 */
export async function firstHourCheck({ n8n, sandbox, workflowId, artifacts, docsDir }) {
	const moneyPosts = () =>
		sandbox.requests.filter((r) => r.method === 'POST' && /\/payments\/withdraw\//.test(r.path))
			.length;
	return await withEditor(n8n, async (page) => {
		const notes = [];
		const shot = async (file) => {
			// n8n's toast repeats the error over the panel: closed first, so the picture shows the panel.
			for (const close of await page.locator('.el-notification__closeBtn').all())
				await close.click().catch(() => {});
			await sleep(400);
			await page.screenshot({ path: path.join(artifacts, file) });
			return path.join(artifacts, file);
		};
		const keep = (file, name) => docsDir && fs.copyFileSync(file, path.join(docsDir, name));
		// One load of the workflow, its nodes opened from the canvas: a workflow that another session
		// ran lately is shown read-only ("Editing in another tab") until this one takes over.
		await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
		await page.locator('[data-node-name="Start"]').first().waitFor({ timeout: 30000 });
		await sleep(1500);
		const editHere = page.getByRole('button', { name: 'Edit here' });
		if (await editHere.isVisible().catch(() => false)) {
			await editHere.click();
			await sleep(1000);
		}
		const open = async (nodeName, ready = '[data-test-id="node-execute-button"]') => {
			if (
				await page
					.locator('[data-test-id="ndv"]')
					.first()
					.isVisible()
					.catch(() => false)
			) {
				await page.keyboard.press('Escape');
				await sleep(800);
			}
			await page.locator(`[data-node-name="${nodeName}"]`).first().dblclick();
			await page.locator(ready).first().waitFor({ timeout: 30000 });
			await sleep(800);
		};

		// 1. addresses checked before any payment, in a Dry Run and a real run
		for (const nodeName of ['Dry Run Vendors', 'Pay Vendors']) {
			const before = moneyPosts();
			await open(nodeName);
			await page.locator('[data-test-id="node-execute-button"]').first().click();
			const message = page.locator('[data-test-id="node-error-message"]').first();
			await message.waitFor({ timeout: 60000 });
			await sleep(1000);
			const shown = (await message.innerText()).trim();
			const file = await shot(`first-hour-${nodeName.toLowerCase().replace(/ /g, '-')}.png`);
			if (!shown.startsWith(WRONG_NETWORK))
				throw new Error(`${nodeName} reads ${JSON.stringify(shown)} (screenshot ${file})`);
			if (moneyPosts() !== before)
				throw new Error(
					`${nodeName} sent ${moneyPosts() - before} withdrawal(s) (screenshot ${file})`,
				);
			if (nodeName === 'Dry Run Vendors') keep(file, FIRST_HOUR_PICTURES.batch);
		}
		notes.push(
			'the batch with an Ethereum-style address on TRC20 is refused whole, naming row 2, in a Dry Run and a real run; no withdrawal reached the service',
		);

		// 4. a gated tool run by hand
		const before = moneyPosts();
		if (
			await page
				.locator('[data-test-id="ndv"]')
				.first()
				.isVisible()
				.catch(() => false)
		) {
			await page.keyboard.press('Escape');
			await sleep(800);
		}
		const tool = page.locator('[data-node-name="Pay Supplier"]').first();
		await tool.hover();
		await sleep(500);
		await tool.locator('[data-test-id="execute-node-button"]').first().click({ force: true });
		await sleep(5000);
		await tool.dblclick();
		const toolError = page.locator('[data-test-id="node-error-message"]').first();
		await toolError.waitFor({ timeout: 60000 });
		await sleep(1000);
		const toolShown = (await toolError.innerText()).trim();
		const toolFile = await shot('first-hour-tool-run-by-hand.png');
		if (!toolShown.startsWith(NOT_APPROVED) || /add a human review step/.test(toolShown)) {
			throw new Error(
				`the gated tool run by hand reads ${JSON.stringify(toolShown)} (screenshot ${toolFile})`,
			);
		}
		if (moneyPosts() !== before)
			throw new Error(`the tool run by hand sent a withdrawal (screenshot ${toolFile})`);
		keep(toolFile, FIRST_HOUR_PICTURES.tool);
		notes.push(
			'the gated tool run by hand is told that the call was not approved by a person (not to add its review step); nothing sent',
		);

		// 5. a list without a credential, then with one
		const { NO_CREDENTIAL } = built('methods/lookups.js');
		const asked = sandbox.requests.length;
		const ask = async (credentials) =>
			await n8n.rest('POST', '/dynamic-node-parameters/options', {
				path: 'parameters.assetId',
				nodeTypeAndVersion: { name: 'n8n-nodes-crypto-settlement.cryptoSettlement', version: 1 },
				currentNodeParameters: { resource: 'wallet', operation: 'create', label: 'e2e-first-hour' },
				methodName: 'getDepositAssets',
				...(credentials ? { credentials } : {}),
			});
		const without = await ask(undefined);
		if (JSON.stringify(without) !== JSON.stringify([{ name: NO_CREDENTIAL, value: '' }]))
			throw new Error(`without a credential the list reads ${JSON.stringify(without)}`);
		if (sandbox.requests.length !== asked)
			throw new Error('the list without a credential asked the service');
		await open('New Wallet', '[data-test-id="parameter-input-assetId"]');
		await sleep(1000);
		await page.locator('[data-test-id="parameter-input-assetId"]').first().click();
		await sleep(2000);
		const offered = await page.evaluate(() =>
			[...document.querySelectorAll('.el-select-dropdown__item')]
				.filter((el) => el.offsetParent !== null)
				.map((el) => el.innerText.split('\n')[0].trim()),
		);
		const listFile = await shot('first-hour-asset-list.png');
		if (!offered.length || offered.includes(NO_CREDENTIAL))
			throw new Error(
				`with its credential, Asset offers ${JSON.stringify(offered)} (screenshot ${listFile})`,
			);
		notes.push(
			`a list without a credential says "${NO_CREDENTIAL}" and asks the service nothing; with one, Asset offers ${offered.length} assets`,
		);
		return notes.join('; ');
	});
}
