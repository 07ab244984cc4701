// Reading what `n8n execute --rawOutput` printed: a node's items, its error, a failed run described.
import { tail } from '../../tooling/n8n.mjs';

/** Items of a node's first run, first output. */
export function itemsOf(exec, nodeName) {
	const run = exec.runData[nodeName]?.[0];
	if (!run) return undefined;
	return (run.data?.main?.[0] ?? []).map((item) => item.json);
}

export function nodeError(exec, nodeName) {
	const run = exec.runData[nodeName]?.[0];
	if (!run) return `node "${nodeName}" did not run`;
	if (run.error) return run.error.message || JSON.stringify(run.error);
	const items = itemsOf(exec, nodeName);
	if (!items?.length) return `node "${nodeName}" output no items`;
	const failed = items.find(
		(json) => json && typeof json.error !== 'undefined' && Object.keys(json).length <= 3,
	);
	if (failed)
		return `node "${nodeName}" output an error item: ${JSON.stringify(failed).slice(0, 300)}`;
	return undefined;
}

export function describeFailure(exec) {
	if (!exec.run)
		return `no run data printed (exit ${exec.code ?? exec.signal}):\n${tail(exec.stdout + '\n' + exec.stderr, 25)}`;
	return `status ${exec.status}, error: ${exec.error?.message ?? 'none'} ${exec.error?.description ?? ''}`;
}
