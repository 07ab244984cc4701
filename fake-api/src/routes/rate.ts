/** Public rates, no credentials (the node's `rate` resource; docs/api.md). */
import { CRYPTO_DECIMALS, FIAT_CURRENCIES, USD_DECIMALS } from '../../../nodes/service/catalog';
import { PRICES_USD, SELL_RATE, round } from '../catalog';
import { assertValid, ok, type Violation } from '../http';
import type { Route } from './context';
import { findAsset } from './lookups';
import { numberOf, oneOf, requiredAmount } from './validation';

export const rateRoutes: Route[] = [
	{
		method: 'GET',
		template: '/trades/pbc/sell/rates',
		access: 'public',
		limit: 'sellRates',
		handle: (ctx) =>
			ok(
				'rates fetched successfully',
				ctx.core.state.assets.map((asset) => ({
					id: asset.id,
					name: asset.name,
					identifier: asset.identifier,
					symbol: asset.symbol,
					rate: { ...asset.rate },
					priceUSD: PRICES_USD[asset.symbol] ?? null,
				})),
			),
	},
	{
		method: 'POST',
		template: '/trades/pbc/sell/rate-calculator/{assetId}',
		access: 'public',
		handle: (ctx) => {
			const asset = findAsset(ctx, ctx.params.assetId);
			const { body } = ctx;
			assertValid([
				...requiredAmount('amountInUSD', body.amountInUSD, USD_DECIMALS),
				...oneOf('currency', body.currency, FIAT_CURRENCIES),
			]);
			const usd = numberOf(body.amountInUSD) as number;
			const rate = body.currency === 'ngn' ? asset.rate.NGN : asset.rate.GHS;
			return ok('data fetched', {
				NGNAmount: round(usd * asset.rate.NGN, 2),
				GHSAmount: round(usd * asset.rate.GHS, 2),
				rate,
				cryptoAmount: round(usd / (PRICES_USD[asset.symbol] ?? 1), CRYPTO_DECIMALS),
			});
		},
	},
	{
		method: 'GET',
		template: '/trades/pbc/sell/assets/market/converter',
		access: 'public',
		handle: (ctx) => {
			const from = (ctx.query.get('from') ?? '').toUpperCase();
			const to = (ctx.query.get('to') ?? '').toUpperCase();
			const violations: Violation[] = [];
			if (!from) violations.push({ field: 'from', message: 'from is required' });
			else if (PRICES_USD[from] === undefined) {
				violations.push({
					field: 'from',
					message: `from must be one of ${Object.keys(PRICES_USD).join(', ')}`,
				});
			}
			if (!to) violations.push({ field: 'to', message: 'to is required' });
			else if (!['USD', 'NGN', 'GHS'].includes(to))
				violations.push({ field: 'to', message: 'to must be one of usd, ngn, ghs' });
			assertValid(violations, 'query');
			const usd = PRICES_USD[from];
			const price = to === 'USD' ? usd : usd * (to === 'NGN' ? SELL_RATE.NGN : SELL_RATE.GHS);
			return ok('data fetched', {
				symbol: from,
				amount: 1,
				quote: { [to]: { price: round(price, 8), last_updated: ctx.core.iso() } },
			});
		},
	},
];
