// The e2e report: named checks printed PASS/FAIL/SKIP as they run; `results` keeps them for the tally.

import { secs } from '../../tooling/util.mjs';

/** Every check run so far: { label, ok, error? }. */
export const results = [];
let currentLine = '';

/** The n8n version the following checks run on ('' between lines). */
export function setCurrentLine(version) {
	currentLine = version;
}

export function say(msg) {
	process.stdout.write(`${msg}\n`);
}

/** Runs one named check; a thrown error is a FAIL with its message. */
export async function check(name, fn) {
	const label = currentLine ? `[n8n ${currentLine}] ${name}` : name;
	const start = Date.now();
	try {
		const detail = await fn();
		results.push({ label, ok: true });
		say(`PASS ${label} (${secs(Date.now() - start)})${detail ? ` — ${detail}` : ''}`);
		return true;
	} catch (error) {
		results.push({ label, ok: false, error });
		say(
			`FAIL ${label} (${secs(Date.now() - start)})\n     ${String(error?.stack || error)
				.split('\n')
				.slice(0, 12)
				.join('\n     ')}`,
		);
		return false;
	}
}

export function skip(name, why) {
	say(`SKIP ${currentLine ? `[n8n ${currentLine}] ` : ''}${name} — ${why}`);
}

export function assert(cond, message) {
	if (!cond) throw new Error(message);
}
