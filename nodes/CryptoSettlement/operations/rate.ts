import { checkOneOf, checkPositiveAmount, toNumber } from '../fields/rules';
import { FIAT_CURRENCIES, USD_DECIMALS } from '../../service/catalog';
import { AMOUNT_IN_USD, ASSET_ID, CURRENCY, requiredText } from '../fields/fields';
import type { ResourceSpecs } from '../record/record';
import { ROUTES } from '../../service/routes';

export const rate: ResourceSpecs = {
	calculate: {
		option: {
			name: 'Calculate',
			action: 'Calculate a sell rate',
			description: 'Quote the NGN or GHS payout for a USD amount of an asset',
		},
		method: 'POST',
		path: '/trades/pbc/sell/rate-calculator/{assetId}',
		source: 'public notes',
		kind: 'read',
		money: 'none',
		fields: [ASSET_ID, CURRENCY, AMOUNT_IN_USD],
		build: (params) => {
			const assetId = params.pathId('assetId');
			const amountInUSD = params.raw('amountInUSD', '');
			const currency = params.text('currency', 'ngn');
			params.assert([
				...checkPositiveAmount('amountInUSD', amountInUSD, USD_DECIMALS),
				...checkOneOf('currency', currency, FIAT_CURRENCIES),
			]);
			return { pathParams: { assetId }, body: { amountInUSD: toNumber(amountInUSD), currency } };
		},
	},
	getMarketPrice: {
		option: {
			name: 'Get Market Price',
			action: 'Get a market price',
			description: 'Get the global market price of a crypto asset (not the service’s own rate)',
		},
		method: 'GET',
		path: '/trades/pbc/sell/assets/market/converter',
		source: 'public notes (third-party)',
		kind: 'read',
		money: 'none',
		fields: [
			requiredText('from', 'From', {
				placeholder: 'e.g. btc',
				description: 'Crypto symbol to price',
			}),
			requiredText('to', 'To', { placeholder: 'e.g. usd', description: 'Currency to price it in' }),
		],
		build: (params) => ({
			qs: { from: params.requiredText('from'), to: params.requiredText('to') },
		}),
	},
	getSellRates: {
		option: {
			name: 'Get Sell Rates',
			action: 'Get sell rates',
			description: 'Get the current sell rates (limited to 20 requests per minute)',
		},
		method: 'GET',
		path: ROUTES.sellRates.path,
		source: 'spec',
		kind: 'read',
		money: 'none',
		rateLimit: ROUTES.sellRates.rateLimit,
		fields: [],
	},
};
