import type { IDataObject } from 'n8n-workflow';

/**
 * What a statement keeps of the records it reads (docs/statement.md, "What keeps a busy day small"):
 * of each record only the fields its lines read (lines.ts, LINE_FIELDS), written into the list's
 * columns as its page arrives, and given back as the object of those fields when its lines are made.
 *
 * A column per field: numbers in a Float64Array, texts that repeat from record to record (a wallet,
 * a status) as their number in the list's table of texts, other texts as the very strings the page
 * was parsed into (an id is then held once, by the walk's set of ids and here), and per record and
 * field one byte saying which of those holds its value (or that it is absent, null, true, false, or
 * an `updatedAt` that is its `createdAt`). Any other value (an object, an array) is kept as it is,
 * beside the columns. So a record is neither written as text nor parsed again: no value changes on
 * its way (a number is the same double, -0 included), and a busy day's 200,000 records are a few
 * strings each rather than an object and its fields.
 */

/** Fields whose texts repeat from record to record (a wallet, a status, a network): each text held once per list. */
const REPEATED_FIELDS = new Set(['status', 'wallet', 'label', 'address', 'asset', 'currency', 'token', 'network', 'bankName', 'reason']);

/** Where a record's value of a field is. */
const ABSENT = 0;
const NUMBER = 1;
const TEXT = 2;
const NULL = 3;
const TRUE = 4;
const FALSE = 5;
/** An `updatedAt` that is the record's `createdAt` text. */
const CREATED = 6;
const OTHER = 7;

const INITIAL_ROWS = 1024;

/** The records of one list, kept in columns of its `fields`; each record kept is a row. */
export class RecordColumns {
	private rows = 0;

	private capacity = INITIAL_ROWS;

	/** Row × field: where the value is (ABSENT, NUMBER, …). */
	private codes: Uint8Array;

	private readonly numbers: Array<Float64Array | undefined>;

	/** A repeated field's texts by their number in `table`. */
	private readonly repeated: Array<Uint32Array | undefined>;

	/** Other fields' texts, one entry per row from the row that first had one. */
	private readonly texts: Array<Array<string | undefined> | undefined>;

	private readonly table: string[] = [];

	private readonly tableNumbers = new Map<string, number>();

	/** Values of no column (objects, arrays), by row × fields + field. */
	private readonly others = new Map<number, unknown>();

	private readonly isRepeated: boolean[];

	private readonly createdField: number;

	private readonly updatedField: number;

	constructor(private readonly fields: readonly string[]) {
		this.codes = new Uint8Array(INITIAL_ROWS * fields.length);
		this.numbers = fields.map(() => undefined);
		this.repeated = fields.map(() => undefined);
		this.texts = fields.map(() => undefined);
		this.isRepeated = fields.map((field) => REPEATED_FIELDS.has(field));
		this.createdField = fields.indexOf('createdAt');
		this.updatedField = fields.indexOf('updatedAt');
		// An updatedAt is given back as its createdAt: the createdAt must be set first.
		if (this.updatedField >= 0 && this.updatedField < this.createdField) throw new Error('createdAt must come before updatedAt');
	}

	/** Keeps the record's fields (those it has); gives its row. */
	keep(record: IDataObject): number {
		if (this.rows === this.capacity) this.grow();
		const row = this.rows++;
		const width = this.fields.length;
		for (let field = 0; field < width; field++) {
			const name = this.fields[field];
			if (!(name in record)) continue;
			this.codes[row * width + field] = this.put(row, field, record[name], record);
		}
		return row;
	}

	private put(row: number, field: number, value: unknown, record: IDataObject): number {
		if (typeof value === 'number') {
			(this.numbers[field] ??= new Float64Array(this.capacity))[row] = value;
			return NUMBER;
		}
		if (typeof value === 'string') {
			if (field === this.updatedField && value === record.createdAt) return CREATED;
			if (this.isRepeated[field]) (this.repeated[field] ??= new Uint32Array(this.capacity))[row] = this.tableNumber(value);
			else this.textColumn(field, row).push(value);
			return TEXT;
		}
		if (value === null) return NULL;
		if (value === true) return TRUE;
		if (value === false) return FALSE;
		this.others.set(row * this.fields.length + field, value);
		return OTHER;
	}

	/** A text field's column, filled up to `row` (so each row's text is at its row). */
	private textColumn(field: number, row: number): Array<string | undefined> {
		const column = (this.texts[field] ??= []);
		while (column.length < row) column.push(undefined);
		return column;
	}

	private tableNumber(text: string): number {
		let number = this.tableNumbers.get(text);
		if (number === undefined) this.tableNumbers.set(text, (number = this.table.push(text) - 1));
		return number;
	}

	private grow(): void {
		this.capacity *= 2;
		const codes = new Uint8Array(this.capacity * this.fields.length);
		codes.set(this.codes);
		this.codes = codes;
		for (let field = 0; field < this.fields.length; field++) {
			const numbers = this.numbers[field];
			if (numbers) (this.numbers[field] = new Float64Array(this.capacity)).set(numbers);
			const repeated = this.repeated[field];
			if (repeated) (this.repeated[field] = new Uint32Array(this.capacity)).set(repeated);
		}
	}

	/** The object of the fields row `row`'s record had, in the order of the fields, each value as it was read. */
	at(row: number): IDataObject {
		const record: IDataObject = {};
		const width = this.fields.length;
		for (let field = 0; field < width; field++) {
			const code = this.codes[row * width + field];
			if (code !== ABSENT) record[this.fields[field]] = this.valueOf(code, row, field, record);
		}
		return record;
	}

	private valueOf(code: number, row: number, field: number, record: IDataObject): IDataObject[string] {
		switch (code) {
			case NUMBER:
				return (this.numbers[field] as Float64Array)[row];
			case TEXT:
				return this.isRepeated[field] ? this.table[(this.repeated[field] as Uint32Array)[row]] : (this.texts[field] as string[])[row];
			case NULL:
				return null;
			case TRUE:
				return true;
			case FALSE:
				return false;
			case CREATED:
				return record[this.fields[this.createdField]];
			default:
				return this.others.get(row * this.fields.length + field) as IDataObject[string];
		}
	}
}

/** A list's records as a statement keeps them (their rows), in the order read: each given back when asked for. */
export class KeptRecords {
	constructor(
		private readonly columns: RecordColumns,
		private readonly rows: readonly number[],
	) {}

	get length(): number {
		return this.rows.length;
	}

	/** The record at `index` (0 ≤ index < length): the object of the fields kept. */
	at(index: number): IDataObject {
		return this.columns.at(this.rows[index]);
	}
}
