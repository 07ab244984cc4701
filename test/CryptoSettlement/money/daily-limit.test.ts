/**
 * Max per Day reads what the withdrawal list proves, not what it suggests (issue #42, points 1
 * and 2; docs/guardrails.md, "Max per Day"), through n8n-core's engine against a local HTTP
 * service, on a clock the test sets: n8n's (faked) and the service's Date header.
 */
import type { IDataObject } from 'n8n-workflow';
import { tronAddress } from '../../helpers/addresses';
import { runNode, serversClosedAfterEach } from '../../helpers/node';
import {
	envelope,
	localService,
	refusal,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';
import { onlyDateAt } from '../../helpers/clock';

const NOW = Date.UTC(2026, 5, 2, 12);
const DAY_START = Date.UTC(2026, 5, 2);
/** `minutes` after today's start (negative: before it). */
const at = (minutes: number) => new Date(DAY_START + minutes * 60_000).toISOString();

beforeEach(() => {
	onlyDateAt(NOW);
});
afterEach(() => jest.useRealTimers());

const servers = serversClosedAfterEach();

interface ListOptions {
	/** The list in the service's order; a function gives it afresh for each request (a list that changes). */
	listed: IDataObject[] | ((request: Seen) => IDataObject[]);
	/** The service filters by `startDate`/`endDate` on `createdAt` (otherwise it ignores them). */
	honoursRange?: boolean;
	/** The service refuses the range query with this status. */
	refusesRange?: number;
	/** `meta.totalDocs` as the service states it (the list's length by default). */
	totalDocs?: (listed: IDataObject[]) => number;
}

/** A withdrawal service with a list of 100 a page, rates, and the service clock at NOW. */
async function service(options: ListOptions) {
	const withdrawals = withdrawalService();
	const server = await localService((request: Seen): Reply => {
		const route = `${request.method} ${request.path.replace(/^\/v1/, '')}`;
		if (route === 'GET /trades/pbc/sell/rates')
			return {
				status: 200,
				body: envelope([
					{ symbol: 'USDT', rate: { NGN: 1500 }, priceUSD: 1 },
					{ symbol: 'BTC', rate: {}, priceUSD: 60_000 },
				]),
			};
		if (route === 'GET /payments/withdrawals') {
			const ranged = request.query.has('startDate');
			if (ranged && options.refusesRange)
				return { status: options.refusesRange, body: refusal('unknown query fields detected') };
			let listed = typeof options.listed === 'function' ? options.listed(request) : options.listed;
			if (ranged && options.honoursRange) {
				const [from, to] = [
					Date.parse(request.query.get('startDate') ?? ''),
					Date.parse(request.query.get('endDate') ?? ''),
				];
				listed = listed.filter(
					(record) =>
						Date.parse(String(record.createdAt)) >= from &&
						Date.parse(String(record.createdAt)) <= to,
				);
			}
			const page = Number(request.query.get('page'));
			const size = Number(request.query.get('size'));
			const meta = {
				page,
				hasNextPage: page * size < listed.length,
				totalDocs: options.totalDocs?.(listed) ?? listed.length,
			};
			return {
				status: 200,
				body: { ...envelope(listed.slice((page - 1) * size, page * size)), meta },
				headers: { date: new Date(NOW).toUTCString() },
			};
		}
		return withdrawals.handler(request);
	});
	servers.push(server);
	const listReads = () => server.requests.filter((r) => r.path === '/v1/payments/withdrawals');
	const moneySent = () => server.requests.filter((r) => r.method === 'POST').length;
	return { baseUrl: server.baseUrl, listReads, moneySent };
}

const pay = (amount: number, ref: string, credentials: IDataObject) =>
	runNode(
		{
			resource: 'withdrawal',
			operation: 'createCrypto',
			token: 'USDT',
			network: 'TRC20',
			walletAddress: tronAddress('daily-limit'),
			amountType: 'usd',
			amount: '={{ $json.amount }}',
			externalId: '={{ $json.ref }}',
		},
		{ items: [{ amount, ref }], credentials },
	);

const LIMIT = { maxPerDayUsd: 1000 };
const TOTAL_1000 =
	"Max per day is 1000.00 USD; today's withdrawals total 1000.00 USD and this item is 60.00 USD";

/** 100 of yesterday's completed withdrawals, newest first, then today's 50 pending ones of 20 USD: sorted by status, then date. */
const yesterday = Array.from({ length: 100 }, (_, i) => ({
	id: `y-${i}`,
	status: 'completed',
	amount: 4,
	createdAt: at(-1 - i),
}));
const today = Array.from({ length: 50 }, (_, i) => ({
	id: `t-${i}`,
	status: 'pending',
	amount: 20,
	createdAt: at(600 - i),
}));
const BY_STATUS_THEN_DATE = [...yesterday, ...today];

describe("today's withdrawals are counted whatever the list's order (point 1)", () => {
	test('a list sorted by status then date: page 1 all yesterday, newest first, page 2 today: the 1,000 USD of page 2 count', async () => {
		const { baseUrl, listReads, moneySent } = await service({ listed: BY_STATUS_THEN_DATE });
		const run = await pay(60, 'o-1', { baseUrl, ...LIMIT });
		expect(run.error?.message).toBe(TOTAL_1000);
		expect(moneySent()).toBe(0);
		expect(listReads().map((r) => r.query.get('page'))).toEqual(['1', '2']);
	});

	test("today's range is asked for (from the start of the UTC day a clock skew ago), and where the service honours it one page is read", async () => {
		const { baseUrl, listReads, moneySent } = await service({
			listed: BY_STATUS_THEN_DATE,
			honoursRange: true,
		});
		const run = await pay(60, 'o-2', { baseUrl, ...LIMIT });
		expect(run.error?.message).toBe(TOTAL_1000);
		expect(moneySent()).toBe(0);
		const [read] = listReads();
		expect(listReads()).toHaveLength(1);
		expect(Date.parse(read.query.get('startDate') ?? '')).toBeLessThanOrEqual(DAY_START);
		expect(Date.parse(read.query.get('endDate') ?? '')).toBeGreaterThan(NOW);
	});

	test('a service that refuses the range (422) is read again without it, whole', async () => {
		const { baseUrl, listReads, moneySent } = await service({
			listed: BY_STATUS_THEN_DATE,
			refusesRange: 422,
		});
		const run = await pay(60, 'o-3', { baseUrl, ...LIMIT });
		expect(run.error?.message).toBe(TOTAL_1000);
		expect(moneySent()).toBe(0);
		expect(listReads().map((r) => [r.query.has('startDate'), r.query.get('page')])).toEqual([
			[true, '1'],
			[false, '1'],
			[false, '2'],
		]);
	});

	test('a record that moves to a page already read while the list is read (a pending one completes) is found by reading again', async () => {
		// After the first page is served, today's first pending withdrawal completes: sorted by status, it moves to the top.
		let served = 0;
		const listed = () =>
			served++ === 0
				? BY_STATUS_THEN_DATE
				: [{ ...today[0], status: 'completed' }, ...yesterday, ...today.slice(1)];
		const { baseUrl, listReads, moneySent } = await service({ listed });
		// 20 USD: with one of today's 20 USD missed, today would read 980 and the item would go.
		const run = await pay(20, 'o-4', { baseUrl, ...LIMIT });
		expect(run.error?.message).toBe(
			"Max per day is 1000.00 USD; today's withdrawals total 1000.00 USD and this item is 20.00 USD",
		);
		expect(moneySent()).toBe(0);
		expect(listReads()).toHaveLength(4);
	});

	test('a list that grows while it is read (new withdrawals on top of a newest-first list) is read again, and counted once it held still', async () => {
		// Growth alone cannot be told from a record that moved up while another was added (#48 point 4, below).
		let served = 0;
		const newestFirst = [...today, ...yesterday];
		const fresh = Array.from({ length: 3 }, (_, i) => ({
			id: `n-${i}`,
			status: 'pending',
			amount: 1,
			createdAt: at(700 + i),
		}));
		const { baseUrl, listReads, moneySent } = await service({
			listed: () => (served++ === 0 ? newestFirst : [...fresh, ...newestFirst]),
		});
		const run = await pay(60, 'o-6', { baseUrl, ...LIMIT });
		expect(run.error?.message).toBe(
			"Max per day is 1000.00 USD; today's withdrawals total 1003.00 USD and this item is 60.00 USD",
		);
		expect(moneySent()).toBe(0);
		expect(listReads()).toHaveLength(4);
	});

	test('a list that says it holds more than any read finds refuses, naming it', async () => {
		const { baseUrl, moneySent } = await service({
			listed: today,
			totalDocs: (listed) => listed.length + 1,
		});
		const run = await pay(5, 'o-5', { baseUrl, ...LIMIT });
		expect(run.error?.message).toBe(
			"Max per day could not be checked, so nothing is sent: the service's withdrawal list changed under every one of 3 reads (the last saw 50 distinct records while its pages stated 51), so today's withdrawals could not be counted",
		);
		expect(moneySent()).toBe(0);
	});
});

describe('a withdrawal that completes while the day is counted is never missed (#48 point 4)', () => {
	/** Completed first, each group newest first: today's two completed of 10 USD, 98 of yesterday's; then today's pending 900 USD and 49 of yesterday's pending. */
	const completedToday = [0, 1].map((i) => ({
		id: `c-${i}`,
		status: 'completed',
		amount: 10,
		createdAt: at(700 - i * 30),
	}));
	const completedBefore = Array.from({ length: 98 }, (_, i) => ({
		id: `y-${i}`,
		status: 'completed',
		amount: 4,
		createdAt: at(-1 - i),
	}));
	const big = { id: 'big', status: 'pending', amount: 900, createdAt: at(600) };
	const pendingBefore = Array.from({ length: 49 }, (_, i) => ({
		id: `p-${i}`,
		status: 'pending',
		amount: 4,
		createdAt: at(-200 - i),
	}));
	const before = [...completedToday, ...completedBefore, big, ...pendingBefore];
	/** After page 1 is read: the 900 USD completes and moves up to page 1; a new 1 USD lands on page 2. */
	const after = [
		...completedToday,
		{ ...big, status: 'completed' },
		...completedBefore,
		{ id: 'new', status: 'pending', amount: 1, createdAt: at(710) },
		...pendingBefore,
	];

	test('the 900 USD that moved to page 1 while a new 1 USD landed on page 2 is counted: 921 + 100 is over 1,000', async () => {
		let served = 0;
		const { baseUrl, listReads, moneySent } = await service({
			listed: () => (served++ === 0 ? before : after),
		});
		const run = await pay(100, 'm-1', { baseUrl, ...LIMIT });
		expect(run.error?.message).toBe(
			"Max per day is 1000.00 USD; today's withdrawals total 921.00 USD and this item is 100.00 USD",
		);
		expect(moneySent()).toBe(0);
		// The first walk's pages stated 150, then 151: read again, and the second walk held still.
		expect(listReads().map((r) => r.query.get('page'))).toEqual(['1', '2', '1', '2']);
	});

	test('a list that never holds still while it is read refuses, saying so, within the budget of three reads', async () => {
		let served = 0;
		// Every answer adds a withdrawal on top.
		const listed = () => [
			...Array.from({ length: ++served }, (_, i) => ({
				id: `busy-${i}`,
				status: 'pending',
				amount: 1,
				createdAt: at(720 + i),
			})),
			...before,
		];
		const { baseUrl, listReads, moneySent } = await service({ listed });
		const run = await pay(5, 'm-2', { baseUrl, ...LIMIT });
		expect(run.error?.message).toBe(
			"Max per day could not be checked, so nothing is sent: the service's withdrawal list changed under every one of 3 reads (the last saw 155 distinct records while its pages stated 155, then 156), so today's withdrawals could not be counted",
		);
		expect(moneySent()).toBe(0);
		expect(listReads()).toHaveLength(6);
	});
});

describe('a listed amount the node cannot trust never lowers the total (point 2)', () => {
	/** 950 USD already today, and the record under test. */
	const withRecord = (record: IDataObject) => [
		{ id: 'base', status: 'completed', amount: 950, createdAt: at(60) },
		{ id: 'odd', status: 'pending', createdAt: at(120), ...record },
	];

	test.each([
		[
			'a USD amount of "" and a crypto amount of 1000 USDT',
			{ amount: '', cryptoAmount: '1000', token: 'USDT' },
			1950,
		],
		[
			'a USD amount of 0 and a crypto amount of 1000 USDT',
			{ amount: 0, cryptoAmount: '1000', token: 'USDT' },
			1950,
		],
		['no USD amount and 0.01 BTC', { amount: null, cryptoAmount: 0.01, token: 'BTC' }, 1550],
		['trade false', { amount: 1000, trade: false }, 1950],
		['trade 0', { amount: 1000, trade: 0 }, 1950],
		['trade {}', { amount: 1000, trade: {} }, 1950],
		['trade "null"', { amount: 1000, trade: 'null' }, 1950],
		['trade ""', { amount: 1000, trade: '' }, 1950],
		['a stated USD amount of 0 and nothing else', { amount: 0 }, 950],
	])('%s: counted from what it states', async (_case, record, total) => {
		const { baseUrl, moneySent } = await service({ listed: withRecord(record) });
		const run = await pay(60, 'v-1', { baseUrl, maxPerDayUsd: 1000 });
		expect(run.error?.message).toBe(
			`Max per day is 1000.00 USD; today's withdrawals total ${total}.00 USD and this item is 60.00 USD`,
		);
		expect(moneySent()).toBe(0);
	});

	test.each([
		['a trade id', 't-77'],
		['a trade object with an id', { id: 't-78', status: 'completed' }],
	])(
		'a record whose trade field names a trade (%s) is an auto-settlement payout: skipped',
		async (_case, trade) => {
			const { baseUrl, moneySent } = await service({ listed: withRecord({ amount: 1000, trade }) });
			const run = await pay(40, 'v-2', { baseUrl, maxPerDayUsd: 1000 });
			expect(run.error).toBeUndefined();
			expect(moneySent()).toBe(1);
		},
	);

	test.each([
		[
			'a negative USD amount',
			{ amount: -1000 },
			'withdrawal odd states an amount of -1000, which is not a USD amount of 0 or more, so it cannot be valued',
		],
		[
			'a USD amount that is not a number',
			{ amount: 'lots' },
			'withdrawal odd states an amount of "lots", which is not a USD amount of 0 or more, so it cannot be valued',
		],
		[
			'no amount at all',
			{ amount: null, cryptoAmount: null },
			'withdrawal odd states neither a USD amount nor a crypto amount, so it cannot be valued',
		],
		[
			'a negative crypto amount',
			{ amount: 0, cryptoAmount: -5, token: 'USDT' },
			'withdrawal odd states a crypto amount of -5, which is not an amount of 0 or more, so it cannot be valued',
		],
		[
			'a crypto amount of a token without a price',
			{ cryptoAmount: 3, token: 'XYZ' },
			"withdrawal odd states no USD amount and its crypto amount cannot be valued: the service's rates give no USD price for XYZ",
		],
	])('%s refuses the payment, naming the record', async (_case, record, why) => {
		const { baseUrl, moneySent } = await service({ listed: withRecord(record) });
		const run = await pay(10, 'v-3', { baseUrl, maxPerDayUsd: 1000 });
		expect(run.error?.message).toBe(`Max per day could not be checked, so nothing is sent: ${why}`);
		expect(moneySent()).toBe(0);
	});
});
