// What each node of the tour workflow (e2e/workflows/tour.json) must output, and what the sandbox
// must hold afterwards. verify(items, ctx) throws on a mismatch and may return a short detail.

export const RESOURCES = [
	'account',
	'asset',
	'wallet',
	'withdrawal',
	'payoutAddress',
	'bank',
	'bankAccount',
	'transaction',
	'currency',
	'rate',
	'webhookEvent',
	'sandbox',
	'statement',
];

function assert(cond, message) {
	if (!cond) throw new Error(message);
}

const short = (value) => JSON.stringify(value)?.slice(0, 240);

/** node name → { resource, operation, verify } */
export const tourExpectations = {
	'Get Account': {
		resource: 'account',
		operation: 'get',
		verify: (items, { sandbox }) => {
			assert(items[0].id === sandbox.state.account.id, `account: ${short(items[0])}`);
			return items[0].name;
		},
	},
	// The tour writes back the settings Get Account read: it changes none (issue 27).
	'Keep Fee Bearer': {
		resource: 'account',
		operation: 'setWithdrawalFeeBearer',
		verify: (items, { sandbox, items: of }) => {
			const read = of('Get Account')[0].withdrawalFeeBearer;
			const sent = sandbox.requests
				.filter((r) => r.method === 'PUT' && r.path.endsWith('/users/withdrawal-fee-bearer'))
				.map((r) => r.body.withdrawalFeeBearer);
			assert(
				read && sent.length === 1 && sent[0] === read,
				`sent ${short(sent)}, Get Account read ${read}`,
			);
			assert(
				sandbox.state.account.withdrawalFeeBearer === read,
				`fee bearer changed to ${sandbox.state.account.withdrawalFeeBearer}`,
			);
			assert(items.length === 1 && items[0].withdrawalFeeBearer === read, `output ${short(items)}`);
			return `kept ${read}`;
		},
	},
	'Keep Markup': {
		resource: 'account',
		operation: 'setMarkupPercent',
		verify: (items, { sandbox, items: of }) => {
			const read = of('Get Account')[0].markupPercent;
			const sent = sandbox.requests
				.filter((r) => r.method === 'PUT' && r.path.endsWith('/users/markup-percent'))
				.map((r) => r.body.markupPercent);
			assert(
				typeof read === 'number' && sent.length === 1 && sent[0] === read,
				`sent ${short(sent)}, Get Account read ${read}`,
			);
			assert(
				sandbox.state.account.markupPercent === read,
				`markup changed to ${sandbox.state.account.markupPercent}`,
			);
			return `kept ${read}%`;
		},
	},
	'Deposit Assets': {
		resource: 'asset',
		operation: 'getDepositAssets',
		verify: (items, { sandbox }) => {
			assert(
				items.length === sandbox.state.assets.length,
				`${items.length} assets of ${sandbox.state.assets.length}`,
			);
			return `${items.length} assets`;
		},
	},
	'Withdrawal Assets': {
		resource: 'asset',
		operation: 'getWithdrawalAssets',
		verify: (items) => {
			assert(
				items.length > 1 && items.every((t) => t.symbol && Array.isArray(t.networks) && t.limits),
				`output ${short(items[0])}`,
			);
		},
	},
	'Create Wallet': {
		resource: 'wallet',
		operation: 'create',
		verify: (items, { sandbox }) => {
			const wallet = sandbox.state.wallets.find((w) => w.id === items[0].id);
			assert(
				wallet && wallet.address === items[0].address && /^tour-/.test(wallet.label),
				`wallet ${short(items[0])}`,
			);
			return wallet.id;
		},
	},
	'Get Wallet': {
		resource: 'wallet',
		operation: 'get',
		verify: (items, { items: of }) => {
			assert(items[0].id === of('Create Wallet')[0].id, `got ${short(items[0])}`);
		},
	},
	'Link Bank to Wallet': {
		resource: 'wallet',
		operation: 'updateBank',
		verify: (items, { sandbox, items: of }) => {
			const wallet = sandbox.state.wallets.find((w) => w.id === of('Create Wallet')[0].id);
			assert(
				wallet.bank?.accountNumber === '0123456789' && wallet.bank.bankId === '39',
				`wallet bank ${short(wallet.bank)}`,
			);
			assert(wallet.bank.narration === 'tour settlement', `narration ${wallet.bank.narration}`);
		},
	},
	'Auto Settlement On': {
		resource: 'wallet',
		operation: 'setAutoSettlement',
		verify: (items, { sandbox, items: of }) => {
			const wallet = sandbox.state.wallets.find((w) => w.id === of('Create Wallet')[0].id);
			assert(wallet.autoSettlement === true, 'autoSettlement not on in the sandbox');
		},
	},
	'List Wallets': {
		resource: 'wallet',
		operation: 'getAll',
		verify: (items, { sandbox }) => {
			assert(
				items.length === Math.min(5, sandbox.state.wallets.length) && items[0].id,
				`${items.length} wallets`,
			);
		},
	},
	'List NGN Banks': {
		resource: 'bank',
		operation: 'getAll',
		verify: (items, { sandbox }) => {
			const ngn = sandbox.state.banks.filter((b) => b.currency === 'ngn');
			assert(
				items.length === ngn.length && items.every((b) => b.currency === 'ngn'),
				`${items.length} banks: ${short(items.map((b) => b.name))}`,
			);
			return `${items.length} banks`;
		},
	},
	'Verify Bank Account': {
		resource: 'bank',
		operation: 'verifyAccount',
		verify: (items) => {
			assert(
				items[0].accountName && items[0].bankName === 'Guaranty Trust Bank',
				`output ${short(items[0])}`,
			);
			return items[0].accountName;
		},
	},
	'Save Bank Account': {
		resource: 'bankAccount',
		operation: 'create',
		verify: (items, { sandbox }) => {
			const saved =
				sandbox.state.bankAccounts.find((b) => b.id === items[0].id) ||
				sandbox.state.withdrawals.length;
			assert(items[0].id && saved, `output ${short(items[0])}`);
		},
	},
	'List Bank Accounts': {
		resource: 'bankAccount',
		operation: 'getAll',
		verify: (items, { items: of }) => {
			assert(
				items.some((b) => b.id === of('Save Bank Account')[0].id),
				`list ${short(items)}`,
			);
		},
	},
	'Bank Withdrawal': {
		resource: 'withdrawal',
		operation: 'createBank',
		verify: (items, { sandbox }) => {
			const w = sandbox.state.withdrawals.find((x) => x.id === items[0].id);
			assert(
				w &&
					w.type === 'bank' &&
					w.externalId === items[0].externalId &&
					/^tour-payout-/.test(items[0].externalId),
				`withdrawal ${short(items[0])} / ${short(w)}`,
			);
			assert(w.narration === 'tour payout', `narration ${w.narration}`);
			return `${w.id} (${w.status})`;
		},
	},
	'Validate Payout Address': {
		resource: 'payoutAddress',
		operation: 'validate',
		verify: (items) => {
			assert(items[0].valid !== false, `output ${short(items[0])}`);
		},
	},
	'Save Payout Address': {
		resource: 'payoutAddress',
		operation: 'create',
		verify: (items) => {
			assert(
				items[0].id && items[0].token === 'USDT' && items[0].network === 'TRC20',
				`output ${short(items[0])}`,
			);
		},
	},
	'List Payout Addresses': {
		resource: 'payoutAddress',
		operation: 'getAll',
		verify: (items, { items: of }) => {
			assert(
				items.some((a) => a.id === of('Save Payout Address')[0].id),
				`list ${short(items)}`,
			);
		},
	},
	'Delete Payout Address': {
		resource: 'payoutAddress',
		operation: 'delete',
		verify: (items, { sandbox, items: of }) => {
			const id = of('Save Payout Address')[0].id;
			assert(items[0].deleted === true && items[0].id === id, `output ${short(items[0])}`);
			assert(!sandbox.state.payoutAddresses.some((a) => a.id === id), 'still in the sandbox');
		},
	},
	'Estimate BTC Fee': {
		resource: 'withdrawal',
		operation: 'estimateNetworkFee',
		verify: (items, { sandbox }) => {
			assert(
				items[0].fee !== undefined || items[0].fees !== undefined,
				`output ${short(items[0])}`,
			);
			const req = [...sandbox.requests]
				.reverse()
				.find((r) => r.path.endsWith('/payments/estimate-network-fee'));
			assert(
				req && req.body.feeLevel === 'medium' && !('network' in req.body),
				`request body ${short(req?.body)}`,
			);
		},
	},
	'Sell Rates': {
		resource: 'rate',
		operation: 'getSellRates',
		verify: (items) => {
			assert(items.length >= 1, 'no rates');
		},
	},
	'Rate Calculator': {
		resource: 'rate',
		operation: 'calculate',
		verify: (items) => {
			assert(Object.keys(items[0]).length > 0, `output ${short(items[0])}`);
		},
	},
	'BTC Market Price': {
		resource: 'rate',
		operation: 'getMarketPrice',
		verify: (items, { sandbox }) => {
			const req = [...sandbox.requests].reverse().find((r) => r.path.endsWith('/market/converter'));
			assert(
				req && req.query.from === 'btc' && req.query.to === 'usd',
				`query ${short(req?.query)}`,
			);
			assert(Object.keys(items[0]).length > 0, 'empty output');
		},
	},
	'Swap NGN to GHS': {
		resource: 'currency',
		operation: 'swap',
		verify: (items, { sandbox }) => {
			assert(
				items[0].success === true || Object.keys(items[0]).length > 0,
				`output ${short(items[0])}`,
			);
			const req = [...sandbox.requests]
				.reverse()
				.find((r) => r.path.endsWith('/payments/swap-currency'));
			assert(
				req && req.status === 200 && req.body.pin === sandbox.pin,
				`swap request ${short(req)}`,
			);
			return 'PIN taken from the credential';
		},
	},
	'Mock Deposit': {
		resource: 'sandbox',
		operation: 'mockDeposit',
		verify: (items, { sandbox }) => {
			const trade = sandbox.state.trades.find((t) => t.id === items[0].id);
			assert(trade && /^tour-dep-/.test(trade.reference), `trade ${short(items[0])}`);
			return trade.id;
		},
	},
	'Get Deposit': {
		resource: 'transaction',
		operation: 'get',
		verify: (items, { items: of }) => {
			assert(items[0].id === of('Mock Deposit')[0].id, `got ${short(items[0])}`);
		},
	},
	'List Transactions': {
		resource: 'transaction',
		operation: 'getAll',
		verify: (items, { sandbox }) => {
			assert(
				items.length === sandbox.state.trades.length,
				`${items.length} of ${sandbox.state.trades.length}`,
			);
		},
	},
	'List Webhook Events': {
		resource: 'webhookEvent',
		operation: 'getAll',
		verify: (items) => {
			assert(items.length >= 1 && items[0].id && items[0].eventType, `output ${short(items[0])}`);
			return `${items.length} events`;
		},
	},
	'Get Webhook Event': {
		resource: 'webhookEvent',
		operation: 'get',
		verify: (items, { items: of }) => {
			assert(items[0].id === of('List Webhook Events')[0].id, `got ${short(items[0])}`);
		},
	},
	'Resend Wallet Webhooks': {
		resource: 'webhookEvent',
		operation: 'resend',
		verify: (items, { sandbox, items: of }) => {
			const walletId = of('Create Wallet')[0].id;
			const event = sandbox.state.webhookEvents.find((e) => e.reference === walletId);
			assert(event && event.attemptsCount >= 1, `no delivery attempt recorded for ${walletId}`);
			assert(items.length >= 1, 'no output');
		},
	},
	'Delete Bank Account': {
		resource: 'bankAccount',
		operation: 'delete',
		verify: (items, { sandbox, items: of }) => {
			const id = of('Save Bank Account')[0].id;
			assert(items[0].deleted === true && items[0].id === id, `output ${short(items[0])}`);
			assert(!sandbox.state.bankAccounts.some((b) => b.id === id), 'still in the sandbox');
		},
	},
};
