// Browser check of the credential's Guardrails section: the edit dialog of a credential with every
// guardrail set (agent-checks.mjs, GUARDED_CREDENTIAL) shows each guardrail field the package's
// credential declares, with its saved value; the section is screenshotted for the README.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

import { REPO_ROOT, sleep } from '../../tooling/util.mjs';
import { GUARDED_CREDENTIAL } from './agent-checks.mjs';

export const GUARDRAILS_SCREENSHOT = 'credential-guardrails.png';

/** The credential's properties from its Guardrails notice on, as built (dist/). */
function guardrailProperties() {
	const require = createRequire(path.join(REPO_ROOT, 'package.json'));
	const { CryptoSettlementApi } = require(path.join(REPO_ROOT, 'dist', 'credentials', 'CryptoSettlementApi.credentials.js'));
	const { properties } = new CryptoSettlementApi();
	const start = properties.findIndex((property) => property.name === 'guardrailsNotice');
	if (start < 0) throw new Error('the credential has no guardrailsNotice');
	return { notice: properties[start], fields: properties.slice(start + 1) };
}

/** What the dialog shows for a saved value: the option's name for options, the text otherwise. */
async function shownValue(field, input) {
	if (field.type === 'boolean') return (await input.locator('[role="switch"]').first().getAttribute('aria-checked')) === 'true';
	const control = input.locator('input, textarea').first();
	const text = await control.inputValue();
	if (field.type === 'number') return Number(text);
	if (field.type === 'options') return field.options.find((option) => option.name === text)?.value ?? text;
	return text;
}

/**
 * On an open, logged-in `page`: opens GUARDED_CREDENTIAL's edit dialog (/home/credentials/<id>),
 * checks the section, and saves its screenshot in `artifacts` (and in `docsDir` when given).
 */
export async function credentialGuardrailsCheck({ page, n8n, artifacts, docsDir }) {
	const { notice, fields } = guardrailProperties();
	const viewport = page.viewportSize();
	await page.goto(`${n8n.baseUrl}/home/credentials/${GUARDED_CREDENTIAL.id}`, { waitUntil: 'domcontentloaded' });
	const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
	const title = dialog.getByText(notice.displayName.split(' — ')[0]).first();
	await title.waitFor({ timeout: 60000 });
	try {
		const wrong = [];
		for (const field of fields) {
			const input = dialog.locator(`[data-test-id="parameter-input-${field.name}"]`).first();
			if (!(await input.isVisible())) {
				wrong.push(`${field.displayName}: not shown`);
				continue;
			}
			const label = await dialog.locator(`[data-test-id="${field.name}"]`).first().innerText();
			if (!label.includes(field.displayName)) wrong.push(`${field.displayName}: labelled ${JSON.stringify(label.split('\n')[0])}`);
			const saved = GUARDED_CREDENTIAL.guardrails[field.name];
			const shown = await shownValue(field, input);
			if (saved !== undefined && shown !== saved) wrong.push(`${field.displayName}: shows ${JSON.stringify(shown)}, saved ${JSON.stringify(saved)}`);
		}
		if (wrong.length) throw new Error(`Guardrails section of "${GUARDED_CREDENTIAL.name}": ${wrong.join('; ')}`);

		// The dialog's body is a fixed-height scroll box shorter than the section: unroll it (and
		// its frame) on a tall page, so the section is photographed whole, as it renders.
		await page.setViewportSize({ width: viewport.width, height: 2200 });
		await dialog.evaluate((element) => {
			for (let node = element.querySelector('form') ?? element; node && node !== document.body; node = node.parentElement) {
				node.style.setProperty('height', 'auto', 'important');
				node.style.setProperty('max-height', 'none', 'important');
				node.style.setProperty('overflow', 'visible', 'important');
				if (node.classList.contains('el-dialog')) break;
			}
		});
		await sleep(800);
		const top = await title.evaluate((element) => element.closest('.notice')?.getBoundingClientRect().toJSON() ?? element.getBoundingClientRect().toJSON());
		const last = await dialog.locator(`[data-test-id="${fields.at(-1).name}"]`).first().boundingBox();
		const margin = 16;
		const clip = {
			x: Math.max(0, Math.min(top.x, last.x) - margin),
			y: Math.max(0, top.y - margin),
		};
		clip.width = Math.max(top.x + top.width, last.x + last.width) + margin - clip.x;
		clip.height = last.y + last.height + margin - clip.y;
		const file = path.join(artifacts, GUARDRAILS_SCREENSHOT);
		await page.screenshot({ path: file, clip });
		if (docsDir) fs.copyFileSync(file, path.join(docsDir, GUARDRAILS_SCREENSHOT));
		return `credential Guardrails section shows ${fields.length} fields with their saved values${docsDir ? ` (saved to docs/images/${GUARDRAILS_SCREENSHOT})` : ''}`;
	} finally {
		await page.setViewportSize(viewport);
	}
}
