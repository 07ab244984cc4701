/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads the template files */
/**
 * The Code steps of the Pay vendors template (templates/pay-vendors-from-a-sheet.json), run on
 * their own with the items n8n would hand them (issue 50): the approval's figures are the Dry Run's,
 * summed by who bears the fee; the rows already paid are named, not asked for; sample rows refuse a
 * credential that is not a sandbox; only the rows the approver saw are paid. That the template runs
 * in n8n is the e2e's (e2e/lib/template-checks.mjs).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import type { IDataObject } from 'n8n-workflow';
import { PACKAGE_ROOT } from '../helpers';

interface Node {
	name: string;
	parameters: IDataObject;
}
const templateOf = (file: string) =>
	JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'templates', file), 'utf8')) as { nodes: Node[] };
const template = templateOf('pay-vendors-from-a-sheet.json');
const codeOf = (name: string, nodes = template.nodes) =>
	String(nodes.find((node) => node.name === name)?.parameters.jsCode);

type Items = Array<{ json: IDataObject }>;
/** Runs a Code node's JavaScript with `$input` and `$('…')` answering from `nodes` (node name → items). */
function run(name: string, input: Items, nodes: Record<string, Items>, of = template.nodes): Items {
	const $ = (node: string) => {
		const items = nodes[node];
		if (!items) throw new Error(`the step reads ${node}, which the test did not give`);
		return { all: () => items, first: () => items[0] };
	};
	// the template's own code, in a context of its own, as n8n's Code node runs it
	const step = runInNewContext(`(function ($input, $) {\n${codeOf(name, of)}\n})`, {}) as (
		input: unknown,
		node: typeof $,
	) => Items;
	return step({ all: () => input }, $);
}

const items = (...rows: IDataObject[]): Items => rows.map((json) => ({ json }));
const covered = (runNeeds: number, balance = 10000): IDataObject => ({
	covers: runNeeds <= balance,
	status: runNeeds <= balance ? 'covered' : 'not covered',
	currency: 'USD',
	balance,
	runNeeds,
	missing: Math.max(0, runNeeds - balance),
});
const dryRun = (
	externalId: string,
	amount: number,
	fee: number,
	feeBearer: string,
	environment = 'sandbox',
	balanceCheck: IDataObject = covered(amount),
): IDataObject => ({
	dryRun: true,
	externalId,
	balanceCheck,
	payout: {
		amount,
		fee,
		feeBearer,
		leavesBalance: `${(feeBearer === 'business' ? amount + fee : amount).toFixed(2)} USD`,
		recipientReceives: `${(feeBearer === 'business' ? amount : amount - fee).toFixed(2)} USD in USDT on TRC20`,
	},
	guardrails: { environment },
});
const alreadyPaid = (externalId: string, id: string): IDataObject => ({
	dryRun: true,
	externalId,
	id,
	status: 'completed',
	message: 'Dry run: this payment already exists under its External ID, so nothing would be sent',
});

describe('Pay vendors: the approval and the rows it pays', () => {
	const settings = items({ rowsFrom: 'sample rows' });
	const payoutRows = items(
		{ 'External ID': 'INV-0', Vendor: 'Ada Supplies', 'Amount (USD)': '5' },
		{ 'External ID': 'INV-1', Vendor: 'Bolu Logistics', 'Amount (USD)': '15' },
		{ 'External ID': 'INV-2', Vendor: 'Chidi Print', 'Amount (USD)': '20' },
	);

	test.each([
		['recipient', '35.00 USD', '3.00 USD', '32.00 USD'],
		['business', '38.00 USD', '3.00 USD', '35.00 USD'],
	])(
		"fees borne by the %s: the totals are the Dry Run's figures; the rows already paid are named, not asked for",
		(bearer, leaves, fees, receive) => {
			const toPay = items(dryRun('INV-1', 15, 1.5, bearer), dryRun('INV-2', 20, 1.5, bearer));
			const all = [...toPay, ...items(alreadyPaid('INV-0', 'w-9'))];
			const [{ json }] = run('Batch Totals', toPay, {
				'Dry Run Whole Batch': all,
				Settings: settings,
				'Payout Rows': payoutRows,
			});
			expect(json).toMatchObject({
				rowsToSend: 2,
				leavesBalance: leaves,
				fees,
				recipientsGet: receive,
				externalIds: ['INV-1', 'INV-2'],
			});
			expect(json.alreadyPaid).toBe('Ada Supplies (withdrawal w-9, completed, External ID INV-0)');
			// Each vendor by name, its amount, fee and what it receives; the External ID last.
			expect(String(json.lines).split('\n')[0]).toBe(
				`Bolu Logistics: 15.00 USD, fee 1.50 USD, receives ${bearer === 'business' ? '15.00' : '13.50'} USD in USDT on TRC20 (External ID INV-1)`,
			);
			expect(json).toMatchObject({ balanceCovers: true });
		},
	);

	test('a batch the balance does not cover (by its last row) is not asked for: the words say how much is missing', () => {
		const toPay = items(
			dryRun('INV-0', 5, 1.5, 'business', 'sandbox', covered(6.5, 30)),
			dryRun('INV-1', 15, 1.5, 'business', 'sandbox', covered(23, 30)),
			dryRun('INV-2', 20, 1.5, 'business', 'sandbox', covered(44.5, 30)),
		);
		const [{ json }] = run('Batch Totals', toPay, {
			'Dry Run Whole Batch': toPay,
			Settings: settings,
			'Payout Rows': payoutRows,
		});
		expect(json.balanceCovers).toBe(false);
		expect(json.balance).toBe(
			'The balance does not cover this batch, so nobody was asked to approve it and nothing was sent. The 3 payouts need 44.50 USD from the USD balance, which holds 30.00 USD: 14.50 USD is missing. Add at least 14.50 USD to the balance, or take rows out of the batch, then run it again.',
		);
	});

	test('a balance that cannot be read (or a Dry Run that does not say) stops the batch: never taken as covered', () => {
		const unreadable = {
			covers: false,
			status: 'cannot tell',
			why: "the account's balances could not be read (Account → Get answered HTTP 500)",
		};
		for (const check of [unreadable, undefined]) {
			const row = dryRun('INV-1', 15, 1.5, 'recipient', 'sandbox', check);
			if (!check) delete row.balanceCheck;
			const [{ json }] = run('Batch Totals', items(row), {
				'Dry Run Whole Batch': items(row),
				Settings: settings,
				'Payout Rows': payoutRows,
			});
			expect(json.balanceCovers).toBe(false);
			expect(json.balance).toMatch(
				/^Whether the balance covers this batch cannot be told: .*So nobody was asked to approve it and nothing was sent\./,
			);
		}
	});

	test('a fee the Dry Run could not quote is said, never counted as zero', () => {
		const row = dryRun('INV-1', 15, 0, 'recipient');
		(row.payout as IDataObject).fee = 'not quoted: see networkFee or networkFeeUnavailable';
		const [{ json }] = run('Batch Totals', items(row), {
			'Dry Run Whole Batch': items(row),
			Settings: settings,
			'Payout Rows': payoutRows,
		});
		expect(json.fees).toMatch(/not quoted/);
		expect(json.leavesBalance).toMatch(/not quoted/);
	});

	test('sample rows are paid only with a Sandbox credential', () => {
		const row = dryRun('SAMPLE-INV-1001', 12.5, 1.5, 'recipient', 'production');
		expect(() =>
			run('Batch Totals', items(row), {
				'Dry Run Whole Batch': items(row),
				Settings: settings,
				'Payout Rows': payoutRows,
			}),
		).toThrow(/Sandbox credential/);
		expect(() =>
			run('Batch Totals', items(row), {
				'Dry Run Whole Batch': items(row),
				Settings: items({ rowsFrom: 'Google Sheet' }),
				'Payout Rows': payoutRows,
			}),
		).not.toThrow();
	});

	test('Rows to Pay: exactly the rows the approver saw, as read', () => {
		const rows = items(
			{ 'External ID': 'INV-0', 'Amount (USD)': '5' },
			{ 'External ID': 'INV-1', 'Amount (USD)': '15' },
			{ 'External ID': 'INV-2', 'Amount (USD)': '20' },
		);
		const paid = run('Rows to Pay', items({ data: { approved: true } }), {
			'Batch Totals': items({ externalIds: ['INV-1', 'INV-2'] }),
			'Payout Rows': rows,
		});
		expect(paid.map((item) => item.json['External ID'])).toEqual(['INV-1', 'INV-2']);
	});

	test("the sample rows: three vendors, each with its External ID, under the safest credential's Max per Withdrawal", () => {
		const rows = run('Sample Payout Rows', [], {}).map((item) => item.json);
		expect(rows).toHaveLength(3);
		expect(new Set(rows.map((row) => row['External ID'])).size).toBe(3);
		for (const row of rows) expect(Number(row['Amount (USD)'])).toBeLessThanOrEqual(100);
	});
});

describe('Check a payout sheet: the summary a person reads', () => {
	test('one row per mark: what, how many rows, how much, what to do, the External IDs last; missing and different first', () => {
		const rows = items(
			{ 'External ID': 'INV-1', 'Amount (USD)': '12.50' },
			{ 'External ID': 'INV-2', 'Amount (USD)': '20' },
			{ 'External ID': 'INV-3', 'Amount (USD)': '16' },
			{ 'External ID': 'INV-4', 'Amount (USD)': '30' },
		);
		const marks = items(
			{ Check: 'paid', 'External ID': 'INV-1' },
			{ Check: 'paid', 'External ID': 'INV-2' },
			{ Check: 'different', 'External ID': 'INV-3' },
			{ Check: 'missing', 'External ID': 'INV-4' },
		);
		const summary = run(
			'Summary',
			marks,
			{ 'Payout Rows': rows },
			templateOf('check-payout-sheet.json').nodes,
		).map((item) => item.json);
		expect(summary.map((row) => Object.keys(row))).toEqual(
			Array(3).fill(['Check', 'Rows', 'Amount in the Sheet', 'What to Do', 'External IDs']),
		);
		expect(
			summary.map((row) => [row.Check, row.Rows, row['Amount in the Sheet'], row['External IDs']]),
		).toEqual([
			['missing', 1, '30.00 USD', 'INV-4'],
			['different', 1, '16.00 USD', 'INV-3'],
			['paid', 2, '32.50 USD', 'INV-1, INV-2'],
		]);
		expect(summary[1]['What to Do']).toMatch(/do not pay them again/);
		expect(summary.some((row) => 'count_External_ID' in row)).toBe(false);
	});
});
