import type { IDataObject } from 'n8n-workflow';

/**
 * What a statement keeps of the records it reads (docs/statement.md, "What keeps a busy day small"):
 * of each record only the fields its lines read (lines.ts, LINE_FIELDS), packed into one string as
 * its page arrives, and given back as the object of those fields when its lines are made. A busy
 * day's 200,000 records are then about 30 MB of strings rather than 75 MB of objects, and the
 * garbage collector has one string to see per record rather than an object and its fields.
 *
 * A packed record is the JSON text of an array: which of the fields the record has (one bit each,
 * in the order of the fields), 1 when its `updatedAt` is its `createdAt` (0 otherwise), then the
 * values of the fields it has, `updatedAt` left out when it is the `createdAt`. A text of a field
 * whose texts repeat from record to record (a wallet, a status) is its number in the list's table
 * of texts; any other value of such a field is written inside an array ([null]). JSON gives back
 * every text, number, true, false and null as it was read; a record with any other value (an
 * object, -0) is kept as its object of those fields.
 */

/** Fields whose texts repeat from record to record (a wallet, a status, a network): each text held once per list. */
const REPEATED_FIELDS = new Set(['status', 'wallet', 'label', 'address', 'asset', 'currency', 'token', 'network', 'bankName', 'reason']);

/** A value JSON writes and reads back as the same value. */
const jsonExact = (value: unknown) =>
	typeof value === 'string' || typeof value === 'boolean' || value === null || (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0));

/** Packs and unpacks the records of one list (its `fields`, its table of repeated texts). */
export class RecordPacker {
	private readonly texts: string[] = [];

	private readonly numbers = new Map<string, number>();

	constructor(private readonly fields: readonly string[]) {
		if (fields.length > 30) throw new Error('a packed record holds at most 30 fields');
	}

	private numberOf(text: string): number {
		let number = this.numbers.get(text);
		if (number === undefined) {
			number = this.texts.push(text) - 1;
			this.numbers.set(text, number);
		}
		return number;
	}

	/** The record's fields (those it has), packed; as their object when a value would not come back the same. */
	pack(record: IDataObject): string | IDataObject {
		const values: unknown[] = [0, 0];
		let has = 0;
		for (const [index, field] of this.fields.entries()) {
			if (!(field in record)) continue;
			const value = record[field];
			if (!jsonExact(value)) return this.fieldsOf(record);
			has |= 1 << index;
			if (field === 'updatedAt' && value === record.createdAt) values[1] = 1;
			else if (!REPEATED_FIELDS.has(field)) values.push(value);
			else values.push(typeof value === 'string' ? this.numberOf(value) : [value]);
		}
		values[0] = has;
		return JSON.stringify(values);
	}

	/** The object of the record's fields, as `pack` was given them. */
	unpack(kept: string | IDataObject): IDataObject {
		if (typeof kept !== 'string') return kept;
		const values = JSON.parse(kept) as unknown[];
		const has = values[0] as number;
		const record: IDataObject = {};
		let next = 2;
		for (const [index, field] of this.fields.entries()) {
			if ((has & (1 << index)) === 0) continue;
			if (field === 'updatedAt' && values[1] === 1) {
				record.updatedAt = record.createdAt;
				continue;
			}
			const value = values[next++];
			record[field] = (!REPEATED_FIELDS.has(field) ? value : typeof value === 'number' ? this.texts[value] : (value as unknown[])[0]) as IDataObject[string];
		}
		return record;
	}

	/** The record's fields (those it has) as an object. */
	private fieldsOf(record: IDataObject): IDataObject {
		const kept: IDataObject = {};
		for (const field of this.fields) if (field in record) kept[field] = record[field];
		return kept;
	}
}

/** A list's records as a statement keeps them, in the order read: each unpacked when asked for. */
export class KeptRecords {
	constructor(
		private readonly packer: RecordPacker,
		private readonly kept: ReadonlyArray<string | IDataObject>,
	) {}

	get length(): number {
		return this.kept.length;
	}

	/** The record at `index` (0 ≤ index < length): the object of the fields kept. */
	at(index: number): IDataObject {
		return this.packer.unpack(this.kept[index]);
	}
}
