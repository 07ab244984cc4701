import { createHash } from 'node:crypto';

/**
 * Payout addresses for tests. `EXAMPLES` are taken from each chain's documentation (BIP-173,
 * BIP-350, EIP-55, the CashAddr specification, the TON and Solana docs, the Bitcoin wiki) and
 * from well-known addresses (the USDT contract on Tron, Bitcoin's genesis address); `tronAddress`
 * makes further valid Tron addresses (base58check, version 0x41) for tests that need many.
 */
export const EXAMPLES = {
	TRC20: {
		valid: [
			'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
			'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
			'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
		],
		/** The hexadecimal form (TRON's docs): no checksum, so the service decides. */
		unsure: ['4189139CB1387AF85E3D24E212A008AC974967E561'],
		invalid: [
			'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
			'0x52908400098527886E0F7030069857D2E4169EE7',
			'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6',
			'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
		],
	},
	ERC20: {
		valid: [
			'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
			'0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
			'0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
			'0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
		],
		/** One case: no checksum, so the service decides. */
		unsure: [
			'0x52908400098527886e0f7030069857d2e4169ee7',
			'0x8617E340B3D01FA5F11F306F4090FD50E238070D',
		],
		invalid: [
			'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
			'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA',
			'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
			'5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
		],
	},
	SOL: {
		unsure: [
			'7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
			'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
			'11111111111111111111111111111111',
		],
		invalid: [
			'0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
			'1111111111111111111111111111111',
			'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10',
		],
	},
	TON: {
		valid: [
			'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF',
			'UQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPuwA',
			'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2',
		],
		/** The raw form and a testnet address: the service decides. */
		unsure: [
			'0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e',
			'0QAs9VlT6S776tq3unJcP5Ogsj-ELLunLXuOb1EKcOQi4-QO',
		],
		invalid: [
			'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHG',
			'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
			'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPr',
		],
	},
	BTC: {
		valid: [
			'1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
			'3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
			'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
			'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
			'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
		],
		/** Test networks: the service decides. */
		unsure: [
			'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
			'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn',
			'2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc',
		],
		invalid: [
			'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
			'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd',
			'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7',
			'bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du',
			'1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb',
			'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
		],
	},
	LTC: {
		valid: [
			'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
			'MQMcJhpWHYVeQArcZR3sBgyPZxxRtnH441',
			'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea',
		],
		unsure: ['tltc1qu78xur5xnq6fjy83amy0qcjfau8m367defyhms'],
		invalid: [
			'1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
			'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
			'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH8',
		],
	},
	DOGE: {
		valid: [
			'DPpJVPpvPNP6i6tMj4rTycAGh8wReTqaSU',
			'DNzLUN6MyYVS5zf4Xc2yK69V3dXs6Mxia5',
			'A7JjzK9k9x5b2MkkQzqt91WZsuu7wTu6iS',
		],
		invalid: [
			'DPpJVPpvPNP6i6tMj4rTycAGh8wReTqaSV',
			'1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
			'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
		],
	},
	BCH: {
		valid: [
			'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
			'bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq',
			'qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
			'1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu',
		],
		invalid: [
			'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6q',
			'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6',
			'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
			'DPpJVPpvPNP6i6tMj4rTycAGh8wReTqaSU',
		],
	},
} as const;

/** The chains of the networks that share Ethereum's addresses. */
export const EVM_NETWORKS = ['ERC20', 'BSC', 'BASE'] as const;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A valid Tron address made from a seed: base58check of 0x41 and 20 bytes of the seed's hash. */
export function tronAddress(seed: string): string {
	const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest();
	const body = Buffer.concat([Buffer.from([0x41]), sha(Buffer.from(seed)).subarray(0, 20)]);
	let value = BigInt(`0x${Buffer.concat([body, sha(sha(body)).subarray(0, 4)]).toString('hex')}`);
	let text = '';
	for (; value > 0n; value /= 58n) text = BASE58[Number(value % 58n)] + text;
	return text;
}
