/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/** The package as n8n loads it: dist/ read by n8n-core's PackageDirectoryLoader, and its node types. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';
import type {
	ICredentialType,
	IDataObject,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';

export const PACKAGE_NAME = 'n8n-nodes-crypto-settlement';
/** The package root, found upward so the harness also works compiled into .build/ (the benchmark). */
export const PACKAGE_ROOT = findPackageRoot(__dirname);

function findPackageRoot(from: string): string {
	for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		try {
			if (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name === PACKAGE_NAME)
				return dir;
		} catch {
			// no package.json here: keep walking up
		}
	}
	throw new Error(`package root of ${PACKAGE_NAME} not found above ${from}`);
}
export const ACTION_NODE = `${PACKAGE_NAME}.cryptoSettlement`;
export const TRIGGER_NODE = `${PACKAGE_NAME}.cryptoSettlementTrigger`;
export const CREDENTIAL_TYPE = 'cryptoSettlementApi';

export interface LoadedPackage {
	loader: PackageDirectoryLoader;
	nodeTypes: HarnessNodeTypes;
	credentialType: ICredentialType;
}

let loaded: Promise<LoadedPackage> | undefined;

/** Loads dist/ once per test file, exactly as n8n loads an installed community package. */
export async function loadPackage(): Promise<LoadedPackage> {
	loaded ??= (async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		const credentialType = loader.credentialTypes[CREDENTIAL_TYPE]?.type;
		if (!credentialType)
			throw new Error(`credential ${CREDENTIAL_TYPE} not found in dist: run npm run build`);
		return { loader, nodeTypes: new HarnessNodeTypes(loader), credentialType };
	})();
	return await loaded;
}

/** Node types of the package (by full type name), plus extra types a test registers. */
export class HarnessNodeTypes implements INodeTypes {
	private readonly extra = new Map<string, INodeType | IVersionedNodeType>();

	constructor(private readonly loader: PackageDirectoryLoader) {}

	register(typeName: string, type: INodeType | IVersionedNodeType): void {
		this.extra.set(typeName, type);
	}

	getByName(typeName: string): INodeType | IVersionedNodeType {
		const extra = this.extra.get(typeName);
		if (extra) return extra;
		const short = typeName.startsWith(`${PACKAGE_NAME}.`)
			? typeName.slice(PACKAGE_NAME.length + 1)
			: typeName;
		const found = this.loader.nodeTypes[short]?.type;
		if (!found) throw new Error(`unknown node type ${typeName}`);
		return found;
	}

	getByNameAndVersion(typeName: string, version?: number): INodeType {
		const type = this.getByName(typeName);
		return 'nodeVersions' in type ? type.getNodeType(version) : type;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}
