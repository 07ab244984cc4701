import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { ROUTES } from '../../service/routes';
import { callApi } from '../../service/transport';
import type { ApiRequest, HttpCall } from '../../service/api';
import { isSuccess, serviceError } from '../../service/apiErrors';
import { isObject, scalarText } from '../../service/values';
import type { Payment } from '../record/record';
import { isStablecoin } from '../fields/rules';

/**
 * The service's prices and local-currency rates, from its sell rates (read at most once per
 * guardrail check, paced as that route requires): what values an item, and a listed withdrawal
 * that states only its crypto amount, in USD (docs/guardrails.md).
 */
export interface Rates {
	usdPerToken: Map<string, number>;
	localPerUsd: Map<string, number>;
}

export async function readRates(ctx: IExecuteSingleFunctions, http: HttpCall): Promise<Rates> {
	const { path, rateLimit } = ROUTES.sellRates;
	const request: ApiRequest = { method: 'GET', route: path, url: path, rateLimit };
	const response = await callApi(ctx, http, request, 'safe');
	if (!isSuccess(response)) throw serviceError(ctx, request, response);
	const rates: Rates = { usdPerToken: new Map(), localPerUsd: new Map() };
	for (const entry of Array.isArray(response.body.data) ? response.body.data : []) {
		if (!isObject(entry)) continue;
		const symbol = scalarText(entry.symbol).toUpperCase();
		const price = Number(entry.priceUSD);
		if (symbol && Number.isFinite(price) && price > 0) rates.usdPerToken.set(symbol, price);
		// A stablecoin's sell rate is the local currency per USD.
		if (isStablecoin(symbol) && isObject(entry.rate)) {
			for (const [currency, rate] of Object.entries(entry.rate)) {
				if (Number(rate) > 0 && !rates.localPerUsd.has(currency.toUpperCase()))
					rates.localPerUsd.set(currency.toUpperCase(), Number(rate));
			}
		}
	}
	return rates;
}

/** A payment's value in USD, or why it cannot be told. */
export function valueUsd(amount: Payment['amount'], rates: Rates | undefined): number | string {
	if ('usd' in amount) return amount.usd;
	if (!rates) return "the service's rates could not be read";
	if ('crypto' in amount) {
		const price = rates.usdPerToken.get(amount.token.toUpperCase());
		return price
			? amount.crypto * price
			: `the service's rates give no USD price for ${amount.token || 'a withdrawal that names no token'}`;
	}
	const rate = rates.localPerUsd.get(amount.fiat.toUpperCase());
	return rate
		? amount.value / rate
		: `the service's rates give no ${amount.fiat.toUpperCase()} rate`;
}
