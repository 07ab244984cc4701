/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
/**
 * The fake service judges requests with its own code, written from the specification (docs/api.md,
 * "Field rules"), never with the node's checks: a fake that validated with the node's rules could
 * never refuse what the node wrongly allows. Here the node's rules module is replaced by one that
 * allows everything, and the fake still refuses what the specification forbids, with the service's
 * error shape (422 `validation errors`, entries of `{ message, field, location }`).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
	NETWORKS_BY_TOKEN,
	NARRATION_MAX_LENGTH,
	TOKENS,
	UTXO_TOKENS,
} from '../../nodes/service/catalog';
import { ADDRESSES, cryptoWithdrawal, start, type Client } from './helpers';

jest.mock('../../nodes/CryptoSettlement/fields/rules', () => {
	const actual = jest.requireActual('../../nodes/CryptoSettlement/fields/rules');
	const allowEverything = () => [];
	return Object.fromEntries(
		Object.entries(actual).map(([name, value]) => [
			name,
			typeof value === 'function' && name.startsWith('check') ? allowEverything : value,
		]),
	);
});

const SOURCE = path.join(__dirname, '..', 'src');

function sourcesOf(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		return entry.isDirectory() ? sourcesOf(file) : file.endsWith('.ts') ? [file] : [];
	});
}

test("the fake API's sources import the node's catalog of facts, never its rules", () => {
	const importers = sourcesOf(SOURCE).filter((file) =>
		/from '[./]+\/nodes\/(?!service\/catalog')/.test(fs.readFileSync(file, 'utf8')),
	);
	expect(importers.map((file) => path.relative(SOURCE, file))).toEqual([]);
});

describe("the fake refuses what the specification forbids, with the node's checks switched off", () => {
	let client: Client;
	beforeEach(async () => {
		client = await start({ balances: { usd: 1000, ngn: 100_000, ghs: 1000 } });
	});
	afterEach(() => client.sandbox.close());

	const other = (token: 'USDT' | 'USDC') => (token === 'USDT' ? 'USDC' : 'USDT');
	/** A network one stablecoin has and the other has not (TON, BASE). */
	const onlyOn = (token: 'USDT' | 'USDC') =>
		NETWORKS_BY_TOKEN[token].find(
			(network) => !NETWORKS_BY_TOKEN[other(token)].includes(network),
		) as string;

	const cases: Array<
		[string, string, string, Record<string, unknown>, { field: string; message: string }]
	> = [
		...(['USDT', 'USDC'] as const).map(
			(
				token,
			): [string, string, string, Record<string, unknown>, { field: string; message: string }] => [
				`${token} on ${onlyOn(other(token))}`,
				'POST',
				'/payments/withdraw/address',
				cryptoWithdrawal({ token, network: onlyOn(other(token)) }),
				{ field: 'network', message: `${token} is not supported on ${onlyOn(other(token))}` },
			],
		),
		...UTXO_TOKENS.map(
			(
				token,
			): [string, string, string, Record<string, unknown>, { field: string; message: string }] => [
				`${token} with a network`,
				'POST',
				'/payments/withdraw/address',
				cryptoWithdrawal({
					token,
					network: 'TRC20',
					feeLevel: 'low',
					walletAddress: ADDRESSES.BTC,
				}),
				{ field: 'network', message: `${token} does not support a network` },
			],
		),
		[
			'a stablecoin without a network',
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ network: undefined }),
			{ field: 'network', message: 'network is required' },
		],
		[
			'a token the service has not',
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ token: 'XRP' }),
			{ field: 'token', message: `token must be one of ${TOKENS.join(', ')}` },
		],
		[
			'amount and cryptoAmount both',
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ cryptoAmount: 1 }),
			{ field: 'amount', message: 'send either amount or cryptoAmount, not both' },
		],
		[
			'an amount of 3 decimals',
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ amount: 10.005 }),
			{ field: 'amount', message: 'amount must have at most 2 decimal places' },
		],
		[
			'a cryptoAmount of 9 decimals',
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ amount: undefined, cryptoAmount: 0.123456789 }),
			{ field: 'cryptoAmount', message: 'cryptoAmount must have at most 8 decimal places' },
		],
		[
			'a UTXO withdrawal without a fee level',
			'POST',
			'/payments/withdraw/address',
			cryptoWithdrawal({ token: 'BTC', network: undefined, walletAddress: ADDRESSES.BTC }),
			{ field: 'feeLevel', message: 'feeLevel is required' },
		],
		[
			'a swap to the same currency',
			'POST',
			'/payments/swap-currency',
			{ amount: 10, from: 'ngn', to: 'ngn', pin: '1234' },
			{ field: 'to', message: 'from and to must be different currencies' },
		],
		[
			'a markup above 10',
			'PUT',
			'/users/markup-percent',
			{ markupPercent: 10.01 },
			{ field: 'markupPercent', message: 'markupPercent must be between 0 and 10' },
		],
		[
			`a narration of ${NARRATION_MAX_LENGTH + 1} characters`,
			'POST',
			'/payments/banks/add',
			{ id: '39', accountNumber: '0123456789', narration: 'x'.repeat(NARRATION_MAX_LENGTH + 1) },
			{
				field: 'narration',
				message: `narration must be at most ${NARRATION_MAX_LENGTH} characters`,
			},
		],
	];

	test.each(cases)(
		'%s: 422 with the service entry, nothing done',
		async (_name, method, route, body, entry) => {
			// What the fake holds, without its log of requests.
			const held = () => JSON.stringify({ ...client.sandbox.state, requests: [] });
			const before = held();
			const response = await client.call(method, route, body);
			expect(response.status).toBe(422);
			expect(response.body).toMatchObject({
				success: false,
				message: 'validation errors',
				meta: {},
				data: {},
			});
			expect(response.body.errors).toContainEqual({ ...entry, location: 'body' });
			expect(held()).toBe(before);
		},
	);
});
