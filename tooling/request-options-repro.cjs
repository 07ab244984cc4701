#!/usr/bin/env node
// Issue 73 (docs/development.md, "n8n's Request Options in what a model reads"): why the type n8n
// 2.41.1's MCP get_node_types gives a model for a declarative community node writes n8n's Request
// Options twice, without starting n8n. It runs n8n's own code from the installed n8n 2.41.1
// (tooling/n8n-install.mjs's cache; N8N_CS_CACHE as there): n8n-core's PackageDirectoryLoader loads a
// package, n8n's start releases the loaded types (LoadNodesAndCredentials.releaseTypes), the MCP
// node catalog asks for them again (collectTypes → ensureTypesLoaded → loadAll), and n8n's
// synthesizeNodeTypeDef (the workflow SDK's generateNodeTypeFile) writes the type.
//   node tooling/request-options-repro.cjs            a two-operation declarative node written to a
//                                                     temporary package, its properties one module-level
//                                                     array (shared) and a fresh array per instance
//   node tooling/request-options-repro.cjs --package  this package's build too (npx tsc -p tsconfig.json first)
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');

const cache =
	process.env.N8N_CS_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-crypto-settlement');
const n8nDir = path.join(cache, 'n8n-2.41.1', 'node_modules', 'n8n');
if (!fs.existsSync(n8nDir))
	throw new Error(`no n8n 2.41.1 at ${n8nDir}: node tooling/n8n-install.mjs first`);
const fromN8n = createRequire(path.join(n8nDir, 'package.json'));
const { PackageDirectoryLoader } = fromN8n('n8n-core');
const { synthesizeNodeTypeDef } = fromN8n('./dist/modules/mcp-registry/synthesize-type-def.js');

/** A two-operation declarative node (routing, no execute); `shared`: its properties one module-level array. */
function nodeSource(shared) {
	return `'use strict';
const properties = [
	{ displayName: 'Resource', name: 'resource', type: 'options', noDataExpression: true, default: 'item',
		options: [{ name: 'Item', value: 'item' }] },
	{ displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, default: 'get',
		displayOptions: { show: { resource: ['item'] } },
		options: [
			{ name: 'Get', value: 'get', action: 'Get an item', routing: { request: { method: 'GET', url: '=/items/{{$parameter.itemId}}' } } },
			{ name: 'List', value: 'list', action: 'List items', routing: { request: { method: 'GET', url: '/items' } } },
		] },
	{ displayName: 'Item ID', name: 'itemId', type: 'string', required: true, default: '',
		displayOptions: { show: { resource: ['item'], operation: ['get'] } } },
];
class Mini {
	constructor() {
		this.description = {
			displayName: 'Mini', name: 'mini', group: ['transform'], version: 1, description: 'Two operations',
			defaults: { name: 'Mini' }, inputs: ['main'], outputs: ['main'],
			requestDefaults: { baseURL: 'https://example.com' },
			properties: ${shared ? 'properties' : '[...properties]'},
		};
	}
}
exports.Mini = Mini;
`;
}

function miniPackage(shared) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'request-options-repro-'));
	fs.mkdirSync(path.join(dir, 'dist'));
	fs.writeFileSync(path.join(dir, 'dist', 'Mini.node.js'), nodeSource(shared));
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({
			name: `n8n-nodes-mini-${shared ? 'shared' : 'fresh'}`,
			version: '0.0.1',
			n8n: { n8nNodesApiVersion: 1, nodes: ['dist/Mini.node.js'] },
		}),
	);
	return dir;
}

/** Each operation type of a synthesized file: [name, characters, requestOptions keys, how often each of its four options is written]. */
function measure(text) {
	const types = [...text.matchAll(/^export type (\w+Params) = \{[\s\S]*?^\};/gm)];
	return types.map(([type, name]) => [
		name,
		type.length,
		(type.match(/requestOptions\?:/g) || []).length,
		['batching', 'allowUnauthorizedCerts', 'proxy', 'timeout']
			.map((option) => (type.match(new RegExp(`^\\s*${option}\\?:`, 'gm')) || []).length)
			.join('/'),
	]);
}

async function run(label, dir, nodeName) {
	const loader = new PackageDirectoryLoader(dir);
	await loader.loadAll(); // n8n's start
	const options = (description) =>
		description.properties
			.find((property) => property.name === 'requestOptions')
			.options.map((option) => option.name)
			.join(', ');
	const first = loader.types.nodes.find((node) => node.name === nodeName);
	const firstOptions = options(first);
	const once = synthesizeNodeTypeDef(JSON.parse(JSON.stringify(first)));
	loader.releaseTypes(); // commands/start.js: LoadNodesAndCredentials.releaseTypes()
	await loader.ensureTypesLoaded(); // the node catalog's collectTypes → postProcessLoaders
	const again = loader.types.nodes.find((node) => node.name === nodeName);
	const twice = synthesizeNodeTypeDef(again);
	const withoutOptions = synthesizeNodeTypeDef({
		...again,
		properties: again.properties.filter((property) => property.name !== 'requestOptions'),
	});
	console.log(`\n${label}`);
	console.log(`  Request Options after the first load:  ${firstOptions}`);
	console.log(`  Request Options after types reloaded:  ${options(again)}`);
	console.log(
		'  operation type (characters)                         first load  after reload  without Request Options  each option written (first/reload)',
	);
	const [a, b, c] = [once, twice, withoutOptions].map(measure);
	const sum = (rows) => rows.reduce((total, row) => total + row[1], 0);
	a.forEach(([name, chars, , each], i) => {
		console.log(
			`  ${name.padEnd(52)} ${String(chars).padStart(10)} ${String(b[i][1]).padStart(13)} ${String(c[i][1]).padStart(24)}  ${each.split('/')[0]}/${b[i][3].split('/')[0]}`,
		);
	});
	console.log(
		`  ${`${a.length} operation types`.padEnd(52)} ${String(sum(a)).padStart(10)} ${String(sum(b)).padStart(13)} ${String(sum(c)).padStart(24)}`,
	);
	console.log(
		`  whole file                                           ${String(once.length).padStart(10)} ${String(twice.length).padStart(13)} ${String(withoutOptions.length).padStart(24)}`,
	);
}

(async () => {
	// n8n-core's loader asks its dependency-injection container for a logger
	const { Container } = fromN8n('@n8n/di');
	const { Logger } = fromN8n('@n8n/backend-common');
	Container.set(Logger, {
		debug() {},
		info() {},
		warn() {},
		error() {},
		scoped() {
			return this;
		},
	});
	for (const shared of [true, false]) {
		const dir = miniPackage(shared);
		try {
			await run(
				shared
					? 'properties: one module-level array (shared by every instance)'
					: 'properties: [...properties] (a fresh array per instance)',
				dir,
				'mini',
			);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	}
	if (process.argv.includes('--package'))
		await run('this package (dist/)', path.join(__dirname, '..'), 'cryptoSettlement');
})().catch((error) => {
	console.error(error);
	process.exit(1);
});
