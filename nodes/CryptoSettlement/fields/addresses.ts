/**
 * The form of a payout address on each network, checked for every row of a batch before any payment is
 * sent: `valid`, `invalid`, or `unsure` for the service's own check to decide (docs/addresses.md).
 */
import {
	base58CheckDecode,
	base58Decode,
	base64Decode,
	bech32Decode,
	cashAddrDecode,
	crc16,
	fiveToEight,
	keccak256,
} from './addressCodecs';
import { isStablecoin, violation, type Violation } from './rules';

/** `production`: why a Production credential refuses the address (a test network's form, or a form without checksum that has one with). */
type AddressVerdict =
	| { verdict: 'valid' }
	| { verdict: 'invalid'; why: string }
	| { verdict: 'unsure'; why: string; production?: string };

const VALID: AddressVerdict = { verdict: 'valid' };
const unsure = (why: string, production?: string): AddressVerdict => ({
	verdict: 'unsure',
	why,
	...(production ? { production } : {}),
});
const invalid = (why: string): AddressVerdict => ({ verdict: 'invalid', why });
const MISTYPED = 'its checksum does not match (a character is mistyped)';
/** A test network's address: the service decides in the Sandbox; a Production credential refuses it. */
const testnet = (why: string): AddressVerdict =>
	unsure(
		why,
		`${why}, and this credential moves real money: pay a main network address, or use a Sandbox credential for test networks`,
	);

/** What an address of each chain looks like, in the words of the refusal. */
const FORM: Readonly<Record<string, string>> = {
	TRC20: 'a TRC20 (Tron) address starts with T and has 34 characters (base58, with a checksum)',
	EVM: '0x followed by 40 hexadecimal characters (in mixed case, its EIP-55 checksum must match)',
	SOL: 'a SOL (Solana) address is 32 to 44 base58 characters (a 32-byte key)',
	TON: 'a TON address has 48 characters, such as EQ… or UQ… (with a checksum), or the raw form 0:<64 hexadecimal characters>',
	BTC: 'a BTC address starts with 1 or 3 (base58, with a checksum) or bc1 (bech32, with a checksum)',
	LTC: 'an LTC address starts with L, M or 3 (base58, with a checksum) or ltc1 (bech32, with a checksum)',
	DOGE: 'a DOGE address starts with D, A or 9 (base58, with a checksum)',
	BCH: 'a BCH address is a CashAddr such as bitcoincash:q… or p… (with a checksum), or a legacy address starting with 1 or 3',
};

/** Forms of other chains, to say what was probably pasted ("an Ethereum-style (0x…) address"). */
const LOOKS_LIKE: Array<{ chains: string[]; form: RegExp; name: string }> = [
	{
		chains: ['ERC20', 'BSC', 'BASE'],
		form: /^0x[0-9a-fA-F]{40}$/,
		name: 'an Ethereum-style (0x…) address, as used on ERC20, BSC and BASE',
	},
	{ chains: ['TRC20'], form: /^T[1-9A-HJ-NP-Za-km-z]{33}$/, name: 'a TRC20 (Tron) address' },
	{ chains: ['TON'], form: /^(EQ|UQ|Ef|Uf|kQ|0Q)[A-Za-z0-9_+/-]{46}$/, name: 'a TON address' },
	{ chains: ['BTC'], form: /^(bc1|tb1)/i, name: 'a Bitcoin (bc1…) address' },
	{ chains: ['LTC'], form: /^(ltc1|tltc1)/i, name: 'a Litecoin (ltc1…) address' },
	{ chains: ['BCH'], form: /^(bitcoincash|bchtest):/i, name: 'a Bitcoin Cash address' },
];

/** The reason for a refusal: what the address seems to be instead (another chain's form), and the form expected. */
function refusal(chain: string, form: string, address: string, problem?: string): AddressVerdict {
	const seems = LOOKS_LIKE.find(
		(other) => !other.chains.includes(chain) && other.form.test(address),
	);
	return invalid(
		`${problem ?? (seems ? `it looks like ${seems.name}` : 'it does not have that form')}; ${form}`,
	);
}

/** 0x and 40 hex digits; mixed case is an EIP-55 checksum, checked; one case carries none. */
function evm(address: string, chain: string): AddressVerdict {
	const form = `${chain} address is ${FORM.EVM}`;
	if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return refusal('ERC20', form, address);
	const hex = address.slice(2);
	if (hex === hex.toLowerCase() || hex === hex.toUpperCase())
		return unsure('written in one case, it carries no checksum');
	const hash = keccak256(Uint8Array.from([...hex.toLowerCase()].map((c) => c.charCodeAt(0))));
	// EIP-55: a letter is upper case exactly where its nibble of the hash is 8 or more.
	const wrongCase = [...hex].some((char, i) => {
		const nibble = (hash[i >> 1] >> (i % 2 ? 0 : 4)) & 0xf;
		return /[a-fA-F]/.test(char) && /[A-F]/.test(char) !== nibble >= 8;
	});
	if (!wrongCase) return VALID;
	return refusal(
		'ERC20',
		form,
		address,
		'its EIP-55 checksum does not match (a letter has the wrong case, or a character is mistyped)',
	);
}

function tron(address: string): AddressVerdict {
	if (/^41[0-9a-fA-F]{40}$/.test(address)) {
		return unsure(
			'the hexadecimal form of a Tron address carries no checksum',
			'the hexadecimal form of a Tron address (41…) carries no checksum, so a mistyped character would pay an address no one holds; write it in its T… form (base58, with a checksum)',
		);
	}
	if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return refusal('TRC20', FORM.TRC20, address);
	const decoded = base58CheckDecode(address);
	if ('error' in decoded) return refusal('TRC20', FORM.TRC20, address, MISTYPED);
	return decoded.payload.length === 21 && decoded.payload[0] === 0x41
		? VALID
		: refusal('TRC20', FORM.TRC20, address);
}

function solana(address: string): AddressVerdict {
	const bytes = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address) ? base58Decode(address) : undefined;
	if (!bytes || bytes.length !== 32) return refusal('SOL', FORM.SOL, address);
	return unsure('a Solana address carries no checksum');
}

function ton(address: string): AddressVerdict {
	if (/^-?\d{1,3}:[0-9a-fA-F]{64}$/.test(address))
		return unsure('the raw form carries no checksum');
	const bytes = address.length === 48 ? base64Decode(address) : undefined;
	if (!bytes || bytes.length !== 36) return refusal('TON', FORM.TON, address);
	const crc = crc16(bytes.slice(0, 34));
	if (bytes[34] !== crc >> 8 || bytes[35] !== (crc & 0xff))
		return refusal('TON', FORM.TON, address, MISTYPED);
	const flags = bytes[0] & 0x7f;
	if ((flags !== 0x11 && flags !== 0x51) || (bytes[1] !== 0x00 && bytes[1] !== 0xff))
		return refusal('TON', FORM.TON, address);
	return bytes[0] & 0x80 ? testnet('it is a TON testnet address') : VALID;
}

/** The version bytes of a chain's base58check addresses, main network and test networks. */
interface UtxoChain {
	name: string;
	form: string;
	main: number[];
	test: number[];
	/** bech32 human-readable parts, main and test; none for chains without segwit addresses. */
	hrp?: { main: string; test: string[] };
}

const UTXO: Readonly<Record<string, UtxoChain>> = {
	BTC: {
		name: 'BTC',
		form: FORM.BTC,
		main: [0x00, 0x05],
		test: [0x6f, 0xc4],
		hrp: { main: 'bc', test: ['tb', 'bcrt'] },
	},
	LTC: {
		name: 'LTC',
		form: FORM.LTC,
		main: [0x30, 0x32, 0x05],
		test: [0x6f, 0x3a, 0xc4],
		hrp: { main: 'ltc', test: ['tltc', 'rltc'] },
	},
	DOGE: { name: 'DOGE', form: FORM.DOGE, main: [0x1e, 0x16], test: [0x71, 0xc4] },
	BCH: { name: 'BCH', form: FORM.BCH, main: [0x00, 0x05], test: [0x6f, 0xc4] },
};

function legacy(address: string, chain: UtxoChain): AddressVerdict {
	const refuse = (problem?: string) => refusal(chain.name, chain.form, address, problem);
	const decoded = base58CheckDecode(address);
	if ('error' in decoded) {
		const base58 = /^[1-9A-HJ-NP-Za-km-z]{25,35}$/.test(address);
		return refuse(decoded.error === 'checksum' && base58 ? MISTYPED : undefined);
	}
	const [version] = decoded.payload;
	if (decoded.payload.length !== 21) return refuse();
	if (chain.main.includes(version)) return VALID;
	if (chain.test.includes(version)) return testnet('it is a test network address');
	return refuse('it is an address of another coin');
}

function segwit(address: string, chain: UtxoChain): AddressVerdict {
	const refuse = (problem?: string) => refusal(chain.name, chain.form, address, problem);
	const hrp = chain.hrp as NonNullable<UtxoChain['hrp']>;
	const decoded = bech32Decode(address);
	if ('error' in decoded) return refuse(decoded.error === 'checksum' ? MISTYPED : undefined);
	const isMain = decoded.hrp === hrp.main;
	if (!isMain && !hrp.test.includes(decoded.hrp)) return refuse('it is an address of another coin');
	const [version, ...rest] = decoded.data;
	const program = version === undefined || version > 16 ? undefined : fiveToEight(rest);
	if (!program || program.length < 2 || program.length > 40) return refuse();
	// BIP-350: version 0 uses bech32 and has a 20- or 32-byte program; later versions use bech32m.
	if ((version === 0) !== (decoded.variant === 'bech32'))
		return refuse(
			'its checksum is of the wrong kind for its version (bech32 and bech32m, BIP-350)',
		);
	if (version === 0 && program.length !== 20 && program.length !== 32) return refuse();
	if (!isMain) return testnet('it is a test network address');
	return version === 0 || (version === 1 && program.length === 32)
		? VALID
		: unsure(`witness version ${version} is not in use yet`);
}

function utxo(address: string, token: string): AddressVerdict {
	const chain = UTXO[token];
	if (token === 'BCH') {
		const main = cashAddrDecode(address, 'bitcoincash');
		const other = 'error' in main ? cashAddrDecode(address, 'bchtest') : main;
		const found = 'error' in main ? other : main;
		if (!('error' in found)) {
			const type = found.payload[0] >> 3;
			if (found !== main) return testnet('it is a test network address');
			return type <= 1 ? VALID : unsure('it is a CashAddr of a type other than P2PKH and P2SH');
		}
		if (/^((bitcoincash|bchtest):)?[qprz][02-9ac-hj-np-z]{41,}$/i.test(address))
			return refusal(chain.name, chain.form, address, MISTYPED);
		return legacy(address, chain);
	}
	const hrps = chain.hrp ? [chain.hrp.main, ...chain.hrp.test] : [];
	return hrps.some((hrp) => address.toLowerCase().startsWith(`${hrp}1`))
		? segwit(address, chain)
		: legacy(address, chain);
}

/** The check of each chain's addresses; an ERC20, BSC or BASE address is named by its chain. */
const BY_CHAIN = new Map<string, (address: string) => AddressVerdict>([
	['TRC20', tron],
	['ERC20', (address) => evm(address, 'an ERC20 (Ethereum)')],
	['BSC', (address) => evm(address, 'a BSC (BNB Smart Chain)')],
	['BASE', (address) => evm(address, 'a BASE (Base)')],
	['SOL', solana],
	['TON', ton],
	...Object.keys(UTXO).map((token) => [token, (address: string) => utxo(address, token)] as const),
]);

/**
 * The form of `address` for the token and, for a stablecoin, the network. A token/network pair the
 * node does not know is left to the service (`unsure`); the pair's own rule refuses it earlier.
 */
export function addressForm(address: string, token: string, network?: string): AddressVerdict {
	const check = BY_CHAIN.get(isStablecoin(token) ? (network ?? '') : token);
	return check ? check(address) : unsure('the node does not know this network');
}

/** What an address of this token and network is called: "USDT address on TRC20", "BTC address". */
export function addressName(token: string, network?: string): string {
	return isStablecoin(token) ? `${token} address on ${network ?? ''}` : `${token} address`;
}

/**
 * The rule broken, for Params.assert: "walletAddress is not a USDT address on TRC20: it looks like …";
 * with a Production credential also a test network's form (docs/addresses.md, "Production").
 */
export function checkAddressForm(
	field: string,
	address: string,
	token: string,
	network: string | undefined,
	production: boolean,
): Violation[] {
	const form = addressForm(address, token, network);
	if (form.verdict === 'invalid')
		return violation(
			field,
			`${field} is not a ${addressName(token, network)}: ${form.why}`,
			address,
		);
	if (production && form.verdict === 'unsure' && form.production)
		return violation(
			field,
			`${field} is refused with a Production credential: ${form.production}`,
			address,
		);
	return [];
}

/**
 * Whether the service's echo names the address asked: the same text or, for forms whose letter case
 * means nothing (hexadecimal, where EIP-55's case is only a checksum; bech32; CashAddr, whose
 * bitcoincash: prefix is optional), the same address written otherwise.
 */
export function sameAddress(asked: string, echoed: string): boolean {
	if (asked === echoed) return true;
	const plain = (address: string) => address.toLowerCase().replace(/^bitcoincash:/, '');
	const oneCase = (address: string) =>
		address === address.toLowerCase() || address === address.toUpperCase();
	const caseFree = (address: string) =>
		/^(0x|41)[0-9a-f]{40}$|^-?\d{1,3}:[0-9a-f]{64}$/i.test(address) ||
		(oneCase(address) && /^([a-z]{1,5}1|bitcoincash:)?[02-9ac-hj-np-z]{20,}$/i.test(address));
	return caseFree(asked) && caseFree(echoed) && plain(asked) === plain(echoed);
}
