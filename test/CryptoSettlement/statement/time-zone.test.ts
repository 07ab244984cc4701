/**
 * @jest-environment ./test/setup/time-zone-environment.js
 * @jest-environment-options {"timeZone": "Pacific/Kiritimati"}
 */
/**
 * Statement → Get's day is the UTC day whatever n8n's time zone (docs/statement.md, "The day"): run
 * under UTC+14 with the workflow's time zone set far west, the records at 00:00:00.000 and
 * 23:59:59.999 UTC are in, those a millisecond outside are not.
 */
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi } from '../../../fake-api/src/server';
import { actionWorkflow, CREDENTIAL_TYPE, runWorkflow } from '../../helpers';
import { CREDENTIALS, NODE } from '../../helpers/node';

const DAY = '2026-03-10';
let fakeApi: FakeApi;

beforeAll(async () => {
	fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000 });
	for (const day of ['2026-03-09', DAY, '2026-03-11']) fakeApi.seedDay({ day, records: 25 });
});
afterAll(async () => await fakeApi.close());

async function lines(parameters: IDataObject, timezone: string) {
	const workflow = actionWorkflow({
		resource: 'statement',
		operation: 'get',
		output: 'lines',
		...parameters,
	});
	const result = await runWorkflow({
		workflow: { ...workflow, settings: { timezone } },
		items: [{ json: {} }],
		credentials: {
			[CREDENTIAL_TYPE]: {
				...CREDENTIALS,
				appId: fakeApi.appId,
				appSecret: fakeApi.appSecret,
				baseUrl: fakeApi.url,
			} as never,
		},
	});
	if (result.error) throw new Error(result.error.message);
	return result.output(NODE).map((item) => item.json);
}

test.each(['Pacific/Kiritimati', 'Pacific/Pago_Pago'])(
	'the day is the UTC day, n8n running at UTC+14 with the workflow in %s',
	async (timezone) => {
		expect(new Date(Date.UTC(2026, 2, 10)).getDate()).toBe(10); // the process runs at UTC+14: midnight UTC is the 10th locally too...
		expect(new Date(Date.UTC(2026, 2, 10, 12)).getDate()).toBe(11); // ...and noon UTC is already the 11th there.
		const day = await lines({ day: DAY }, timezone);
		const times = day.map((line) => String(line.createdAt)).sort();
		expect(times[0]).toBe(`${DAY}T00:00:00.000Z`);
		expect(times[times.length - 1]).toBe(`${DAY}T23:59:59.999Z`);
		// Every record of the day is a line's record, and none of the days around it.
		const ofDay = new Set(
			[...fakeApi.state.trades, ...fakeApi.state.withdrawals]
				.filter((r) => r.createdAt.startsWith(DAY))
				.map((r) => r.id),
		);
		expect(new Set(day.map((line) => line.recordId))).toEqual(ofDay);
		// A date-time written with an offset names the day it is written for.
		const withOffset = await lines({ day: `${DAY}T00:00:00+14:00` }, timezone);
		expect(withOffset.map((line) => line.lineKey)).toEqual(day.map((line) => line.lineKey));
	},
);
