/**
 * How the service judges request bodies, written here from the specification (docs/api.md, "Field
 * rules" and "Envelope"), with its messages: never with the node's checks (fields/rules.ts), so a
 * rule the node gets wrong is refused here instead of copied (fake-api/test/judges-for-itself.test.ts).
 * Only the facts (tokens, networks per token, limits) come from the shared catalog.
 */
import { createHash } from 'node:crypto';
import {
	FEE_LEVELS,
	FIAT_CURRENCIES,
	MARKUP_MAX,
	MARKUP_MIN,
	NARRATION_MAX_LENGTH,
	NETWORKS_BY_TOKEN,
	TOKENS,
	USD_DECIMALS,
	CRYPTO_DECIMALS,
} from '../../../nodes/service/catalog';
import type { Violation } from '../http';

export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

export function requiredString(field: string, value: unknown): Violation[] {
	if (isBlank(value)) return required(field, value);
	return typeof value === 'string' ? [] : [{ field, message: `${field} must be a string`, value }];
}

/** A required string where a number is taken as its digits (the PIN, a bank id). */
export function requiredText(field: string, value: unknown): Violation[] {
	return requiredString(field, typeof value === 'number' ? String(value) : value);
}

export function optionalString(field: string, value: unknown): Violation[] {
	return value === undefined || value === null || typeof value === 'string'
		? []
		: [{ field, message: `${field} must be a string`, value }];
}

export function optionalBoolean(field: string, value: unknown): Violation[] {
	return value === undefined || value === null || typeof value === 'boolean'
		? []
		: [{ field, message: `${field} must be a boolean`, value }];
}

/** A required positive amount with at most `decimals` decimals. */
export function requiredAmount(field: string, value: unknown, decimals: number): Violation[] {
	return isBlank(value) ? required(field, value) : positiveAmount(field, value, decimals);
}

/** The trimmed string, or undefined when blank or not a string. */
export function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function required(field: string, value: unknown): Violation[] {
	return isBlank(value) ? [{ field, message: `${field} is required`, value }] : [];
}

export function oneOf(field: string, value: unknown, allowed: readonly string[]): Violation[] {
	if (isBlank(value)) return required(field, value);
	return allowed.includes(value as string)
		? []
		: [{ field, message: `${field} must be one of ${allowed.join(', ')}`, value }];
}

/** A JSON number, or the digits of one (the service reads numeric text too); undefined otherwise. */
export function numberOf(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	return typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)
		? Number(value)
		: undefined;
}

/** Decimal places as written (numeric text) or as JavaScript writes the number (1.5e-7 has 8). */
function decimalsOf(value: unknown): number {
	const written = typeof value === 'number' ? String(value) : String(value).trim();
	const [mantissa, exponent = '0'] = written.toLowerCase().split('e');
	const fraction = (mantissa.split('.')[1] ?? '').replace(/0+$/, '');
	return Math.max(0, fraction.length - Number(exponent));
}

/** The spec's number rules, each reported on its own as the service does (docs/api.md, "Envelope"). */
export function positiveAmount(field: string, value: unknown, decimals: number): Violation[] {
	const number = numberOf(value);
	if (number === undefined) return [{ field, message: `${field} must be a number`, value }];
	const violations: Violation[] = [];
	if (number <= 0) violations.push({ field, message: `${field} must be greater than 0`, value });
	if (decimalsOf(value) > decimals)
		violations.push({
			field,
			message: `${field} must have at most ${decimals} decimal places`,
			value,
		});
	return violations;
}

/**
 * Token, network and fee level (docs/api.md, "Field rules"): a stablecoin needs one of its own
 * networks, a UTXO coin takes no network and a fee level instead (optional where only quoted).
 */
export function tokenNetworkFee(
	body: Record<string, unknown>,
	feeLevel: 'required' | 'optional',
): Violation[] {
	const tokenViolations = oneOf('token', body.token, TOKENS);
	if (tokenViolations.length) return tokenViolations;
	const token = body.token as string;
	const networks = (NETWORKS_BY_TOKEN as Record<string, readonly string[] | undefined>)[token];
	if (networks) {
		if (isBlank(body.network))
			return [{ field: 'network', message: 'network is required', value: body.network }];
		return networks.includes(body.network as string)
			? []
			: [
					{
						field: 'network',
						message: `${token} is not supported on ${String(body.network)}`,
						value: body.network,
					},
				];
	}
	const violations: Violation[] = isBlank(body.network)
		? []
		: [{ field: 'network', message: `${token} does not support a network`, value: body.network }];
	if (feeLevel === 'required' || !isBlank(body.feeLevel))
		violations.push(...oneOf('feeLevel', body.feeLevel, FEE_LEVELS));
	return violations;
}

/** `amount` (USD) or `cryptoAmount`, never both; neither yields the spec's eight entries. */
export function withdrawalAmount(body: Record<string, unknown>): Violation[] {
	const hasAmount = !isBlank(body.amount);
	const hasCrypto = !isBlank(body.cryptoAmount);
	if (hasAmount && hasCrypto)
		return [
			{
				field: 'amount',
				message: 'send either amount or cryptoAmount, not both',
				value: body.amount,
			},
		];
	if (hasAmount) return positiveAmount('amount', body.amount, USD_DECIMALS);
	if (hasCrypto) return positiveAmount('cryptoAmount', body.cryptoAmount, CRYPTO_DECIMALS);
	return (
		[
			['amount', USD_DECIMALS],
			['cryptoAmount', CRYPTO_DECIMALS],
		] as const
	).flatMap(([field, decimals]) => [
		{ field, message: 'either amount or cryptoAmount is required' },
		{ field, message: `${field} must be a number` },
		{ field, message: `${field} must be greater than 0` },
		{ field, message: `${field} must have at most ${decimals} decimal places` },
	]);
}

export function narration(value: unknown): Violation[] {
	if (value === undefined || value === null || value === '') return [];
	if (typeof value !== 'string')
		return [{ field: 'narration', message: 'narration must be a string', value }];
	return value.length > NARRATION_MAX_LENGTH
		? [
				{
					field: 'narration',
					message: `narration must be at most ${NARRATION_MAX_LENGTH} characters`,
					value,
				},
			]
		: [];
}

export function markupPercent(value: unknown): Violation[] {
	if (isBlank(value)) return required('markupPercent', value);
	const number = numberOf(value);
	if (number === undefined)
		return [{ field: 'markupPercent', message: 'markupPercent must be a number', value }];
	return number < MARKUP_MIN || number > MARKUP_MAX
		? [
				{
					field: 'markupPercent',
					message: `markupPercent must be between ${MARKUP_MIN} and ${MARKUP_MAX}`,
					value,
				},
			]
		: [];
}

/** A swap: an amount in `from`, and `from` and `to` two different fiat currencies. */
export function swap(body: Record<string, unknown>): Violation[] {
	const violations = [
		...requiredAmount('amount', body.amount, USD_DECIMALS),
		...oneOf('from', body.from, FIAT_CURRENCIES),
		...oneOf('to', body.to, FIAT_CURRENCIES),
	];
	if (!violations.length && body.from === body.to)
		violations.push({
			field: 'to',
			message: 'from and to must be different currencies',
			value: body.to,
		});
	return violations;
}

/*
 * Payout addresses (docs/api.md: the service's address check is a format check only; docs/addresses.md lists each chain's forms).
 * The service's own judge, written here from each chain's documentation: base58check (Tron, and
 * the legacy addresses of BTC, LTC, DOGE, BCH), bech32/bech32m (segwit), CashAddr (BCH), TON's
 * user-friendly form with its CRC-16, Solana's 32-byte keys. Like many services it takes an EVM
 * address in any case (no EIP-55 check), and test-network forms (the sandbox pays on test chains).
 */
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function fromBase58(text: string): Buffer | undefined {
	if (!/^[1-9A-HJ-NP-Za-km-z]+$/.test(text)) return undefined;
	let value = 0n;
	for (const char of text) value = value * 58n + BigInt(B58.indexOf(char));
	const hex = value === 0n ? '' : value.toString(16);
	const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
	const leadingOnes = text.length - text.replace(/^1+/, '').length;
	return Buffer.concat([Buffer.alloc(leadingOnes), body]);
}

/** The version byte of a 25-byte base58check address whose checksum holds; undefined otherwise. */
function base58CheckVersion(text: string): number | undefined {
	const bytes = fromBase58(text);
	if (!bytes || bytes.length !== 25) return undefined;
	const once = createHash('sha256').update(bytes.subarray(0, 21)).digest();
	const twice = createHash('sha256').update(once).digest();
	return twice.subarray(0, 4).equals(bytes.subarray(21)) ? bytes[0] : undefined;
}

/** A segwit address under one of these prefixes (BIP-173 and BIP-350). */
function isSegwit(text: string, prefixes: string[]): boolean {
	if (text !== text.toLowerCase() && text !== text.toUpperCase()) return false;
	const lower = text.toLowerCase();
	const cut = lower.lastIndexOf('1');
	const prefix = lower.slice(0, cut);
	const values = [...lower.slice(cut + 1)].map((char) => B32.indexOf(char));
	if (!prefixes.includes(prefix) || values.length < 7 || values.includes(-1) || lower.length > 90)
		return false;
	let checksum = 1;
	const feed = (value: number) => {
		const top = checksum >>> 25;
		checksum = (((checksum & 0x1ffffff) << 5) ^ value) >>> 0;
		[0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3].forEach((g, bit) => {
			if ((top >>> bit) & 1) checksum = (checksum ^ g) >>> 0;
		});
	};
	for (const char of prefix) feed(char.charCodeAt(0) >> 5);
	feed(0);
	for (const char of prefix) feed(char.charCodeAt(0) & 31);
	values.forEach(feed);
	const version = values[0];
	const programBits = (values.length - 7) * 5;
	const programBytes = Math.floor(programBits / 8);
	if (version > 16 || programBits - programBytes * 8 > 4 || programBytes < 2 || programBytes > 40)
		return false;
	if (version === 0) return checksum === 1 && (programBytes === 20 || programBytes === 32);
	return checksum === 0x2bc830a3;
}

/** A CashAddr, with or without its prefix (bitcoincash, or bchtest on the test network). */
function isCashAddr(text: string): boolean {
	if (text !== text.toLowerCase() && text !== text.toUpperCase()) return false;
	const lower = text.toLowerCase();
	const [prefixes, body] = lower.includes(':')
		? [[lower.split(':')[0]], lower.split(':')[1]]
		: [['bitcoincash', 'bchtest'], lower];
	const values = [...body].map((char) => B32.indexOf(char));
	if (!/^[qp]/.test(body) || values.includes(-1) || body.length !== 42) return false;
	return prefixes.some((prefix) => {
		let c = 1n;
		for (const value of [...[...prefix].map((char) => char.charCodeAt(0) & 31), 0, ...values]) {
			const top = c >> 35n;
			c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(value);
			[0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n].forEach(
				(g, bit) => {
					if ((top >> BigInt(bit)) & 1n) c ^= g;
				},
			);
		}
		return ['bitcoincash', 'bchtest'].includes(prefix) && (c ^ 1n) === 0n;
	});
}

/** TON: the raw form, or the 48-character form whose last two bytes are the CRC-16/XMODEM of the rest. */
function isTon(text: string): boolean {
	if (/^-?[01]:[0-9a-fA-F]{64}$/.test(text)) return true;
	if (!/^[A-Za-z0-9_+/-]{48}$/.test(text)) return false;
	const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
	let crc = 0;
	for (const byte of bytes.subarray(0, 34)) {
		crc ^= byte << 8;
		for (let bit = 0; bit < 8; bit++)
			crc = (crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1) & 0xffff;
	}
	return (
		bytes.length === 36 && bytes.readUInt16BE(34) === crc && [0x11, 0x51].includes(bytes[0] & 0x7f)
	);
}

/** Base58check version bytes per coin: main network, then test networks. */
const VERSIONS: Record<string, number[]> = {
	BTC: [0x00, 0x05, 0x6f, 0xc4],
	BCH: [0x00, 0x05, 0x6f, 0xc4],
	LTC: [0x30, 0x32, 0x05, 0x6f, 0x3a, 0xc4],
	DOGE: [0x1e, 0x16, 0x71, 0xc4],
};
const SEGWIT_PREFIXES: Record<string, string[]> = {
	BTC: ['bc', 'tb', 'bcrt'],
	LTC: ['ltc', 'tltc', 'rltc'],
};

/** Whether the address has a form of the token's chain (the network's, for a stablecoin). */
export function isWalletAddress(address: unknown, token: unknown, network: unknown): boolean {
	if (typeof address !== 'string' || typeof token !== 'string') return false;
	const stable = (NETWORKS_BY_TOKEN as Record<string, readonly string[] | undefined>)[token];
	if (stable && (typeof network !== 'string' || !stable.includes(network))) return false;
	const chain = stable ? (network as string) : token;
	switch (chain) {
		case 'ERC20':
		case 'BSC':
		case 'BASE':
			return /^0x[0-9a-fA-F]{40}$/.test(address);
		case 'TRC20':
			// Base58 (T…), or the hexadecimal form that TRON's API documentation also uses (41…).
			return base58CheckVersion(address) === 0x41 || /^41[0-9a-fA-F]{40}$/.test(address);
		case 'SOL':
			return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address) && fromBase58(address)?.length === 32;
		case 'TON':
			return isTon(address);
		default: {
			const version = base58CheckVersion(address);
			if (version !== undefined && (VERSIONS[chain] ?? []).includes(version)) return true;
			if (chain === 'BCH') return isCashAddr(address);
			return isSegwit(address, SEGWIT_PREFIXES[chain] ?? []);
		}
	}
}
