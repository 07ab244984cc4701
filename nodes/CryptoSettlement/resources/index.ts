import type { INodeProperties } from 'n8n-workflow';
import { describeNode, type ResourceEntry } from '../helpers/description';
import type { ResourceSpecs } from '../helpers/types';
import { account } from './account';
import { asset } from './asset';
import { bank } from './bank';
import { bankAccount } from './bankAccount';
import { currency } from './currency';
import { payoutAddress } from './payoutAddress';
import { rate } from './rate';
import { sandbox } from './sandbox';
import { transaction } from './transaction';
import { wallet } from './wallet';
import { webhookEvent } from './webhookEvent';
import { withdrawal } from './withdrawal';

/** Every resource → operation of the node, with what it sends and how it may be retried. */
export const RESOURCES: Record<string, ResourceEntry> = {
	account: { name: 'Account', description: 'Account details and settings', specs: account, default: 'get' },
	asset: { name: 'Asset', description: 'Deposit and withdrawal assets', specs: asset, default: 'getDepositAssets' },
	bank: { name: 'Bank', description: 'Banks and bank account verification', specs: bank, default: 'getAll' },
	bankAccount: {
		name: 'Bank Account',
		description: 'Saved bank accounts for payouts',
		specs: bankAccount,
		default: 'getAll',
	},
	currency: { name: 'Currency', description: 'Fiat currency swaps', specs: currency, default: 'swap' },
	payoutAddress: {
		name: 'Payout Address',
		description: 'Saved crypto withdrawal addresses',
		specs: payoutAddress,
		default: 'getAll',
	},
	rate: { name: 'Rate', description: 'Rates and prices', specs: rate, default: 'getSellRates' },
	sandbox: {
		name: 'Sandbox',
		description: 'Testing helpers of the sandbox environment',
		specs: sandbox,
		default: 'mockDeposit',
	},
	transaction: { name: 'Transaction', description: 'Deposit (trade) transactions', specs: transaction, default: 'get' },
	wallet: { name: 'Wallet', description: 'Deposit wallets (addresses)', specs: wallet, default: 'get' },
	webhookEvent: {
		name: 'Webhook Event',
		description: 'Stored webhook deliveries',
		specs: webhookEvent,
		default: 'getAll',
	},
	withdrawal: {
		name: 'Withdrawal',
		description: 'Crypto and bank withdrawals',
		specs: withdrawal,
		default: 'createCrypto',
	},
};

export const SPECS: Record<string, ResourceSpecs> = Object.fromEntries(
	Object.entries(RESOURCES).map(([resource, { specs }]) => [resource, specs]),
);

/** The node's properties, generated from the operation records (helpers/description.ts). */
export const properties: INodeProperties[] = describeNode(RESOURCES, 'withdrawal');
