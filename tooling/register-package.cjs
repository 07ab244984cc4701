// Records an installed community package in n8n's database, as n8n's own installer does after
// `npm install` (rows in installed_packages and installed_nodes), so the package is listed under
// Settings → Community nodes. n8n loads the nodes from <userFolder>/.n8n/nodes either way.
//
// Run with the n8n line's own node and NODE_PATH=<n8n install>/node_modules (for sqlite3 and
// n8n-workflow):  node register-package.cjs <database.sqlite> <package dir>
'use strict';
const path = require('node:path');
const sqlite3 = require('sqlite3');

const [dbFile, packageDir] = process.argv.slice(2);
const pj = require(path.join(packageDir, 'package.json'));
const nodes = (pj.n8n?.nodes ?? []).map((rel) => {
	const mod = require(path.join(packageDir, rel));
	const NodeClass = Object.values(mod).find((value) => typeof value === 'function');
	const { description } = new NodeClass();
	const version = Array.isArray(description.version)
		? Math.max(...description.version)
		: description.version;
	return {
		name: description.displayName,
		type: `${pj.name}.${description.name}`,
		latestVersion: version ?? 1,
	};
});

const db = new sqlite3.Database(dbFile);
const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
const run = (sql, params) =>
	new Promise((resolve, reject) =>
		db.run(sql, params, (error) => (error ? reject(error) : resolve())),
	);
(async () => {
	await run('PRAGMA busy_timeout = 10000');
	await run('BEGIN');
	await run('DELETE FROM installed_nodes WHERE package = ?', [pj.name]);
	await run('DELETE FROM installed_packages WHERE packageName = ?', [pj.name]);
	await run(
		'INSERT INTO installed_packages (packageName, installedVersion, authorName, authorEmail, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)',
		[pj.name, pj.version, pj.author?.name ?? null, pj.author?.email ?? null, now, now],
	);
	for (const node of nodes) {
		await run(
			'INSERT INTO installed_nodes (name, type, latestVersion, package) VALUES (?, ?, ?, ?)',
			[node.name, node.type, node.latestVersion, pj.name],
		);
	}
	await run('COMMIT');
	db.close();
	process.stdout.write(JSON.stringify({ packageName: pj.name, version: pj.version, nodes }) + '\n');
})().catch((error) => {
	process.stderr.write(`${error.stack || error}\n`);
	process.exit(1);
});
