/**
 * The service's facts (docs/api.md, "Field rules"; docs/architecture.md, "Statuses and events"):
 * tokens, networks per token, fee levels, currencies, limits and every record's statuses.
 *
 * Facts only, no checks: the node judges with fields/rules.ts, and the local fake API reads these
 * facts but judges requests with its own code (fake-api/src/routes/validation.ts), so a wrong rule in the
 * node is refused by the fake instead of copied into it. Pure TypeScript with no imports.
 */

export const TOKENS = ['USDT', 'USDC', 'BTC', 'LTC', 'DOGE', 'BCH'] as const;
export type Token = (typeof TOKENS)[number];

export const STABLECOINS = ['USDT', 'USDC'] as const;
export type Stablecoin = (typeof STABLECOINS)[number];
export const UTXO_TOKENS = ['BTC', 'LTC', 'DOGE', 'BCH'] as const;

/** Networks per stablecoin: TON is USDT-only, BASE is USDC-only. */
export const NETWORKS_BY_TOKEN: Readonly<Record<Stablecoin, readonly string[]>> = {
	USDT: ['ERC20', 'TRC20', 'BSC', 'SOL', 'TON'],
	USDC: ['ERC20', 'TRC20', 'BSC', 'SOL', 'BASE'],
};
export const NETWORKS = ['ERC20', 'TRC20', 'BSC', 'SOL', 'TON', 'BASE'] as const;

export const FEE_LEVELS = ['low', 'medium', 'high'] as const;
export const FIAT_CURRENCIES = ['ngn', 'ghs'] as const;
export const WITHDRAWAL_FEE_BEARERS = ['user', 'business'] as const;
export const ENVIRONMENTS = ['sandbox', 'production'] as const;

/**
 * Every record status and its event, in one table, in the order of the record's life; its fields and
 * its readers: docs/architecture.md, "Statuses and events" (whose tables `npm run docs` generates from it).
 */
export const LIFECYCLES = {
	trade: {
		pending: {
			rank: 0,
			open: true,
			event: 'A deposit is seen on chain, not yet confirmed; repeats as confirmations rise',
		},
		flagged: {
			rank: 1,
			open: true,
			held: true,
			event: 'A deposit is on chain but failed a check; funds are held',
		},
		completed: { rank: 2, open: false, event: 'A deposit is confirmed, checked and credited' },
	},
	withdrawal: {
		pending: { rank: 0, open: true, event: 'A withdrawal is accepted and queued' },
		processing: { rank: 1, open: true },
		completed: { rank: 2, open: false, event: 'A withdrawal reached its destination' },
		rejected: {
			rank: 2,
			open: false,
			refunded: true,
			event: 'A withdrawal failed a check before broadcast and was refunded',
		},
		reversed: {
			rank: 2,
			open: false,
			refunded: true,
			event: 'A withdrawal broadcast failed and was refunded',
		},
		// Seen in records only: no event is documented for it.
		cancelled: { rank: 2, open: false, refunded: true },
	},
} as const;

export type RecordKind = keyof typeof LIFECYCLES;
type Lifecycle<K extends RecordKind> = (typeof LIFECYCLES)[K];
/** The statuses of a kind that the service announces with an event. */
type EventStatus<K extends RecordKind> = {
	[S in keyof Lifecycle<K>]: Lifecycle<K>[S] extends { event: string } ? S : never;
}[keyof Lifecycle<K>];

/** A status's entry in the table. */
interface StatusEntry {
	rank: number;
	open: boolean;
	refunded?: boolean;
	held?: boolean;
	event?: string;
}

/** A status's entry, or undefined for a status the table does not know. */
export function statusOf(kind: RecordKind, status: string): StatusEntry | undefined {
	const statuses = LIFECYCLES[kind] as Record<string, StatusEntry>;
	return Object.prototype.hasOwnProperty.call(statuses, status) ? statuses[status] : undefined;
}

/** Every status of a kind, in the order of its life: the Status filters' choices. */
export function statusesOf<K extends RecordKind>(kind: K): Array<keyof Lifecycle<K> & string> {
	return Object.keys(LIFECYCLES[kind]) as Array<keyof Lifecycle<K> & string>;
}

/** A deposit's (trade's) statuses with events: the fake API's records. */
export const TRADE_EVENT_STATUSES = statusesWhere('trade', (entry) => 'event' in entry) as Array<
	EventStatus<'trade'>
>;

export const NARRATION_MAX_LENGTH = 32;
export const USD_DECIMALS = 2;
export const CRYPTO_DECIMALS = 8;
/** Both ends are accepted: the API documents "between 0 and 10" and "0 to 10". */
export const MARKUP_MIN = 0;
export const MARKUP_MAX = 10;

/** What the package does: the action node's description, and the start of the webhook trigger's. */
export const APP_DESCRIPTION =
	'Take crypto deposits, settle them to NGN or GHS bank accounts, and pay out stablecoins and UTXO coins';

/** The statuses of a kind whose entry `pick` chooses, in the order of the record's life. */
export function statusesWhere(kind: RecordKind, pick: (entry: StatusEntry) => boolean): string[] {
	return Object.entries(LIFECYCLES[kind] as Record<string, StatusEntry>)
		.filter(([, entry]) => pick(entry))
		.map(([name]) => name);
}

/**
 * Names in a sentence, from the table that holds them ("USDT and USDC", "a, b or c"), so a name the
 * table gains is in every sentence that lists them: test/package/docs.test.ts fails on a string in
 * nodes/ that lists them by hand.
 */
export function listed(words: readonly string[], conjunction: 'and' | 'or'): string {
	return words.length < 2
		? words.join('')
		: `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** Words for a list: "a, b or c". */
const orList = (words: readonly string[]): string => listed(words, 'or');

/** A withdrawal's statuses in which the money went back ("rejected, reversed or cancelled"). */
export const REFUNDED_WITHDRAWAL_WORDS = orList(
	statusesWhere('withdrawal', (entry) => entry.refunded === true),
);
/** A withdrawal's statuses not final yet ("pending or processing"). */
export const OPEN_WITHDRAWAL_WORDS = orList(statusesWhere('withdrawal', (entry) => entry.open));
/** A deposit's statuses not final yet ("pending or flagged"). */
export const OPEN_TRADE_WORDS = orList(statusesWhere('trade', (entry) => entry.open));
