import type { IDataObject } from 'n8n-workflow';
import { scalarText } from './values';

/**
 * What the deposit-asset list (`GET /trades/assets`, docs/api.md) says of an asset: its token symbol
 * and network. A deposit record and its wallet name the asset only by the asset record's id or its
 * identifier (`USDT_TRX_TEST`); withdrawals and the triggers' items name the token (`USDT`), so
 * every output names a deposit's crypto by the token too (docs/trigger.md, docs/statement.md).
 */
export interface AssetFacts {
	token: string | null;
	network?: string;
}

/** The list's assets by id and by identifier (upper case), or undefined when the list is not a list. */
export function depositAssetIndex(data: unknown): Map<string, AssetFacts> | undefined {
	if (!Array.isArray(data)) return undefined;
	const byRef = new Map<string, AssetFacts>();
	for (const entry of data) {
		const asset = entry as IDataObject;
		if (!asset || typeof asset !== 'object') continue;
		const symbol = scalarText(asset.symbol).trim();
		const network = scalarText(asset.network).trim();
		const facts: AssetFacts = {
			token: symbol === '' ? null : symbol,
			...(network ? { network } : {}),
		};
		for (const ref of [asset.id, asset.identifier]) {
			const text = assetRef(ref);
			if (text !== '') byRef.set(text, facts);
		}
	}
	return byRef;
}

/** How an asset reference is looked up in the index: trimmed, upper case. */
export function assetRef(ref: unknown): string {
	return scalarText(ref).trim().toUpperCase();
}
