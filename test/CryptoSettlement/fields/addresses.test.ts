/**
 * Issue 45, point 1: "every row is checked before any payment is sent" holds for payout addresses.
 * Each row's address is checked against its network's form (fields/addresses.ts) and, where the
 * form cannot decide, by the service's own check (Payout Address → Validate), before any row of
 * the batch is sent, in a Dry Run too. The runs go through n8n-core's engine against real local
 * HTTP servers: the fake API (which judges addresses with its own code) and scripted services.
 */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code */
import { sandboxCredentials } from '../../helpers/credentials';
import net, { type AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import { startFakeApi, type FakeApi } from '../../../fake-api/src/server';
import { EVM_NETWORKS, EXAMPLES, tronAddress } from '../../helpers/addresses';
import { runNode, serversClosedAfterEach, shortBackoff } from '../../helpers/node';
import {
	envelope,
	localService,
	refusal,
	withdrawalService,
	type Reply,
	type Seen,
} from '../../helpers/local-service';

const VALIDATE = '/v1/payments/wallet-addresses/validate';
const WITHDRAW = '/v1/payments/withdraw/address';

let sandbox: FakeApi;
let credentials: IDataObject;

beforeAll(async () => {
	sandbox = await startFakeApi({ lifecycleDelayMs: 600_000 });
	credentials = sandboxCredentials(sandbox, { pin: sandbox.pin });
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.clearRequests());

const servers = serversClosedAfterEach();

/** Withdrawal → Create Crypto of 10 USD to `walletAddress`, in a Dry Run unless told otherwise. */
function payout(
	token: string,
	network: string | undefined,
	walletAddress: string,
	extra: IDataObject = {},
): IDataObject {
	return {
		resource: 'withdrawal',
		operation: 'createCrypto',
		token,
		...(network ? { network } : { feeLevel: 'low' }),
		walletAddress,
		amountType: 'usd',
		amount: '10',
		externalId: '={{ "pay-" + $itemIndex }}',
		dryRun: true,
		...extra,
	};
}

const posted = (path: string) =>
	sandbox.requests.filter((request) => request.method === 'POST' && request.path === path);

/** Each network, the token paid on it, and its examples from the chain's documentation. */
const NETWORKS: Array<{
	name: string;
	token: string;
	network?: string;
	examples: { valid?: readonly string[]; unsure?: readonly string[]; invalid: readonly string[] };
}> = [
	{ name: 'TRC20', token: 'USDT', network: 'TRC20', examples: EXAMPLES.TRC20 },
	...EVM_NETWORKS.map((network) => ({
		name: network,
		token: network === 'BASE' ? 'USDC' : 'USDT',
		network,
		examples: EXAMPLES.ERC20,
	})),
	{ name: 'SOL', token: 'USDC', network: 'SOL', examples: EXAMPLES.SOL },
	{ name: 'TON', token: 'USDT', network: 'TON', examples: EXAMPLES.TON },
	{ name: 'BTC', token: 'BTC', examples: EXAMPLES.BTC },
	{ name: 'LTC', token: 'LTC', examples: EXAMPLES.LTC },
	{ name: 'DOGE', token: 'DOGE', examples: EXAMPLES.DOGE },
	{ name: 'BCH', token: 'BCH', examples: EXAMPLES.BCH },
];

const where = (token: string, network?: string) =>
	network ? `${token} address on ${network}` : `${token} address`;

describe.each(NETWORKS)(
	'$name: the address form of the network',
	({ token, network, examples }) => {
		// Every network has valid or undecided examples, and invalid ones (addresses.ts).
		if (examples.valid)
			test.each([...examples.valid])(
				'valid %s: the Dry Run passes without asking the service',
				async (address) => {
					const run = await runNode(payout(token, network, address), { credentials });
					expect(run.error).toBeUndefined();
					expect(run.items[0].json).toMatchObject({ dryRun: true });
					expect(posted(VALIDATE)).toHaveLength(0);
				},
			);

		if (examples.unsure)
			test.each([...examples.unsure])(
				'%s: the form cannot decide, so the service checks it once, and it passes',
				async (address) => {
					const run = await runNode(payout(token, network, address), { credentials });
					expect(run.error).toBeUndefined();
					expect(posted(VALIDATE).map((request) => request.body)).toEqual([
						{ address, token, ...(network ? { network } : {}) },
					]);
				},
			);

		test.each([...examples.invalid])(
			'invalid %s: refused before any request, naming the field and the rule',
			async (address) => {
				const run = await runNode(payout(token, network, address), { credentials });
				expect(run.error?.message).toMatch(
					new RegExp(
						`^'Wallet Address' is not a ${where(token, network)}: .+; .+ address (starts|is|has) `,
					),
				);
				expect(run.error?.description).toBe(
					"Fix 'Wallet Address' for row 1 (pay-0, n8n item 0). Nothing was sent to the service for this item.",
				);
				expect(sandbox.requests.filter((request) => request.method === 'POST')).toEqual([]);
			},
		);
	},
);

describe.each(NETWORKS)(
	'$name: its examples in one batch',
	({ name, token, network, examples }) => {
		const good = [...(examples.valid ?? []), ...(examples.unsure ?? [])];
		const rowsOf = (addresses: readonly string[], run: string) =>
			addresses.map((address, i) => ({ address, ref: `${name}-${run}-${i + 1}` }));
		const batch = (dryRun: boolean) =>
			payout(token, network, '={{ $json.address }}', { externalId: '={{ $json.ref }}', dryRun });

		test.each([
			['a Dry Run', true],
			['a real run', false],
		])(
			'%s of every valid and undecided example passes; the service checks each undecided one once',
			async (label, dryRun) => {
				const run = await runNode(batch(dryRun), {
					credentials,
					items: rowsOf(good, dryRun ? 'dry' : 'paid'),
				});
				expect(run.error).toBeUndefined();
				expect(run.items).toHaveLength(good.length);
				expect(
					posted(VALIDATE)
						.map((request) => (request.body as IDataObject).address)
						.sort(),
				).toEqual([...(examples.unsure ?? [])].sort());
				expect(posted(WITHDRAW)).toHaveLength(dryRun ? 0 : good.length);
			},
		);

		test.each([
			['a Dry Run', true],
			['a real run', false],
		])(
			'%s with every invalid example after the valid ones is refused whole, naming each invalid row; nothing is sent',
			async (label, dryRun) => {
				const addresses = [...good, ...examples.invalid];
				const run = await runNode(batch(dryRun), {
					credentials,
					items: rowsOf(addresses, dryRun ? 'dry-bad' : 'bad'),
				});
				const message = String(run.error?.message);
				expect(message).toMatch(
					new RegExp(
						`^${examples.invalid.length} of ${addresses.length} rows are invalid, so nothing was sent: `,
					),
				);
				for (let i = good.length; i < addresses.length; i++) {
					expect(message).toContain(
						`row ${i + 1} (${name}-${dryRun ? 'dry-bad' : 'bad'}-${i + 1}, n8n item ${i}): 'Wallet Address' is not a ${where(token, network)}: `,
					);
				}
				expect(posted(WITHDRAW)).toEqual([]);
			},
		);
	},
);

describe('the batch of the issue: three vendors in USDT on TRC20, one with an Ethereum-style address', () => {
	const vendors = [
		{ ref: 'vendor-1', address: EXAMPLES.TRC20.valid[0] },
		{ ref: 'vendor-2', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
		{ ref: 'vendor-3', address: EXAMPLES.TRC20.valid[1] },
	];
	const batch = (dryRun: boolean) =>
		payout('USDT', 'TRC20', '={{ $json.address }}', { externalId: '={{ $json.ref }}', dryRun });
	const message =
		'1 of 3 rows are invalid, so nothing was sent: row 2 (vendor-2, n8n item 1): \'Wallet Address\' is not a USDT address on TRC20: it looks like an Ethereum-style (0x…) address, as used on ERC20, BSC and BASE; a TRC20 (Tron) address starts with T and has 34 characters (base58, with a checksum), received "0x52908400098527886E0F7030069857D2E4169EE7"';

	test.each([
		['a Dry Run', true],
		['a real run', false],
	])('%s refuses the whole batch, and nothing is sent', async (_, dryRun) => {
		const balanceBefore = JSON.stringify(sandbox.state.account);
		const withdrawalsBefore = sandbox.state.withdrawals.length;
		const run = await runNode(batch(dryRun), { credentials, items: vendors });
		expect(run.error?.message).toBe(message);
		expect((run.error as unknown as { context: IDataObject }).context.itemIndex).toBe(1);
		expect(posted(WITHDRAW)).toEqual([]);
		expect(sandbox.state.withdrawals).toHaveLength(withdrawalsBefore);
		expect(JSON.stringify(sandbox.state.account)).toBe(balanceBefore);
	});

	test('with Continue On Fail, row 2 is an error item and rows 1 and 3 are paid', async () => {
		const run = await runNode(batch(false), { credentials, items: vendors, continueOnFail: true });
		expect(run.items.map((item) => item.json.error ?? item.json.externalId)).toEqual([
			'vendor-1',
			expect.stringMatching(
				/^'Wallet Address' is not a USDT address on TRC20: it looks like an Ethereum-style/,
			),
			'vendor-3',
		]);
		expect(posted(WITHDRAW).map((request) => (request.body as IDataObject).externalId)).toEqual([
			'vendor-1',
			'vendor-3',
		]);
	});
});

describe("the service's check decides where the form cannot (Payout Address → Validate)", () => {
	/** A scripted service: withdrawals as withdrawalService keeps them, and the address check as `check` answers. */
	async function service(check: (seen: Seen) => Reply) {
		const withdrawals = withdrawalService();
		const server = await localService((seen) =>
			seen.path === VALIDATE ? check(seen) : withdrawals.handler(seen),
		);
		servers.push(server);
		return server;
	}
	const solana = (dryRun: boolean) =>
		payout('USDC', 'SOL', '={{ $json.address }}', { externalId: '={{ $json.ref }}', dryRun });
	const rows = [
		{ ref: 'sol-1', address: EXAMPLES.SOL.unsure[0] },
		{ ref: 'sol-2', address: EXAMPLES.SOL.unsure[1] },
		{ ref: 'sol-3', address: EXAMPLES.SOL.unsure[0] },
	];
	const refuseSecond = (seen: Seen): Reply =>
		seen.body?.address === EXAMPLES.SOL.unsure[1]
			? {
					status: 422,
					body: refusal('validation errors', [
						{ field: 'address', message: 'invalid wallet address', location: 'body' },
					]),
				}
			: { status: 200, body: envelope({ ...seen.body, valid: true }, 'wallet address is valid') };

	test.each([
		['a Dry Run', true],
		['a real run', false],
	])(
		'%s: a row the service refuses refuses the batch before anything is sent',
		async (_, dryRun) => {
			const server = await service(refuseSecond);
			const run = await runNode(solana(dryRun), {
				credentials: { baseUrl: server.baseUrl },
				items: rows,
			});
			expect(run.error?.message).toBe(
				`1 of 3 rows are invalid, so nothing was sent: row 2 (sol-2, n8n item 1): 'Wallet Address' is not a USDC address on SOL: the service's address check (Payout Address → Validate), asked because a Solana address carries no checksum, answered "invalid wallet address", received "${EXAMPLES.SOL.unsure[1]}"`,
			);
			expect(server.sent('POST', '/payments/withdraw')).toEqual([]);
			// The same address, token and network is asked once per batch.
			expect(
				server
					.sent('POST', '/payments/wallet-addresses/validate')
					.map((seen) => seen.body?.address)
					.sort(),
			).toEqual([EXAMPLES.SOL.unsure[0], EXAMPLES.SOL.unsure[1]].sort());
		},
	);

	test('no usable answer from the check refuses the batch (fail closed), and nothing is sent', async () => {
		const server = await service(() => ({ status: 403, body: refusal('forbidden') }));
		const run = await runNode(solana(false), {
			credentials: { baseUrl: server.baseUrl },
			items: rows.slice(0, 2),
		});
		expect(run.error?.message).toMatch(
			/^2 of 2 rows are invalid, so nothing was sent: row 1 \(sol-1, n8n item 0\): 'Wallet Address' could not be checked as a USDC address on SOL: the service's address check \(Payout Address → Validate\), asked because a Solana address carries no checksum, answered HTTP 403 "forbidden"; run the node again when the service answers/,
		);
		expect(server.sent('POST', '/payments/withdraw')).toEqual([]);
	});

	test('addresses the service accepts are paid, each once', async () => {
		const server = await service((seen) => ({
			status: 200,
			body: envelope({ ...seen.body, valid: true }, 'wallet address is valid'),
		}));
		const run = await runNode(solana(false), {
			credentials: { baseUrl: server.baseUrl },
			items: rows,
		});
		expect(run.error).toBeUndefined();
		expect(server.sent('POST', '/payments/withdraw').map((seen) => seen.body?.externalId)).toEqual([
			'sol-1',
			'sol-2',
			'sol-3',
		]);
	});

	test('an address the form decides is never sent to the check', async () => {
		const server = await service(() => ({ status: 500, body: refusal('should not be asked') }));
		const run = await runNode(payout('USDT', 'TRC20', tronAddress('decided')), {
			credentials: { baseUrl: server.baseUrl },
		});
		expect(run.error).toBeUndefined();
		expect(server.sent('POST', '/payments/wallet-addresses/validate')).toEqual([]);
	});
});

describe("the service's check passes only the address, token and network it was asked (issue #48, point 10)", () => {
	/** A scripted service whose address check answers 200 `valid: true` with `data` made from the body asked. */
	async function checkAnswering(data: (asked: IDataObject) => IDataObject) {
		const withdrawals = withdrawalService();
		const server = await localService((seen) =>
			seen.path === VALIDATE
				? { status: 200, body: envelope(data(seen.body ?? {}), 'wallet address is valid') }
				: withdrawals.handler(seen),
		);
		servers.push(server);
		return server;
	}
	const [asked, other] = EXAMPLES.SOL.unsure;
	const solana = payout('USDC', 'SOL', asked, { dryRun: false, externalId: 'sol-echo' });

	test.each<[string, (body: IDataObject) => IDataObject, string]>([
		[
			'another address',
			(body) => ({ ...body, address: other, valid: true }),
			`answered valid for the address "${other}" instead`,
		],
		[
			'another network',
			(body) => ({ ...body, network: 'TRC20', valid: true }),
			'answered valid for the network "TRC20" instead',
		],
		[
			'another token',
			(body) => ({ ...body, token: 'USDT', valid: true }),
			'answered valid for the token "USDT" instead',
		],
		[
			'nothing it names (no address, token or network echoed)',
			() => ({ valid: true }),
			'answered valid without naming the address it checked',
		],
		[
			'no network, for a stablecoin',
			(body) => ({ address: body.address, token: body.token, valid: true }),
			'answered valid without naming the network it checked',
		],
	])('"valid" for %s: refused (fail closed), nothing is sent', async (_, data, said) => {
		const server = await checkAnswering(data);
		const run = await runNode(solana, { credentials: { baseUrl: server.baseUrl } });
		expect(run.error?.message).toContain(
			`'Wallet Address' could not be checked as a USDC address on SOL: the service's address check (Payout Address → Validate), asked because a Solana address carries no checksum, ${said}`,
		);
		expect(server.sent('POST', '/payments/wallet-addresses/validate')).toHaveLength(1);
		expect(server.sent('POST', '/payments/withdraw')).toEqual([]);
	});

	test('the same address echoed as the service writes it (an EVM address in its checksummed case) passes', async () => {
		const lower = EXAMPLES.ERC20.unsure[0];
		const server = await checkAnswering((body) => ({
			...body,
			address: '0x52908400098527886E0F7030069857D2E4169EE7',
			valid: true,
		}));
		const run = await runNode(
			payout('USDT', 'ERC20', lower, { dryRun: false, externalId: 'evm-echo' }),
			{ credentials: { baseUrl: server.baseUrl } },
		);
		expect(run.error).toBeUndefined();
		expect(
			server.sent('POST', '/payments/withdraw').map((seen) => seen.body?.walletAddress),
		).toEqual([lower]);
	});

	test('a coin without networks: an echo without a network passes, one naming a network is refused', async () => {
		const testnet = EXAMPLES.BTC.unsure[0];
		const bitcoin = payout('BTC', undefined, testnet, { dryRun: false, externalId: 'btc-echo' });
		const plain = await checkAnswering((body) => ({ ...body, valid: true }));
		expect(
			(await runNode(bitcoin, { credentials: { baseUrl: plain.baseUrl } })).error,
		).toBeUndefined();
		const named = await checkAnswering((body) => ({ ...body, network: 'BTC', valid: true }));
		const run = await runNode(
			{ ...bitcoin, externalId: 'btc-echo-2' },
			{ credentials: { baseUrl: named.baseUrl } },
		);
		expect(run.error?.message).toContain('answered valid for the network "BTC" instead');
		expect(named.sent('POST', '/payments/withdraw')).toEqual([]);
	});
});

describe('a test network address with a Production credential (issue #48, point 10)', () => {
	// The listener drops every connection, which the node retries: what counts is that it connected.
	shortBackoff();
	/** A local port at the credential's https:// Base URL that only counts connections: anything sent would reach it. */
	async function listener() {
		const connections: string[] = [];
		const server = net.createServer((socket) => {
			connections.push(socket.remoteAddress ?? '');
			socket.destroy();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const close = async () => await new Promise<void>((resolve) => server.close(() => resolve()));
		servers.push({ close });
		return {
			baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
			connections,
		};
	}
	const production = (baseUrl: string) => ({ environment: 'production', baseUrl });

	const TESTNET: Array<[string, string | undefined, string, RegExp]> = [
		['BTC', undefined, EXAMPLES.BTC.unsure[0], /it is a test network address/],
		['BTC', undefined, EXAMPLES.BTC.unsure[1], /it is a test network address/],
		['BTC', undefined, EXAMPLES.BTC.unsure[2], /it is a test network address/],
		['LTC', undefined, EXAMPLES.LTC.unsure[0], /it is a test network address/],
		['USDT', 'TON', EXAMPLES.TON.unsure[1], /it is a TON testnet address/],
		[
			'USDT',
			'TRC20',
			EXAMPLES.TRC20.unsure[0],
			/the hexadecimal form of a Tron address \(41…\) carries no checksum/,
		],
	];

	test.each(TESTNET)(
		'%s %s %s: refused before anything is sent, naming the field and the rule',
		async (token, network, address, why) => {
			const { baseUrl, connections } = await listener();
			for (const dryRun of [true, false]) {
				const run = await runNode(payout(token, network, address, { dryRun }), {
					credentials: production(baseUrl),
				});
				expect(run.error?.message).toMatch(
					new RegExp(`^'Wallet Address' is refused with a Production credential: `),
				);
				expect(run.error?.message).toMatch(why);
				expect(run.error?.description).toBe(
					"Fix 'Wallet Address' for row 1 (pay-0, n8n item 0). Nothing was sent to the service for this item.",
				);
			}
			expect(connections).toEqual([]);
		},
	);

	test('the same forms pass with a Sandbox credential, and a main network address is sent with a Production one', async () => {
		for (const [token, network, address] of TESTNET) {
			const run = await runNode(payout(token, network, address), { credentials });
			expect(run.error).toBeUndefined();
		}
		const { baseUrl, connections } = await listener();
		const run = await runNode(payout('BTC', undefined, EXAMPLES.BTC.valid[0], { dryRun: false }), {
			credentials: production(baseUrl),
		});
		expect(run.error?.message).not.toMatch(/Production credential/);
		expect(connections.length).toBeGreaterThan(0);
	});
});
