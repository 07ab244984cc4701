/**
 * What a statement keeps of each record it reads (statement/kept.ts; docs/statement.md, "What keeps a
 * busy day small"): packed as its page arrives, and given back as exactly the object of the fields
 * its lines read, whatever the values: texts (repeated or not, odd characters), numbers, true,
 * false, null, a field missing, an `updatedAt` equal to the `createdAt`, and values JSON cannot give
 * back (-0, an object), which are kept as the object.
 */
import type { IDataObject } from 'n8n-workflow';
import { KeptRecords, RecordPacker } from '../../../nodes/CryptoSettlement/statement/kept';
import { LINE_FIELDS } from '../../../nodes/CryptoSettlement/statement/lines';

/** The object of the fields a record has, in the order of the fields: what the lines are given. */
const fieldsOf = (record: IDataObject, fields: readonly string[]) => Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, record[field]]));

const RECORDS: IDataObject[] = [
	{ id: 'a1', createdAt: '2026-03-10T00:00:00.000Z', updatedAt: '2026-03-10T00:00:00.000Z', status: 'completed', currency: 'ngn', amount: 74625, feeAmount: 375.5, avatar: 'not kept' },
	{ id: 'a2', createdAt: '2026-03-10T00:00:01.000Z', updatedAt: '2026-03-10T00:05:01.000Z', status: 'completed', currency: 'ngn', reason: null, rate: 1500 },
	{ _id: 'a3', createdAt: 1773100800000, updatedAt: 1773100800000, status: 'pending', currency: 7, label: 'shop "quoted", \\ back\nline \u2028 \ud800 [1]', amount: '12.50' },
	{ id: 'a4', status: true, label: false, wallet: null, amount: -0, cryptoReceived: '0.000123' },
	{ id: 'a5', createdAt: null, updatedAt: null, trade: { _id: 't1' }, bankAccount: ['x'], amount: 1e21 },
	{ id: 'a6', status: '1', address: '0', asset: '', label: 'customer-1', amount: -12.345 },
];

describe('Records kept packed give back the fields their lines read, as they were read', () => {
	it.each(Object.entries(LINE_FIELDS))('%s: every record, in order, equal to its fields (Object.is for every value)', (_list, fields) => {
		const packer = new RecordPacker(fields);
		const kept = new KeptRecords(packer, RECORDS.map((record) => packer.pack(record)));
		expect(kept.length).toBe(RECORDS.length);
		RECORDS.forEach((record, index) => {
			const back = kept.at(index);
			const expected = fieldsOf(record, fields);
			expect(Object.keys(back)).toEqual(Object.keys(expected));
			for (const key of Object.keys(expected)) expect(Object.is(back[key], expected[key]) || JSON.stringify(back[key]) === JSON.stringify(expected[key])).toBe(true);
			expect(back).toEqual(expected);
		});
	});

	it('packs a record of texts, numbers and null into one string, each repeated text once for the list; -0 and objects stay objects', () => {
		const packer = new RecordPacker(LINE_FIELDS.transactions);
		const [first, second, , negativeZero, withObject] = RECORDS.map((record) => packer.pack(record));
		expect(typeof first).toBe('string');
		expect(typeof second).toBe('string');
		// 'completed' and 'ngn' are written as their numbers in the table the second time.
		expect(second).not.toContain('completed');
		expect(typeof negativeZero).toBe('object');
		expect(Object.is((negativeZero as IDataObject).amount, -0)).toBe(true);
		expect(typeof withObject).toBe('string'); // the transaction fields hold no object of a5
		const withdrawals = new RecordPacker(LINE_FIELDS.withdrawals);
		expect(typeof withdrawals.pack(RECORDS[4])).toBe('object');
	});
});
