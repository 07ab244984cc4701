// Installs the n8n lines to test in parallel child processes (the installer is idempotent and cached).
import { spawn } from 'node:child_process';
import path from 'node:path';

import { REPO_ROOT } from '../../tooling/util.mjs';
import { say } from './report.mjs';

export async function installLines(lines) {
	const runs = lines.map(
		(line) =>
			new Promise((resolve) => {
				const child = spawn(
					process.execPath,
					[path.join(REPO_ROOT, 'tooling', 'n8n-install.mjs'), line],
					{
						stdio: ['ignore', 'pipe', 'pipe'],
					},
				);
				let out = '';
				child.stdout.on('data', (c) => {
					out += c;
					for (const l of String(c).split('\n').filter(Boolean))
						say(`  [install ${line}] ${l.replace(/^\[n8n-install\] /, '')}`);
				});
				child.stderr.on('data', (c) => (out += c));
				child.on('close', (code) => resolve({ line, code, out }));
			}),
	);
	return await Promise.all(runs);
}
