/**
 * The API's routes that code other than their own operation record reads: the guardrails' and Dry
 * Run's reads, the triggers' lookups and lists (docs/api.md). The records of these operations take
 * their path from here, so each path is written once; every other record states its own.
 */
export const ROUTES = {
	account: { path: '/users/fetch-integration' },
	/** The service allows 20 requests a minute on this route (docs/api.md, "Rate limits"). */
	sellRates: { path: '/trades/pbc/sell/rates', rateLimit: 20 },
	payoutAddresses: { path: '/payments/wallet-addresses' },
	/** The saved bank accounts (Bank Account → Get Many): the statement names a bank payout's payee from it. */
	bankAccounts: { path: '/payments/integration-banks' },
	/** The service's format check of a payout address, made for each row of a batch whose address form cannot decide (fields/addresses.ts). */
	validateAddress: { path: '/payments/wallet-addresses/validate' },
	estimateNetworkFee: { path: '/payments/estimate-network-fee' },
	withdrawals: { path: '/payments/withdrawals' },
	/** A withdrawal by its id or its External ID (docs/api.md, "Withdrawals and the External ID"). */
	withdrawal: { path: '/payments/withdrawal/{withdrawalId}' },
	trades: { path: '/trades/transactions' },
	trade: { path: '/trades/transactions/{transactionId}' },
	wallets: { path: '/trades/wallets' },
	wallet: { path: '/trades/wallets/{walletId}' },
	/** The deposit assets (the triggers name an event's token from it). */
	depositAssets: { path: '/trades/assets' },
	webhookEvents: { path: '/transactions/webhooks' },
} as const;
