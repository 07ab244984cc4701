import type { IDataObject } from 'n8n-workflow';
import {
	OPEN_TRADE_WORDS,
	OPEN_WITHDRAWAL_WORDS,
	REFUNDED_WITHDRAWAL_WORDS,
	statusOf,
} from '../../service/catalog';
import { roundTo, statedNumber } from '../../service/money';
import { scalarText } from '../../service/values';
import { externalIdKey, recordIdKey } from '../../service/ids';
import type { ReadLists } from './statementLists';

/** Statement → Match (docs/statement.md): an index built once per run from the lists, each row a lookup. Pure. */

export const MATCH_BY = ['externalId', 'walletAddress', 'walletLabel'] as const;
type MatchBy = (typeof MATCH_BY)[number];

export const MATCH_RESULTS = {
	paid: 'One withdrawal under the External ID, completed, for the expected amount (when one is given)',
	pending: `One record, not final yet (a withdrawal ${OPEN_WITHDRAWAL_WORDS}; a deposit ${OPEN_TRADE_WORDS})`,
	refunded: `One withdrawal, ${REFUNDED_WITHDRAWAL_WORDS}: the money went back, the recipient was not paid`,
	notFound: 'No record under the key',
	amountDiffers:
		'One final record whose USD amount differs from Expected Amount by more than Amount Tolerance',
	received: 'One deposit to the wallet, completed, for the expected amount (when one is given)',
	several: 'More than one record under the key',
} as const;

type MatchResult = keyof typeof MATCH_RESULTS;

/** The records under each key, by what keys them. */
type MatchIndex = Record<MatchBy, Map<string, IDataObject[]>>;

function add(map: Map<string, IDataObject[]>, key: string, record: IDataObject): void {
	if (!key) return;
	const list = map.get(key);
	if (list) list.push(record);
	else map.set(key, [record]);
}

/** Keys as typed, trimmed; External IDs and wallet ids by the one rule of each (service/ids.ts: inv-1 is not INV-1's). */
const keyOf = (value: unknown) => scalarText(value).trim();
const KEY_OF: Record<MatchBy, (value: unknown) => string> = {
	externalId: externalIdKey,
	walletAddress: keyOf,
	walletLabel: keyOf,
};

export function matchIndex(lists: ReadLists): MatchIndex {
	const index: MatchIndex = {
		externalId: new Map(),
		walletAddress: new Map(),
		walletLabel: new Map(),
	};
	for (const withdrawal of lists.withdrawals)
		add(index.externalId, externalIdKey(withdrawal.externalId), withdrawal);
	const labelOfWallet = new Map<string, string>();
	for (const wallet of lists.wallets)
		labelOfWallet.set(recordIdKey(wallet.id ?? wallet._id), keyOf(wallet.label));
	for (const trade of lists.trades) {
		add(index.walletAddress, keyOf(trade.address), trade);
		const label = labelOfWallet.get(recordIdKey(trade.wallet)) ?? keyOf(trade.label);
		add(index.walletLabel, label, trade);
	}
	return index;
}

/** The match of one row: its key, and the expected USD amount with its tolerance when given. */
export function matchRow(
	index: MatchIndex,
	by: MatchBy,
	key: string,
	expectedAmount: number | undefined,
	tolerance: number,
) {
	const records = index[by].get(KEY_OF[by](key)) ?? [];
	const result = (match: MatchResult, matchNote: string) => ({ match, matchNote, records });
	if (records.length === 0)
		return result(
			'notFound',
			`No ${by === 'externalId' ? 'withdrawal' : 'deposit'} under ${JSON.stringify(key)}`,
		);
	if (records.length > 1)
		return result(
			'several',
			`${records.length} records under ${JSON.stringify(key)}: check them one by one`,
		);
	const [record] = records;
	const status = scalarText(record.status).toLowerCase();
	const kind = by === 'externalId' ? 'withdrawal' : 'trade';
	const entry = statusOf(kind, status);
	if (!entry)
		return result(
			'pending',
			`Status ${JSON.stringify(status)} is unknown to the node: not counted as final`,
		);
	if (entry.refunded)
		return result(
			'refunded',
			`Status ${status}${scalarText(record.reason) ? `: ${scalarText(record.reason)}` : ''}`,
		);
	if (entry.open) return result('pending', `Status ${status}`);
	const done: MatchResult = kind === 'withdrawal' ? 'paid' : 'received';
	if (expectedAmount === undefined) return result(done, `Status ${status}`);
	const field = kind === 'withdrawal' ? 'amount' : 'amountReceived';
	const amount = statedNumber(record[field]);
	if (amount === undefined)
		return result(
			'amountDiffers',
			`The record states no USD ${field} the node can read (${JSON.stringify(record[field] ?? null)})`,
		);
	// The difference as its decimals read (binary noise of the subtraction rounded away, service/money.ts).
	const difference = roundTo(amount - expectedAmount, 8);
	if (Math.abs(difference) > tolerance + 1e-9)
		return result(
			'amountDiffers',
			`${field} is ${amount} USD, expected ${expectedAmount} USD (difference ${difference > 0 ? '+' : ''}${difference}, tolerance ${tolerance})`,
		);
	return result(done, `Status ${status}, ${field} ${amount} USD`);
}
