import {
	dryRunOf,
	externalIdOf,
	narrationOf,
	payoutAddressOf,
	tokenNetworkFee,
	transactionPin,
	withdrawalAmount,
} from '../record/commonParams';
import {
	additionalFields,
	amountField,
	BANK_ACCOUNT_ID,
	DRY_RUN,
	DRY_RUN_SAVED,
	LIST_FIELDS,
	listFilters,
	NARRATION,
	PIN,
	requiredText,
	tokenFields,
	upperOptions,
	WALLET_ADDRESS,
	WITHDRAWAL_AMOUNT_FIELDS,
} from '../fields/fields';
import { checkPositiveAmount, toNumber } from '../fields/rules';
import { listed, statusesOf, TOKENS, USD_DECIMALS } from '../../service/catalog';
import { recordFilter } from '../record/filters';
import { NEVER_FOR_AGENTS } from '../record/moneyClasses';
import { explainWithLimits } from '../money/limits';
import type { Params } from '../record/params';
import type { ResourceSpecs } from '../record/record';
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { asset } from './asset';
import { ROUTES } from '../../service/routes';
import { quoteWithUnits } from '../money/dryRun';
import { withCurrencies } from '../../service/units';

const CAPACITY_HINT =
	'If the service cannot price a payout of this size in this coin right now (temporary payout capacity), retry later or with a smaller amount. Other causes of a 400 are the balance and duplicate withdrawals.';

/** A crypto payout's 403: limits and availability (docs/api.md, "Status codes"), not a missing permission. */
const CRYPTO_REFUSED_HINT =
	"The service refused this payout: the amount is outside the account's withdrawal limits (Asset → Get Withdrawal Assets lists them), this token or network is not available now, or this server's IP is not on the account's allowlist.";

const BANK_REFUSED_HINT =
	"The service refused this bank payout: the amount may be outside the account's withdrawal limits (Asset → Get Withdrawal Assets), the bank account may be disabled, or this server's IP is not on the account's allowlist.";

/** After a 403 of a crypto payout or quote, the account's limits say whether the amount is the cause. */
const explainError = explainWithLimits(asset.getWithdrawalAssets.path);

/** Where a withdrawal is read by its id or by the External ID it was sent with. */
const LOOKUP_PATH = ROUTES.withdrawal.path;

/** The fields every withdrawal ends with: its idempotency key and what to output. */
const PAYMENT_FIELDS: INodeProperties[] = [
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		default: '',
		placeholder: 'e.g. payout-order-1042',
		description:
			'Your unique reference for this payment, such as an order or payout ID. Reuse the same value when retrying the same payment and never make it unique per attempt: a repeat with the same External ID cannot pay twice. Leave empty to derive one from this execution, node and item: then every new execution, including each Execute step in the editor, pays again (a Production credential requires a mapped one by default).',
	},
	{
		displayName: 'Return Full Record',
		name: 'returnFullRecord',
		type: 'boolean',
		default: true,
		description:
			'Whether to read the withdrawal back after creating it and output the full record (status, amounts, fee, destination) instead of only its ID. If that read fails, the ID is output with the reason in fullRecordUnavailable.',
	},
];

/**
 * Shown in the editor while a withdrawal's External ID is empty (operations/index.ts makes it the
 * node's hint): a derived External ID is new in every execution, so every manual run pays again.
 */
export const EMPTY_EXTERNAL_ID_HINT =
	'External ID is empty, so each run derives a new one: every manual run (Execute step, Execute workflow) pays again. Map your own payment ID instead, such as {{ $json.orderId }} or {{ $json.payoutId }}: a repeat with the same External ID is then found, not paid again.';

/**
 * Shown instead of EMPTY_EXTERNAL_ID_HINT when the node is an AI agent's tool (operations/index.ts):
 * what an agent may do with a credential, and what it may never do (the classes of MONEY_CLASSES
 * refused to agents, so a new class updates it). The Credential Guardrails field shows what the
 * selected credential allows (money/guardrailSummary.ts).
 */
export const AGENT_TOOL_HINT = `As an AI agent's tool, this node moves money only if the owner of its credential turned on Allow Agent Payments (the credential's Guardrails); otherwise the agent is told it may not pay and nothing is sent. With it on, a person must approve each payment through a human review step between this tool and the agent unless the owner turned off Agent Payments Need Human Review, and every other guardrail still applies (max per withdrawal, max per day, allowed destinations), shown under Credential Guardrails. An agent never ${NEVER_FOR_AGENTS}. Reads are always allowed.`;

/**
 * Shown on an operation that pays, outside an agent's tool, while Dry Run is off
 * (operations/index.ts). The guardrails themselves are shown by the Credential Guardrails field.
 * A hint cannot see the workflow around the node, so it also names the templates' way: a Dry Run
 * step earlier in the workflow, with this step paying after it (issue 50, point 6).
 */
export const DRY_RUN_HINT =
	"This step pays. Run a Dry Run first: turn on Dry Run here, or put a Dry Run step before this one, as the templates do. A Dry Run runs every check, the credential's guardrails included, and shows what leaves the balance, the fee and what the recipient receives, without sending anything.";

/** What a crypto withdrawal and its fee quote share: token, network or fee level, address, amount. */
const CRYPTO_PAYOUT_FIELDS: INodeProperties[] = [
	...tokenFields({ feeLevel: true }),
	WALLET_ADDRESS,
	...WITHDRAWAL_AMOUNT_FIELDS,
];

/** A created or found withdrawal: its currencies, and a message also when it was found instead of sent. */
function submittedRecord(record: IDataObject): IDataObject {
	const shaped = withCurrencies(record);
	if (shaped.alreadySubmitted !== true || shaped.message !== undefined) return shaped;
	return {
		...shaped,
		message: `Already submitted: found under External ID ${String(shaped.externalId)}, not sent again`,
	};
}

/** 'Return Full Record': on unless turned off. */
const fullRecordOf = (params: Params): boolean => params.raw('returnFullRecord', true) !== false;

export const withdrawal: ResourceSpecs = {
	createBank: {
		option: {
			name: 'Create Bank',
			action: 'Create a bank withdrawal',
			description: 'Pay out a USD amount to a saved NGN or GHS bank account',
		},
		method: 'POST',
		path: '/payments/withdraw/bank/{bankAccountId}',
		source: 'public notes',
		kind: 'withdrawal',
		money: 'pays',
		lookupPath: LOOKUP_PATH,
		output: submittedRecord,
		errorHint: { 403: BANK_REFUSED_HINT },
		fields: [
			DRY_RUN,
			BANK_ACCOUNT_ID,
			amountField('amount', 'Amount (USD)', USD_DECIMALS, 'USD value to pay out', {
				more: "The service converts it to the bank account's currency (NGN or GHS) at its rate and debits that balance. The output names each amount's currency (amountCurrency, feeCurrency, payoutCurrency) and the settlement currency (settlementCurrency).",
			}),
			...PAYMENT_FIELDS,
			additionalFields([DRY_RUN_SAVED, NARRATION, PIN]),
		],
		build: async (params) => {
			const bankAccountId = params.pathId('bankAccountId');
			const amount = params.raw('amount', '');
			params.assert(checkPositiveAmount('amount', amount, USD_DECIMALS));
			const narration = narrationOf(params);
			const key = externalIdOf(params);
			const pin = await transactionPin(params);
			return {
				pathParams: { bankAccountId },
				body: { amount: toNumber(amount), ...narration, pin, externalId: key.externalId },
				idempotency: {
					...key,
					expected: { type: 'bank', bankAccount: bankAccountId, amount: toNumber(amount) },
					fullRecord: fullRecordOf(params),
				},
				dryRun: dryRunOf(params),
			};
		},
		payment: (parts) => ({ amount: { usd: Number(parts.body?.amount) }, key: parts.idempotency }),
	},
	createCrypto: {
		option: {
			name: 'Create Crypto',
			action: 'Create a crypto withdrawal',
			description: `Send ${listed(TOKENS, 'or')} to an external address`,
		},
		method: 'POST',
		path: '/payments/withdraw/address',
		source: 'spec',
		kind: 'withdrawal',
		money: 'pays',
		lookupPath: LOOKUP_PATH,
		rateLimit: 200,
		output: submittedRecord,
		errorHint: { 403: CRYPTO_REFUSED_HINT },
		explainError,
		fields: [
			DRY_RUN,
			...CRYPTO_PAYOUT_FIELDS,
			...PAYMENT_FIELDS,
			additionalFields([DRY_RUN_SAVED, PIN]),
		],
		build: async (params) => {
			const token = tokenNetworkFee(params, { feeLevel: true });
			const { address: walletAddress, check } = await payoutAddressOf(
				params,
				'walletAddress',
				token,
			);
			const amount = withdrawalAmount(params);
			const key = externalIdOf(params);
			const pin = await transactionPin(params);
			return {
				body: { ...token, walletAddress, ...amount, externalId: key.externalId, pin },
				idempotency: {
					...key,
					expected: { type: 'crypto', ...token, walletAddress, ...amount },
					fullRecord: fullRecordOf(params),
				},
				dryRun: dryRunOf(params),
				...(check ? { addressCheck: check } : {}),
			};
		},
		payment: ({ body = {}, idempotency }) => ({
			amount:
				body.amount !== undefined
					? { usd: Number(body.amount) }
					: { token: String(body.token), crypto: Number(body.cryptoAmount) },
			destination: {
				token: String(body.token),
				...(body.network ? { network: String(body.network) } : {}),
				address: String(body.walletAddress),
			},
			key: idempotency,
		}),
	},
	estimateNetworkFee: {
		option: {
			name: 'Estimate Network Fee',
			action: 'Estimate a withdrawal network fee',
			description: 'Quote the network fee of a crypto withdrawal before sending it',
		},
		method: 'POST',
		path: ROUTES.estimateNetworkFee.path,
		source: 'spec',
		// A quote changes nothing, so it may be repeated.
		kind: 'read',
		money: 'none',
		output: quoteWithUnits,
		fields: CRYPTO_PAYOUT_FIELDS,
		errorHint: { 400: CAPACITY_HINT, 403: CRYPTO_REFUSED_HINT },
		explainError,
		build: async (params) => {
			const token = tokenNetworkFee(params, { feeLevel: true });
			// A quote reaches the service, which judges an address the form cannot decide itself.
			const { address: walletAddress } = await payoutAddressOf(params, 'walletAddress', token);
			return { body: { ...token, walletAddress, ...withdrawalAmount(params) } };
		},
	},
	get: {
		option: {
			name: 'Get',
			action: 'Get a withdrawal',
			description: 'Get a withdrawal by its ID or by the External ID you sent',
		},
		method: 'GET',
		path: LOOKUP_PATH,
		source: 'public notes (third-party)',
		kind: 'read',
		money: 'none',
		output: withCurrencies,
		fields: [
			requiredText('withdrawalId', 'Withdrawal ID', {
				description: 'The withdrawal ID returned at creation, or the External ID you sent',
			}),
		],
		// Found by its id or by the External ID sent with it.
		byId: { param: 'withdrawalId', alsoShownAs: { externalId: 'externalId' } },
		build: (params) => ({ pathParams: { withdrawalId: params.pathId('withdrawalId') } }),
	},
	getAll: {
		option: {
			name: 'Get Many',
			action: 'Get many withdrawals',
			description: 'List crypto and bank withdrawals',
		},
		method: 'GET',
		path: ROUTES.withdrawals.path,
		source: 'spec',
		kind: 'pagedList',
		money: 'none',
		pageSize: 100,
		output: withCurrencies,
		fields: [
			...LIST_FIELDS,
			listFilters('withdrawals', statusesOf('withdrawal'), [
				{
					displayName: 'External ID',
					name: 'externalId',
					type: 'string',
					default: '',
					description: 'Only the withdrawal with exactly this External ID',
				},
				{
					displayName: 'Token',
					name: 'token',
					type: 'options',
					options: upperOptions(TOKENS),
					default: 'USDT',
					description: 'Only withdrawals of this token (bank withdrawals have none)',
				},
			]),
		],
		build: (params) => ({
			keep: recordFilter(params, [
				'status',
				'token',
				'externalId',
				'createdAfter',
				'createdBefore',
			]),
		}),
	},
};
