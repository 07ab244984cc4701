/**
 * A line's time (statement/lines.ts, timeText): a date already written as toISOString writes it is
 * given back as it is, without parsing; every other text goes the long way. Both must give the
 * same text for every input, including the dates Date.parse reads as another day (2026-02-30,
 * 24:00) and the ones it refuses (60 seconds, month 13).
 */
import { isInstantText, timeText } from '../../../nodes/CryptoSettlement/statement/lines';
import { timeMs } from '../../../nodes/service/values';

/** What timeText gave before it had a short way: parsed as the node reads a date, written by toISOString. */
const parsedAndWritten = (value: unknown) => {
	const at = timeMs(value);
	return at === null ? '' : new Date(at).toISOString();
};

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** Every month's edges in a leap year, a common year, a century (1900, 2100) and 2000, at the edges of a day. */
function edgeTexts(): string[] {
	const texts: string[] = [];
	for (const year of [0, 1900, 2000, 2024, 2026, 2100, 9999]) {
		for (let month = 0; month <= 13; month++) {
			for (const day of [0, 1, 28, 29, 30, 31, 32]) {
				for (const time of [
					'00:00:00.000',
					'23:59:59.999',
					'24:00:00.000',
					'12:60:00.000',
					'12:00:60.000',
					'99:99:99.999',
				]) {
					texts.push(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${time}Z`);
				}
			}
		}
	}
	return texts;
}

describe('A line time given back as it is only when it is already what toISOString writes', () => {
	test('every edge of every month, day and time: the same text as parsing and writing it again', () => {
		const texts = edgeTexts();
		const short = texts.filter(isInstantText);
		// the short way is taken for the dates that exist, and only for them
		expect(short).toContain('2024-02-29T23:59:59.999Z');
		expect(short).toContain('0000-02-29T00:00:00.000Z');
		expect(short).not.toContain('2026-02-29T00:00:00.000Z');
		expect(short).not.toContain('1900-02-29T00:00:00.000Z');
		expect(short).not.toContain('2026-04-31T00:00:00.000Z');
		expect(short).not.toContain('2026-03-10T24:00:00.000Z');
		for (const text of texts)
			expect([text, timeText(text)]).toEqual([text, parsedAndWritten(text)]);
		for (const text of short) expect(parsedAndWritten(text)).toBe(text);
	});

	test('other forms go the long way: offsets, no milliseconds, spaces, numbers, a date alone', () => {
		const values: unknown[] = [
			'2026-03-10T10:00:00+01:00',
			'2026-03-10T10:00:00Z',
			' 2026-03-10T10:00:00.000Z',
			'2026-03-10 10:00:00',
			'2026-03-10',
			1773136800000,
			'1773136800000',
			'',
			'soon',
			null,
		];
		for (const value of values) {
			expect(typeof value === 'string' && isInstantText(value)).toBe(false);
			expect(timeText(value)).toBe(parsedAndWritten(value));
		}
		expect(timeText('2026-03-10T10:00:00+01:00')).toBe('2026-03-10T09:00:00.000Z');
	});
});
