/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
/**
 * Issue "Bulk work at least as fast as n8n's HTTP Request node": adaptive concurrency per
 * credential and route, and the remaining pages of a list fetched at once. Behaviour only: the
 * speed itself is measured by `npm run bench`, never by a test.
 */
import nock from 'nock';
import { CONCURRENCY, Gate } from '../../../nodes/service/pacing';
import { rl, runNode } from '../../helpers/node';
import { envelope, localService } from '../../helpers/local-service';

beforeAll(() => nock.enableNetConnect());

describe('the in-flight limit adapts to the service', () => {
	async function fill(gate: Gate, count: number) {
		for (let i = 0; i < count; i++) await gate.enter();
	}

	test('it grows by one per fast clean answer, up to the ceiling', async () => {
		const gate = new Gate();
		expect(gate.limit).toBe(CONCURRENCY.initial);
		for (let i = 0; i < 1000; i++) {
			await gate.enter();
			gate.leave({ overloaded: false, latencyMs: 40 });
		}
		expect(gate.limit).toBe(CONCURRENCY.max);
	});

	test('it halves on a 429 or a 5xx, once per round trip, never below the floor', async () => {
		const gate = new Gate();
		await fill(gate, 32);
		gate.leave({ overloaded: false, latencyMs: 40 }, 1_000);
		const before = gate.limit;
		gate.leave({ overloaded: true, latencyMs: 40 }, 2_000);
		expect(gate.limit).toBe(Math.floor(before / 2));
		// Answers already in flight report the same congestion: no second cut in the same round trip.
		gate.leave({ overloaded: true, latencyMs: 40 }, 2_010);
		expect(gate.limit).toBe(Math.floor(before / 2));
		// The requests still in flight keep failing, each a round trip later.
		for (let t = 3_000; t < 32_000; t += 1_000) gate.leave({ overloaded: true }, t);
		expect(gate.limit).toBe(CONCURRENCY.min);
	});

	test('it halves when answers become much slower than usual', async () => {
		const gate = new Gate();
		await fill(gate, 3);
		gate.leave({ overloaded: false, latencyMs: 40 }, 1_000);
		const before = gate.limit;
		gate.leave({ overloaded: false, latencyMs: 2_000 }, 3_000);
		expect(gate.limit).toBe(Math.floor(before / 2));
	});

	test(`latency-bound reads go beyond the starting limit of ${CONCURRENCY.initial} requests at once`, async () => {
		// The service holds every request until the node has as many in flight as its starting limit
		// allows, then answers the oldest, once: that fast clean answer lets the node send two more.
		// Once it has, everything is answered at once. So the verdict follows from the node's rule, not
		// from how fast this machine sends; a pause without arrivals (the node never went beyond) ends
		// the holding, so a failing run fails on its verdict, not on a timeout.
		const items = 400;
		const held: Array<() => void> = [];
		let most = 0;
		let answeredOne = false;
		let idle: NodeJS.Timeout | undefined;
		let holding = true;
		const answerAll = () => held.splice(0).forEach((answer) => answer());
		const stopHolding = () => {
			holding = false;
			answerAll();
		};
		const server = await localService(async (request) => {
			const answer = new Promise<void>((resolve) => held.push(resolve));
			most = Math.max(most, held.length);
			clearTimeout(idle);
			if (!holding || most > CONCURRENCY.initial) stopHolding();
			else if (held.length === CONCURRENCY.initial && !answeredOne) {
				answeredOne = true;
				(held.shift() as () => void)();
			}
			if (holding) idle = setTimeout(stopHolding, 5_000);
			await answer;
			return { status: 200, body: envelope({ id: request.path.split('/').pop() }) };
		});
		try {
			const run = await runNode(
				{ resource: 'wallet', operation: 'get', walletId: rl('={{ $json.id }}') },
				{
					items: Array.from({ length: items }, (_, i) => ({ id: `w${i}` })),
					credentials: { baseUrl: server.baseUrl, appId: 'concurrency-app' },
				},
			);
			expect(run.error).toBeUndefined();
			expect(run.items.map((item) => item.json.id)).toEqual(
				Array.from({ length: items }, (_, i) => `w${i}`),
			);
			expect(most).toBeGreaterThan(CONCURRENCY.initial);
			expect(most).toBeLessThanOrEqual(CONCURRENCY.max);
		} finally {
			clearTimeout(idle);
			await server.close();
		}
	});
});

describe('Return All fetches the remaining pages at once', () => {
	async function pagedServer(totalPages: number) {
		let inFlight = 0;
		const state = { most: 0, pages: [] as number[] };
		const server = await localService(async (request) => {
			const page = Number(request.query.get('page'));
			const size = Number(request.query.get('size'));
			state.pages.push(page);
			inFlight++;
			state.most = Math.max(state.most, inFlight);
			await new Promise((resolve) => setTimeout(resolve, 20));
			inFlight--;
			const data = Array.from({ length: size }, (_, i) => ({ id: `r${(page - 1) * size + i}` }));
			return {
				status: 200,
				body: {
					...envelope(data),
					meta: {
						page,
						pages: totalPages,
						totalDocs: totalPages * size,
						hasNextPage: page < totalPages,
					},
				},
			};
		});
		return { server, state };
	}

	test('once meta.pages is known, pages are requested together and assembled in order', async () => {
		const { server, state } = await pagedServer(12);
		try {
			const run = await runNode(
				{ resource: 'wallet', operation: 'getAll', returnAll: true },
				{ credentials: { baseUrl: server.baseUrl } },
			);
			expect(run.items.map((item) => item.json.id)).toEqual(
				Array.from({ length: 1200 }, (_, i) => `r${i}`),
			);
			expect(state.pages.sort((a, b) => a - b)).toEqual(
				Array.from({ length: 12 }, (_, i) => i + 1),
			);
			expect(state.most).toBeGreaterThan(1);
		} finally {
			await server.close();
		}
	});

	test('a Limit asks only for the pages it needs', async () => {
		const { server, state } = await pagedServer(12);
		try {
			const run = await runNode(
				{ resource: 'wallet', operation: 'getAll', returnAll: false, limit: 250 },
				{ credentials: { baseUrl: server.baseUrl } },
			);
			expect(run.items).toHaveLength(250);
			expect(run.items[249].json.id).toBe('r249');
			expect(state.pages.sort((a, b) => a - b)).toEqual([1, 2, 3]);
		} finally {
			await server.close();
		}
	});

	test('a list announced above 100,000 records stops before fetching the rest', async () => {
		const { server, state } = await pagedServer(2000);
		try {
			const run = await runNode(
				{ resource: 'wallet', operation: 'getAll', returnAll: true },
				{ credentials: { baseUrl: server.baseUrl } },
			);
			expect(run.error?.message).toBe(
				'Return All stopped: the list returned more than 100000 records',
			);
			expect(state.pages).toEqual([1]);
		} finally {
			await server.close();
		}
	});
});
