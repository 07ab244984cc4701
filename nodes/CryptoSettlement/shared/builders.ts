import type { IDataObject } from 'n8n-workflow';
import type { Params } from './params';
import {
	checkNarration,
	checkTokenNetworkFee,
	checkWithdrawalAmount,
	isStablecoin,
	toNumber,
} from './rules';
import { deriveExternalId } from './withdrawals';

/** token plus network (stablecoins) or feeLevel (UTXO coins), never both, validated together. */
export function tokenNetworkFee(params: Params, options: { feeLevel: boolean }): IDataObject {
	const token = params.text('token');
	const network = params.text('network');
	const feeLevel = options.feeLevel && !isStablecoin(token) ? params.text('feeLevel') : undefined;
	params.assert(checkTokenNetworkFee({ token, network, feeLevel }, { feeLevelRequired: options.feeLevel }));
	if (isStablecoin(token)) return { token, network };
	return feeLevel === undefined ? { token } : { token, feeLevel };
}

/** amount (USD) or cryptoAmount, exactly one, per the 'Amount Type' chosen. */
export function withdrawalAmount(params: Params): IDataObject {
	const amountType = params.text('amountType', 'usd');
	const input =
		amountType === 'crypto' ? { cryptoAmount: params.raw('cryptoAmount', '') } : { amount: params.raw('amount', '') };
	params.assert(checkWithdrawalAmount(input));
	return amountType === 'crypto' ? { cryptoAmount: toNumber(input.cryptoAmount) } : { amount: toNumber(input.amount) };
}

/** The node's PIN, else the credential's; required. Never echoed in errors or output. */
export async function transactionPin(params: Params): Promise<string> {
	let pin = String(params.additional().pin ?? '').trim();
	if (!pin) {
		const credentials = await params.ctx.getCredentials('cryptoSettlementApi');
		pin = String(credentials.pin ?? '').trim();
	}
	if (!pin) {
		params.fail(
			"No transaction PIN: set 'PIN' under 'Additional Fields' or in the credential",
			'Withdrawals and swaps need the PIN set on the dashboard. Nothing was sent to the service for this item.',
		);
	}
	return pin;
}

/** The user's External ID, or one derived deterministically so every retry reuses it. */
export function externalIdOf(params: Params): string {
	return params.text('externalId') ?? deriveExternalId(params.ctx);
}

/** Optional narration from 'Additional Fields', at most 32 characters. */
export function narrationOf(params: Params): IDataObject {
	const narration = params.additional().narration;
	params.assert(checkNarration(narration));
	return narration === undefined || narration === '' ? {} : { narration: String(narration) };
}

/** A bank id and account number pair, as the API's body fields `id` and `accountNumber`. */
export function bankAccountFields(params: Params): IDataObject {
	const id = params.requiredText('bankId');
	const accountNumber = params.requiredText('accountNumber');
	return { id, accountNumber };
}
