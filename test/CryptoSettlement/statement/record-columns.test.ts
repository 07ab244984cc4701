/**
 * What a statement keeps of each record it reads (statement/recordColumns.ts; docs/statement.md, "What keeps a
 * busy day small"): written into its list's columns as its page arrives, and given back as exactly
 * the object of the fields its lines read, whatever the values: texts (repeated or not, odd
 * characters), numbers (-0, 1e21), true, false, null, a field missing, an `updatedAt` equal to the
 * `createdAt`, objects and arrays; over more records than the columns first hold.
 */
import type { IDataObject } from 'n8n-workflow';
import {
	KeptRecords,
	RecordColumns,
} from '../../../nodes/CryptoSettlement/statement/recordColumns';
import { LINE_FIELDS } from '../../../nodes/CryptoSettlement/statement/lines';

/** The object of the fields a record has, in the order of the fields: what the lines are given. */
const fieldsOf = (record: IDataObject, fields: readonly string[]) =>
	Object.fromEntries(
		fields.filter((field) => field in record).map((field) => [field, record[field]]),
	);

const RECORDS: IDataObject[] = [
	{
		id: 'a1',
		createdAt: '2026-03-10T00:00:00.000Z',
		updatedAt: '2026-03-10T00:00:00.000Z',
		status: 'completed',
		currency: 'ngn',
		amount: 74625,
		feeAmount: 375.5,
		avatar: 'not kept',
	},
	{
		id: 'a2',
		createdAt: '2026-03-10T00:00:01.000Z',
		updatedAt: '2026-03-10T00:05:01.000Z',
		status: 'completed',
		currency: 'ngn',
		reason: null,
		rate: 1500,
	},
	{
		_id: 'a3',
		createdAt: 1773100800000,
		updatedAt: 1773100800000,
		status: 'pending',
		currency: 7,
		label: 'shop "quoted", \\ back\nline \u2028 \ud800 [1]',
		amount: '12.50',
	},
	{ id: 'a4', status: true, label: false, wallet: null, amount: -0, cryptoReceived: '0.000123' },
	{
		id: 'a5',
		createdAt: null,
		updatedAt: null,
		trade: { _id: 't1' },
		bankAccount: ['x'],
		amount: 1e21,
	},
	{ id: 'a6', status: '1', address: '0', asset: '', label: 'customer-1', amount: -12.345 },
];

describe('Records kept in columns give back the fields their lines read, as they were read', () => {
	it.each(Object.entries(LINE_FIELDS))(
		'%s: every record, in order, equal to its fields (Object.is for every value)',
		(_list, fields) => {
			const columns = new RecordColumns(fields);
			const kept = new KeptRecords(
				columns,
				RECORDS.map((record) => columns.keep(record)),
			);
			expect(kept.length).toBe(RECORDS.length);
			RECORDS.forEach((record, index) => {
				const back = kept.at(index);
				const expected = fieldsOf(record, fields);
				expect(Object.keys(back)).toEqual(Object.keys(expected));
				for (const key of Object.keys(expected))
					expect(
						Object.is(back[key], expected[key]) ||
							JSON.stringify(back[key]) === JSON.stringify(expected[key]),
					).toBe(true);
				expect(back).toEqual(expected);
			});
		},
	);

	it('gives back every record past the first block of rows (4,096), a record kept twice (a list that shifted) under either of its rows', () => {
		const columns = new RecordColumns(LINE_FIELDS.withdrawals);
		// Records with a field first met late (reason from the 3,000th, an object from the 4,000th) and fields that come and go.
		const records: IDataObject[] = Array.from({ length: 5000 }, (_, index) => ({
			id: `w${index}`,
			createdAt: new Date(Date.UTC(2026, 2, 10) + index * 1000).toISOString(),
			...(index % 3 === 0
				? { updatedAt: new Date(Date.UTC(2026, 2, 11) + index).toISOString() }
				: {}),
			...(index % 7 === 0 ? {} : { status: index % 2 ? 'completed' : 'pending' }),
			payoutAmount: index % 5 === 0 ? String(index / 4) : index / 4,
			...(index >= 3000 ? { reason: index % 2 ? null : `reason ${index % 4}` } : {}),
			...(index >= 4000 ? { trade: { _id: `t${index}` } } : {}),
			...(index % 11 === 0 ? { externalId: index % 22 === 0 } : { externalId: `payout-${index}` }),
		}));
		const rows = records.map((record) => columns.keep(record));
		const again = columns.keep(records[4321]);
		const kept = new KeptRecords(columns, [...rows, again]);
		records.forEach((record, index) =>
			expect(kept.at(index)).toEqual(fieldsOf(record, LINE_FIELDS.withdrawals)),
		);
		expect(kept.at(records.length)).toEqual(kept.at(4321));
		expect(Object.keys(kept.at(3)).slice(0, 4)).toEqual(['id', 'createdAt', 'updatedAt', 'status']);
	});
});
