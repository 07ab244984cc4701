import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { scalarText } from './payload';

/** How many emitted deliveries are remembered (oldest forgotten first). */
export const DEDUPE_CAPACITY = 2000;

/** Key of the remembered deliveries in the node's static data. */
export const DEDUPE_STATIC_KEY = 'emittedDeliveries';

/**
 * What makes a delivery distinct: `event` + `id` + `status`, plus `confirmations` for
 * `trade.pending` (which legitimately repeats with rising confirmations). A delivery without an
 * `id` is keyed on its whole body. The key is a short hash, so memory stays bounded whatever the
 * payload holds.
 */
export function deliveryKey(event: string, body: IDataObject, text?: string): string {
	const id = scalarText(body.id);
	const parts =
		id === ''
			? ['body', event, text ?? JSON.stringify(body)]
			: ['delivery', event, id, scalarText(body.status)];
	if (id !== '' && event === 'trade.pending') parts.push(scalarText(body.confirmations));
	return createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('base64url').slice(0, 22);
}

function keysOf(staticData: IDataObject): string[] {
	const stored = staticData[DEDUPE_STATIC_KEY];
	return Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : [];
}

export function wasEmitted(staticData: IDataObject, key: string): boolean {
	return keysOf(staticData).includes(key);
}

/**
 * Records a key. The array is replaced rather than mutated, so n8n's observable static data marks
 * itself changed and n8n saves it (after each production webhook call).
 */
export function remember(staticData: IDataObject, key: string, capacity = DEDUPE_CAPACITY): void {
	const keys = keysOf(staticData).filter((existing) => existing !== key);
	keys.push(key);
	staticData[DEDUPE_STATIC_KEY] = keys.length > capacity ? keys.slice(keys.length - capacity) : keys;
}

export function forget(staticData: IDataObject, key: string): void {
	const keys = keysOf(staticData);
	if (!keys.includes(key)) return;
	staticData[DEDUPE_STATIC_KEY] = keys.filter((existing) => existing !== key);
}
