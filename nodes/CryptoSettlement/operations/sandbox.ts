import { credentialsOf } from '../../service/credentials';
import { checkPositiveAmount, toNumber } from '../fields/rules';
import { USD_DECIMALS } from '../../service/catalog';
import {
	additionalFields,
	amountField,
	AMOUNT_IN_USD,
	REFERENCE,
	requiredText,
	WALLET_ADDRESS,
} from '../fields/fields';
import type { ResourceSpecs } from '../record/record';

export const sandbox: ResourceSpecs = {
	mockDeposit: {
		option: {
			name: 'Mock Deposit',
			action: 'Mock a deposit in the sandbox',
			description: 'Simulate an incoming deposit to a generated address (sandbox environment only)',
		},
		method: 'POST',
		path: '/trades/sell/mock-trade',
		source: 'public notes',
		kind: 'singleWrite',
		money: 'none',
		fields: [
			WALLET_ADDRESS,
			{
				// The deposit wallet's asset, from the list Wallet → Create offers; its value is the
				// asset's identifier (TRX_TEST), which the mock deposit takes.
				displayName: 'Asset Name or ID',
				name: 'asset',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getDepositAssetIdentifiers' },
				required: true,
				default: '',
				description:
					'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
			},
			AMOUNT_IN_USD,
			// A mock deposit's crypto amount takes up to 18 decimals.
			amountField('cryptoReceived', 'Crypto Received', 18, 'Crypto units received'),
			REFERENCE,
			requiredText('txHash', 'Transaction Hash', { description: 'Unique per mock deposit' }),
			additionalFields([
				{
					displayName: 'Confirmations',
					name: 'confirmations',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 12,
				},
				{
					displayName: 'Source Address',
					name: 'sourceAddress',
					type: 'string',
					default: '',
					description: 'Address the mock deposit comes from',
				},
			]),
		],
		build: async (params) => {
			const credentials = await credentialsOf(params.ctx);
			if (credentials.environment === 'production') {
				params.fail(
					'Mock Deposit only works in the sandbox environment',
					"The credential's Environment is Production. Use a credential whose Environment is Sandbox. Nothing was sent to the service.",
				);
			}
			const amountInUSD = params.raw('amountInUSD', '');
			const cryptoReceived = params.raw('cryptoReceived', '');
			params.assert([
				...checkPositiveAmount('amountInUSD', amountInUSD, USD_DECIMALS),
				...checkPositiveAmount('cryptoReceived', cryptoReceived, 18),
			]);
			const extra = params.additional();
			return {
				body: {
					walletAddress: params.requiredText('walletAddress'),
					asset: params.requiredText('asset'),
					amountInUSD: toNumber(amountInUSD),
					cryptoReceived: toNumber(cryptoReceived),
					reference: params.requiredText('reference'),
					txHash: params.requiredText('txHash'),
					...(extra.sourceAddress ? { sourceAddress: String(extra.sourceAddress) } : {}),
					...(extra.confirmations === undefined
						? {}
						: { confirmations: toNumber(extra.confirmations) }),
				},
			};
		},
	},
};
