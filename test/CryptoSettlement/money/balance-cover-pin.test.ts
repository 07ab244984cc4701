/**
 * The Dry Run's balance check is the node's own words (docs/guardrails.md, "Secrets: what is hidden
 * where"): its figures and sentences are the same bytes whatever the PIN, even a PIN that is one of
 * its figures (a 1000 USD row, a 9000 USD balance, 2026 USD needed); a refusal of Account → Get that
 * echoes the PIN or the app secret is still hidden in its "cannot tell" sentence. Through n8n-core's
 * WorkflowExecute against a local HTTP service.
 */
import type { IDataObject } from 'n8n-workflow';
import { runNode, serversClosedAfterEach, shortBackoff } from '../../helpers/node';
import {
	envelope,
	localService,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';

const servers = serversClosedAfterEach();
shortBackoff();

const APP = 'app-secret-echoed-balance-4b7e';
/** A PIN that is none of the output's figures: the run every other is compared with. */
const NOWHERE = 'pin-nowhere-6d21';

/** Account → Get as `account` answers, a TRC20 fee quote of 1.50 USD, withdrawals. */
async function service(account: () => Reply) {
	const withdrawals = withdrawalService();
	const server = await localService((request: Seen): Reply => {
		const route = `${request.method} ${request.path.replace(/^\/v1/, '')}`;
		if (route === 'GET /users/fetch-integration') return account();
		if (route === 'POST /payments/estimate-network-fee')
			return {
				status: 200,
				body: envelope({ token: 'USDT', network: 'TRC20', fee: 1.5, feeCurrency: 'USD' }),
			};
		return withdrawals.handler(request);
	});
	servers.push(server);
	return server.baseUrl;
}

const dryRun: IDataObject = {
	resource: 'withdrawal',
	operation: 'createCrypto',
	dryRun: true,
	token: 'USDT',
	network: 'TRC20',
	walletAddress: 'TXT6Kz34RQABcRnNn4TXQU1731QqqEz2fk',
	amountType: 'usd',
	amount: '={{ $json.amount }}',
	externalId: '={{ $json.ref }}',
};

/** With the recipient bearing the fee: 1000, then 2026 in all, then 9000 in all (the balance), then 1000 missing. */
const ROWS = [
	{ amount: 1000, ref: '1000' },
	{ amount: 1026, ref: '2026' },
	{ amount: 6974, ref: '9000' },
	{ amount: 1000, ref: '0000' },
];

/** Each PIN (and app secret) that is also a figure of the output. */
const CASES: Array<{ pin: string; appSecret: string }> = [
	...['9000', '1000', '2026', '0000', '000000'].map((pin) => ({ pin, appSecret: APP })),
	{ pin: '1000', appSecret: '9000' },
];

const run = async (baseUrl: string, pin: string, appSecret = APP) => {
	const result = await runNode(dryRun, {
		items: ROWS,
		credentials: { baseUrl, pin, appSecret },
	});
	expect(result.error).toBeUndefined();
	return result.items.map((item) => item.json);
};

describe('Dry Run balance check: the same bytes whatever the PIN', () => {
	test.each(['user', 'business'])(
		'fee borne by the %s: every PIN that is a figure of the output changes nothing',
		async (bearer) => {
			const baseUrl = await service(() => ({
				status: 200,
				body: envelope({
					withdrawalFeeBearer: bearer,
					fiatWallets: { usd: '9000', ngn: 2026, ghs: '1000.00' },
				}),
			}));
			const without = await run(baseUrl, NOWHERE);
			const checks = without.map((json) => json.balanceCheck as IDataObject);
			if (bearer === 'user') {
				expect(
					checks.map(({ balance, itemNeeds, runNeeds, missing }) => [
						balance,
						itemNeeds,
						runNeeds,
						missing,
					]),
				).toEqual([
					[9000, 1000, 1000, 0],
					[9000, 1026, 2026, 0],
					[9000, 6974, 9000, 0],
					[9000, 1000, 10000, 1000],
				]);
				expect(checks[3].summary).toBe(
					"The balance of USD 9,000.00 does not cover this payout and the run's 3 payouts before it (USD 10,000.00 in all): USD 1,000.00 is missing. Add at least USD 1,000.00 to the USD balance, or pay fewer rows.",
				);
			} else {
				expect(checks.map(({ covers }) => covers)).toEqual([true, true, false, false]);
			}
			const text = JSON.stringify(without);
			for (const figure of ['9000', '1000', '2026', '"0000"']) expect(text).toContain(figure);
			for (const { pin, appSecret } of CASES)
				expect(JSON.stringify(await run(baseUrl, pin, appSecret))).toBe(text);
		},
	);
});

describe('Dry Run balance check: a refusal of Account → Get that echoes the secrets is still hidden', () => {
	test.each(CASES)('PIN $pin, app secret $appSecret', async ({ pin, appSecret }) => {
		const baseUrl = await service(() => ({
			status: 422,
			body: {
				success: false,
				message: `invalid pin ${pin} for ${appSecret}`,
				errors: [{ field: 'pin', message: `pin ${pin} is wrong`, value: pin }],
				meta: {},
				data: {},
			},
		}));
		const items = await run(baseUrl, pin, appSecret);
		for (const [index, json] of items.entries()) {
			const check = json.balanceCheck as IDataObject;
			expect(check).toMatchObject({ covers: false, status: 'cannot tell' });
			expect(check.summary).toBe(
				"Whether the balance covers this payout cannot be told: the account's balances could not be read (Account → Get answered HTTP 422: invalid pin [redacted] for [redacted]). Do not count on it: check the balance before approving.",
			);
			// The row's own figures (its amount, its External ID) are kept.
			expect(json.payout).toMatchObject({ amount: ROWS[index].amount });
			expect(JSON.stringify(json)).toContain(`"${ROWS[index].ref}"`);
			expect(JSON.stringify(check)).not.toMatch(new RegExp(`(?<![\\w.,])${pin}(?![\\w.,])`));
			expect(JSON.stringify(check)).not.toContain(`for ${appSecret}`);
		}
	});
});
