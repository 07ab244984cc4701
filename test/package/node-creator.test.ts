/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, outside the scanned folders */
// n8n's node creator groups a package's nodes into entries: a trigger `xTrigger` joins the node `x`
// when `x` has actions, and the joined entry (the actions and the triggers) shows the trigger's
// description (n8n editor-ui, generateMergedNodesAndActions). Every entry must describe what it holds.
import fs from 'node:fs';
import path from 'node:path';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** The package's nodes, as package.json lists them, loaded from their sources. */
const descriptions: INodeTypeDescription[] = (pkg.n8n.nodes as string[]).map((built) => {
	const source = path.join(ROOT, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
	const module = require(source) as Record<string, new () => INodeType>;
	return new (Object.values(module)[0])().description;
});
const isTrigger = (d: INodeTypeDescription) => d.group.includes('trigger');

/** n8n's grouping: the description each entry shows, and the nodes it holds. */
function entries(): Array<{ description: string; nodes: INodeTypeDescription[] }> {
	const apps = descriptions.filter((d) => !isTrigger(d)).map((d) => ({ name: d.name, description: d.description, nodes: [d] }));
	const alone = [];
	for (const trigger of descriptions.filter(isTrigger)) {
		const app = apps.find((entry) => entry.name === trigger.name.replace('Trigger', ''));
		if (app) {
			app.description = trigger.description;
			app.nodes.push(trigger);
		} else alone.push({ name: trigger.name, description: trigger.description, nodes: [trigger] });
	}
	return [...apps, ...alone];
}

test('the entry that holds the actions describes the actions, not only the trigger', () => {
	const actions = descriptions.find((d) => !isTrigger(d))!;
	const joined = entries().filter((entry) => entry.nodes.length > 1);
	expect(joined.map((entry) => entry.nodes.map((d) => d.name))).toEqual([[actions.name, `${actions.name}Trigger`]]);
	for (const entry of joined) {
		expect(entry.description).toContain(actions.description);
		expect(entry.description).toMatch(/trigger/i);
	}
});
