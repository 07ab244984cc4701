import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { ROUTES } from '../../service/routes';
import { credentialsOf } from '../../service/credentials';
import { runOf } from '../engine/engine';
import { describeGuardrails } from './guardrailSummary';
import { callApi } from '../../service/transport';
import type { ApiRequest, HttpCall } from '../../service/api';
import { isSuccess } from '../../service/apiErrors';
import { plainDecimal } from '../fields/rules';
import { CRYPTO_DECIMALS } from '../../service/catalog';
import { keptFor, type RequestParts } from '../record/record';
import { isObject } from '../../service/values';
import { moneyFigures, roundTo } from '../../service/money';
import { lookUp } from './withdrawals';
import {
	balanceCheckOf,
	balancesOf,
	RunDebits,
	type AccountRead,
	type Debit,
} from './balanceCover';
import { readRates, valueUsd, type Rates } from './rates';

/**
 * 'Dry Run' of a money-moving item that passed every check: what would be sent, output with `dryRun: true`
 * instead (docs/architecture.md, "Guardrails and Dry Run"). Nothing that moves money is sent.
 */

/** The request the item would send (never its PIN), its USD value when the guardrails valued it, and the credential's guardrails. */
export async function dryRunRecord(
	ctx: IExecuteSingleFunctions,
	request: ApiRequest,
	parts: RequestParts,
): Promise<IDataObject> {
	const body = { ...(parts.body ?? {}) };
	delete body.pin;
	return {
		dryRun: true,
		message: 'Dry run: every check passed; nothing was sent',
		request: { method: request.method, path: request.url, body },
		...(parts.valueUsd !== undefined ? { valueUsd: parts.valueUsd } : {}),
		guardrails: describeGuardrails(await credentialsOf(ctx)),
	};
}

/**
 * A withdrawal's dry run: looked up like a real one, for crypto with the network fee estimate, and
 * with whether the balance covers it with the run's items before it (`debits`: balanceCover.ts).
 */
export async function dryRunWithdrawal(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	request: ApiRequest,
	parts: RequestParts,
	lookupPath: string,
	debits: RunDebits = new RunDebits(),
): Promise<IDataObject> {
	const idempotency = parts.idempotency as NonNullable<RequestParts['idempotency']>;
	const existing = parts.existing ?? (await lookUp(ctx, http, { ...idempotency, lookupPath }));
	if (existing) {
		return {
			...existing,
			dryRun: true,
			message:
				'Dry run: this payment already exists under its External ID, so nothing would be sent',
		};
	}
	const record: IDataObject = {
		...(await dryRunRecord(ctx, request, parts)),
		externalId: idempotency.externalId,
	};
	const sent = { ...(parts.body ?? {}) };
	const account = await accountOf(ctx, http);
	const feeBearer = feeBearerIn(account);
	let networkFee: IDataObject | undefined;
	let extra: IDataObject = {};
	if (sent.walletAddress !== undefined) {
		// The fee quote takes what the withdrawal sends, less its PIN and External ID.
		delete sent.pin;
		delete sent.externalId;
		const { path } = ROUTES.estimateNetworkFee;
		const estimate: ApiRequest = { method: 'POST', route: path, url: path, body: sent };
		try {
			const response = await callApi(ctx, http, estimate, 'safe');
			if (isSuccess(response)) {
				const quoted = response.body.data as IDataObject;
				networkFee = isObject(quoted) ? quoteWithUnits(quoted) : undefined;
				extra = { networkFee: networkFee ?? quoted };
			} else {
				extra = {
					networkFeeUnavailable: `the estimate answered HTTP ${response.statusCode}${response.body.message ? `: ${response.body.message}` : ''}`,
				};
			}
		} catch (error) {
			extra = { networkFeeUnavailable: (error as Error).message };
		}
	}
	const itemIndex = ctx.getItemIndex();
	debits.give(itemIndex, await debitOf(ctx, http, sent, feeBearer, networkFee));
	const balanceCheck = balanceCheckOf(
		itemIndex,
		await debits.through(itemIndex),
		balancesOf(account),
	);
	const payout = payoutOf(sent, feeBearer, networkFee);
	// What a person reads first: what leaves, the fee and what arrives, whether the balance covers it, then the guardrails, then the request.
	const { dryRun, message, guardrails, ...rest } = record;
	return { dryRun, message, payout, balanceCheck, guardrails, ...rest, ...extra };
}

type FeeBearer = 'user' | 'business' | undefined;

/** The account (Account → Get: its balances and withdrawal fee bearer), read once per node run. */
const accounts = keptFor<object, Promise<AccountRead>>();

async function accountOf(ctx: IExecuteSingleFunctions, http: HttpCall): Promise<AccountRead> {
	const { path } = ROUTES.account;
	return await accounts(
		runOf(ctx),
		async () =>
			await callApi(ctx, http, { method: 'GET', route: path, url: path }, 'safe').then(
				(response): AccountRead => {
					if (isSuccess(response) && isObject(response.body.data))
						return { record: response.body.data };
					return {
						unreadable: `Account → Get answered HTTP ${response.statusCode}${response.body.message ? `: ${String(response.body.message)}` : ''}`,
					};
				},
				(error: Error): AccountRead => ({ unreadable: `Account → Get failed: ${error.message}` }),
			),
	);
}

/** The account's withdrawal fee bearer; undefined when it cannot be read. */
function feeBearerIn(account: AccountRead): FeeBearer {
	const bearer = 'record' in account ? account.record.withdrawalFeeBearer : undefined;
	return bearer === 'user' || bearer === 'business' ? bearer : undefined;
}

/** The service's sell rates, read once per node run, for a payout stated in a token (rates.ts). */
const runRates = keptFor<object, Promise<Rates | string>>();

/**
 * What a withdrawal takes from the balance the service debits (docs/guardrails.md, "Does the
 * balance cover the batch?"): a crypto payout from the USD balance, what leaves it by the fee
 * bearer (a token amount valued at the service's sell rate); a bank payout cannot be told, since
 * neither its rate nor its fee is quoted beforehand.
 */
async function debitOf(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	body: IDataObject,
	feeBearer: FeeBearer,
	networkFee?: IDataObject,
): Promise<Debit> {
	if (body.walletAddress === undefined) {
		return {
			unknown:
				'a bank payout is paid from the NGN or GHS balance at a rate and with a fee that no route quotes before it is made',
		};
	}
	const { amount, unit, fee } = feeOf(body, networkFee);
	if (feeBearer === undefined)
		return { unknown: 'who bears the withdrawal fee could not be read (Account → Get)' };
	if (feeBearer === 'business' && fee === undefined)
		return { unknown: 'the network fee was not quoted, and the business bears it' };
	const leaves = feeBearer === 'user' ? amount : amount + (fee as number);
	if (unit === 'USD') return { currency: 'USD', amount: leaves };
	const read = await runRates(
		runOf(ctx),
		async () =>
			await readRates(ctx, http).catch(
				(error: Error) => `the service's rates could not be read (${error.message})`,
			),
	);
	const value = valueUsd(
		{ token: unit, crypto: leaves },
		typeof read === 'string' ? undefined : read,
	);
	if (typeof value === 'string') return { unknown: typeof read === 'string' ? read : value };
	return { currency: 'USD', amount: value };
}

/** An amount with its unit: USD with 2 decimals, a token's amount with at most 8 (as the node sends them). */
const money = (value: number, unit: string) =>
	`${unit === 'USD' ? moneyFigures(value, 'USD') : plainDecimal(roundTo(value, CRYPTO_DECIMALS))} ${unit}`;

/**
 * Who bears the fee, in words a person reads one way: the service's `user` is the recipient (the
 * fee is deducted from the payout), `business` the business (docs/api.md, "Withdrawal fees").
 */
function bearerName(feeBearer: FeeBearer): string {
	return feeBearer === 'user' ? 'recipient' : feeBearer === 'business' ? 'business' : 'unknown';
}

/** A withdrawal's amount, its unit (USD, or the token of a crypto amount) and the quoted fee in that unit, if quoted. */
function feeOf(
	body: IDataObject,
	networkFee?: IDataObject,
): { amount: number; unit: string; fee?: number } {
	const inToken = body.cryptoAmount !== undefined;
	const amount = Number(inToken ? body.cryptoAmount : body.amount);
	const unit = inToken ? String(body.token ?? '') : 'USD';
	// The fee in the amount's unit: USD as quoted, or in the token when the quote gives that too.
	const level = typeof body.feeLevel === 'string' ? body.feeLevel : undefined;
	const quoted = (key: string, perLevel: string) => {
		const value =
			networkFee?.[key] ??
			(level && isObject(networkFee?.[perLevel])
				? (networkFee[perLevel] as IDataObject)[level]
				: undefined);
		return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
	};
	return { amount, unit, fee: inToken ? quoted('cryptoFee', 'cryptoFees') : quoted('fee', 'fees') };
}

/**
 * What leaves the balance, the fee and what the recipient receives, each with its unit, by the
 * account's withdrawal fee bearer (docs/api.md, "Withdrawal fees"): `user`, the fee is deducted
 * from the payout; `business`, it is added to what leaves the balance.
 */
function payoutOf(body: IDataObject, feeBearer: FeeBearer, networkFee?: IDataObject): IDataObject {
	const { amount, unit, fee } = feeOf(body, networkFee);
	if (body.walletAddress === undefined) return bankPayoutOf(amount, feeBearer);
	const what = `${String(body.token ?? '')}${body.network ? ` on ${String(body.network)}` : ''}`;
	const feeText = fee === undefined ? 'the fee' : money(fee, unit);
	const statement: IDataObject = {
		amount,
		amountCurrency: unit,
		feeBearer: bearerName(feeBearer),
		...(fee === undefined
			? { fee: 'not quoted: see networkFee or networkFeeUnavailable' }
			: { fee, feeCurrency: unit }),
	};
	if (feeBearer === 'user') {
		statement.leavesBalance = money(amount, unit);
		statement.recipientReceives =
			fee === undefined
				? `${money(amount, unit)} less the fee, in ${what}`
				: `${money(amount - fee, unit)} in ${what}`;
		statement.summary = `${statement.leavesBalance} leaves the balance; ${feeText} is deducted from it; the recipient receives ${statement.recipientReceives}`;
	} else if (feeBearer === 'business') {
		statement.leavesBalance =
			fee === undefined ? `${money(amount, unit)} plus the fee` : money(amount + fee, unit);
		statement.recipientReceives = `${money(amount, unit)} in ${what}`;
		statement.summary = `${statement.leavesBalance} leaves the balance (${money(amount, unit)} plus ${feeText}); the recipient receives ${statement.recipientReceives}`;
	} else {
		statement.leavesBalance = `${money(amount, unit)}, plus the fee if the business bears fees (the fee bearer could not be read)`;
		statement.recipientReceives = `${money(amount, unit)} in ${what}, less the fee if the recipient bears fees`;
		statement.summary = `${statement.leavesBalance}; the recipient receives ${statement.recipientReceives}`;
	}
	return statement;
}

/**
 * A bank payout's statement (docs/api.md, "Withdrawals and the External ID" and "Withdrawal
 * fees"): the amount is asked in USD; the service converts it to the bank account's currency (NGN
 * or GHS) at its rate and debits the balance in that currency; its fee is in that currency. No
 * route quotes the rate of a payout or its fee beforehand, so what leaves and what arrives are
 * stated by what they are made of, never as a USD figure: the created record gives the numbers.
 */
function bankPayoutOf(amount: number, feeBearer: FeeBearer): IDataObject {
	const converted = `the NGN or GHS equivalent of ${money(amount, 'USD')} (the bank account's currency, at the service's rate)`;
	const fee = "the service's bank fee, in the bank account's currency";
	const from = "from the balance in the bank account's currency";
	const statement: IDataObject = {
		amount,
		amountCurrency: 'USD',
		feeBearer: bearerName(feeBearer),
		fee: `${fee}; the created record shows it (fee, feeCurrency)`,
	};
	let summary: string;
	if (feeBearer === 'user') {
		statement.leavesBalance = `${converted}, ${from}`;
		statement.recipientReceives = `${converted}, less ${fee}`;
		summary = `${converted} leaves the balance in that currency; ${fee} is deducted from it; the recipient receives the rest`;
	} else if (feeBearer === 'business') {
		statement.leavesBalance = `${converted}, plus ${fee}, ${from}`;
		statement.recipientReceives = converted;
		summary = `${converted}, plus ${fee}, leaves the balance in that currency; the recipient receives ${converted}`;
	} else {
		statement.leavesBalance = `${converted}, ${from}, plus the fee if the business bears fees (the fee bearer could not be read)`;
		statement.recipientReceives = `${converted}, less the fee if the recipient bears fees`;
		summary = `${converted} leaves the balance in that currency, plus the fee if the business bears fees (the fee bearer could not be read); the recipient receives it, less the fee if the recipient bears fees`;
	}
	statement.summary = `${summary[0].toUpperCase()}${summary.slice(1)}. Neither the rate nor the fee is quoted before a bank payout: the created record shows what was paid out and the fee (payoutAmount, fee, in the bank account's currency).`;
	return statement;
}

/**
 * A fee quote with the unit of its crypto amounts named right after them (`cryptoFee` and the
 * per-level `cryptoFees` are in the token), where the service does not name it itself.
 */
export function quoteWithUnits(record: IDataObject): IDataObject {
	if (typeof record.token !== 'string') return record;
	const shaped: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		shaped[key] = value;
		const unit = `${key}Currency`;
		const unnamed = (key === 'cryptoFee' || key === 'cryptoFees') && !(unit in record);
		if (unnamed && value !== null && value !== undefined) shaped[unit] = record.token;
	}
	return shaped;
}
