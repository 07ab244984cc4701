/**
 * Jest's global setup: tests load the built package from dist/ (as n8n does), so a run after an edit
 * without `npm run build` would test the old node against the new tests. When any source the build
 * reads (nodes/, credentials/, icons/) is newer than the oldest file the build wrote, a built file's
 * source is gone, or dist/ is missing, this builds first and says so; a failed build fails the run.
 * `npm test` builds only so, not when dist/ is already current.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const SOURCES = ['nodes', 'credentials', 'icons', 'tsconfig.json', 'gulpfile.js'];

function files(entry) {
	const full = path.join(ROOT, entry);
	if (!fs.existsSync(full)) return [];
	if (!fs.statSync(full).isDirectory()) return [full];
	return fs
		.readdirSync(full, { withFileTypes: true })
		.flatMap((dirent) => files(path.join(entry, dirent.name)));
}

/** Why dist/ cannot be trusted, or undefined when it was built after every source changed. */
function staleness() {
	const built = files('dist').filter((file) => file.endsWith('.js'));
	if (!built.length) return 'dist/ is missing';
	const oldestBuilt = Math.min(...built.map((file) => fs.statSync(file).mtimeMs));
	const newer = SOURCES.flatMap(files).find((file) => fs.statSync(file).mtimeMs > oldestBuilt);
	if (newer) return `${path.relative(ROOT, newer)} changed after the last build`;
	// A source removed or renamed leaves its old output behind (the build starts from an empty dist/).
	const orphan = built.find(
		(file) =>
			!fs.existsSync(
				path.join(ROOT, path.relative(path.join(ROOT, 'dist'), file)).replace(/\.js$/, '.ts'),
			),
	);
	return orphan ? `${path.relative(ROOT, orphan)} has no source any more` : undefined;
}

module.exports = async function freshBuild() {
	const reason = staleness();
	if (!reason) return;
	process.stdout.write(
		`\n${reason}: building first (npm run build), so the tests run the current code\n`,
	);
	execFileSync('npm', ['run', 'build', '--silent'], {
		cwd: ROOT,
		stdio: ['ignore', 'inherit', 'inherit'],
	});
	const still = staleness();
	if (still)
		throw new Error(`npm run build left dist/ stale (${still}): the tests would run old code`);
};
