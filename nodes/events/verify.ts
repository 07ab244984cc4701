import { createHash, timingSafeEqual } from 'node:crypto';
import { REDACTED } from '../service/redact';

/** Header that carries the static shared secret (docs/trigger.md, "Connect the trigger"). */
export const SECRET_HEADER = 'x-webhook-secret';

/** Headers whose values never reach the item when headers are included. */
const REDACTED_HEADERS = new Set([
	SECRET_HEADER,
	'authorization',
	'proxy-authorization',
	'cookie',
	'x-app-secret',
]);

/**
 * Compares the received secret header with the configured secret in constant time. Both sides
 * are hashed first, so neither the length nor the content of the secret leaks through timing.
 * Surrounding whitespace is ignored on both sides (a pasted secret often carries some).
 */
export function secretMatches(received: unknown, expected: string): boolean {
	const wanted = expected.trim();
	if (wanted === '' || typeof received !== 'string') return false;
	const digest = (text: string) => createHash('sha256').update(text).digest();
	return timingSafeEqual(digest(received.trim()), digest(wanted));
}

/** The credential's webhook secret; undefined when no credential or an empty secret is set. */
export function secretOf(credentials: { webhookSecret?: unknown } | undefined): string | undefined {
	const secret = String(credentials?.webhookSecret ?? '');
	return secret.trim() === '' ? undefined : secret;
}

/** A copy of the request headers with secret-bearing values replaced by `[redacted]`. */
export function redactHeaders(headers: unknown): Record<string, unknown> {
	if (!headers || typeof headers !== 'object') return {};
	const hidden = (name: string) => REDACTED_HEADERS.has(name.toLowerCase());
	return Object.fromEntries(
		Object.entries(headers).map(([name, value]) => [name, hidden(name) ? REDACTED : value]),
	);
}

// ---------------------------------------------------------------- IP addresses

type IpAddress = { version: 4; value: number } | { version: 6; value: bigint };

interface IpRange {
	version: 4 | 6;
	/** Network address (host bits cleared). */
	network: number | bigint;
	prefix: number;
	text: string;
}

interface AllowList {
	ranges: IpRange[];
	/** Entries that are neither an address nor a CIDR range. */
	invalid: string[];
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** `010.0.0.1`: some tools read a leading zero as octal (8.0.0.1), others as decimal, so it is refused. */
export function hasLeadingZeroOctet(text: string): boolean {
	const v4 = text.slice(text.lastIndexOf(':') + 1).split('/')[0];
	return v4.split('.').some((octet) => /^0\d/.test(octet));
}

function parseIpv4(text: string): number | undefined {
	const octets = IPV4.exec(text)?.slice(1);
	if (!octets || octets.some((octet) => /^0\d/.test(octet) || Number(octet) > 255))
		return undefined;
	return octets.reduce((value, octet) => value * 256 + Number(octet), 0);
}

function parseIpv6(text: string): bigint | undefined {
	if (text.length > 45 || !/^[0-9a-f:.]+$/.test(text)) return undefined;
	let body = text;
	// An embedded IPv4 tail (e.g. ::ffff:1.2.3.4) counts as two groups.
	let tail: number[] = [];
	const lastColon = body.lastIndexOf(':');
	if (body.includes('.')) {
		const v4 = parseIpv4(body.slice(lastColon + 1));
		if (v4 === undefined) return undefined;
		tail = [Math.floor(v4 / 65536), v4 % 65536];
		body = body.slice(0, lastColon + 1);
		if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
	}
	const halves = body.split('::').map((part) => (part === '' ? [] : part.split(':')));
	if (halves.length > 2 || halves.flat().some((group) => !/^[0-9a-f]{1,4}$/.test(group)))
		return undefined;
	const [head, rest = []] = halves.map((part) => part.map((group) => parseInt(group, 16)));
	const explicit = head.length + rest.length + tail.length;
	// With `::`, at least one group is left out (filled with zeros); without it, all eight are written.
	if (halves.length === 2 ? explicit > 7 : explicit !== 8) return undefined;
	const groups = [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
	return groups.reduce((value, group) => (value << BigInt(16)) + BigInt(group), BigInt(0));
}

const V4_MAPPED_PREFIX = BigInt('0xffff') << BigInt(32);
const LOW_32 = (BigInt(1) << BigInt(32)) - BigInt(1);

/**
 * Parses an IPv4 or IPv6 address. IPv4-mapped IPv6 (`::ffff:1.2.3.4`, as Node reports IPv4
 * callers on a dual-stack socket) becomes the plain IPv4 address. Brackets and zone ids are ignored.
 */
export function parseIp(input: unknown): IpAddress | undefined {
	if (typeof input !== 'string') return undefined;
	let text = input.trim().toLowerCase();
	if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
	text = text.split('%')[0];
	if (text === '') return undefined;
	const v4 = parseIpv4(text);
	if (v4 !== undefined) return { version: 4, value: v4 };
	if (!text.includes(':')) return undefined;
	const v6 = parseIpv6(text);
	if (v6 === undefined) return undefined;
	return v6 >> BigInt(32) === V4_MAPPED_PREFIX >> BigInt(32)
		? { version: 4, value: Number(v6 & LOW_32) }
		: { version: 6, value: v6 };
}

/** Canonical text of a parsed address (IPv4 dotted, IPv6 as eight lowercase groups). */
export function formatIp(ip: IpAddress): string {
	if (ip.version === 4)
		return [24, 16, 8, 0].map((shift) => Math.floor(ip.value / 2 ** shift) % 256).join('.');
	const groups = [7, 6, 5, 4, 3, 2, 1, 0].map((i) => (ip.value >> BigInt(i * 16)) & BigInt(0xffff));
	return groups.map((group) => group.toString(16)).join(':');
}

/** The network address of `ip` under a prefix (host bits cleared). */
function mask(ip: IpAddress, prefix: number): number | bigint {
	if (ip.version === 6) {
		const hostBits = BigInt(128 - prefix);
		return (ip.value >> hostBits) << hostBits;
	}
	const size = 2 ** (32 - prefix);
	return Math.floor(ip.value / size) * size;
}

function parseEntry(entry: string): IpRange | undefined {
	const slash = entry.indexOf('/');
	const address = parseIp(slash === -1 ? entry : entry.slice(0, slash));
	if (!address) return undefined;
	const max = address.version === 4 ? 32 : 128;
	let prefix = max;
	if (slash !== -1) {
		const bits = entry.slice(slash + 1).trim();
		if (!/^\d{1,3}$/.test(bits)) return undefined;
		prefix = Number(bits);
		// A mapped IPv6 range such as ::ffff:10.0.0.0/104 is an IPv4 range of prefix - 96.
		const mapped = address.version === 4 && entry.slice(0, slash).includes(':');
		if (mapped) {
			if (prefix < 96 || prefix > 128) return undefined;
			prefix -= 96;
		}
		if (prefix > max) return undefined;
	}
	return { version: address.version, network: mask(address, prefix), prefix, text: entry };
}

/**
 * Parses the "Allowed IPs" option: addresses or CIDR ranges (IPv4 and IPv6) separated by commas,
 * semicolons or whitespace. Exact matching only: `10.0.0.1` never matches `110.0.0.12`.
 */
export function parseAllowList(text: unknown): AllowList {
	const list: AllowList = { ranges: [], invalid: [] };
	if (typeof text !== 'string') return list;
	for (const raw of text.split(/[\s,;]+/)) {
		const entry = raw.trim();
		if (entry === '') continue;
		const range = parseEntry(entry);
		if (range) list.ranges.push(range);
		else list.invalid.push(entry);
	}
	return list;
}

/** Whether the allow list restricts anything (an empty option, or only separators, means "any source"). */
export function isAllowListSet(text: unknown): boolean {
	const list = parseAllowList(text);
	return list.ranges.length + list.invalid.length > 0;
}

export function isIpAllowed(ip: IpAddress | undefined, list: AllowList): boolean {
	if (!ip) return false;
	return list.ranges.some(
		(range) => range.version === ip.version && mask(ip, range.prefix) === range.network,
	);
}
