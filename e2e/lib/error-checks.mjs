// Browser check (n8n 2.x): errors and an empty list as a person reads them in the editor (issue 36),
// in the e2e-errors workflow: two rows, row 2 with an Ethereum address and 3 decimals.
import { createRequire } from 'node:module';
import path from 'node:path';

import { REPO_ROOT, sleep } from '../../tooling/util.mjs';
import { openNode, withEditor } from './browser.mjs';

/** The built node's texts, so the check reads what the package says (methods/lookups.ts). */
const built = (file) =>
	createRequire(path.join(REPO_ROOT, 'package.json'))(
		path.join(REPO_ROOT, 'dist/nodes/CryptoSettlement/methods', file),
	);

/**
 * - "Refuse Row 2": the node's own refusal of a multi-item run names row 2 with n8n's item 1, so
 *   the editor adds no " [item 1]" suffix to it (it adds one unless the message contains "item 1").
 * - "Pay to the Wrong Chain": row 2's Ethereum address on TRC20 is refused by the node before
 *   anything is sent (issue 45: every row's address is checked first), naming the row with its
 *   External ID and the field; the editor adds no suffix there either.
 * - "Bank Payout" with no saved bank account: its list offers one entry saying so and how to add
 *   one, not n8n's "Could not load list"; picked, it leaves the field empty and nothing is sent.
 */
export async function errorsCheck({ n8n, sandbox, workflowId, artifacts }) {
	const workflow = await n8n.rest('GET', `/workflows/${workflowId}`);
	return await withEditor(n8n, async (page) => {
		const notes = [];
		const shot = async (file) => {
			await page.screenshot({ path: path.join(artifacts, file) });
			return path.join(artifacts, file);
		};
		/** Execute step on a node (its parents run first); the error the output panel shows. */
		const shownError = async (nodeName, file) => {
			await openNode(page, n8n.baseUrl, workflow, nodeName);
			await sleep(800);
			await page.locator('[data-test-id="node-execute-button"]').first().click();
			const message = page.locator('[data-test-id="node-error-message"]').first();
			await message.waitFor({ timeout: 60000 });
			await sleep(1000);
			const shown = {
				message: (await message.innerText()).trim(),
				description: (
					await page
						.locator('[data-test-id="node-error-description"]')
						.first()
						.innerText()
						.catch(() => '')
				).trim(),
				file: await shot(file),
			};
			return shown;
		};

		let shown = await shownError('Refuse Row 2', 'error-row-named-once.png');
		if (
			!shown.message.startsWith(
				'1 of 2 rows are invalid, so nothing was sent: row 2 (e2e-refused-e2e-row-2, n8n item 1):',
			)
		) {
			throw new Error(
				`the refusal reads ${JSON.stringify(shown.message)} (screenshot ${shown.file})`,
			);
		}
		if (shown.message.includes(' [item'))
			throw new Error(
				`the editor added n8n's item suffix: ${JSON.stringify(shown.message)} (screenshot ${shown.file})`,
			);
		notes.push(`row 2 named once: "${shown.message.slice(0, 110)}…", no " [item" suffix`);

		const before = sandbox.requests.length;
		shown = await shownError('Pay to the Wrong Chain', 'error-wrong-chain.png');
		const text = `${shown.message}\n${shown.description}`;
		// Row 2's Ethereum address on TRC20 is refused by the node's own check before anything is sent (issue 45).
		for (const part of [
			"1 of 2 rows are invalid, so nothing was sent: row 2 (e2e-row-2, n8n item 1): 'Wallet Address' is not a USDT address on TRC20: it looks like an Ethereum-style (0x…) address",
			"Row 2 (e2e-row-2, n8n item 1): fix 'Wallet Address' (set by an expression).",
		]) {
			if (!text.includes(part))
				throw new Error(
					`the refusal shown lacks ${JSON.stringify(part)}: ${JSON.stringify(text)} (screenshot ${shown.file})`,
				);
		}
		if (shown.message.includes(' [item'))
			throw new Error(
				`the editor added n8n's item suffix: ${JSON.stringify(shown.message)} (screenshot ${shown.file})`,
			);
		const sent = sandbox.requests
			.slice(before)
			.filter((r) => r.method === 'POST' && r.path.endsWith('/payments/withdraw/address'));
		if (sent.length)
			throw new Error(`${sent.length} withdrawal(s) sent for a batch with a wrong-chain address`);
		notes.push(
			'the wrong-chain address is refused before anything is sent, naming row 2 (e2e-row-2, n8n item 1) and \'Wallet Address\'; no " [item" suffix',
		);

		// With no saved bank account (the sandbox's are set aside for this check, then put back).
		const { NONE_YET } = built('lookups.js');
		const saved = sandbox.state.bankAccounts.splice(0);
		try {
			await openNode(
				page,
				n8n.baseUrl,
				workflow,
				'Bank Payout',
				'[data-test-id="parameter-input-bankAccountId"]',
			);
			await sleep(1000);
			await page
				.locator('[data-test-id="resource-locator-bankAccountId"] [data-test-id="rlc-input"]')
				.first()
				.click();
			await page
				.locator('[data-test-id="rlc-item"], [data-test-id="rlc-error-container"]')
				.first()
				.waitFor({ timeout: 30000 });
			await sleep(1000);
			const file = await shot('empty-bank-account-list.png');
			const items = await page.locator('[data-test-id="rlc-item"]').allInnerTexts();
			const dropdown = await page
				.locator('[data-test-id="resource-locator-dropdown"]')
				.first()
				.innerText()
				.catch(() => '');
			if (
				dropdown.includes('Could not load list') ||
				(await page.locator('[data-test-id="rlc-error-container"]').count())
			) {
				throw new Error(
					`the empty list shows n8n's error view: ${JSON.stringify(dropdown)} (screenshot ${file})`,
				);
			}
			if (items.map((item) => item.trim()).join('|') !== NONE_YET.bankAccounts)
				throw new Error(`the empty list offers ${JSON.stringify(items)} (screenshot ${file})`);
			// Shown whole: the dropdown, as wide as the field, cuts a longer name with an ellipsis.
			const cut = await page
				.locator('[data-test-id="rlc-item"]')
				.first()
				.evaluate((item) =>
					[item, ...item.querySelectorAll('*')].some((el) => el.scrollWidth > el.clientWidth + 1),
				);
			if (cut) throw new Error(`the empty list's entry is cut off (screenshot ${file})`);
			const sent = sandbox.requests.length;
			await page.locator('[data-test-id="rlc-item"]').first().click();
			await sleep(1000);
			const picked = await shot('empty-bank-account-picked.png');
			await page.locator('[data-test-id="node-execute-button"]').first().click();
			await sleep(3000);
			const after = await shot('empty-bank-account-executed.png');
			const paid = sandbox.requests
				.slice(sent)
				.filter((r) => r.method === 'POST' && r.path.includes('/payments/withdraw/bank/'));
			if (paid.length)
				throw new Error(
					`picking the entry led to ${paid.length} bank withdrawal request(s) (screenshots ${picked}, ${after})`,
				);
			const body = await page.locator('body').innerText();
			if (!/Bank Account/.test(body) || !/required/i.test(body))
				throw new Error(
					`nothing says 'Bank Account' is required once the entry is picked (screenshot ${after})`,
				);
			notes.push(
				`the empty Bank Account list offers "${NONE_YET.bankAccounts}"; picked, nothing is sent and 'Bank Account' is required`,
			);
		} finally {
			sandbox.state.bankAccounts.push(...saved);
		}
		return notes.join('; ');
	});
}
