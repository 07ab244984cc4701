/**
 * The node's in-process memories (credential reads, wallet labels, duplicate memories, sends per
 * External ID) are maps kept oldest first and bounded, so a long-running n8n never grows them
 * without end.
 */

/** The entry of `key` in a Map or a WeakMap, made and kept on first use. */
export function sharedOf<K, V>(
	map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
	key: K,
	make: (key: K) => V,
): V {
	let shared = map.get(key);
	if (shared === undefined) map.set(key, (shared = make(key)));
	return shared;
}

/** Sets `key` as the newest entry of a map kept oldest first, and drops the oldest beyond `capacity`. */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
	map.delete(key);
	map.set(key, value);
	for (const oldest of map.keys()) {
		if (map.size <= capacity) break;
		map.delete(oldest);
	}
}
