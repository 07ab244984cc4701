/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
// The architecture as the imports show it (docs/architecture.md, "Folders"): the folders of nodes/
// and credentials/ in layers, each importing only the layers below it, so imports flow one way and
// no circle spans folders. A new folder, or an import against the order, fails here.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Lowest first: a folder may import its own files and those of the folders before it in the list,
 * except where `mayNotImport` says otherwise.
 */
const LAYERS: Array<{ folder: string; role: string; mayNotImport?: string[] }> = [
	{ folder: 'credentials', role: 'the credential type' },
	{
		folder: 'nodes/service',
		role: 'the service: facts, routes, client, pacing, errors, redaction',
	},
	{ folder: 'nodes/events', role: "the service's events as both triggers see them" },
	{
		folder: 'nodes/CryptoSettlement/fields',
		role: 'fields and rules',
		mayNotImport: ['nodes/events'],
	},
	{
		folder: 'nodes/CryptoSettlement/record',
		role: 'the operation record: its type, money classes, parameters and the description built from records',
		mayNotImport: ['nodes/events'],
	},
	{
		folder: 'nodes/CryptoSettlement/engine',
		role: "what the node relies on in n8n-core's engine",
		mayNotImport: ['nodes/events'],
	},
	{
		folder: 'nodes/CryptoSettlement/money',
		role: 'money safety: guardrails, Dry Run, withdrawals',
		mayNotImport: ['nodes/events'],
	},
	{
		folder: 'nodes/CryptoSettlement/statement',
		role: 'reconciliation: statements and matches (pure, and the lists they read)',
		mayNotImport: ['nodes/events'],
	},
	{
		folder: 'nodes/CryptoSettlement/pipeline',
		role: 'the request pipeline (the engine hook) and the batch of writes sent once',
		mayNotImport: ['nodes/events'],
	},
	// Webhook Event → Verify Delivery checks a delivery as the webhook trigger does (events/webhookNodeDelivery.ts).
	{
		folder: 'nodes/CryptoSettlement/operations',
		role: 'the operation records',
		mayNotImport: ['nodes/CryptoSettlement/pipeline'],
	},
	{
		folder: 'nodes/CryptoSettlement/methods',
		role: "the node's load-options and list-search methods",
		mayNotImport: ['nodes/events', 'nodes/CryptoSettlement/pipeline'],
	},
	{ folder: 'nodes/CryptoSettlement', role: 'the action node', mayNotImport: ['nodes/events'] },
	{
		folder: 'nodes/CryptoSettlementTrigger',
		role: 'the webhook trigger',
		mayNotImport: ['nodes/CryptoSettlement/'],
	},
	{
		folder: 'nodes/CryptoSettlementPollTrigger',
		role: 'the poll trigger',
		mayNotImport: ['nodes/CryptoSettlement/', 'nodes/CryptoSettlementTrigger'],
	},
];

function sourcesOf(dir: string): string[] {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const file = path.posix.join(dir, entry.name);
		return entry.isDirectory() ? sourcesOf(file) : file.endsWith('.ts') ? [file] : [];
	});
}

/** Every relative import of a file, as the file it names (`.ts`, a folder's `index.ts`, or `.json`). */
function importsOf(file: string): string[] {
	const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
	return [...text.matchAll(/(?:from|import)\s+'(\.{1,2}\/[^']+)'/g)].map(([, spec]) => {
		const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
		if (fs.existsSync(path.join(ROOT, `${target}.ts`))) return `${target}.ts`;
		if (fs.existsSync(path.join(ROOT, target, 'index.ts'))) return `${target}/index.ts`;
		return target;
	});
}

const FILES = [...sourcesOf('nodes'), ...sourcesOf('credentials')];
const folderOf = (file: string) => path.posix.dirname(file);
const layerOf = (folder: string) => LAYERS.findIndex((layer) => layer.folder === folder);

test('every folder of nodes/ and credentials/ has its place in the layers', () => {
	const unplaced = [...new Set(FILES.map(folderOf))].filter((folder) => layerOf(folder) === -1);
	expect(unplaced).toEqual([]);
});

/** Files of `files` whose name another file of them has too (`index.ts` aside: a folder's entry). */
const sharedNames = (files: string[]) => {
	const byName = new Map<string, string[]>();
	for (const file of files) {
		const name = path.posix.basename(file);
		if (name !== 'index.ts') byName.set(name, [...(byName.get(name) ?? []), file]);
	}
	return [...byName.values()].filter((same) => same.length > 1).flat();
};

test('one file per name under nodes/ and credentials/: a name says what its file holds without its folder', () => {
	expect(sharedNames(FILES)).toEqual([]);
	// And the check sees two files of one name.
	expect(
		sharedNames(['nodes/a/walk.ts', 'nodes/b/walk.ts', 'nodes/a/index.ts', 'nodes/b/index.ts']),
	).toEqual(['nodes/a/walk.ts', 'nodes/b/walk.ts']);
});

test('each folder imports only its own files and the layers below it', () => {
	const against: string[] = [];
	for (const file of FILES) {
		const from = folderOf(file);
		const rules = LAYERS[layerOf(from)];
		for (const target of importsOf(file)) {
			const to = folderOf(target);
			if (to === from) continue;
			const forbidden = rules?.mayNotImport?.some((prefix) =>
				`${to}/`.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),
			);
			if (layerOf(to) === -1 || layerOf(to) > layerOf(from) || forbidden)
				against.push(`${file} imports ${target}`);
		}
	}
	expect(against).toEqual([]);
});

test('the layers hold no circle, and this test would see one', () => {
	// The folder graph the imports draw, and a check that finds a circle in it.
	const edges = new Map<string, Set<string>>();
	for (const file of FILES) {
		for (const target of importsOf(file)) {
			if (folderOf(target) === folderOf(file)) continue;
			if (!edges.has(folderOf(file))) edges.set(folderOf(file), new Set());
			edges.get(folderOf(file))!.add(folderOf(target));
		}
	}
	const circleIn = (graph: Map<string, Set<string>>): string[] | undefined => {
		const state = new Map<string, 'open' | 'done'>();
		const walk = (node: string, trail: string[]): string[] | undefined => {
			if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node];
			if (state.get(node) === 'done') return undefined;
			state.set(node, 'open');
			for (const next of graph.get(node) ?? []) {
				const circle = walk(next, [...trail, node]);
				if (circle) return circle;
			}
			state.set(node, 'done');
			return undefined;
		};
		for (const node of graph.keys()) {
			const circle = walk(node, []);
			if (circle) return circle;
		}
		return undefined;
	};
	expect(circleIn(edges)).toBeUndefined();
	// The same check on the graph with one import back from the service to the action node's records.
	const withCircle = new Map([...edges].map(([from, to]) => [from, new Set(to)]));
	withCircle.get('nodes/service')?.add('nodes/CryptoSettlement/operations');
	expect(circleIn(withCircle)).toBeDefined();
});
