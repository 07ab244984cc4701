/** The contract table (see operation-cases.ts): transactions, currency swap, rates and webhook events. */
import { ok, PIN, setupNock } from './helpers';
import { describeOperations, page, type Case } from './operation-cases';

setupNock();

const cases: Record<string, Case> = {
	'transaction → get': {
		params: { resource: 'transaction', operation: 'get', transactionId: 't1' },
		method: 'get',
		path: '/trades/transactions/t1',
		reply: ok({ id: 't1', status: 'completed' }, 'transaction retrieved successfully'),
		output: [{ id: 't1', status: 'completed' }],
	},
	'transaction → getAll': {
		params: { resource: 'transaction', operation: 'getAll', returnAll: false, limit: 50 },
		method: 'get',
		path: '/trades/transactions',
		query: { page: '1', size: '50' },
		reply: page([]),
		output: [],
	},
	'currency → swap': {
		params: { resource: 'currency', operation: 'swap', amount: 1000, from: 'ngn', to: 'ghs' },
		method: 'post',
		path: '/payments/swap-currency',
		body: { amount: 1000, from: 'ngn', to: 'ghs', pin: PIN },
		reply: { message: 'currency swap successful', success: true, data: {} },
		output: [{ success: true, message: 'currency swap successful' }],
	},
	'rate → getSellRates': {
		params: { resource: 'rate', operation: 'getSellRates' },
		method: 'get',
		path: '/trades/pbc/sell/rates',
		reply: ok({ NGN: 1500, GHS: 15 }),
		output: [{ NGN: 1500, GHS: 15 }],
	},
	'rate → calculate': {
		params: { resource: 'rate', operation: 'calculate', assetId: 'a1', amountInUSD: 25, currency: 'ghs' },
		method: 'post',
		path: '/trades/pbc/sell/rate-calculator/a1',
		body: { amountInUSD: 25, currency: 'ghs' },
		reply: ok({ NGNAmount: 1, GHSAmount: 2, rate: 3, cryptoAmount: 4 }, 'data fetched'),
		output: [{ NGNAmount: 1, GHSAmount: 2, rate: 3, cryptoAmount: 4 }],
	},
	'rate → getMarketPrice': {
		params: { resource: 'rate', operation: 'getMarketPrice', from: 'btc', to: 'usd' },
		method: 'get',
		path: '/trades/pbc/sell/assets/market/converter',
		query: { from: 'btc', to: 'usd' },
		reply: ok({ quote: { USD: { price: 60000 } } }),
		output: [{ quote: { USD: { price: 60000 } } }],
	},
	'webhookEvent → getAll': {
		params: {
			resource: 'webhookEvent',
			operation: 'getAll',
			returnAll: true,
			filters: { startDate: '2026-01-01T00:00:00', endDate: '2026-02-01T00:00:00' },
		},
		method: 'get',
		path: '/transactions/webhooks',
		query: { page: '1', size: '200', startDate: '2026-01-01T00:00:00', endDate: '2026-02-01T00:00:00' },
		reply: page([{ id: 'e1', eventType: 'trade.completed' }]),
		output: [{ id: 'e1', eventType: 'trade.completed' }],
	},
	'webhookEvent → get': {
		params: { resource: 'webhookEvent', operation: 'get', webhookEventId: 'e1' },
		method: 'get',
		path: '/transactions/webhooks/e1',
		reply: { success: true, data: { id: 'e1', attemptsCount: 2 }, meta: {} },
		output: [{ id: 'e1', attemptsCount: 2 }],
	},
	'webhookEvent → resend': {
		params: { resource: 'webhookEvent', operation: 'resend', reference: 'wd1' },
		method: 'post',
		path: '/transactions/webhooks/resend/wd1',
		reply: ok([{ id: 'e1', status: 'delivered' }, { id: 'e2', status: 'failed', error: 'webhook delivery failed' }], 'webhook resend attempted'),
		output: [{ id: 'e1', status: 'delivered' }, { id: 'e2', status: 'failed', error: 'webhook delivery failed' }],
	},
};

describeOperations('operations-rates-records', cases);
