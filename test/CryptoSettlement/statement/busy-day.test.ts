/**
 * Statement → Get, Output Lines, on a day too busy for items (docs/statement.md, "Speed"): a seeded day
 * of 60,000 records (about 120,000 lines) through n8n-core's engine against the fake API. Output Lines
 * says how to take such a day instead of giving more than 100,000 items; Output File gives every line.
 * In the slow lane (jest.config.js): the day takes about a minute.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi } from '../../../fake-api/src/server';
import { runNode } from '../../helpers/node';

const DAY = '2026-03-10';

let fakeApi: FakeApi;
let credentials: IDataObject;

async function get(parameters: IDataObject) {
	const result = await runNode(
		{ resource: 'statement', operation: 'get', day: DAY, ...parameters },
		{ credentials },
	);
	if (result.error) throw new Error(`${result.error.message} — ${result.error.description ?? ''}`);
	return result.items;
}

describe('Output Lines on a day too busy for items', () => {
	beforeAll(async () => {
		fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000, maxPageSize: 100 });
		credentials = sandboxCredentials(fakeApi);
		fakeApi.seedDay({ day: DAY, records: 60_000 });
	});
	afterAll(async () => await fakeApi.close());

	it('says how a workflow takes such a day (its file, or its exceptions) instead of giving more than 100,000 items', async () => {
		const result = await runNode(
			{ resource: 'statement', operation: 'get', day: DAY, output: 'lines' },
			{ credentials },
		);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toMatch(
			/^The statement of 2026-03-10 has \d+ lines: more than the 100000 items Output Lines gives$/,
		);
		expect(result.error?.description).toMatch(/Output File gives one file per currency/);
		const files = await get({ output: 'file' });
		expect(files.reduce((sum, item) => sum + Number(item.json.fileRows), 0)).toBeGreaterThan(
			100_000,
		);
	});
});
