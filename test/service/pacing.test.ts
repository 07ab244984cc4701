/**
 * The pause before a retry (nodes/service/pacing.ts, docs/usage.md "Pacing, retries and timeouts"),
 * as a value: tests that retry a failing service shorten it (shortBackoff in test/helpers/node.ts),
 * so its length is proven here.
 */
import { backoffMs } from '../../nodes/service/pacing';

test('the pause before a retry doubles from 0.5 s with each attempt up to 8 s, drawn in the upper half of its ceiling', () => {
	const random = jest.spyOn(Math, 'random');
	try {
		const bounds = [1, 2, 3, 4, 5, 6].map((attempt) => {
			random.mockReturnValue(0);
			const shortest = backoffMs(attempt);
			random.mockReturnValue(0.999999);
			return [shortest, backoffMs(attempt)];
		});
		expect(bounds).toEqual([
			[500, 1000],
			[1000, 2000],
			[2000, 4000],
			[4000, 8000],
			[4000, 8000],
			[4000, 8000],
		]);
	} finally {
		random.mockRestore();
	}
});
