/**
 * How messages name a row (issue 36, "row 2 (…) … [item 1]"): counted from 1, with the External ID
 * and n8n's item number, which counts from 0. n8n's editor (2.41.1 and 1.123.81 alike) appends
 * " [item K]" to the message of an error from a multi-item run unless the message contains the text
 * "item K"; `shownTitle` is that check, so a message naming row K + 1 shows no suffix contradicting it.
 * The runs go through n8n-core's engine against a local HTTP server; the browser check
 * (e2e/lib/browser.mjs) reads the same errors in a real editor.
 */
import type { IDataObject } from 'n8n-workflow';
import { rowOf } from '../../../nodes/service/rows';
import { runNode, serversClosedAfterEach } from '../../helpers/node';
import { localService, withdrawalService } from '../../helpers/local-service';
import { tronAddress } from '../../helpers/addresses';

/** An address of Tron's form that the service refuses (the node's own check of the form passes it). */
const REFUSED = tronAddress('refused by the service');

const servers = serversClosedAfterEach();

/** The title n8n's editor shows for a node error (NodeErrorView's addItemIndexSuffix, n8n 2.41.1 and 1.123.81). */
function shownTitle(error: { message: string; context?: IDataObject }, inputItems: number): string {
	const suffix =
		inputItems > 1 && error.context?.itemIndex !== undefined
			? `item ${String(error.context.itemIndex)}`
			: '';
	return error.message.includes(suffix) ? error.message : `${error.message} [${suffix}]`;
}

const usdt = {
	resource: 'withdrawal',
	operation: 'createCrypto',
	token: 'USDT',
	network: 'TRC20',
	walletAddress: '={{ $json.address }}',
	amountType: 'usd',
	amount: '={{ $json.amount }}',
	externalId: '={{ $json.ref }}',
};

async function service(script?: Parameters<typeof withdrawalService>[0]) {
	const withdrawals = withdrawalService(script);
	const server = await localService((request) => withdrawals.handler(request));
	servers.push(server);
	return server.baseUrl;
}

test('a row is named once: from 1, with its External ID and "item K" for n8n\'s item K', () => {
	for (let index = 0; index <= 12; index++) {
		expect(rowOf(index)).toBe(`row ${index + 1} (n8n item ${index})`);
		expect(rowOf(index, `pay-${index}`)).toBe(`row ${index + 1} (pay-${index}, n8n item ${index})`);
	}
});

describe('an error of a multi-item run shows no suffix that contradicts its row', () => {
	test.each([1, 2, 11])(
		'the node refuses the item at index %i before sending: the message names it, the editor adds nothing',
		async (bad) => {
			const baseUrl = await service();
			const items = Array.from({ length: 12 }, (_, i) => ({
				address: tronAddress(`row ${i}`),
				amount: i === bad ? '1.234' : '10',
				ref: `pay-${i + 1}`,
			}));
			const run = await runNode(usdt, { items, credentials: { baseUrl } });
			const error = run.error as unknown as {
				message: string;
				description: string;
				context: IDataObject;
			};
			expect(error.context.itemIndex).toBe(bad);
			expect(error.message).toContain(`item ${bad}`);
			expect(error.message).toContain(
				`row ${bad + 1} (pay-${bad + 1}, n8n item ${bad}): 'Amount (USD)' must have at most 2 decimal places`,
			);
			expect(shownTitle(error, items.length)).toBe(error.message);
			// What to do, led by the row, which starts the sentence; "nothing was sent" is the message's alone.
			expect(error.description).toMatch(
				new RegExp(
					`^Row ${bad + 1} \\(pay-${bad + 1}, n8n item ${bad}\\): fix 'Amount \\(USD\\)' \\(set by an expression\\)\\. `,
				),
			);
			expect(error.description.split(`ow ${bad + 1} (`)).toHaveLength(2); // the row, said once
			expect(error.description).not.toMatch(/[Nn]othing was sent/);
		},
	);

	test("a service's 422 for row 2 after row 1 was paid: the message names the failed row, the editor adds nothing", async () => {
		const baseUrl = await service((body) =>
			body.walletAddress === REFUSED
				? {
						status: 422,
						body: {
							success: false,
							message: 'validation errors',
							errors: [{ field: 'walletAddress', message: 'invalid wallet address' }],
							data: {},
						},
					}
				: 'create',
		);
		const items = [
			{ address: 'TDtt3rDkpZ3d2viupRddQCaT15HuefWKgQ', amount: '10', ref: 'pay-1' },
			{ address: REFUSED, amount: '10', ref: 'pay-2' },
		];
		const run = await runNode(usdt, { items, credentials: { baseUrl } });
		const error = run.error as unknown as {
			message: string;
			description: string;
			context: IDataObject;
		};
		expect(error.context.itemIndex).toBe(1);
		// Row 1 was paid: the message says which row failed, so the count of other rows is not read as the suffix's.
		expect(error.message).toBe(
			"validation errors (HTTP 422) — 'Wallet Address': invalid wallet address — row 2 (pay-2, n8n item 1) failed; 1 other row was already submitted (see details)",
		);
		expect(shownTitle(error, items.length)).toBe(error.message);
		expect(error.description).toMatch(
			/^Fix 'Wallet Address' for row 2 \(pay-2, n8n item 1\)\. It must be a USDT address on TRC20/,
		);
		expect(error.description).toContain('Already submitted: row 1 (pay-1, n8n item 0).');
	});

	test("with Continue On Fail, an error item's message names its row once, with its External ID", async () => {
		const baseUrl = await service();
		const items = [
			{ address: tronAddress('one'), amount: '10', ref: 'pay-1' },
			{ address: tronAddress('two'), amount: '1.234', ref: 'pay-2' },
		];
		const run = await runNode(usdt, { items, credentials: { baseUrl }, continueOnFail: true });
		const message = String(run.items[1].json.message);
		expect(message).toMatch(
			/^Fix 'Amount \(USD\)' \(set by an expression\) for row 2 \(pay-2, n8n item 1\)\. Nothing was sent/,
		);
		expect(message.split('row 2 (')).toHaveLength(2); // the row, said once
	});
});

test("a service's 422 of a single row: the row is in the description, and a one-item run gets no suffix", async () => {
	const baseUrl = await service(() => ({
		status: 422,
		body: {
			success: false,
			message: 'validation errors',
			errors: [{ field: 'walletAddress', message: 'invalid wallet address' }],
			data: {},
		},
	}));
	const run = await runNode(usdt, {
		items: [{ address: REFUSED, amount: '10', ref: 'pay-1' }],
		credentials: { baseUrl },
	});
	const error = run.error as unknown as {
		message: string;
		description: string;
		context: IDataObject;
	};
	expect(shownTitle(error, 1)).toBe(error.message);
	expect(error.description).toMatch(/^Fix 'Wallet Address' for row 1 \(pay-1, n8n item 0\)\./);
});

test('two refused rows: each is named with what to do, once, each sentence starting with its row; "nothing was sent" is said once (issue 45)', async () => {
	const baseUrl = await service();
	const items = [
		{ address: tronAddress('r1'), amount: '1.234', ref: 'pay-1' },
		{ address: tronAddress('r2'), amount: '10', ref: 'pay-2' },
		{ address: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '10', ref: 'pay-3' },
	];
	const run = await runNode(usdt, { items, credentials: { baseUrl } });
	const error = run.error as unknown as { message: string; description: string };
	expect(error.message).toMatch(
		/^2 of 3 rows are invalid, so nothing was sent: row 1 \(pay-1, n8n item 0\): 'Amount \(USD\)' .*; row 3 \(pay-3, n8n item 2\): 'Wallet Address' is not a USDT address on TRC20: /,
	);
	expect(error.description).toBe(
		"Row 1 (pay-1, n8n item 0): fix 'Amount (USD)' (set by an expression). Row 3 (pay-3, n8n item 2): fix 'Wallet Address' (set by an expression). Every row is checked before any payment is sent, so running the node again after the fix cannot pay twice. To send the valid rows and get the invalid ones as error items instead, turn on Settings → On Error → Continue.",
	);
	expect(`${error.message} ${error.description}`.match(/nothing was sent/gi)).toHaveLength(1);
	// No sentence starts with a lowercase "row".
	expect(error.description).not.toMatch(/\. row \d/);
});
