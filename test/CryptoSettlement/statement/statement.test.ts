/**
 * Statement → Get and Match (docs/statement.md) through n8n-core's engine against the local fake API
 * and, for odd lists, a local HTTP service. Expected lines and totals are derived here from the fake
 * API's records with the test's own sums, never with the node's code.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import { sleep, type IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi, type SeededDay } from '../../../fake-api/src/server';
import { actionWorkflow, CREDENTIAL_TYPE, runWorkflow } from '../../helpers';
import { NODE, RETRY_ON_FAIL, runNode, shortBackoff } from '../../helpers/node';
import { localService, type Reply, type Seen } from '../../helpers/local-service';

const DAY = '2026-03-10';
const inDay = (record: { createdAt: string }, day = DAY) => record.createdAt.startsWith(day);
const REFUNDED = new Set(['rejected', 'reversed', 'cancelled']);

let fakeApi: FakeApi;
let credentials: IDataObject;
let seeded: SeededDay;

async function get(parameters: IDataObject, items?: IDataObject[]) {
	const result = await runNode(
		{ resource: 'statement', operation: 'get', day: DAY, ...parameters },
		{ credentials, items },
	);
	if (result.error) throw new Error(`${result.error.message} — ${result.error.description ?? ''}`);
	return result;
}

const upper = (balances: Record<string, number>) =>
	Object.fromEntries(Object.entries(balances).map(([c, v]) => [c.toUpperCase(), v]));

describe('Statement → Get against the fake API: a day with every kind of line and exception', () => {
	beforeAll(async () => {
		fakeApi = await startFakeApi({
			lifecycleDelayMs: 60_000,
			requestLogLimit: 100_000,
			maxPageSize: 7,
		});
		credentials = sandboxCredentials(fakeApi);
		fakeApi.seedDay({ day: '2026-03-09', records: 20 });
		seeded = fakeApi.seedDay({ day: DAY, records: 40 });
		fakeApi.seedDay({ day: '2026-03-11', records: 20 });
	});
	afterAll(async () => await fakeApi.close());

	/** The day's lines as the records say they must be (docs/statement.md, "Kinds"). */
	function expectedKinds() {
		const trades = fakeApi.state.trades.filter((trade) => inDay(trade));
		const withdrawals = fakeApi.state.withdrawals.filter((withdrawal) => inDay(withdrawal));
		const completed = trades.filter((trade) => trade.status === 'completed');
		return {
			deposit: trades.length,
			depositFee: completed.filter((trade) => trade.feeAmount > 0).length,
			autoSettlement: withdrawals.filter((w) => w.trade).length,
			cryptoWithdrawal: withdrawals.filter((w) => !w.trade && w.type === 'crypto').length,
			bankWithdrawal: withdrawals.filter((w) => !w.trade && w.type === 'bank').length,
			withdrawalFee: withdrawals.filter((w) => w.fee > 0).length,
			refund: withdrawals.filter((w) => REFUNDED.has(w.status)).length,
		};
	}

	it('gives the documented lines, totals per kind and currency, the exceptions, and a balanced check', async () => {
		const { items, text } = await get({
			output: 'summary',
			options: { openingBalances: upper(seeded.openingBalances) },
		});
		expect(items).toHaveLength(1);
		const summary = items[0].json;
		expect(summary.day).toBe(DAY);
		expect(summary.counts).toEqual(expectedKinds());
		// Net per currency: what the day moved, by the fake API's own balances before and after it.
		const net = summary.net as Record<string, number>;
		expect(net.USD).toBeCloseTo(seeded.closingBalances.usd - seeded.openingBalances.usd, 2);
		expect(net.NGN).toBeCloseTo(seeded.closingBalances.ngn - seeded.openingBalances.ngn, 2);
		expect(summary.closingBalances).toEqual({
			USD: seeded.closingBalances.usd,
			NGN: seeded.closingBalances.ngn,
			GHS: seeded.closingBalances.ghs,
		});
		// The day after was seeded too: the balances now are taken back by its lines.
		expect(summary.balanceCheck).toMatchObject({ result: 'balanced' });
		// Totals per kind and currency add up to the net.
		const totals = summary.totals as Record<
			string,
			Record<string, { count: number; amount: number }>
		>;
		const fromTotals: Record<string, number> = {};
		for (const byCurrency of Object.values(totals)) {
			for (const [currency, total] of Object.entries(byCurrency))
				fromTotals[currency] = (fromTotals[currency] ?? 0) + total.amount;
		}
		for (const [currency, amount] of Object.entries(net))
			expect(fromTotals[currency]).toBeCloseTo(amount, 2);
		// Every exception the issue names, each saying what to check.
		const exceptions = summary.exceptions as Array<{ exception: string; kind: string }>;
		const said = exceptions.map((entry) => entry.exception).join('\n');
		expect(said).toMatch(
			/Not final after \d+ hours \(status pending[^)]*\): check this withdrawal/,
		);
		expect(said).toMatch(/Not final after \d+ hours \(status pending[^)]*\): check this deposit/);
		expect(said).toMatch(/Refunded \(status rejected/);
		expect(said).toMatch(/Refunded \(status reversed/);
		expect(said).toMatch(/No External ID/);
		expect(said).toMatch(
			/Deposit to a wallet without a label \(address \S+\): check which customer owns this address/,
		);
		expect(said).toMatch(/Flagged \(amount below the minimum/);
		expect(said).not.toMatch(/pay (it )?again/i);
		expect(summary.notListed).toEqual(
			expect.arrayContaining([expect.stringMatching(/^Currency swaps/)]),
		);
		// Words for finance people: no docs paths, API routes or raw JSON.
		expect((summary.notListed as string[]).join('\n')).not.toMatch(
			/docs\/|\.md\b|GET \/|\/users\/|fetch-integration/,
		);
		expect(String((summary.balanceCheck as IDataObject).why)).not.toMatch(/[{}"]/);
		expect(text).not.toContain(fakeApi.appSecret);
	});

	it('lines: one per deposit, payout, fee and refund of the day, each lineKey once, each amount with its unit', async () => {
		const { items } = await get({ output: 'lines' });
		const lines = items.map((item) => item.json);
		const kinds = expectedKinds();
		expect(lines).toHaveLength(Object.values(kinds).reduce((sum, n) => sum + n, 0));
		expect(new Set(lines.map((line) => line.lineKey)).size).toBe(lines.length);
		for (const line of lines) {
			expect(String(line.createdAt).startsWith(DAY)).toBe(true);
			for (const amount of Object.values(line.amounts as IDataObject))
				expect(amount).toEqual({ value: expect.anything(), unit: expect.any(String) });
		}
		// A refunded withdrawal: payout, fee, and the refund of both; the balance did not move.
		const refunded = fakeApi.state.withdrawals.find((w) => inDay(w) && w.status === 'reversed');
		const ofIt = lines.filter((line) => line.recordId === refunded?.id);
		expect(ofIt.map((line) => line.kind).sort()).toEqual([
			'bankWithdrawal',
			'refund',
			'withdrawalFee',
		]);
		expect(ofIt.reduce((sum, line) => sum + Number(line.amount), 0)).toBeCloseTo(0, 2);
		// A deposit to the unlabelled wallet names its address; an auto-settlement payout names the customer's label.
		const auto = lines.find((line) => line.kind === 'autoSettlement');
		expect(auto?.walletLabel).toBe(`${DAY}-customer-auto`);
		// A deposit's crypto is named by its token, as withdrawals and the triggers name it: the fake
		// API's asset list says which token the wallet's asset is (USDT, not USDT_TRX_TEST).
		const deposits = lines.filter(
			(line) => line.kind === 'deposit' && (line.amounts as IDataObject).cryptoReceived,
		);
		expect(deposits.length).toBeGreaterThan(0);
		for (const deposit of deposits) {
			const trade = fakeApi.state.trades.find((t) => t.id === deposit.recordId);
			const wallet = fakeApi.state.wallets.find((w) => w.id === trade?.wallet);
			const asset = fakeApi.state.assets.find((a) => a.id === wallet?.asset);
			expect(asset?.symbol).toBeTruthy();
			expect((deposit.amounts as IDataObject).cryptoReceived).toEqual({
				value: String(trade?.cryptoReceived),
				unit: asset?.symbol,
			});
			expect(deposit.description).toContain(
				`${String(trade?.cryptoReceived)} ${asset?.symbol} on ${asset?.network} (`,
			);
		}
	});

	it('exceptions: only the lines that need a person; the same lineKeys on every run', async () => {
		const first = (await get({ output: 'exceptions' })).items.map((item) => item.json);
		const second = (await get({ output: 'exceptions' })).items.map((item) => item.json);
		expect(first.length).toBeGreaterThanOrEqual(7);
		expect(first.every((line) => line.exception !== '')).toBe(true);
		expect(second.map((line) => line.lineKey)).toEqual(first.map((line) => line.lineKey));
		expect(second).toEqual(first);
	});

	it('file: a bank-statement CSV of one currency (Date, Amount, Payee, Description, Reference) whose amounts add up to the net', async () => {
		const { items } = await get({ output: 'file', options: { fileCurrency: 'NGN' } });
		expect(items).toHaveLength(1);
		const binary = items[0].binary?.data;
		expect(binary).toMatchObject({
			mimeType: 'text/csv',
			fileName: `statement-${DAY}-NGN-xero.csv`,
		});
		const csv = Buffer.from(String(binary?.data), 'base64').toString('utf8');
		const rows = csv.trimEnd().split('\r\n');
		expect(rows[0]).toBe('Date,Amount,Payee,Description,Reference');
		expect(items[0].json.currency).toBe('NGN');
		const sum = rows.slice(1).reduce((total, row) => total + Number(row.split(',')[1]), 0);
		expect(sum).toBeCloseTo(seeded.closingBalances.ngn - seeded.openingBalances.ngn, 2);
		expect(rows.slice(1).every((row) => row.startsWith(`${DAY},`))).toBe(true);
		expect(items[0].json.fileRows).toBe(rows.length - 1);
	});

	it('reads the lists once for the whole input, not once per item', async () => {
		fakeApi.clearRequests();
		const { items } = await get({ output: 'summary' }, [{}, {}, {}]);
		expect(items).toHaveLength(3);
		const firstPages = fakeApi.requests.filter(
			(request) => request.path === '/v1/payments/withdrawals' && request.query.page === '1',
		);
		expect(firstPages).toHaveLength(1);
	});

	it('an amount the record does not state in a readable unit is an exception, and the check cannot vouch for the day', async () => {
		const trade = fakeApi.state.trades.find(
			(t) => inDay(t) && t.status === 'completed' && t.label.endsWith('customer-2'),
		) as { currency: string; amount: number; feeAmount: number; id: string };
		const saved = trade.currency;
		trade.currency = 'xyz' as never;
		try {
			const { items } = await get({
				output: 'summary',
				options: { openingBalances: upper(seeded.openingBalances) },
			});
			const summary = items[0].json;
			const entry = (summary.exceptions as IDataObject[]).find((e) => e.recordId === trade.id);
			expect(String(entry?.exception)).toMatch(/states no credited amount the node can read/);
			expect(summary.balanceCheck).toMatchObject({
				result: 'notCheckable',
				why: expect.stringContaining(
					`(e.g. transaction ${trade.id}) state an amount the node cannot trust`,
				),
			});
		} finally {
			trade.currency = saved;
		}
	});

	it('refuses a day that is not YYYY-MM-DD, naming the field, before any request', async () => {
		fakeApi.clearRequests();
		const result = await runNode(
			{ resource: 'statement', operation: 'get', day: '10/03/2026' },
			{ credentials },
		);
		expect(result.error?.message).toMatch(/'Day' must be a day written YYYY-MM-DD/);
		expect(fakeApi.requests).toHaveLength(0);
	});
});

describe('Statement → Match: a sheet of 1,000 rows', () => {
	beforeAll(async () => {
		fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000, requestLogLimit: 100_000 });
		credentials = sandboxCredentials(fakeApi);
		fakeApi.seedDay({ day: DAY, records: 1200 });
	});
	afterAll(async () => await fakeApi.close());

	it('says for each row paid, pending, refunded, notFound, amountDiffers or several, with the records found, reading the lists once', async () => {
		const withdrawals = fakeApi.state.withdrawals.filter((w) => w.externalId);
		// A doubled payout: a second record under one External ID (the service's list is what the node trusts).
		const doubled = withdrawals.find(
			(w) => w.status === 'completed',
		) as (typeof withdrawals)[number];
		fakeApi.state.withdrawals.push({ ...doubled, id: 'f'.repeat(24) });
		const rows: IDataObject[] = [];
		const expected: Record<string, number> = {};
		const want = (row: IDataObject, match: string) => {
			rows.push({ ...row, want: match });
			expected[match] = (expected[match] ?? 0) + 1;
		};
		for (const w of withdrawals) {
			if (rows.length >= 900) break;
			if (w.externalId === doubled.externalId)
				want({ payoutId: w.externalId, usd: w.amount }, 'several');
			else if (REFUNDED.has(w.status)) want({ payoutId: w.externalId, usd: w.amount }, 'refunded');
			else if (w.status === 'pending') want({ payoutId: w.externalId, usd: w.amount }, 'pending');
			else if (rows.length % 10 === 3)
				want({ payoutId: w.externalId, usd: w.amount + 5 }, 'amountDiffers');
			else want({ payoutId: w.externalId, usd: w.amount }, 'paid');
		}
		while (rows.length < 1000) want({ payoutId: `missing-${rows.length}`, usd: 10 }, 'notFound');
		for (const match of ['paid', 'pending', 'refunded', 'notFound', 'amountDiffers', 'several'])
			expect(expected[match]).toBeGreaterThan(0);

		fakeApi.clearRequests();
		const result = await runNode(
			{
				resource: 'statement',
				operation: 'match',
				matchBy: 'externalId',
				value: '={{ $json.payoutId }}',
				expectedAmount: '={{ $json.usd }}',
				options: { amountTolerance: 0.01 },
			},
			{ credentials, items: rows },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1000);
		const wrong = result.items.map((item) => item.json).filter((json) => json.match !== json.want);
		expect(wrong).toEqual([]);
		const paid = result.items.find((item) => item.json.match === 'paid')?.json;
		expect(paid?.records).toEqual([
			expect.objectContaining({ externalId: paid?.payoutId, status: 'completed' }),
		]);
		expect(
			(result.items.find((item) => item.json.match === 'several')?.json.records as unknown[])
				.length,
		).toBe(2);
		// The lists were read once for the 1,000 rows.
		expect(
			fakeApi.requests.filter((r) => r.path === '/v1/payments/withdrawals' && r.query.page === '1'),
		).toHaveLength(1);
	});

	it('matches deposits by wallet label and address: received, pending, several', async () => {
		const trades = fakeApi.state.trades;
		const unlabelledWallet = fakeApi.state.wallets.find((w) => w.label === '');
		const flagged = trades.find((t) => t.status === 'flagged');
		const rows = [
			{ label: `${DAY}-customer-1` },
			{ label: 'nobody' },
			{ address: unlabelledWallet?.address },
		];
		const byLabel = await runNode(
			{
				resource: 'statement',
				operation: 'match',
				matchBy: 'walletLabel',
				value: '={{ $json.label || "" }}',
			},
			{ credentials, items: rows.slice(0, 2) },
		);
		expect(byLabel.items.map((item) => item.json.match)).toEqual(['several', 'notFound']);
		const byAddress = await runNode(
			{
				resource: 'statement',
				operation: 'match',
				matchBy: 'walletAddress',
				value: '={{ $json.address }}',
			},
			{ credentials, items: rows.slice(2) },
		);
		expect(byAddress.items[0].json.match).toBe('several');
		expect(flagged).toBeDefined();
	});
});

describe('Statement → Get against odd lists', () => {
	// Failing pages are retried before the statement fails; the pauses between retries are not what this tests.
	shortBackoff();
	const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
	const trade = (n: number, minutes: number) => ({
		id: `t${n}`,
		status: 'completed',
		amount: 1000,
		feeAmount: 10,
		amountReceived: 1,
		currency: 'ngn',
		wallet: 'w1',
		address: 'addr-1',
		createdAt: new Date(DAY_START + minutes * 60_000).toISOString(),
	});
	const withdrawal = (n: number) => ({
		id: `w${n}`,
		externalId: `payout-${n}`,
		status: 'completed',
		amount: 10,
		fee: 1.5,
		payoutAmount: 8.5,
		currency: 'usd',
		token: 'USDT',
		createdAt: new Date(DAY_START + n * 60_000).toISOString(),
	});
	/** A page of a list that holds `totalDocs` records (a one-page list: the page's). */
	const page = (data: unknown[], pageNumber: number, pages: number, totalDocs = data.length) => ({
		status: 200,
		body: {
			success: true,
			message: 'ok',
			data,
			meta: { page: pageNumber, pages, hasNextPage: pageNumber < pages, totalDocs },
		},
	});
	const service = (withdrawalsPage: (seen: Seen) => { status: number; body: unknown }) =>
		localService((seen) => {
			const n = Number(seen.query.get('page'));
			if (seen.path === '/v1/trades/transactions') {
				// The list shifted between pages: t2 is on both.
				return n === 1
					? page([trade(3, 30), trade(2, 20)], 1, 2, 3)
					: page([trade(2, 20), trade(1, 10)], 2, 2, 3);
			}
			if (seen.path === '/v1/payments/withdrawals') return withdrawalsPage(seen);
			if (seen.path === '/v1/trades/wallets')
				return page([{ id: 'w1', label: 'alice', address: 'addr-1' }], 1, 1);
			if (seen.path === '/v1/users/fetch-integration')
				return { status: 200, body: { success: true, data: { fiatWallets: { ngn: 0 } } } };
			return { status: 404, body: { success: false, message: 'not found' } };
		});

	it('a record on two pages is one line', async () => {
		const local = await service(() => page([], 1, 1));
		try {
			const result = await runNode(
				{ resource: 'statement', operation: 'get', day: DAY, output: 'lines' },
				{
					credentials: {
						appId: 'app-odd',
						appSecret: 'odd-lists-secret',
						environment: 'sandbox',
						baseUrl: local.baseUrl,
					},
				},
			);
			expect(result.error).toBeUndefined();
			const deposits = result.items
				.map((item) => item.json)
				.filter((line) => line.kind === 'deposit');
			expect(deposits.map((line) => line.recordId).sort()).toEqual(['t1', 't2', 't3']);
		} finally {
			await local.close();
		}
	});

	it("without the deposit-asset list (here 404) a deposit's crypto keeps the wallet's asset identifier, and the statement is still made", async () => {
		const local = await localService((seen) => {
			if (seen.path === '/v1/trades/transactions')
				return page([{ ...trade(1, 10), cryptoReceived: '208.3' }], 1, 1);
			if (seen.path === '/v1/payments/withdrawals') return page([], 1, 1);
			if (seen.path === '/v1/trades/wallets')
				return page(
					[{ id: 'w1', label: 'alice', address: 'addr-1', identifier: 'TRX_TEST', asset: 'a1' }],
					1,
					1,
				);
			if (seen.path === '/v1/users/fetch-integration')
				return { status: 200, body: { success: true, data: { fiatWallets: { ngn: 0 } } } };
			return { status: 404, body: { success: false, message: 'not found' } };
		});
		try {
			const result = await runNode(
				{ resource: 'statement', operation: 'get', day: DAY, output: 'lines' },
				{
					credentials: {
						appId: 'app-odd',
						appSecret: 'odd-lists-secret',
						environment: 'sandbox',
						baseUrl: local.baseUrl,
					},
				},
			);
			expect(result.error).toBeUndefined();
			const deposit = result.items.map((item) => item.json).find((line) => line.kind === 'deposit');
			expect((deposit?.amounts as IDataObject).cryptoReceived).toEqual({
				value: '208.3',
				unit: 'TRX_TEST',
			});
			expect(deposit?.description).toBe(
				'Deposit to wallet alice: 1010.00 NGN converted from 208.3 TRX_TEST (1 USD); less its platform fee 10.00 NGN (line depositFee:t1), 1000.00 NGN credited',
			);
			expect(local.sent('GET', '/trades/assets')).toHaveLength(1);
		} finally {
			await local.close();
		}
	});

	it('a page that fails after its retries fails the statement, naming the page', async () => {
		const local = await service((seen) =>
			seen.query.get('page') === '2'
				? { status: 500, body: { success: false, message: 'something went wrong!' } }
				: page([withdrawal(1)], 1, 3, 3),
		);
		try {
			const result = await runNode(
				{ resource: 'statement', operation: 'get', day: DAY, output: 'summary' },
				{
					credentials: {
						appId: 'app-odd',
						appSecret: 'odd-lists-secret',
						environment: 'sandbox',
						baseUrl: local.baseUrl,
					},
				},
			);
			expect(result.items).toHaveLength(0);
			expect(result.error?.message).toMatch(
				/page 2 of the withdrawals list \(GET \/payments\/withdrawals\?page=2&size=100\) failed after its retries/,
			);
			// Retried before giving up.
			expect(
				local.requests.filter(
					(r) => r.path === '/v1/payments/withdrawals' && r.query.get('page') === '2',
				).length,
			).toBeGreaterThan(1);
		} finally {
			await local.close();
		}
	});

	it('a list that fails leaves no read running once the node has failed: not the other lists, not the pages asked ahead', async () => {
		// Held pages are answered when the run has ended (the defect: the node failed while they were
		// still being read) or, when the node waits for them as it should, after a second.
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		let unanswered = 0;
		const hold = async (reply: Reply): Promise<Reply> => {
			unanswered++;
			await held;
			unanswered--;
			return reply;
		};
		const local = await localService((seen) => {
			const n = Number(seen.query.get('page'));
			if (seen.path === '/v1/trades/transactions')
				return n === 1 ? page([trade(1, 10)], 1, 2, 2) : hold(page([trade(2, 20)], 2, 2, 2));
			if (seen.path === '/v1/payments/withdrawals') {
				if (n === 1) return page([withdrawal(1)], 1, 3, 3);
				return n === 2
					? { status: 403, body: { success: false, message: 'forbidden' } }
					: hold(page([withdrawal(3)], 3, 3, 3));
			}
			if (seen.path === '/v1/trades/wallets')
				return page([{ id: 'w1', label: 'alice', address: 'addr-1' }], 1, 1);
			return { status: 404, body: { success: false, message: 'not found' } };
		});
		try {
			let unansweredAtTheEnd = -1;
			const run = runNode(
				{ resource: 'statement', operation: 'get', day: DAY, output: 'summary' },
				{
					credentials: {
						appId: 'app-odd',
						appSecret: 'odd-lists-secret',
						environment: 'sandbox',
						baseUrl: local.baseUrl,
					},
				},
			).then((result) => {
				unansweredAtTheEnd = unanswered;
				return result;
			});
			await Promise.race([run, sleep(1000)]);
			release();
			const result = await run;
			expect(result.error?.message).toMatch(
				/page 2 of the withdrawals list \(GET \/payments\/withdrawals\?page=2&size=100\) failed/,
			);
			// Both held pages were asked (the transactions list's page 2, the withdrawals list's page 3) and answered before the run ended.
			expect(
				local.requests.filter(
					(r) => r.query.get('page') === '2' && r.path === '/v1/trades/transactions',
				),
			).toHaveLength(1);
			expect(
				local.requests.filter(
					(r) => r.query.get('page') === '3' && r.path === '/v1/payments/withdrawals',
				),
			).toHaveLength(1);
			expect(unansweredAtTheEnd).toBe(0);
		} finally {
			await local.close();
		}
	});

	it("n8n's Retry On Fail reads the lists again after a page failed: a failed read is not kept for the run", async () => {
		let failures = 0;
		const local = await service((seen) => {
			if (seen.query.get('page') === '2' && failures < 4) {
				failures++;
				return { status: 500, body: { success: false, message: 'something went wrong!' } };
			}
			return page(
				[withdrawal(Number(seen.query.get('page')))],
				Number(seen.query.get('page')),
				2,
				2,
			);
		});
		try {
			const result = await runWorkflow({
				workflow: actionWorkflow(
					{ resource: 'statement', operation: 'get', day: DAY, output: 'lines' },
					{ ...RETRY_ON_FAIL, maxTries: 2 },
				),
				items: [{ json: {} }],
				credentials: {
					[CREDENTIAL_TYPE]: {
						appId: 'app-odd',
						appSecret: 'odd-lists-secret',
						environment: 'sandbox',
						baseUrl: local.baseUrl,
					} as never,
				},
			});
			expect(result.error).toBeUndefined();
			expect(failures).toBe(4);
			const withdrawals = result
				.output(NODE)
				.map((item) => item.json)
				.filter((line) => line.kind === 'cryptoWithdrawal');
			expect(withdrawals.map((line) => line.recordId).sort()).toEqual(['w1', 'w2']);
		} finally {
			await local.close();
		}
	});

	it('the CSV file keeps service text from running as a formula and quotes what needs it; an unknown status is an exception', async () => {
		const local = await localService((seen) => {
			if (seen.path === '/v1/trades/transactions') {
				return page(
					[
						{ ...trade(1, 10), wallet: 'w-evil' },
						{ ...trade(2, 20), status: 'held-by-compliance' },
						{ ...trade(3, 30), wallet: 'w-leak' },
					],
					1,
					1,
				);
			}
			if (seen.path === '/v1/payments/withdrawals') return page([], 1, 1);
			if (seen.path === '/v1/trades/wallets')
				return page(
					[
						{ id: 'w-evil', label: '=HYPERLINK("http://x.invalid","pay, now")', address: 'addr-9' },
						{ id: 'w1', label: 'alice', address: 'addr-1' },
						{ id: 'w-leak', label: 'odd-lists-secret', address: 'addr-2' },
					],
					1,
					1,
				);
			return { status: 200, body: { success: true, data: { fiatWallets: { ngn: 0 } } } };
		});
		try {
			const credentials = {
				appId: 'app-odd',
				appSecret: 'odd-lists-secret',
				environment: 'sandbox',
				baseUrl: local.baseUrl,
			};
			const file = await runNode(
				{ resource: 'statement', operation: 'get', day: DAY, output: 'file' },
				{ credentials },
			);
			expect(file.error).toBeUndefined();
			const csv = Buffer.from(String(file.items[0].binary?.data?.data), 'base64').toString('utf8');
			const rows = csv.trimEnd().split('\r\n');
			// The label arrives as text in the Payee column: apostrophe first, quoted (comma and quotes inside).
			// A secret the service echoes (here as a label) is redacted in the file as in the JSON.
			expect(csv).not.toContain('odd-lists-secret');
			expect(csv).toContain('[redacted]');
			expect(rows[1]).toBe(
				`${DAY},1010.00,"'=HYPERLINK(""http://x.invalid"",""pay, now"")","Deposit to wallet =HYPERLINK(""http://x.invalid"",""pay, now""): 1010.00 NGN converted from the crypto received (1 USD); less its platform fee 10.00 NGN (line depositFee:t1), 1000.00 NGN credited",deposit:t1`,
			);
			const exceptions = await runNode(
				{ resource: 'statement', operation: 'get', day: DAY, output: 'exceptions' },
				{ credentials },
			);
			expect(exceptions.items.map((item) => [item.json.recordId, item.json.exception])).toEqual([
				[
					't2',
					'Status "held-by-compliance" is unknown to the node: check this deposit in the service\'s dashboard',
				],
			]);
		} finally {
			await local.close();
		}
	});
});

describe('Statement → Get never has a hole (#48 point 1): a list in another order, a list that moves', () => {
	const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
	const minutes = (n: number) => new Date(DAY_START + n * 60_000).toISOString();
	const bank = (id: string, status: string, at: string, payoutAmount = 10_000) => ({
		id,
		externalId: `x-${id}`,
		status,
		amount: 7,
		payoutAmount,
		fee: 100,
		currency: 'ngn',
		bankName: 'Access Bank',
		accountNumber: '0123456789',
		createdAt: at,
	});
	/** Sorted by status, then newest first: 30 completed of the day, 170 older completed, then a pending 500,000 NGN of the day (page 3). */
	const completedOfDay = Array.from({ length: 30 }, (_, i) =>
		bank(`c${i}`, 'completed', minutes(600 - i)),
	);
	const completedOlder = Array.from({ length: 170 }, (_, i) =>
		bank(`o${i}`, 'completed', minutes(-60 - i)),
	);
	const pendingOfDay = bank('big', 'pending', minutes(700), 500_000);
	const BY_STATUS = [...completedOfDay, ...completedOlder, pendingOfDay];

	/** A service listing `withdrawals()` (asked afresh for each page) 100 a page, with `pages` and `totalDocs`. */
	async function listing(withdrawals: () => IDataObject[]) {
		const local = await localService((seen) => {
			const n = Number(seen.query.get('page'));
			const size = Number(seen.query.get('size'));
			const listed =
				seen.path === '/v1/payments/withdrawals'
					? withdrawals()
					: seen.path === '/v1/trades/wallets'
						? [{ id: 'w1', label: 'alice', address: 'addr-1' }]
						: [];
			if (seen.path === '/v1/users/fetch-integration')
				return { status: 200, body: { success: true, data: { fiatWallets: { ngn: 0 } } } };
			const pages = Math.max(1, Math.ceil(listed.length / size));
			const meta = { page: n, pages, hasNextPage: n < pages, totalDocs: listed.length };
			return {
				status: 200,
				body: { success: true, message: 'ok', data: listed.slice((n - 1) * size, n * size), meta },
			};
		});
		const credentials = {
			appId: 'app-hole',
			appSecret: 'hole-secret',
			environment: 'sandbox',
			baseUrl: local.baseUrl,
		};
		return {
			local,
			lines: async () =>
				await runNode(
					{ resource: 'statement', operation: 'get', day: DAY, output: 'lines' },
					{ credentials },
				),
		};
	}

	it('a list sorted by status then date: the pending 500,000 NGN of the day on page 3 is a line', async () => {
		const { local, lines } = await listing(() => BY_STATUS);
		try {
			const result = await lines();
			expect(result.error).toBeUndefined();
			const withdrawals = result.items
				.map((item) => item.json)
				.filter((line) => line.kind === 'bankWithdrawal');
			expect(withdrawals).toHaveLength(31);
			expect(withdrawals.find((line) => line.recordId === 'big')).toMatchObject({
				amount: -500_000,
				currency: 'NGN',
			});
			// Every page read, each once.
			expect(
				local.requests
					.filter((r) => r.path === '/v1/payments/withdrawals')
					.map((r) => r.query.get('page'))
					.sort(),
			).toEqual(['1', '2', '3']);
		} finally {
			await local.close();
		}
	});

	it('a record that moves to a page already read while the list is read (it completes) is found by reading again', async () => {
		let served = 0;
		// Sorted by status, then newest first: once page 1 is served, the pending one of the day completes and moves up to page 1.
		const { local, lines } = await listing(() =>
			served++ === 0
				? BY_STATUS
				: [{ ...pendingOfDay, status: 'completed' }, ...completedOfDay, ...completedOlder],
		);
		try {
			const result = await lines();
			expect(result.error).toBeUndefined();
			expect(
				result.items.map((item) => item.json).find((line) => line.recordId === 'big'),
			).toMatchObject({ kind: 'bankWithdrawal', status: 'completed', amount: -500_000 });
		} finally {
			await local.close();
		}
	});

	it('a record that moves up while a new one lands leaves the distinct count whole: read again all the same', async () => {
		let served = 0;
		const moved = [
			completedOfDay[0],
			{ ...pendingOfDay, status: 'completed' },
			...completedOfDay.slice(1),
			...completedOlder.slice(0, 69),
			bank('new', 'pending', minutes(800), 5),
			...completedOlder.slice(69),
		];
		const { local, lines } = await listing(() => (served++ === 0 ? BY_STATUS : moved));
		try {
			const result = await lines();
			expect(result.error).toBeUndefined();
			expect(
				result.items.map((item) => item.json).find((line) => line.recordId === 'big'),
			).toMatchObject({ status: 'completed', amount: -500_000 });
		} finally {
			await local.close();
		}
	});

	it('a list that never holds still refuses the statement rather than give one with a line missing', async () => {
		let served = 0;
		const { local, lines } = await listing(() => [
			...Array.from({ length: ++served }, (_, i) =>
				bank(`busy${i}`, 'pending', minutes(900 + i), 1),
			),
			...BY_STATUS,
		]);
		try {
			const result = await lines();
			expect(result.items).toHaveLength(0);
			expect(result.error?.message).toMatch(
				/^The statement could not be read: the withdrawals list changed under every one of 3 reads \(the last saw \d+ distinct records while its pages stated \d+, then \d+/,
			);
			expect(result.error?.description).toMatch(
				/A list that never holds still while it is read cannot be proven whole/,
			);
		} finally {
			await local.close();
		}
	});
});

describe('Statement → Get never gives a false figure (#48 point 2): amounts the node cannot trust', () => {
	const at = (minutes: number) =>
		new Date(Date.parse(`${DAY}T00:00:00Z`) + minutes * 60_000).toISOString();
	const bankWithdrawal = (id: string, fields: IDataObject) => ({
		id,
		externalId: `x-${id}`,
		status: 'completed',
		amount: 40,
		payoutAmount: 50_000,
		fee: 700,
		currency: 'ngn',
		bankName: 'Access Bank',
		accountNumber: '0123456789',
		createdAt: at(60),
		...fields,
	});
	const deposit = (id: string, fields: IDataObject) => ({
		id,
		status: 'completed',
		amount: 20_000,
		feeAmount: 100,
		amountReceived: 14,
		currency: 'ngn',
		wallet: 'w1',
		address: 'addr-1',
		createdAt: at(90),
		...fields,
	});

	async function statementOf(withdrawals: IDataObject[], trades: IDataObject[]) {
		const local = await localService((seen) => {
			const listed =
				seen.path === '/v1/payments/withdrawals'
					? withdrawals
					: seen.path === '/v1/trades/transactions'
						? trades
						: seen.path === '/v1/trades/wallets'
							? [{ id: 'w1', label: 'alice', address: 'addr-1' }]
							: undefined;
			if (!listed)
				return { status: 200, body: { success: true, data: { fiatWallets: { ngn: 0 } } } };
			return {
				status: 200,
				body: {
					success: true,
					message: 'ok',
					data: listed,
					meta: { page: 1, pages: 1, hasNextPage: false, totalDocs: listed.length },
				},
			};
		});
		try {
			const credentials = {
				appId: 'app-neg',
				appSecret: 'neg-secret',
				environment: 'sandbox',
				baseUrl: local.baseUrl,
			};
			const lines = await runNode(
				{ resource: 'statement', operation: 'get', day: DAY, output: 'lines' },
				{ credentials },
			);
			const summary = await runNode(
				{
					resource: 'statement',
					operation: 'get',
					day: DAY,
					output: 'summary',
					options: { openingBalances: { NGN: 1_000_000 } },
				},
				{ credentials },
			);
			expect(lines.error).toBeUndefined();
			return { lines: lines.items.map((item) => item.json), summary: summary.items[0].json };
		} finally {
			await local.close();
		}
	}

	it.each([
		[
			'a withdrawal paying out -50000',
			[bankWithdrawal('neg-payout', { payoutAmount: -50_000 })],
			[],
			'neg-payout',
			'withdrawal',
		],
		[
			'a withdrawal with a fee of -700',
			[bankWithdrawal('neg-fee', { fee: -700 })],
			[],
			'neg-fee',
			'withdrawal',
		],
		[
			'a completed deposit of -20000',
			[],
			[deposit('neg-deposit', { amount: -20_000 })],
			'neg-deposit',
			'transaction',
		],
		[
			'a withdrawal paying out "lots"',
			[bankWithdrawal('nan-payout', { payoutAmount: 'lots' })],
			[],
			'nan-payout',
			'withdrawal',
		],
		[
			'a deposit in a currency the node cannot read',
			[],
			[deposit('odd-unit', { currency: 'xyz' })],
			'odd-unit',
			'transaction',
		],
	])(
		'%s: an exception naming the record, no figure moved, and the balance check cannot vouch for the day',
		async (_case, withdrawals, trades, id, record) => {
			const { lines, summary } = await statementOf(withdrawals, trades);
			const ofIt = lines.filter((line) => line.recordId === id);
			// One line, moving nothing: no credit of 50,000, no credit of 700, no debit of 19,900.
			expect(ofIt).toHaveLength(1);
			expect(ofIt[0].amount).toBe(0);
			expect(String(ofIt[0].exception)).toMatch(
				/^The record states no (credited amount|payout and fee) the node can read/,
			);
			expect(summary.balanceCheck).toEqual({
				result: 'notCheckable',
				why: expect.stringMatching(
					new RegExp(
						`^1 record\\(s\\) of the day \\(e\\.g\\. ${record} ${id}\\) state an amount the node cannot trust`,
					),
				),
			});
			expect(summary.exceptions).toEqual(
				expect.arrayContaining([expect.objectContaining({ recordId: id })]),
			);
		},
	);
});

describe('the CSV file trusts no service field (#48 point 3)', () => {
	const created = `${DAY}T09:00:00.000Z`;
	const reversed = (id: string, fields: IDataObject) => ({
		id,
		externalId: `x-${id}`,
		status: 'reversed',
		amount: 7,
		payoutAmount: 1000,
		fee: 50,
		currency: 'ngn',
		bankName: 'Access Bank',
		accountNumber: '0123456789',
		createdAt: created,
		...fields,
	});

	/** The Xero CSV (Date, Amount, Payee, Description, Reference) of `day`, and the exceptions of DAY. */
	async function csvOf(withdrawals: IDataObject[], day = DAY) {
		const local = await localService((seen) => {
			const listed =
				seen.path === '/v1/payments/withdrawals'
					? withdrawals
					: seen.path === '/v1/trades/wallets' || seen.path === '/v1/trades/transactions'
						? []
						: undefined;
			if (!listed)
				return { status: 200, body: { success: true, data: { fiatWallets: { ngn: 0 } } } };
			return {
				status: 200,
				body: {
					success: true,
					message: 'ok',
					data: listed,
					meta: { page: 1, pages: 1, hasNextPage: false, totalDocs: listed.length },
				},
			};
		});
		try {
			const credentials = {
				appId: 'app-csv',
				appSecret: 'csv-secret',
				environment: 'sandbox',
				baseUrl: local.baseUrl,
			};
			const file = await runNode(
				{ resource: 'statement', operation: 'get', day, output: 'file' },
				{ credentials },
			);
			const exceptions = await runNode(
				{ resource: 'statement', operation: 'get', day: DAY, output: 'exceptions' },
				{ credentials },
			);
			expect(file.error).toBeUndefined();
			const csv = Buffer.from(String(file.items[0].binary?.data?.data), 'base64').toString('utf8');
			return {
				rows: csv.trimEnd().split('\r\n').slice(1),
				exceptions: exceptions.items.map((item) => item.json),
			};
		} finally {
			await local.close();
		}
	}

	/** The cells of a CSV row (RFC 4180 quoting), counting only the commas outside quotes. */
	const cellsOf = (row: string) =>
		[...row.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)]
			.filter((m) => m.index < row.length || m[1] !== '')
			.map((m) => m[1]);

	it.each([
		['an HTTP date', 'Wed, 11 Mar 2026 08:00:00 GMT', '2026-03-11'],
		['epoch milliseconds', 1773216000000, '2026-03-11'],
		['epoch milliseconds as text', '1773216000000', '2026-03-11'],
	])(
		"a refund whose updatedAt is %s is on that day's file, in a row of 5 cells",
		async (_case, updatedAt, date) => {
			const { rows } = await csvOf([reversed('r1', { updatedAt })], date);
			const refund = rows.find((row) => row.includes('refund:r1')) as string;
			expect(cellsOf(refund)).toHaveLength(5);
			expect(cellsOf(refund)[0]).toBe(date);
		},
	);

	it('a refund whose updatedAt is a formula (=2+5*1000,0) is an exception, dated when the withdrawal was made, in a row of 5 cells with no formula', async () => {
		const { rows, exceptions } = await csvOf([reversed('r2', { updatedAt: '=2+5*1000,0' })]);
		for (const row of rows) expect(cellsOf(row)).toHaveLength(5);
		expect(cellsOf(rows.find((row) => row.includes('refund:r2')) as string)[0]).toBe(DAY);
		expect(rows.join('\n')).not.toMatch(/(^|,)=/m);
		expect(String(exceptions.find((line) => line.recordId === 'r2')?.exception)).toContain(
			'The date its money came back (updatedAt "=2+5*1000,0") cannot be read',
		);
	});

	it.each([
		['a full-width ＝', '＝HYPERLINK("http://x.invalid")', `"'＝HYPERLINK(""http://x.invalid"")"`],
		['a ;-separated formula', 'pay;=1+1', '"pay;=1+1"'],
		['a - formula', '-1+2', "'-1+2"],
	])('a Payee with %s cannot run as a formula in any locale', async (_case, externalId, payee) => {
		const { rows } = await csvOf([reversed('r3', { status: 'completed', externalId })]);
		for (const row of rows) {
			expect(cellsOf(row)).toHaveLength(5);
			expect(cellsOf(row)[2]).toBe(payee);
		}
		// The node's own amounts stay numbers.
		expect(cellsOf(rows[0])[1]).toBe('-1000.00');
	});
});

describe("a busy day balances to the cent against the fake API's own ledger", () => {
	afterEach(async () => await fakeApi.close());

	it("3,000 seeded records with the business bearing the fees: balanced, closing = the fake API's balances after the day, no difference", async () => {
		fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000 });
		credentials = sandboxCredentials(fakeApi);
		fakeApi.state.account.withdrawalFeeBearer = 'business';
		fakeApi.state.account.markupPercent = 2.5;
		fakeApi.seedDay({ day: '2026-03-09', records: 500 });
		const busy = fakeApi.seedDay({ day: DAY, records: 3000 });
		fakeApi.seedDay({ day: '2026-03-11', records: 500 });
		const { items } = await get({
			output: 'summary',
			options: { openingBalances: upper(busy.openingBalances) },
		});
		const summary = items[0].json;
		expect(summary.closingBalances).toEqual(upper(busy.closingBalances));
		expect(summary.balanceCheck).toEqual({
			result: 'balanced',
			serviceBalancesAtEnd: upper(busy.closingBalances),
			why: expect.any(String),
		});
		expect(summary.lines).toBeGreaterThan(3000);
	});

	it('a day made through the API (withdrawals completed, rejected, reversed and stuck, deposits credited, flagged and auto-settled, the fee bearer switched midday): balanced; a swap after it differs by exactly the swap', async () => {
		let clock = Date.parse('2026-04-01T23:00:00.000Z');
		const TRC20 = 'TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9';
		const ERC20 = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
		const STUCK = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
		fakeApi = await startFakeApi({
			lifecycleDelayMs: 60_000,
			now: () => clock,
			rejectAddresses: [ERC20],
			reverseAddresses: ['0123456780'],
			stuckAddresses: [STUCK],
		});
		credentials = sandboxCredentials(fakeApi);
		const call = async (method: string, path: string, body?: IDataObject) => {
			const response = await fetch(`${fakeApi.url}${path}`, {
				method,
				headers: {
					'content-type': 'application/json',
					'x-app-id': fakeApi.appId,
					'x-app-secret': fakeApi.appSecret,
					'X-Service-Env': 'sandbox',
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const json = (await response.json()) as { data: IDataObject };
			if (!response.ok)
				throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
			return json.data;
		};
		const crypto = (walletAddress: string, amount: number, externalId: string, network = 'TRC20') =>
			call('POST', '/payments/withdraw/address', {
				pin: fakeApi.pin,
				token: 'USDT',
				network,
				amount,
				walletAddress,
				externalId,
			});
		const USDT_TRX_TEST = '64f1a2b3c4d5e6f7a8b9c0d3';
		// The day before: a payout, so the day starts from balances something already moved.
		await crypto(TRC20, 30, 'before-1');
		await fakeApi.settle();
		const opening = upper({ ...fakeApi.state.account.fiatWallets });

		clock = Date.parse('2026-04-02T08:00:00.000Z');
		const bank = await call('POST', '/payments/banks/add', {
			id: '39',
			accountNumber: '0123456789',
		});
		const failingBank = await call('POST', '/payments/banks/add', {
			id: '39',
			accountNumber: '0123456780',
		});
		const customer = await call('POST', `/trades/sell/assets/${USDT_TRX_TEST}/generate-address`, {
			label: 'cust-1',
		});
		const settled = await call('POST', `/trades/sell/assets/${USDT_TRX_TEST}/generate-address`, {
			label: 'cust-auto',
			bankId: '39',
			accountNumber: '0123456789',
			autoSettlement: true,
		});
		await call('PUT', '/users/markup-percent', { markupPercent: 3 });
		await crypto(TRC20, 25, 'day-1');
		await crypto(ERC20, 40, 'day-rejected', 'ERC20');
		await crypto(STUCK, 12, 'day-stuck');
		await call('POST', `/payments/withdraw/bank/${String(bank.id)}`, {
			pin: fakeApi.pin,
			amount: 20,
			externalId: 'day-bank-1',
		});
		await call('POST', `/payments/withdraw/bank/${String(failingBank.id)}`, {
			pin: fakeApi.pin,
			amount: 15,
			externalId: 'day-bank-reversed',
		});
		const deposit = (wallet: IDataObject, amountInUSD: number, reference: string) =>
			call('POST', '/trades/sell/mock-trade', {
				walletAddress: wallet.address,
				asset: 'USDT_TRX_TEST',
				amountInUSD,
				cryptoReceived: amountInUSD,
				reference,
				txHash: `0x${reference}`,
			});
		await deposit(customer, 120, 'dep-1');
		await deposit(customer, 5, 'dep-flagged');
		await deposit(settled, 300, 'dep-auto');
		await fakeApi.settle();
		clock = Date.parse('2026-04-02T15:00:00.000Z');
		await call('PUT', '/users/withdrawal-fee-bearer', { withdrawalFeeBearer: 'business' });
		await crypto(TRC20, 18, 'day-2');
		await call('POST', `/payments/withdraw/bank/${String(bank.id)}`, {
			pin: fakeApi.pin,
			amount: 22,
			externalId: 'day-bank-2',
		});
		await deposit(settled, 80, 'dep-auto-2');
		await fakeApi.settle();
		const closing = upper({ ...fakeApi.state.account.fiatWallets });
		expect(fakeApi.state.withdrawals.map((w) => w.status).sort()).toEqual([
			'completed',
			'completed',
			'completed',
			'completed',
			'completed',
			'completed',
			'completed',
			'pending',
			'rejected',
			'reversed',
		]);

		clock = Date.parse('2026-04-03T01:00:00.000Z');
		const day = { day: '2026-04-02', options: { openingBalances: opening } };
		let summary = (await get({ output: 'summary', ...day })).items[0].json;
		expect(summary.closingBalances).toEqual(closing);
		expect(summary.balanceCheck).toMatchObject({
			result: 'balanced',
			serviceBalancesAtEnd: closing,
		});
		expect((summary.counts as IDataObject).autoSettlement).toBe(2);

		// A swap after the day: the API lists no swap, so the balances now differ by exactly it.
		clock = Date.parse('2026-04-03T02:00:00.000Z');
		await call('POST', '/payments/swap-currency', {
			amount: 15000,
			from: 'ngn',
			to: 'ghs',
			pin: fakeApi.pin,
		});
		summary = (await get({ output: 'summary', ...day })).items[0].json;
		expect(summary.balanceCheck).toMatchObject({
			result: 'differs',
			difference: { NGN: 15000, GHS: -150 },
		});
		// What differs, by how much, the likely cause and what to check, in words and figures.
		const why = String((summary.balanceCheck as IDataObject).why);
		expect(why).toMatch(
			/NGN: the closing balance NGN [\d,]+\.\d\d is NGN 15,000\.00 more than the service's NGN [\d,]+\.\d\d/,
		);
		expect(why).toMatch(/Likely causes, the most common first: a currency swap/);
		expect(why).not.toMatch(/[{}"]/);
	});
});
