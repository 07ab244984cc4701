/** Fault switches (docs/fake-api.md, "Fault switches"): which rule applies to a request and which fault it draws. */
import type { FaultConfig, FaultKind, FaultRule } from './types';

const FAULT_ORDER: FaultKind[] = ['drop', '429', '5xx', '5xxAfterCommit', 'dropAfterCommit'];
const RATE_OF: Record<FaultKind, keyof FaultRule> = {
	drop: 'rateDrop',
	'429': 'rate429',
	'5xx': 'rate5xx',
	'5xxAfterCommit': 'rate5xxAfterCommit',
	dropAfterCommit: 'rateDropAfterCommit',
};

function normalizeKey(key: string): string {
	return key.trim().replace(/\{[^}]*\}/g, '{}');
}

/** The most specific rule: concrete path, route template, 'METHOD *', '*'. */
export function findFaultRule(
	faults: FaultConfig,
	method: string,
	path: string,
	template: string | undefined,
): FaultRule | undefined {
	const byKey = new Map(Object.entries(faults).map(([key, rule]) => [normalizeKey(key), rule]));
	const candidates = [
		`${method} ${path}`,
		template ? normalizeKey(`${method} ${template}`) : undefined,
		`${method} *`,
		'*',
	];
	for (const candidate of candidates) {
		if (candidate && byKey.has(candidate)) return byKey.get(candidate);
	}
	return undefined;
}

export function pickFault(
	rule: FaultRule | undefined,
	random: () => number,
): FaultKind | undefined {
	if (!rule) return undefined;
	for (const kind of FAULT_ORDER) {
		const count = rule.nextN?.[kind] ?? 0;
		if (count > 0 && rule.nextN) {
			rule.nextN[kind] = count - 1;
			return kind;
		}
	}
	for (const kind of FAULT_ORDER) {
		const rate = rule[RATE_OF[kind]] as number | undefined;
		if (rate && random() < rate) return kind;
	}
	return undefined;
}
