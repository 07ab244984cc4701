/**
 * Fixed demo data of the sandbox: deposit assets (testnet identifiers), banks, withdrawal tokens
 * with their fees, demo prices and rates, and address formats.
 */
import { createHash, randomBytes } from 'node:crypto';

import { NETWORKS_BY_TOKEN, STABLECOINS, TOKENS } from '../../nodes/service/catalog';

export function isStablecoin(token: unknown): token is (typeof STABLECOINS)[number] {
	return (STABLECOINS as readonly unknown[]).includes(token);
}
import type { Bank, DepositAsset } from './types';

/**
 * Images and block-explorer links of the fake data point at no real vendor: images are small
 * inline SVGs, explorer links a local placeholder that nothing serves.
 */
export function imageOf(label: string): string {
	const text = label
		.slice(0, 4)
		.toUpperCase()
		.replace(/[^A-Z0-9]/g, '');
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><circle cx="16" cy="16" r="16" fill="#6b7280"/><text x="16" y="20" font-size="9" text-anchor="middle" fill="#fff">${text}</text></svg>`;
	return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
const explorer = (chain: string) => `http://localhost/sandbox-explorer/${chain}/tx/`;

/** Local currency per USD (the sell rate before markup). */
export const SELL_RATE = { NGN: 1500, GHS: 15 } as const;

/** Demo USD price per unit, by symbol. */
export const PRICES_USD: Readonly<Record<string, number>> = {
	BTC: 60000,
	ETH: 3000,
	SOL: 150,
	TRX: 0.12,
	LTC: 80,
	DOGE: 0.15,
	BCH: 400,
	USDT: 1,
	USDC: 1,
};

/** Withdrawal bounds in USD (docs/api.md). */
export const WITHDRAWAL_LIMITS = { minimum: 5, maximum: 100000 } as const;

/** Flat stablecoin fee per network, USD (docs/api.md). */
export const NETWORK_FEES_USD: Readonly<Record<string, number>> = {
	ERC20: 5,
	TRC20: 1.5,
	BSC: 0.5,
	SOL: 0.5,
	TON: 0.3,
	BASE: 0.2,
};

/** UTXO fee per level, USD (quoted by POST /payments/estimate-network-fee). */
export const UTXO_FEES_USD: Readonly<Record<string, Record<'low' | 'medium' | 'high', number>>> = {
	BTC: { low: 2, medium: 4, high: 7 },
	LTC: { low: 0.05, medium: 0.1, high: 0.2 },
	DOGE: { low: 0.1, medium: 0.25, high: 0.5 },
	BCH: { low: 0.02, medium: 0.05, high: 0.1 },
};

/** Flat fee of a bank payout, in the bank's currency. */
export const BANK_FEES = { ngn: 50, ghs: 2 } as const;

/** Swap rate: NGN per GHS, derived from the sell rates. */
export function swapRate(from: 'ngn' | 'ghs', to: 'ngn' | 'ghs'): number {
	const perUsd = { ngn: SELL_RATE.NGN, ghs: SELL_RATE.GHS };
	return perUsd[to] / perUsd[from];
}

export function depositAssets(): DepositAsset[] {
	const asset = (
		id: string,
		name: string,
		identifier: string,
		symbol: string,
		type: 'BASE_ASSET' | 'ERC20',
		isAccountBased: boolean,
		network: string,
		confirmations: number,
		minimum: number,
		txLink: string,
	): DepositAsset => ({
		id,
		name,
		identifier,
		symbol,
		icon: imageOf(identifier),
		txLink,
		minimum,
		flagFeeUSD: 1,
		type,
		isAccountBased,
		network,
		confirmations,
		rate: { NGN: SELL_RATE.NGN, GHS: SELL_RATE.GHS },
	});
	return [
		asset(
			'64f1a2b3c4d5e6f7a8b9c0d1',
			'Solana (Devnet)',
			'SOL_TEST',
			'SOL',
			'BASE_ASSET',
			true,
			'Solana Devnet',
			1,
			5,
			explorer('solana'),
		),
		asset(
			'64f1a2b3c4d5e6f7a8b9c0d2',
			'Tron (Shasta)',
			'TRX_TEST',
			'TRX',
			'BASE_ASSET',
			true,
			'Tron Shasta',
			19,
			5,
			explorer('tron-shasta'),
		),
		asset(
			'64f1a2b3c4d5e6f7a8b9c0d3',
			'Tether USD (Tron Shasta)',
			'USDT_TRX_TEST',
			'USDT',
			'ERC20',
			true,
			'Tron Shasta',
			19,
			10,
			explorer('tron-shasta'),
		),
		asset(
			'64f1a2b3c4d5e6f7a8b9c0d4',
			'USD Coin (Solana Devnet)',
			'USDC_SOL_TEST',
			'USDC',
			'ERC20',
			true,
			'Solana Devnet',
			1,
			10,
			explorer('solana'),
		),
		asset(
			'64f1a2b3c4d5e6f7a8b9c0d5',
			'Bitcoin (Testnet)',
			'BTC_TEST',
			'BTC',
			'BASE_ASSET',
			false,
			'Bitcoin Testnet',
			2,
			20,
			explorer('bitcoin-testnet'),
		),
		asset(
			'64f1a2b3c4d5e6f7a8b9c0d6',
			'Ethereum (Sepolia)',
			'ETH_TEST',
			'ETH',
			'BASE_ASSET',
			true,
			'Ethereum Sepolia',
			12,
			10,
			explorer('ethereum-sepolia'),
		),
	];
}

export function banks(): Bank[] {
	const bank = (id: string, name: string, currency: 'ngn' | 'ghs', type: string): Bank => {
		const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
		return {
			id,
			name,
			slug,
			country: currency === 'ngn' ? 'NG' : 'GH',
			currency,
			type,
			avatar: imageOf(slug),
		};
	};
	return [
		bank('39', 'Access Bank', 'ngn', 'nuban'),
		bank('44', 'Guaranty Trust Bank', 'ngn', 'nuban'),
		bank('50', 'First Bank of Nigeria', 'ngn', 'nuban'),
		bank('58', 'Zenith Bank', 'ngn', 'nuban'),
		bank('201', 'Kuda Microfinance Bank', 'ngn', 'nuban'),
		bank('301', 'GCB Bank', 'ghs', 'ghipss'),
		bank('302', 'Ecobank Ghana', 'ghs', 'ghipss'),
		bank('303', 'MTN Mobile Money', 'ghs', 'mobile_money'),
	];
}

/** Withdrawal-assets info (docs/api.md). */
export function withdrawalAssetsInfo(): Record<string, unknown> {
	const avatar = (name: string) => imageOf(name);
	return {
		tokens: TOKENS.map((symbol) =>
			isStablecoin(symbol)
				? {
						symbol,
						enabled: true,
						avatar: avatar(symbol),
						networks: NETWORKS_BY_TOKEN[symbol].map((network) => ({
							network,
							enabled: true,
							avatar: avatar(network),
							fee: NETWORK_FEES_USD[network],
						})),
						isTestnet: true,
					}
				: {
						symbol,
						enabled: true,
						avatar: avatar(symbol),
						networks: [],
						fee: null,
						isTestnet: true,
					},
		),
		limits: { minimum: WITHDRAWAL_LIMITS.minimum, maximum: WITHDRAWAL_LIMITS.maximum },
		rate: SELL_RATE.NGN,
	};
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function randomFrom(alphabet: string, length: number): string {
	const bytes = randomBytes(length);
	let out = '';
	for (const byte of bytes) out += alphabet[byte % alphabet.length];
	return out;
}

/** A fresh deposit address in the format of the asset's chain. */
export function generateDepositAddress(asset: DepositAsset): string {
	switch (asset.identifier) {
		case 'TRX_TEST':
		case 'USDT_TRX_TEST':
			return `T${randomFrom(BASE58_ALPHABET, 33)}`;
		case 'BTC_TEST':
			return `tb1q${randomFrom(BECH32_ALPHABET, 38)}`;
		case 'ETH_TEST':
			return `0x${randomBytes(20).toString('hex')}`;
		default:
			return randomFrom(BASE58_ALPHABET, 44);
	}
}

const HOLDER_NAMES = [
	'ADAEZE OKONKWO',
	'CHINEDU EZE',
	'KWAME MENSAH',
	'AMA OWUSU',
	'TUNDE BAKARE',
	'FATIMA BELLO',
	'KOFI BOATENG',
	'NGOZI ADEYEMI',
];

/**
 * Resolves an account number at a bank. Numbers made only of zeros cannot be resolved
 * (a way to exercise the failure case); NGN needs 10 digits (NUBAN), GHS 8 to 16.
 */
export function resolveAccount(
	bank: Bank,
	accountNumber: string,
):
	| { ok: true; accountName: string; type: string }
	| { ok: false; reason: 'format' | 'unresolved' } {
	const format = bank.currency === 'ngn' ? /^\d{10}$/ : /^\d{8,16}$/;
	if (!format.test(accountNumber)) return { ok: false, reason: 'format' };
	if (/^0+$/.test(accountNumber)) return { ok: false, reason: 'unresolved' };
	const digest = createHash('sha256').update(`${bank.id}:${accountNumber}`).digest();
	return { ok: true, accountName: HOLDER_NAMES[digest[0] % HOLDER_NAMES.length], type: bank.type };
}

/** "2158421234" -> "215842XXXX" (docs/api.md). */
export function maskAccountNumber(accountNumber: string): string {
	const visible = Math.min(6, Math.max(0, accountNumber.length - 4));
	return accountNumber.slice(0, visible) + 'X'.repeat(accountNumber.length - visible);
}

export function round(value: number, decimals: number): number {
	const factor = 10 ** decimals;
	return Math.round((value + Number.EPSILON) * factor) / factor;
}
