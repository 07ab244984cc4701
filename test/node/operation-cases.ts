/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * The contract table of the action node, one case per resource → operation, split over three test
 * files by resource group (operations-*.test.ts); this module runs a group's cases.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { api, expectNoSecrets, noWithdrawalsYet, ok, runNode } from './helpers';
import { RESOURCES } from '../../nodes/CryptoSettlement/resources';
import { recordReads, shownFields } from './shown-and-read';

export interface Case {
	params: IDataObject;
	method: 'get' | 'post' | 'put' | 'delete';
	path: string;
	query?: IDataObject;
	body?: IDataObject;
	reply: unknown;
	output: IDataObject[];
}

/** The resources each test file's table covers; how many operations each has comes from the records. */
export const CONTRACT_GROUPS = {
	'operations-deposits': ['account', 'asset', 'wallet', 'sandbox'],
	'operations-payouts': ['withdrawal', 'payoutAddress', 'bank', 'bankAccount'],
	'operations-rates-records': ['transaction', 'currency', 'rate', 'webhookEvent'],
};

/** Operations per resource, as the operation records list them. */
const operationsOf = (resources: string[]): Record<string, number> =>
	Object.fromEntries(resources.map((resource) => [resource, Object.keys(RESOURCES[resource]?.specs ?? {}).length]));

/** A paginated reply of one page. */
export const page = (data: unknown[], hasNextPage = false) =>
	ok(data, 'ok', { page: 1, pages: 1, totalDocs: data.length, hasNextPage, hasPrevPage: false, nextPage: null, prevPage: null });

/** The resource → operation pairs of a table, counted per resource ("(stablecoin)"-style variants count once). */
function pairsPerResource(cases: Record<string, Case>): Record<string, number> {
	const pairs = new Set(Object.keys(cases).map((name) => name.replace(/ \(.*\)$/, '')));
	const counts: Record<string, number> = {};
	for (const pair of pairs) {
		const resource = pair.split(' → ')[0];
		counts[resource] = (counts[resource] ?? 0) + 1;
	}
	return counts;
}

/** Runs every case of a group: the contract request is sent and the unwrapped data is output. */
export function describeOperations(group: keyof typeof CONTRACT_GROUPS, cases: Record<string, Case>): void {
	describe('every operation sends the contract request and outputs the unwrapped data', () => {
		test.each(Object.entries(cases))('%s', async (_name, c) => {
			// Operations of kind `withdrawal` look their External ID up before they are sent (the record says which).
			const spec = RESOURCES[String(c.params.resource)]?.specs[String(c.params.operation)];
			const lookup = spec?.kind === 'withdrawal' ? noWithdrawalsYet(1) : undefined;
			let interceptor = api().intercept(c.path, c.method.toUpperCase(), c.body as nock.RequestBodyMatcher | undefined);
			if (c.query) interceptor = interceptor.query(c.query as nock.DataMatcherMap);
			else interceptor = interceptor.query((actual) => Object.keys(actual).length === 0);
			const scope = interceptor.reply(200, c.reply as nock.Body);

			const reads = recordReads();
			const run = await runNode(c.params);
			reads.stop();
			// What the editor shows for this operation is exactly what its builder reads; the one field read
			// while hidden is a network on a UTXO token, read only to refuse it (it may come from an expression).
			const shown = await shownFields(c.params);
			const utxo = typeof c.params.token === 'string' && !['USDT', 'USDC'].includes(c.params.token);
			expect(reads.names().filter((name) => !(utxo && name === 'network' && !shown.includes(name)))).toEqual(shown);

			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => item.json)).toEqual(c.output);
			expect(scope.isDone()).toBe(true);
			expect(lookup?.isDone() ?? true).toBe(true);
			expectNoSecrets(JSON.stringify(run.items));
		});

		const expected = operationsOf(CONTRACT_GROUPS[group]);
		const total = Object.values(expected).reduce((sum, count) => sum + count, 0);
		test(`the table covers the ${total} contract pairs of ${Object.keys(expected).join(', ')}`, () => {
			expect(pairsPerResource(cases)).toEqual(expected);
		});
	});
}

/**
 * The whole contract: every resource of the records in exactly one group, each group run by the
 * test file of its name (run once, by operations-deposits.test.ts).
 */
export function describeContractTotal(): void {
	test('the tables together cover every resource of the operation records, once', () => {
		const grouped = Object.values(CONTRACT_GROUPS).flat();
		expect([...grouped].sort()).toEqual(Object.keys(RESOURCES).sort());
		for (const group of Object.keys(CONTRACT_GROUPS)) expect(existsSync(join(__dirname, `${group}.test.ts`))).toBe(true);
	});
}
