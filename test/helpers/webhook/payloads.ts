/**
 * The payloads the service sends (docs/trigger.md, "The item"), the documented event names, and a
 * seeded PRNG for the fuzz tests.
 */
import type { IDataObject } from 'n8n-workflow';

let counter = 0;

/** A `trade.*` payload shaped like the documented trade payload (docs/trigger.md, "The item": numbers in epoch ms, string block height). */
export function tradePayload(event: string, overrides: IDataObject = {}): IDataObject {
	counter++;
	const status = event.split('.').slice(1).join('.');
	return {
		event,
		id: `66f1c0ffee${String(counter).padStart(14, '0')}`,
		asset: 'SOL_TEST',
		feePercentage: 1.5,
		feeAmountInUsd: 0.32,
		cryptoAmount: 0.15,
		amountInUSD: 21.379,
		flagFeeUSD: 0,
		vaultId: '12',
		destinationAddress: 'So1DepositAddress1111111111111111111111111',
		destinationDescription: 'customer-42',
		txHash: '5uXf2hash',
		status,
		confirmations: status === 'pending' ? 0 : 32,
		note: '',
		createdAt: 1732250000000,
		updatedAt: 1732250060000,
		index: 0,
		blockInfo: { blockHeight: '301234567', blockHash: 'blockhash' },
		...overrides,
	};
}

/** A `withdrawal.*` payload (only `event`, `id`, `status` are documented). */
export function withdrawalPayload(event: string, overrides: IDataObject = {}): IDataObject {
	counter++;
	return {
		event,
		id: `77a2beef${String(counter).padStart(16, '0')}`,
		status: event.split('.')[1],
		amount: 25,
		txHash: null,
		...overrides,
	};
}

/** A `trade.address.created` payload (address, asset, label). */
export function addressPayload(overrides: IDataObject = {}): IDataObject {
	counter++;
	return {
		event: 'trade.address.created',
		id: `88b3cafe${String(counter).padStart(16, '0')}`,
		address: `TAddr${counter}`,
		asset: 'TRX_TEST',
		label: `customer-${counter}`,
		...overrides,
	};
}

/** The event names of docs/trigger.md, written independently of the node's own list. */
export const CONTRACT_EVENTS = [
	'trade.address.created',
	'trade.pending',
	'trade.completed',
	'trade.flagged',
	'withdrawal.pending',
	'withdrawal.completed',
	'withdrawal.reversed',
	'withdrawal.rejected',
];

/** Small seeded PRNG so a failure is reproducible. */
export function mulberry32(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
