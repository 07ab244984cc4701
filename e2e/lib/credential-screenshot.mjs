// Browser check of the credential's Guardrails section: the edit dialog of a credential with every
// guardrail set (agent-checks.mjs, GUARDED_CREDENTIAL) shows each guardrail field the package's
// credential declares, with its saved value, and no "no limit" notice; the sandbox credential,
// with the defaults, shows a notice for each guardrail that limits nothing. Both sections are
// screenshotted for the README (the defaults, and a configured example).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

import { REPO_ROOT, sleep } from '../../tooling/util.mjs';
import { CREDENTIAL_ID } from '../../tooling/setup.mjs';
import { GUARDED_CREDENTIAL } from './agent-checks.mjs';

export const GUARDRAILS_SCREENSHOT = 'credential-guardrails.png';
export const DEFAULTS_SCREENSHOT = 'credential-guardrails-defaults.png';

/** The credential's properties from its Guardrails notice on, as built (dist/). */
function guardrailProperties() {
	const require = createRequire(path.join(REPO_ROOT, 'package.json'));
	const { CryptoSettlementApi } = require(
		path.join(REPO_ROOT, 'dist', 'credentials', 'CryptoSettlementApi.credentials.js'),
	);
	const { properties } = new CryptoSettlementApi();
	const start = properties.findIndex((property) => property.name === 'guardrailsNotice');
	if (start < 0) throw new Error('the credential has no guardrailsNotice');
	const section = properties.slice(start + 1);
	const defaults = Object.fromEntries(
		properties.map((property) => [property.name, property.default]),
	);
	const shownWithDefaults = (property) =>
		Object.entries(property.displayOptions?.show ?? {}).every(([name, values]) =>
			values.includes(defaults[name]),
		);
	return {
		notice: properties[start],
		fields: section.filter((property) => property.type !== 'notice'),
		// The notices saying a guardrail limits nothing (shown while it is 0 or "any", as it is by
		// default); not those that warn about a value turned on (Allow Sub-Workflow Payments).
		unlimited: section.filter(
			(property) => property.type === 'notice' && shownWithDefaults(property),
		),
	};
}

/** What the dialog shows for a saved value: the option's name for options, the text otherwise. */
async function shownValue(field, input) {
	if (field.type === 'boolean')
		return (await input.locator('[role="switch"]').first().getAttribute('aria-checked')) === 'true';
	const control = input.locator('input, textarea').first();
	const text = await control.inputValue();
	if (field.type === 'number') return Number(text);
	if (field.type === 'options')
		return field.options.find((option) => option.name === text)?.value ?? text;
	return text;
}

/** Opens a credential's edit dialog; resolves the dialog and its Guardrails title. */
async function openCredential(page, n8n, id, notice) {
	await page.goto(`${n8n.baseUrl}/home/credentials/${id}`, { waitUntil: 'domcontentloaded' });
	const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
	const title = dialog.getByText(notice.displayName.split(' — ')[0]).first();
	await title.waitFor({ timeout: 60000 });
	return { dialog, title };
}

/** The texts of the "no limit" notices the open dialog shows. */
async function shownNotices(dialog, unlimited) {
	const shown = [];
	for (const notice of unlimited) {
		if (
			await dialog
				.getByText(notice.displayName)
				.first()
				.isVisible()
				.catch(() => false)
		)
			shown.push(notice.displayName);
	}
	return shown;
}

/** The last of `fields` the dialog shows (a field shown only with another one set, such as Agent Payments Need Human Review, may be hidden). */
async function lastShown(dialog, fields) {
	for (const field of [...fields].reverse()) {
		if (
			await dialog
				.locator(`[data-test-id="${field.name}"]`)
				.first()
				.isVisible()
				.catch(() => false)
		)
			return field;
	}
	throw new Error('the credential dialog shows none of the Guardrails fields');
}

/** Screenshots the Guardrails section, from its title to `lastField`, into `file`. */
async function photographSection(page, dialog, title, lastField, file) {
	const viewport = page.viewportSize();
	try {
		// The dialog's body is a fixed-height scroll box shorter than the section: unroll it (and
		// its frame) on a tall page, so the section is photographed whole, as it renders.
		await page.setViewportSize({ width: viewport.width, height: 2200 });
		await dialog.evaluate((element) => {
			for (
				let node = element.querySelector('form') ?? element;
				node && node !== document.body;
				node = node.parentElement
			) {
				node.style.setProperty('height', 'auto', 'important');
				node.style.setProperty('max-height', 'none', 'important');
				node.style.setProperty('overflow', 'visible', 'important');
				if (node.classList.contains('el-dialog')) break;
			}
		});
		await sleep(800);
		const top = await title.evaluate(
			(element) =>
				element.closest('.notice')?.getBoundingClientRect().toJSON() ??
				element.getBoundingClientRect().toJSON(),
		);
		const last = await dialog.locator(`[data-test-id="${lastField.name}"]`).first().boundingBox();
		const margin = 16;
		const clip = {
			x: Math.max(0, Math.min(top.x, last.x) - margin),
			y: Math.max(0, top.y - margin),
		};
		clip.width = Math.max(top.x + top.width, last.x + last.width) + margin - clip.x;
		clip.height = last.y + last.height + margin - clip.y;
		await page.screenshot({ path: file, clip });
	} finally {
		await page.setViewportSize(viewport);
	}
}

/**
 * On an open, logged-in `page`: opens GUARDED_CREDENTIAL's edit dialog (/home/credentials/<id>),
 * checks the section, then the sandbox credential's (the defaults), and saves both screenshots in
 * `artifacts` (and in `docsDir` when given).
 */
export async function credentialGuardrailsCheck({ page, n8n, artifacts, docsDir }) {
	const { notice, fields, unlimited } = guardrailProperties();
	const { dialog, title } = await openCredential(page, n8n, GUARDED_CREDENTIAL.id, notice);
	const wrong = [];
	for (const field of fields) {
		const input = dialog.locator(`[data-test-id="parameter-input-${field.name}"]`).first();
		if (!(await input.isVisible())) {
			wrong.push(`${field.displayName}: not shown`);
			continue;
		}
		const label = await dialog.locator(`[data-test-id="${field.name}"]`).first().innerText();
		if (!label.includes(field.displayName))
			wrong.push(`${field.displayName}: labelled ${JSON.stringify(label.split('\n')[0])}`);
		const saved = GUARDED_CREDENTIAL.guardrails[field.name];
		const shown = await shownValue(field, input);
		if (saved !== undefined && shown !== saved)
			wrong.push(
				`${field.displayName}: shows ${JSON.stringify(shown)}, saved ${JSON.stringify(saved)}`,
			);
	}
	const needless = await shownNotices(dialog, unlimited);
	if (needless.length)
		wrong.push(`shows ${JSON.stringify(needless)} although every guardrail is set`);
	if (wrong.length)
		throw new Error(`Guardrails section of "${GUARDED_CREDENTIAL.name}": ${wrong.join('; ')}`);
	const file = path.join(artifacts, GUARDRAILS_SCREENSHOT);
	await photographSection(page, dialog, title, fields.at(-1), file);
	if (docsDir) fs.copyFileSync(file, path.join(docsDir, GUARDRAILS_SCREENSHOT));

	// The defaults: every guardrail that limits nothing says so on the screen.
	const defaults = await openCredential(page, n8n, CREDENTIAL_ID, notice);
	const said = await shownNotices(defaults.dialog, unlimited);
	const defaultsFile = path.join(artifacts, DEFAULTS_SCREENSHOT);
	await photographSection(
		page,
		defaults.dialog,
		defaults.title,
		await lastShown(defaults.dialog, fields),
		defaultsFile,
	);
	if (said.length !== unlimited.length) {
		throw new Error(
			`the sandbox credential (defaults) shows ${JSON.stringify(said)} of the notices ${JSON.stringify(unlimited.map((n) => n.name))} (screenshot ${defaultsFile})`,
		);
	}
	if (docsDir) fs.copyFileSync(defaultsFile, path.join(docsDir, DEFAULTS_SCREENSHOT));
	return `credential Guardrails section shows ${fields.length} fields with their saved values; with the defaults, ${said.length} "no limit" notices${docsDir ? ` (saved to docs/images/${GUARDRAILS_SCREENSHOT} and ${DEFAULTS_SCREENSHOT})` : ''}`;
}
