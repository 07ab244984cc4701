import { byText, type Line } from './lines';

/** The day's order of the lines its files take, kept as numbers, each line made again in its turn (docs/statement.md, "Speed"). */

const grown = <T extends Float64Array | Uint32Array>(array: T, make: (size: number) => T): T => {
	const bigger = make(array.length * 2);
	bigger.set(array);
	return bigger;
};

export class DayOrder {
	private times = new Float64Array(1024);

	private records = new Uint32Array(1024);

	private ordinals = new Uint32Array(1024);

	/** Each line's kind and currency, by their number in `texts`. */
	private kinds = new Uint32Array(1024);

	private currencies = new Uint32Array(1024);

	private readonly texts: string[] = [];

	private readonly numbers = new Map<string, number>();

	private readonly rows = new Map<string, number>();

	private count = 0;

	private sorted: Uint32Array | undefined;

	/** `linesOfRecord`: a record's lines, as LineMaker.linesOf makes them. */
	constructor(private readonly linesOfRecord: (record: number) => Line[]) {}

	private textNumber(text: string): number {
		let number = this.numbers.get(text);
		if (number === undefined) this.numbers.set(text, (number = this.texts.push(text) - 1));
		return number;
	}

	/** A line of the day a file takes, made as the `ordinal`-th line of record number `record`, at instant `at` (ms). */
	add(line: Line, record: number, ordinal: number, at: number): void {
		if (this.count === this.times.length) {
			this.times = grown(this.times, (size) => new Float64Array(size));
			this.records = grown(this.records, (size) => new Uint32Array(size));
			this.ordinals = grown(this.ordinals, (size) => new Uint32Array(size));
			this.kinds = grown(this.kinds, (size) => new Uint32Array(size));
			this.currencies = grown(this.currencies, (size) => new Uint32Array(size));
		}
		const entry = this.count++;
		// A line's time is toISOString's text of an instant of the day (lines.ts, timeText): its order is its instant's.
		this.times[entry] = at;
		this.records[entry] = record;
		this.ordinals[entry] = ordinal;
		this.kinds[entry] = this.textNumber(line.kind);
		this.currencies[entry] = this.textNumber(line.currency);
		this.rows.set(line.currency, (this.rows.get(line.currency) ?? 0) + 1);
	}

	/** The currencies of the lines added (alphabetical). */
	currenciesAdded(): string[] {
		return [...this.rows.keys()].sort(byText);
	}

	/** Lines added of `currency`. */
	rowsOf(currency: string): number {
		return this.rows.get(currency) ?? 0;
	}

	/** The lines of `currency` in the day's order, each made again from its record (the record's lines kept while its turn lasts). */
	*linesOf(currency: string): Generator<Line> {
		const wanted = this.numbers.get(currency);
		let record = -1;
		let lines: Line[] = [];
		for (const at of this.order()) {
			if (this.currencies[at] !== wanted) continue;
			if (this.records[at] !== record) {
				record = this.records[at];
				lines = this.linesOfRecord(record);
			}
			yield lines[this.ordinals[at]];
		}
	}

	/**
	 * The lines added, by time then lineKey (`<kind>:<record id>`). Two lines of one record at one time
	 * differ by kind alone (their record id is the same), so their kinds' texts order them as their
	 * keys would; lines of two records at the same millisecond take their keys from their records.
	 * Lines of one key at one time (records without an id) keep the order they were read in.
	 */
	private order(): Uint32Array {
		if (this.sorted) return this.sorted;
		const keys = new Map<number, string>();
		const keyOf = (at: number) => {
			let key = keys.get(at);
			if (key === undefined)
				keys.set(at, (key = this.linesOfRecord(this.records[at])[this.ordinals[at]].lineKey));
			return key;
		};
		const sorted = Uint32Array.from({ length: this.count }, (_, at) => at);
		sorted.sort((a, b) => {
			const time = this.times[a] - this.times[b];
			if (time !== 0) return time;
			const key =
				this.records[a] === this.records[b]
					? byText(`${this.texts[this.kinds[a]]}:`, `${this.texts[this.kinds[b]]}:`)
					: byText(keyOf(a), keyOf(b));
			return key || this.records[a] - this.records[b] || this.ordinals[a] - this.ordinals[b];
		});
		return (this.sorted = sorted);
	}
}
