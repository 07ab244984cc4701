#!/usr/bin/env node
// What a model reads of the action node (issue 73; docs/speed.md, "What a model reads"): for each
// resource → operation, the characters of the package's own description JSON an assistant is given
// for it (n8n's get_node_types narrows the node to one resource and operation): the Resource
// selector, that resource's Operation selector, the field entries shown for it (whatever the other
// fields' values), the node's description and builderHint (searchHint, related nodes, and the
// examples shown for that operation). From a build:
//   node tooling/model-reads.cjs [--all] [root]    root: a checkout with dist/ (default: this one)
// Without --all, only the money operations and the statement are printed, then the totals.
'use strict';
const path = require('node:path');

const args = process.argv.slice(2);
const all = args.includes('--all');
const root = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? path.join(__dirname, '..'));
const { CryptoSettlement } = require(
	path.join(root, 'dist/nodes/CryptoSettlement/CryptoSettlement.node.js'),
);

const description = new CryptoSettlement().description;
const { properties } = description;
const size = (value) => (value === undefined ? 0 : JSON.stringify(value).length);

/** Whether an entry shows for this resource and operation by its resource/operation conditions. */
function showsFor(entry, resource, operation) {
	const show = (entry.displayOptions && entry.displayOptions.show) || {};
	if (show.resource && !show.resource.includes(resource)) return false;
	if (show.operation && !show.operation.includes(operation)) return false;
	return true;
}

function reads(resource, operation) {
	const entries = properties.filter((entry) => showsFor(entry, resource, operation));
	const selectors = entries.filter(
		(entry) => entry.name === 'resource' || entry.name === 'operation',
	);
	const fields = entries.filter((entry) => !selectors.includes(entry));
	const hint = description.builderHint || {};
	const examples = (hint.extraTypeDefContent || []).filter((variation) =>
		showsFor(variation, resource, operation),
	);
	const node = size(description.description) + size(hint.searchHint) + size(hint.relatedNodes);
	return {
		entries: fields.length,
		selectors: size(selectors),
		fields: size(fields),
		hints: fields.reduce((sum, entry) => sum + size(entry.builderHint), 0),
		examples: size(examples),
		node,
		total: size(selectors) + size(fields) + size(examples) + node,
	};
}

const operations = properties
	.filter((entry) => entry.name === 'operation')
	.flatMap((selector) =>
		selector.options.map((option) => [selector.displayOptions.show.resource[0], option.value]),
	);
const shown = all
	? operations
	: operations.filter(([resource, operation]) =>
			[
				'withdrawal:createCrypto',
				'withdrawal:createBank',
				'currency:swap',
				'statement:get',
				'statement:match',
			].includes(`${resource}:${operation}`),
		);

const pad = (text, width) => String(text).padStart(width);
console.log(
	`${'resource → operation'.padEnd(32)}${pad('fields', 7)}${pad('selectors', 10)}${pad('fields', 8)}${pad('of which hints', 15)}${pad('examples', 9)}${pad('node', 6)}${pad('total', 7)}  (characters of JSON)`,
);
for (const [resource, operation] of shown) {
	const r = reads(resource, operation);
	console.log(
		`${`${resource} → ${operation}`.padEnd(32)}${pad(r.entries, 7)}${pad(r.selectors, 10)}${pad(r.fields, 8)}${pad(r.hints, 15)}${pad(r.examples, 9)}${pad(r.node, 6)}${pad(r.total, 7)}`,
	);
}
const totals = operations.map(([resource, operation]) => reads(resource, operation).total);
console.log(
	`every operation: ${operations.length}, mean ${Math.round(totals.reduce((a, b) => a + b, 0) / totals.length)} characters, largest ${Math.max(...totals)}; the whole description ${size(properties)} characters in ${properties.length} entries`,
);
