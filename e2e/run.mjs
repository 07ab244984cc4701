#!/usr/bin/env node
// `npm run test:e2e`: the package inside a real n8n, installed the way users install community
// nodes, against the local sandbox — on n8n 2.41.x (Node 24) and n8n 1.123.x (Node 20).
//
//   node e2e/run.mjs [--line=2|1|all] [--only=<phase>[,<phase>]] [--skip-build] [--no-browser] [--keep] [--update-screenshot]
//   --only (E2E_ONLY): run only these phases of each line (install, import and `n8n start` always run):
//   execute, agent, trigger, review, hitl, templates, subworkflow, builder, poll, browser (e2e/lib/line.mjs)
//   env: E2E_LINES=2,1   E2E_BROWSER=0   E2E_KEEP=1 (keep user folders)   N8N_CS_CACHE=<cache dir>
//   --update-screenshot (E2E_UPDATE_SCREENSHOT=1): the browser check on n8n 2.x also saves the
//   node's panel to docs/images/crypto-settlement-node.png, the README's screenshot
//
// Per line: fresh n8n user folder; `npm pack` tarball unpacked into <userFolder>/.n8n/nodes as
// n8n's community-package installer does; credential + workflows imported with n8n's CLI; the
// action workflows run by `n8n execute --id … --rawOutput`; then `n8n start` with the trigger
// workflow active receives the sandbox's webhooks; then a headless Chromium opens the editor.
// Prints PASS/FAIL per check and ends with `e2e: N passed, M failed`.

import path from 'node:path';

import { cacheDir, LINES } from '../tooling/n8n-install.mjs';
import { tail } from '../tooling/n8n.mjs';
import { buildPackage, packPackage } from '../tooling/pack.mjs';
import { secs } from '../tooling/util.mjs';
import { ensureChromium } from './lib/browser.mjs';
import { installLines } from './lib/install-lines.mjs';
import { PHASES, runLine } from './lib/line.mjs';
import { assert, check, results, say } from './lib/report.mjs';

const args = new Set(process.argv.slice(2));
const argValue = (name) =>
	process.argv
		.slice(2)
		.find((a) => a.startsWith(`--${name}=`))
		?.split('=')[1];
const lineArg = argValue('line') || process.env.E2E_LINES || 'all';
const linesToRun = lineArg === 'all' ? ['2', '1'] : lineArg.split(',').map((s) => s.trim());
const browserWanted = !args.has('--no-browser') && process.env.E2E_BROWSER !== '0';
const keep = args.has('--keep') || process.env.E2E_KEEP === '1';
const updateScreenshot =
	args.has('--update-screenshot') || process.env.E2E_UPDATE_SCREENSHOT === '1';
const onlyArg = argValue('only') || process.env.E2E_ONLY;
const only = onlyArg
	? onlyArg
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean)
	: undefined;
const t0 = Date.now();

async function main() {
	say(
		`e2e: n8n lines ${linesToRun.map((l) => LINES[l]?.version ?? l).join(', ')}; cache ${cacheDir()}`,
	);
	for (const l of linesToRun) if (!LINES[l]) throw new Error(`unknown line ${l}`);
	const unknown = (only ?? []).filter((phase) => !PHASES.includes(phase));
	if (unknown.length)
		throw new Error(
			`unknown phase(s) ${unknown.join(', ')} in --only; the phases: ${PHASES.join(', ')}`,
		);
	if (only) say(`e2e: only ${only.join(', ')}`);

	// Slow, independent preparations in parallel: n8n installs, chromium, build + pack.
	const chromiumP =
		browserWanted && (!only || only.includes('browser') || only.includes('templates'))
			? ensureChromium({ log: say })
			: Promise.resolve({ ok: false, reason: 'disabled' });
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
			await runLine(line, tarball, chromium, { browserWanted, keep, updateScreenshot, only });
		}
	}
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	say(
		`\n${
			failed
				? 'Failed checks:\n' +
					results
						.filter((r) => !r.ok)
						.map((r) => `  - ${r.label}`)
						.join('\n') +
					'\n'
				: ''
		}e2e total time ${secs(Date.now() - t0)}`,
	);
	say(`e2e: ${passed} passed, ${failed} failed`);
	process.exitCode = failed || !results.length ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		say(`interrupted (${signal}): stopping n8n`);
		process.exit(130); // the 'exit' handler in tooling/n8n.mjs kills running n8n processes
	});
}

main().catch((error) => {
	say(`FAIL e2e harness: ${error?.stack || error}`);
	const passed = results.filter((r) => r.ok).length;
	say(`e2e: ${passed} passed, ${results.length - passed + 1} failed`);
	process.exit(1);
});
