/**
 * How every message names an item: its row counted from 1, as a person reads the input table,
 * with the External ID that identifies the payment and n8n's own item number, which counts from 0
 * ("row 3 (payout-3003, n8n item 2)"). n8n's editor appends " [item 2]" to an error's message when
 * the input has several items, unless the message already contains "item 2": naming it here keeps
 * that suffix from contradicting the row.
 */
export function rowOf(itemIndex: number, externalId?: string): string {
	return `row ${itemIndex + 1} (${externalId ? `${externalId}, ` : ''}n8n item ${itemIndex})`;
}

/** Errors whose description already names their row with rowOf. */
const rowNamedErrors = new WeakSet<object>();

/** Marks an error whose description names its row, so that a caller listing rows does not say it twice. */
export function namingItsRow<E extends object>(error: E): E {
	rowNamedErrors.add(error);
	return error;
}

function namesItsRow(error: unknown): boolean {
	return typeof error === 'object' && error !== null && rowNamedErrors.has(error);
}

/** An error's description with its row before it, unless the description names the row already. */
export function withItsRow(error: unknown, row: string, description: string): string {
	return namesItsRow(error)
		? description
		: `${row.charAt(0).toUpperCase()}${row.slice(1)}: ${description}`;
}
