import type { IDataObject } from 'n8n-workflow';

/**
 * The fields its lines read (lines.ts, LINE_FIELDS) of each record a statement reads, kept in columns
 * (docs/statement.md, "Speed"); any other value (an object, an array) is kept as it is, beside them.
 */

/** Fields whose texts repeat from record to record (a wallet, a status, a network): each text held once per list. */
const REPEATED_FIELDS = new Set([
	'status',
	'wallet',
	'label',
	'address',
	'asset',
	'currency',
	'token',
	'network',
	'bankName',
	'reason',
]);

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

/** Rows per block: the columns grow a block at a time, so nothing already kept is copied as they grow. */
const BLOCK_ROWS = 4096;

/** The columns of BLOCK_ROWS rows. */
class Block {
	/** Row × field: where the value is (ABSENT, NUMBER, …). */
	readonly codes: Uint8Array;

	readonly numbers: Array<Float64Array | undefined>;

	/** A repeated field's texts by their number in the list's table. */
	readonly repeated: Array<Uint32Array | undefined>;

	/** Other fields' texts, at their row. */
	readonly texts: Array<Array<string | undefined> | undefined>;

	constructor(width: number) {
		this.codes = new Uint8Array(BLOCK_ROWS * width);
		this.numbers = new Array<undefined>(width).fill(undefined);
		this.repeated = new Array<undefined>(width).fill(undefined);
		this.texts = new Array<undefined>(width).fill(undefined);
	}
}

/** The records of one list, kept in columns of its `fields`; each record kept is a row. */
export class RecordColumns {
	private rows = 0;

	private readonly blocks: Block[] = [];

	private readonly table: string[] = [];

	private readonly tableNumbers = new Map<string, number>();

	/** Values of no column (objects, arrays), by row × fields + field. */
	private readonly others = new Map<number, unknown>();

	private readonly isRepeated: boolean[];

	private readonly createdField: number;

	private readonly updatedField: number;

	constructor(private readonly fields: readonly string[]) {
		this.isRepeated = fields.map((field) => REPEATED_FIELDS.has(field));
		this.createdField = fields.indexOf('createdAt');
		this.updatedField = fields.indexOf('updatedAt');
		// An updatedAt is given back as its createdAt: the createdAt must be set first.
		if (this.updatedField >= 0 && this.updatedField < this.createdField)
			throw new Error('createdAt must come before updatedAt');
	}

	/** Keeps the record's fields (those it has); gives its row. */
	keep(record: IDataObject): number {
		const row = this.rows++;
		const width = this.fields.length;
		const at = row % BLOCK_ROWS;
		if (at === 0) this.blocks.push(new Block(width));
		const block = this.blocks[this.blocks.length - 1];
		for (let field = 0; field < width; field++) {
			const name = this.fields[field];
			if (name in record)
				block.codes[at * width + field] = this.put(block, at, row, field, record[name], record);
		}
		return row;
	}

	private put(
		block: Block,
		at: number,
		row: number,
		field: number,
		value: unknown,
		record: IDataObject,
	): number {
		if (typeof value === 'number') {
			(block.numbers[field] ??= new Float64Array(BLOCK_ROWS))[at] = value;
			return NUMBER;
		}
		if (typeof value === 'string') {
			if (field === this.updatedField && value === record.createdAt) return CREATED;
			if (this.isRepeated[field])
				(block.repeated[field] ??= new Uint32Array(BLOCK_ROWS))[at] = this.tableNumber(value);
			else
				(block.texts[field] ??= new Array<string | undefined>(BLOCK_ROWS).fill(undefined))[at] =
					value;
			return TEXT;
		}
		if (value === null) return NULL;
		if (value === true) return TRUE;
		if (value === false) return FALSE;
		this.others.set(row * this.fields.length + field, value);
		return OTHER;
	}

	private tableNumber(text: string): number {
		let number = this.tableNumbers.get(text);
		if (number === undefined) this.tableNumbers.set(text, (number = this.table.push(text) - 1));
		return number;
	}

	/** The object of the fields row `row`'s record had, in the order of the fields, each value as it was read. */
	at(row: number): IDataObject {
		const record: IDataObject = {};
		const width = this.fields.length;
		const block = this.blocks[Math.floor(row / BLOCK_ROWS)];
		const at = row % BLOCK_ROWS;
		for (let field = 0; field < width; field++) {
			const code = block.codes[at * width + field];
			if (code !== ABSENT)
				record[this.fields[field]] = this.valueOf(code, block, at, row, field, record);
		}
		return record;
	}

	private valueOf(
		code: number,
		block: Block,
		at: number,
		row: number,
		field: number,
		record: IDataObject,
	): IDataObject[string] {
		switch (code) {
			case NUMBER:
				return (block.numbers[field] as Float64Array)[at];
			case TEXT:
				return this.isRepeated[field]
					? this.table[(block.repeated[field] as Uint32Array)[at]]
					: (block.texts[field] as string[])[at];
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
