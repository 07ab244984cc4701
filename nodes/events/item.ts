import type { IDataObject } from 'n8n-workflow';
import {
	currencyUnit,
	NOT_STATED,
	WITHDRAWAL_UNIT_FIELDS,
	withCurrencies,
	withUnits,
} from '../service/units';
import type { AssetFacts } from '../service/depositAssets';
import { isObject } from '../service/values';
import type { EventDirectory } from './tokenAndWalletNames';

/** The fields both triggers add to an item from the record the service lists or confirms. */

/**
 * Trade deliveries name some fields differently from the trade record (docs/trigger.md, "The
 * item"): webhook name → record name. With confirmation, the webhook-named field carries the
 * record's value, so `json.amountInUSD` is what the API says, never what the body claimed.
 */
const TRADE_ALIASES: Array<[string, string]> = [
	['amountInUSD', 'amountReceived'],
	['cryptoAmount', 'cryptoReceived'],
	['destinationAddress', 'address'],
	['destinationDescription', 'label'],
	['senderAddress', 'sourceAddress'],
];

/** The confirmed fields of an item: the record's own, plus the webhook names of trade fields. */
export function confirmedFields(
	kind: 'trade' | 'withdrawal' | 'wallet',
	record: IDataObject,
): IDataObject {
	const fields: IDataObject = { ...record };
	if (kind === 'trade') {
		for (const [webhookName, recordName] of TRADE_ALIASES) {
			if (record[webhookName] === undefined && record[recordName] !== undefined)
				fields[webhookName] = record[recordName];
		}
	}
	return fields;
}

/** What an event is about: a deposit (trade), a withdrawal, or a deposit wallet (`trade.address.created`). */
type EventSubject = 'trade' | 'withdrawal' | 'wallet';

function subjectOf(event: string): EventSubject | undefined {
	if (event === 'trade.address.created') return 'wallet';
	if (event.startsWith('trade.')) return 'trade';
	if (event.startsWith('withdrawal.')) return 'withdrawal';
	return undefined;
}

/** Names of the units beside a trade's amounts (docs/trigger.md, "The item"). */
const TRADE_UNIT_FIELDS: Record<string, string> = {
	amount: 'amountCurrency',
	feeAmount: 'feeAmountCurrency',
	amountReceived: 'amountReceivedCurrency',
};

/**
 * A trade's crypto amounts, as the service gives them (text such as "416.5"), are in the deposit's
 * token: named beside each, so that no figure stands without its unit (issue 50, point 6).
 */
const CRYPTO_UNIT_FIELDS: Record<string, string> = {
	cryptoAmount: 'cryptoAmountCurrency',
	cryptoReceived: 'cryptoReceivedCurrency',
};

/** Each crypto amount's token beside it, when the token is known and the service names no unit itself. */
function withCryptoUnits(item: IDataObject): IDataObject {
	const token = text(item.token);
	if (token === null) return item;
	const units = { cryptoAmount: token, cryptoReceived: token };
	return withUnits(item, CRYPTO_UNIT_FIELDS, units, (value) => value != null && value !== '');
}

/** The fields an item starts with, in this order, when it has them: what happened, to what, how much of which token, for whom. */
const LEAD_FIELDS = ['event', 'eventKey', 'id', 'status', 'token', 'network', 'walletLabel'];

/** A top-level text this long, or any data URI (an image inlined), goes to the end of the item. */
const BULKY_CHARACTERS = 1024;

function isBulky(value: unknown): boolean {
	return typeof value === 'string' && (value.length > BULKY_CHARACTERS || /^data:/i.test(value));
}

/** Whether the item's top-level fields were read from the API (Confirm With API, the poll's records). */
function isConfirmed(item: IDataObject): boolean {
	return isObject(item.verification) && item.verification.confirmedWithApi === true;
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * Each amount's unit beside it, as docs/trigger.md's Units table states it ("The item"): read from the API,
 * the record's; a delivery's body states none, so `not stated` unless the body names it.
 */
function withAmountUnits(
	subject: EventSubject | undefined,
	item: IDataObject,
	confirmed: boolean,
): IDataObject {
	if (subject === 'withdrawal') {
		if (confirmed) return withCurrencies(item);
		return withUnits(item, WITHDRAWAL_UNIT_FIELDS, {
			amount: NOT_STATED,
			fee: NOT_STATED,
			payoutAmount: NOT_STATED,
		});
	}
	if (subject !== 'trade') return item;
	const local = confirmed ? (currencyUnit(item.currency) ?? NOT_STATED) : NOT_STATED;
	return withCryptoUnits(
		withUnits(item, TRADE_UNIT_FIELDS, {
			amount: local,
			feeAmount: local,
			amountReceived: confirmed ? 'USD' : NOT_STATED,
		}),
	);
}

/**
 * The lead fields first, the bulky ones last, everything else in its order between. Built from
 * entries, so a field of any name (`constructor`, `__proto__`) stays an ordinary field.
 */
export function ordered(item: IDataObject): IDataObject {
	const entries = Object.entries(item);
	const lead = LEAD_FIELDS.flatMap((key) =>
		entries.filter(([name, value]) => name === key && !isBulky(value)),
	);
	const placed = new Set(lead.map(([name]) => name));
	const middle = entries.filter(([name, value]) => !placed.has(name) && !isBulky(value));
	const last = entries.filter(([name, value]) => !placed.has(name) && isBulky(value));
	return Object.fromEntries([...lead, ...middle, ...last]) as IDataObject;
}

/**
 * An emitted item as both triggers shape it (docs/trigger.md, "The item"): `token` (and the
 * asset's `network`) named from the deposit asset, `walletLabel`, each amount's unit, the lead
 * fields first and bulky texts last. What cannot be looked up is `null`; nothing here fails.
 */
export async function describeItem(
	item: IDataObject,
	directory: EventDirectory,
): Promise<IDataObject> {
	const event = typeof item.event === 'string' ? item.event : '';
	const subject = subjectOf(event);
	const confirmed = isConfirmed(item);
	const facts: IDataObject = {};
	if ((subject === 'trade' || subject === 'wallet') && item.token === undefined) {
		const ref = subject === 'wallet' && !confirmed ? (item.assetId ?? item.asset) : item.asset;
		const asset = await directory.asset(ref).catch((): AssetFacts => ({ token: null }));
		facts.token = asset.token;
		if (asset.network !== undefined && item.network === undefined) facts.network = asset.network;
	}
	if ((subject === 'trade' || subject === 'wallet') && item.walletLabel === undefined) {
		facts.walletLabel =
			subject === 'wallet'
				? text(item.label)
				: confirmed
					? (text(item.label) ?? (await directory.walletLabel(item.wallet).catch(() => null)))
					: (text(item.destinationDescription) ?? text(item.label));
	}
	return ordered(withAmountUnits(subject, { ...item, ...facts }, confirmed));
}
