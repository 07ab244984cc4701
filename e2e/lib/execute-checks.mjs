// Phase 1 of a line: the example and e2e workflows run by `n8n execute` (no server), each
// operation of the tour checked against the sandbox, and every resource exercised at least once.
import { E2E, EXAMPLES, sandboxApi } from '../../tooling/setup.mjs';
import { secs } from '../../tooling/util.mjs';
import { RESOURCES, tourExpectations } from '../expectations.mjs';
import { assert, check } from './report.mjs';
import { describeFailure, itemsOf, nodeError } from './run-data.mjs';
import { statementCheck, statementRangeCheck } from './statement-checks.mjs';

export async function executeChecks({ n8n, sandbox, seeded, artifacts }) {
	const covered = new Set();
	// First, before the tour moves money today: yesterday's balances are then the seeded day's.
	if (await statementCheck({ n8n, sandbox, seeded })) covered.add('statement');
	// A range of days against a fake API of its own (its files kept in the line's artifacts).
	await statementRangeCheck({ n8n, artifacts });
	const before = sandbox.requests.length;
	const tour = await n8n.execute(EXAMPLES.tour);
	await check('tour workflow ran (n8n execute --rawOutput)', async () => {
		assert(tour.run, describeFailure(tour));
		assert(tour.status === 'success', describeFailure(tour));
		return `${Object.keys(tour.runData).length} nodes, ${sandbox.requests.length - before} API requests, ${secs(tour.ms)}`;
	});
	if (tour.run) {
		for (const [nodeName, expectation] of Object.entries(tourExpectations)) {
			await check(
				`${expectation.resource} → ${expectation.operation} ("${nodeName}")`,
				async () => {
					const error = nodeError(tour, nodeName);
					assert(!error, error);
					const detail = await expectation.verify(itemsOf(tour, nodeName), {
						sandbox,
						items: (name) => itemsOf(tour, name),
					});
					covered.add(expectation.resource);
					return detail;
				},
			);
		}
	}

	await check(
		'withdrawals run to completion (USDT by USD amount, BTC by crypto amount)',
		async () => {
			const exec = await n8n.execute(EXAMPLES.withdrawals);
			assert(exec.ok, describeFailure(exec));
			for (const name of [
				'USDT Withdrawal',
				'BTC Withdrawal',
				'Get USDT Withdrawal',
				'Get BTC Withdrawal by External ID',
				'List Withdrawals',
			]) {
				const error = nodeError(exec, name);
				assert(!error, error);
			}
			const usdt = itemsOf(exec, 'USDT Withdrawal')[0];
			const btc = itemsOf(exec, 'BTC Withdrawal')[0];
			assert(
				usdt.id && usdt.externalId,
				`createCrypto output lacks id/externalId: ${JSON.stringify(usdt)}`,
			);
			assert(
				usdt.externalId === 'order-1042' && btc.externalId === 'payout-btc-0007',
				`External IDs not mapped from the order: ${JSON.stringify([usdt.externalId, btc.externalId])}`,
			);
			assert(
				usdt.status && usdt.fee !== undefined && usdt.alreadySubmitted === false,
				`Create Crypto did not return the full record: ${JSON.stringify(usdt)}`,
			);
			const gotUsdt = itemsOf(exec, 'Get USDT Withdrawal')[0];
			const gotBtc = itemsOf(exec, 'Get BTC Withdrawal by External ID')[0];
			assert(gotUsdt.status === 'completed', `USDT withdrawal status in n8n: ${gotUsdt.status}`);
			assert(
				gotBtc.status === 'completed' && gotBtc.id === btc.id,
				`BTC withdrawal by externalId: ${JSON.stringify(gotBtc).slice(0, 200)}`,
			);
			const stateUsdt = sandbox.state.withdrawals.find((w) => w.id === usdt.id);
			const stateBtc = sandbox.state.withdrawals.find((w) => w.id === btc.id);
			assert(
				stateUsdt?.status === 'completed' &&
					stateUsdt.token === 'USDT' &&
					stateUsdt.network === 'TRC20' &&
					stateUsdt.amount === 25 &&
					stateUsdt.cryptoAmount !== undefined,
				`sandbox USDT withdrawal: ${JSON.stringify(stateUsdt)}`,
			);
			assert(stateUsdt.feeLevel === null, 'feeLevel was sent for a stablecoin');
			assert(
				stateBtc?.status === 'completed' &&
					stateBtc.feeLevel === 'low' &&
					stateBtc.network === null &&
					stateBtc.cryptoAmount === 0.0005,
				`sandbox BTC withdrawal: ${JSON.stringify(stateBtc)}`,
			);
			const sent = sandbox.requests
				.filter((r) => r.method === 'POST' && r.path.endsWith('/payments/withdraw/address'))
				.map((r) => r.body);
			const btcBody = sent.find((b) => b.token === 'BTC');
			const usdtBody = sent.find((b) => b.token === 'USDT');
			assert(
				btcBody &&
					!('network' in btcBody) &&
					!('amount' in btcBody) &&
					btcBody.cryptoAmount === 0.0005,
				`BTC request body: ${JSON.stringify(btcBody)}`,
			);
			assert(
				usdtBody &&
					!('feeLevel' in usdtBody) &&
					!('cryptoAmount' in usdtBody) &&
					usdtBody.amount === 25,
				`USDT request body: ${JSON.stringify(usdtBody)}`,
			);
			const listed = itemsOf(exec, 'List Withdrawals');
			assert(
				listed.length === sandbox.state.withdrawals.length,
				`List Withdrawals returned ${listed.length} of ${sandbox.state.withdrawals.length}`,
			);
			covered.add('withdrawal');
			return `USDT ${usdt.id} and BTC ${btc.id} completed; External IDs ${usdt.externalId}, ${btc.externalId} from the order`;
		},
	);

	await check(
		'batch example: the 3-decimal row stops the batch before anything is sent, the error naming the row (issue 50: examples stop on a refused row)',
		async () => {
			const posts = () =>
				sandbox.requests.filter(
					(r) =>
						r.method === 'POST' &&
						r.path.endsWith('/payments/withdraw/address') &&
						/^payout-200/.test(r.body?.externalId ?? ''),
				).length;
			const run = await n8n.execute(EXAMPLES.batch);
			assert(
				run.run && run.status === 'error' && run.error,
				`expected the batch to stop, got ${run.status}: ${describeFailure(run)}`,
			);
			const message = `${run.error.message} ${run.error.description ?? ''}`;
			assert(
				message.split('row 3 (payout-2003, n8n item 2)').length === 2 &&
					/nothing was sent/i.test(message),
				`the error does not name row 3 once, or says something was sent: ${message.slice(0, 400)}`,
			);
			assert(posts() === 0, `${posts()} withdrawal requests for a batch that stopped`);
			assert(!(itemsOf(run, 'Paid') ?? []).length, 'a row reached Paid');
			return `"${run.error.message.slice(0, 200)}"; nothing sent`;
		},
	);

	await check('field rule refused before any request reaches the sandbox', async () => {
		const n = sandbox.requests.length;
		const exec = await n8n.execute(E2E.fieldRule);
		assert(exec.run, describeFailure(exec));
		assert(
			exec.status === 'error' && exec.error,
			`expected the execution to fail, got ${exec.status}`,
		);
		const message = `${exec.error.message} ${exec.error.description ?? ''}`;
		assert(/decimal/i.test(message), `error does not explain the rule: ${message}`);
		assert(exec.code !== 0, 'n8n execute exited 0 on a failed execution');
		assert(
			sandbox.requests.length === n,
			`${sandbox.requests.length - n} request(s) reached the sandbox: ${JSON.stringify(sandbox.requests.slice(n).map((r) => `${r.method} ${r.path}`))}`,
		);
		return `"${exec.error.message}"`;
	});

	await check('Return All fetches every page (page size capped at 5 by the sandbox)', async () => {
		for (let i = 0; i < 12; i++) {
			await sandboxApi(
				sandbox,
				'POST',
				'/trades/sell/assets/64f1a2b3c4d5e6f7a8b9c0d3/generate-address',
				{ label: `page-seed-${i}` },
			);
		}
		const total = sandbox.state.wallets.length;
		const n = sandbox.requests.length;
		const exec = await n8n.execute(E2E.pagination);
		assert(exec.ok, describeFailure(exec));
		const all = itemsOf(exec, 'All Wallets');
		assert(all.length === total, `Return All gave ${all.length} wallets, the sandbox has ${total}`);
		assert(new Set(all.map((w) => w.id)).size === total, 'duplicate wallets across pages');
		const pages = sandbox.requests
			.slice(n)
			.filter((r) => r.method === 'GET' && r.path.endsWith('/trades/wallets'));
		const expectedPages = Math.ceil(total / 5);
		// Return All pages: 1..expectedPages; then the limited list (7 → 2 pages)
		assert(
			pages.length >= expectedPages + 1,
			`only ${pages.length} wallet page requests for ${total} wallets`,
		);
		const wds = itemsOf(exec, 'All Withdrawals');
		assert(
			wds.length === sandbox.state.withdrawals.length,
			`All Withdrawals gave ${wds.length} of ${sandbox.state.withdrawals.length}`,
		);
		const limited = itemsOf(exec, 'First 7 Wallets');
		assert(limited.length === 7, `limit 7 gave ${limited.length}`);
		return `${total} wallets over ${expectedPages} pages, ${wds.length} withdrawals, limit 7 → 7`;
	});

	await check('every resource exercised at least once', async () => {
		const missing = RESOURCES.filter((r) => !covered.has(r));
		assert(!missing.length, `not exercised successfully: ${missing.join(', ')}`);
		return RESOURCES.join(', ');
	});
}
