/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, outside the scanned folders */
/**
 * What the editor shows for an operation, and what its request builder reads: the two must be the
 * same fields, or a user fills in something the node ignores (or the node reads something hidden).
 */
import path from 'node:path';
import {
	NodeHelpers,
	type IDataObject,
	type INodeParameters,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { CREDENTIAL_GUARDRAILS } from '../../nodes/CryptoSettlement/fields/fields';
import { ACTION_NODE, loadPackage, PACKAGE_ROOT } from './index';

/**
 * Not fields of an operation: the selectors, n8n's own request options, and the field that only
 * shows the credential's guardrails (fields/fields.ts), which nothing reads.
 */
const NOT_FIELDS = new Set(['resource', 'operation', 'requestOptions', CREDENTIAL_GUARDRAILS.name]);

/** Top-level parameters the editor shows for these parameter values (defaults filled in as n8n does). */
export async function shownFields(parameters: IDataObject): Promise<string[]> {
	const { nodeTypes } = await loadPackage();
	const { description } = nodeTypes.getByNameAndVersion(ACTION_NODE, 1) as {
		description: INodeTypeDescription;
	};
	const node = { typeVersion: 1 };
	const values =
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters as INodeParameters,
			true,
			false,
			null,
			description,
		) ?? {};
	const shown = description.properties
		.filter((property) => NodeHelpers.displayParameter(values, property, node, description, values))
		.map((property) => property.name);
	return [...new Set(shown)].filter((name) => !NOT_FIELDS.has(name)).sort();
}

/** Records the top-level parameters the node's builders read (through its `Params`), loaded from dist/. */
export function recordReads(): { names: () => string[]; stop: () => void } {
	const file = path.join(PACKAGE_ROOT, 'dist', 'nodes', 'CryptoSettlement', 'record', 'params.js');
	// The same module instance n8n-core's loader required from dist/.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Params } = require(file) as {
		Params: { prototype: { raw(name: string, fallback?: unknown): unknown } };
	};
	const original = Params.prototype.raw;
	const read = new Set<string>();
	const spy = jest.spyOn(Params.prototype, 'raw').mockImplementation(function (
		this: unknown,
		name: string,
		fallback?: unknown,
	) {
		read.add(name);
		return original.call(this, name, fallback);
	});
	return {
		names: () => [...read].filter((name) => !NOT_FIELDS.has(name)).sort(),
		stop: () => spy.mockRestore(),
	};
}
