import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';
import { isSuccess, serviceError } from '../service/apiErrors';
import { accountBalances } from '../service/balances';
import { money, roundMoney, statedNumber } from '../service/money';
import { FIAT_CURRENCIES } from '../service/catalog';
import { ROUTES } from '../service/routes';
import { isObject } from '../service/values';
import { STOPPED, type PollClient } from './client';
import type { PolledEvent } from './items';

/**
 * Source "Account Balances" (docs/trigger.md, "Balance alerts"): each poll reads the account's
 * balances and compares each with the threshold set for its currency. A balance that goes below its
 * threshold emits `balance.low` once; once it is at or above it again, `balance.restored` once. What
 * each currency stands at (low or not) is kept in the node's static data, replaced only when the poll
 * read the balances, so a failed or abandoned poll changes nothing and the next one decides again.
 */

const BALANCE_EVENTS = { low: 'balance.low', restored: 'balance.restored' } as const;
/** The currencies the account holds balances in (docs/api.md, Account → Get's `fiatWallets`): USD and the fiat ones. */
export const BALANCE_CURRENCIES: readonly string[] = [
	'USD',
	...FIAT_CURRENCIES.map((currency) => currency.toUpperCase()),
];

/** Key of the balance alerts' state in the node's static data (apart from the lists' `pollState`). */
const STATE_KEY = 'balanceAlerts';

export interface Threshold {
	currency: string;
	amount: number;
}

/** What each currency stood at after the last poll that read it: below its threshold (`low`) or not (`ok`). */
interface BalanceState extends IDataObject {
	version: 1;
	standing: Record<string, 'low' | 'ok'>;
}

/** The Thresholds parameter, checked before any request: one threshold per currency, each a number of 0 or more. */
export function readThresholds(ctx: IPollFunctions, value: unknown): Threshold[] {
	const entries =
		isObject(value) && Array.isArray(value.threshold) ? (value.threshold as unknown[]) : [];
	const fail = (message: string) =>
		new NodeOperationError(ctx.getNode(), message, {
			description: 'Nothing was read from the service.',
		});
	if (entries.length === 0)
		throw fail(
			'Add a threshold in Thresholds: the currency whose balance to watch and the amount below which to warn',
		);
	const thresholds: Threshold[] = [];
	for (const entry of entries) {
		const currency = String(isObject(entry) ? (entry.currency ?? '') : '')
			.trim()
			.toUpperCase();
		const stated = isObject(entry) ? statedNumber(entry.amount) : undefined;
		if (!BALANCE_CURRENCIES.includes(currency)) {
			throw fail(
				`Thresholds: the currency must be one of ${BALANCE_CURRENCIES.join(', ')} (got "${currency}")`,
			);
		}
		if (stated === undefined || stated < 0)
			throw fail(`Thresholds: the amount for ${currency} must be a number of 0 or more`);
		if (thresholds.some((kept) => kept.currency === currency))
			throw fail(`Thresholds: ${currency} is set twice; keep one threshold per currency`);
		thresholds.push({ currency, amount: roundMoney(stated, currency) });
	}
	return thresholds;
}

/** The balances now, or why they could not be read this poll (never a guess: docs/trigger.md, "Balance alerts"). */
async function readBalances(
	ctx: IPollFunctions,
	client: PollClient,
): Promise<{ balances: Record<string, number>; unreadable: string[] } | string> {
	const route = ROUTES.account.path;
	const response = await client.get(route, route, {}, client.budget.lastStart());
	if (typeof response === 'string') return STOPPED[response]();
	if (!isSuccess(response)) throw serviceError(ctx, { method: 'GET', route, url: route }, response);
	return (
		accountBalances(response.body.data) ?? 'the account record states no balances (fiatWallets)'
	);
}

function stateOf(value: unknown): BalanceState {
	return isObject(value) && value.version === 1 && isObject(value.standing)
		? { version: 1, standing: { ...(value.standing as BalanceState['standing']) } }
		: { version: 1, standing: {} };
}

/** The item of a balance event: what happened, to which balance, how much, against which threshold. */
function balanceEvent(
	event: string,
	threshold: Threshold,
	balance: number,
	at: number,
): PolledEvent {
	const { currency, amount } = threshold;
	const low = event === BALANCE_EVENTS.low;
	const when = new Date(at).toISOString();
	return {
		event,
		key: `${event} ${currency} ${when}`,
		at,
		json: {
			event,
			eventKey: `${event}:${currency}:${when}`,
			currency,
			balance,
			threshold: amount,
			summary: low
				? `The ${currency} balance is ${money(currency, balance)}, below the threshold of ${money(currency, amount)}`
				: `The ${currency} balance is back at ${money(currency, balance)}, at or above the threshold of ${money(currency, amount)}`,
			at: when,
			source: 'balances',
		},
	};
}

/**
 * One poll of the balances. `manual` (Fetch Test Event): each currency's standing now as the event it
 * would be, nothing kept. Otherwise a currency emits when its standing changed since the last poll
 * that read it; at the first poll, `balance.low` when it is already below. A currency whose balance
 * cannot be read keeps its standing and emits nothing (a warning names it).
 */
export async function pollBalances(
	ctx: IPollFunctions,
	client: PollClient,
	thresholds: Threshold[],
	warn: (message: string) => void,
): Promise<PolledEvent[]> {
	const manual = ctx.getMode() === 'manual';
	const read = await readBalances(ctx, client);
	if (typeof read === 'string') {
		if (manual)
			throw new NodeOperationError(ctx.getNode(), `The balances could not be read: ${read}`);
		warn(
			`the balances could not be read (${read}); no balance event is emitted, and the next poll reads them again`,
		);
		return [];
	}
	const at = client.serviceNow();
	const staticData = ctx.getWorkflowStaticData('node');
	const previous = stateOf(staticData[STATE_KEY]);
	const next: BalanceState = { version: 1, standing: {} };
	const events: PolledEvent[] = [];
	const unreadable: string[] = [];
	for (const threshold of thresholds) {
		const { currency } = threshold;
		const balance = read.balances[currency];
		const before = previous.standing[currency];
		if (balance === undefined) {
			unreadable.push(currency);
			if (before) next.standing[currency] = before;
			continue;
		}
		const now = balance < threshold.amount ? 'low' : 'ok';
		next.standing[currency] = now;
		// `before` undefined (the first poll) counts as ok: only a balance already low emits.
		if (manual || now !== (before ?? 'ok'))
			events.push(
				balanceEvent(BALANCE_EVENTS[now === 'low' ? 'low' : 'restored'], threshold, balance, at),
			);
	}
	if (unreadable.length) {
		const message = `the service states no readable ${unreadable.join(', ')} balance`;
		if (manual)
			throw new NodeOperationError(ctx.getNode(), `The balances could not be read: ${message}`);
		warn(
			`${message}; no event is emitted for it and what it stood at is kept until a poll reads it`,
		);
	}
	if (!manual) staticData[STATE_KEY] = next;
	return events;
}
