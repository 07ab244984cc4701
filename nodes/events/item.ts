import type { IDataObject } from 'n8n-workflow';

/** The fields both triggers add to an item from the record the service lists or confirms. */

/**
 * Trade deliveries name some fields differently from the trade record (docs/trigger.md, "The
 * item"): webhook name → record name. With confirmation, the webhook-named field carries the
 * record's value, so `json.amountInUSD` is what the API says, never what the body claimed.
 */
const TRADE_ALIASES: Array<[string, string]> = [
	['amountInUSD', 'amountReceived'],
	['cryptoAmount', 'cryptoReceived'],
	['destinationAddress', 'address'],
	['destinationDescription', 'label'],
	['senderAddress', 'sourceAddress'],
];

/** The confirmed fields of an item: the record's own, plus the webhook names of trade fields. */
export function confirmedFields(kind: 'trade' | 'withdrawal' | 'wallet', record: IDataObject): IDataObject {
	const fields: IDataObject = { ...record };
	if (kind === 'trade') {
		for (const [webhookName, recordName] of TRADE_ALIASES) {
			if (record[webhookName] === undefined && record[recordName] !== undefined) fields[webhookName] = record[recordName];
		}
	}
	return fields;
}
