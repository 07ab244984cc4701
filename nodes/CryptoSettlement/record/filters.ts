import type { IDataObject } from 'n8n-workflow';
import { timeMs } from '../../service/values';
import type { Params } from './params';
import { sameExternalId } from '../../service/ids';
import { violation } from '../fields/rules';

/**
 * Filters the node applies itself to the records of a list, for lists whose API documents no
 * filter (docs/api.md, "Pagination"): the service sends every record and the node keeps the
 * matching ones. Every page is read (up to the node's bound on lists), then Limit counts the matches.
 */

type ListFilterName = 'status' | 'token' | 'externalId' | 'createdAfter' | 'createdBefore';

/** A word (a status, a token) the service may write in either case. */
const sameText = (a: unknown, b: string) =>
	typeof a === 'string' && a.trim().toLowerCase() === b.toLowerCase();

/** The record filter for this item's 'Filters', or undefined when none is set. Bad dates are refused. */
export function recordFilter(
	params: Params,
	allowed: readonly ListFilterName[],
): ((record: IDataObject) => boolean) | undefined {
	const filters = (params.raw('filters', {}) as IDataObject) ?? {};
	const tests: Array<(record: IDataObject) => boolean> = [];
	for (const name of allowed) {
		const value = filters[name];
		if (value === undefined || value === null || value === '') continue;
		if (name === 'createdAfter' || name === 'createdBefore') {
			// One reading of a date (timeMs): without a zone it is UTC, as the service's dates are, whatever n8n's TZ.
			const bound = timeMs(value);
			if (bound === null) {
				params.assert(
					violation(name, `${name} must be a date and time, such as 2026-01-31T00:00:00Z`, value),
				);
				continue;
			}
			tests.push((record) => {
				const created = timeMs(record.createdAt);
				if (created === null) return false;
				return name === 'createdAfter' ? created >= bound : created < bound;
			});
			continue;
		}
		const wanted = String(value).trim();
		// An External ID is the merchant's own reference: compared exactly (service/ids.ts).
		if (name === 'externalId') tests.push((record) => sameExternalId(record.externalId, wanted));
		else tests.push((record) => sameText(record[name], wanted));
	}
	return tests.length ? (record) => tests.every((test) => test(record)) : undefined;
}
