import { createHash } from 'node:crypto';

/**
 * The encodings and checksums of payout addresses (a verified node has no runtime dependencies):
 * SHA-256 from `node:crypto` (base58check); by hand, what Node does not give: Keccak-256 (EIP-55:
 * Ethereum's original padding, not SHA3-256's, which is all `node:crypto` has), base58,
 * bech32 and bech32m (BIP-173, BIP-350), CashAddr (Bitcoin Cash) and CRC-16/XMODEM (TON). Which
 * chain uses which is in ./addresses.ts (docs/addresses.md).
 */

const sha256 = (message: Uint8Array): Uint8Array => createHash('sha256').update(message).digest();

const MASK64 = (1n << 64n) - 1n;
/** The 24 round constants, from Keccak's 8-bit LFSR (x^8 + x^6 + x^5 + x^4 + 1; FIPS 202, rc(t)). */
const KECCAK_RC: bigint[] = [];
for (let round = 0, lfsr = 1; round < 24; round++) {
	let rc = 0n;
	for (let j = 0; j < 7; j++) {
		if (lfsr & 1) rc |= 1n << BigInt((1 << j) - 1);
		lfsr = lfsr & 0x80 ? ((lfsr << 1) ^ 0x71) & 0xff : lfsr << 1;
	}
	KECCAK_RC.push(rc);
}
/** Rotation of lane x + 5y. */
const KECCAK_ROTATION = [
	0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

function rotl64(value: bigint, by: number): bigint {
	return by === 0 ? value : ((value << BigInt(by)) | (value >> BigInt(64 - by))) & MASK64;
}

function keccakF(state: bigint[]): void {
	const b = new Array<bigint>(25).fill(0n);
	for (const rc of KECCAK_RC) {
		const c = [0, 1, 2, 3, 4].map(
			(x) => state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20],
		);
		for (let x = 0; x < 5; x++) {
			const d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
			for (let y = 0; y < 25; y += 5) state[x + y] ^= d;
		}
		for (let x = 0; x < 5; x++) {
			for (let y = 0; y < 5; y++)
				b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl64(state[x + 5 * y], KECCAK_ROTATION[x + 5 * y]);
		}
		for (let x = 0; x < 5; x++) {
			for (let y = 0; y < 25; y += 5)
				state[x + y] = b[x + y] ^ (~b[((x + 1) % 5) + y] & MASK64 & b[((x + 2) % 5) + y]);
		}
		state[0] ^= rc;
	}
}

/** Keccak-256 as Ethereum uses it (the original padding, not SHA3-256's). */
export function keccak256(message: Uint8Array): Uint8Array {
	const rate = 136;
	const padded = new Uint8Array(Math.floor(message.length / rate) * rate + rate);
	padded.set(message);
	padded[message.length] ^= 0x01;
	padded[padded.length - 1] ^= 0x80;
	const state = new Array<bigint>(25).fill(0n);
	for (let offset = 0; offset < padded.length; offset += rate) {
		for (let lane = 0; lane < rate / 8; lane++) {
			let value = 0n;
			for (let byte = 7; byte >= 0; byte--)
				value = (value << 8n) | BigInt(padded[offset + lane * 8 + byte]);
			state[lane] ^= value;
		}
		keccakF(state);
	}
	const out = new Uint8Array(32);
	for (let i = 0; i < 32; i++) out[i] = Number((state[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn);
	return out;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The bytes of base58 text (leading 1s are zero bytes); undefined for a character outside the alphabet. */
export function base58Decode(text: string): Uint8Array | undefined {
	const bytes: number[] = [];
	for (const char of text) {
		let carry = BASE58.indexOf(char);
		if (carry < 0) return undefined;
		for (let i = 0; i < bytes.length; i++) {
			carry += bytes[i] * 58;
			bytes[i] = carry & 0xff;
			carry >>= 8;
		}
		for (; carry > 0; carry >>= 8) bytes.push(carry & 0xff);
	}
	const zeros = /^1*/.exec(text)?.[0].length ?? 0;
	return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes.reverse()]);
}

/** Base58check: the payload (version byte first) when its last four bytes are its double SHA-256's first four. */
export function base58CheckDecode(
	text: string,
): { payload: Uint8Array } | { error: 'alphabet' | 'checksum' } {
	const bytes = base58Decode(text);
	if (!bytes) return { error: 'alphabet' };
	if (bytes.length < 5) return { error: 'checksum' };
	const payload = bytes.slice(0, -4);
	const check = sha256(sha256(payload));
	return bytes.slice(-4).every((byte, i) => byte === check[i])
		? { payload }
		: { error: 'checksum' };
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;

function bech32Polymod(values: number[]): number {
	const generator = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
	let chk = 1;
	for (const value of values) {
		const top = chk >>> 25;
		chk = (((chk & 0x1ffffff) << 5) ^ value) >>> 0;
		for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ generator[i]) >>> 0;
	}
	return chk;
}

/** 5-bit groups to bytes (BIP-173's convertbits without padding): undefined when the padding is not zero bits under 5. */
export function fiveToEight(data: number[]): number[] | undefined {
	let acc = 0;
	let bits = 0;
	const out: number[] = [];
	for (const value of data) {
		acc = (acc << 5) | value;
		bits += 5;
		while (bits >= 8) {
			bits -= 8;
			out.push((acc >> bits) & 0xff);
		}
		acc &= (1 << bits) - 1;
	}
	return bits >= 5 || acc !== 0 ? undefined : out;
}

type Bech32 = { hrp: string; data: number[]; variant: 'bech32' | 'bech32m' };

/** A bech32 or bech32m string (BIP-173, BIP-350): its human-readable part and data, checksum removed. */
export function bech32Decode(text: string): Bech32 | { error: 'form' | 'checksum' } {
	if (text.length > 90 || (text !== text.toLowerCase() && text !== text.toUpperCase()))
		return { error: 'form' };
	const lower = text.toLowerCase();
	const separator = lower.lastIndexOf('1');
	if (separator < 1 || separator + 7 > lower.length) return { error: 'form' };
	const hrp = lower.slice(0, separator);
	const data = [...lower.slice(separator + 1)].map((char) => BECH32.indexOf(char));
	if (data.some((value) => value < 0)) return { error: 'form' };
	const expanded = [
		...[...hrp].map((c) => c.charCodeAt(0) >> 5),
		0,
		...[...hrp].map((c) => c.charCodeAt(0) & 31),
	];
	const check = bech32Polymod([...expanded, ...data]);
	const variant =
		check === BECH32_CONST ? 'bech32' : check === BECH32M_CONST ? 'bech32m' : undefined;
	return variant ? { hrp, data: data.slice(0, -6), variant } : { error: 'checksum' };
}

function cashAddrPolymod(values: number[]): bigint {
	const generator = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];
	let c = 1n;
	for (const value of values) {
		const top = c >> 35n;
		c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(value);
		for (let i = 0; i < 5; i++) if ((top >> BigInt(i)) & 1n) c ^= generator[i];
	}
	return c ^ 1n;
}

/**
 * A CashAddr (Bitcoin Cash) under this prefix: its payload bytes (version byte first) when the
 * checksum holds. The prefix may be written or left out.
 */
export function cashAddrDecode(
	text: string,
	prefix: string,
): { payload: number[] } | { error: 'form' | 'checksum' } {
	if (text !== text.toLowerCase() && text !== text.toUpperCase()) return { error: 'form' };
	const lower = text.toLowerCase();
	const colon = lower.indexOf(':');
	if (colon >= 0 && lower.slice(0, colon) !== prefix) return { error: 'form' };
	const body = colon >= 0 ? lower.slice(colon + 1) : lower;
	const data = [...body].map((char) => BECH32.indexOf(char));
	if (body.length < 9 || data.some((value) => value < 0)) return { error: 'form' };
	if (cashAddrPolymod([...[...prefix].map((c) => c.charCodeAt(0) & 31), 0, ...data]) !== 0n)
		return { error: 'checksum' };
	const payload = fiveToEight(data.slice(0, -8));
	return payload ? { payload } : { error: 'form' };
}

/** Base64 or base64url text to bytes; undefined for anything else. */
export function base64Decode(text: string): Uint8Array | undefined {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	const normal = text.replace(/-/g, '+').replace(/_/g, '/');
	if (!/^[A-Za-z0-9+/]*$/.test(normal) || normal.length % 4 !== 0) return undefined;
	const out: number[] = [];
	for (let i = 0; i < normal.length; i += 4) {
		const n = [...normal.slice(i, i + 4)].reduce(
			(acc, char) => (acc << 6) | alphabet.indexOf(char),
			0,
		);
		out.push((n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
	}
	return Uint8Array.from(out);
}

/** CRC-16/XMODEM (polynomial 0x1021, initial 0), the checksum of TON's user-friendly addresses. */
export function crc16(bytes: Uint8Array): number {
	let crc = 0;
	for (const byte of bytes) {
		crc ^= byte << 8;
		for (let bit = 0; bit < 8; bit++)
			crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
	}
	return crc;
}
