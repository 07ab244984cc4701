/**
 * The operations whose record's kind is `neverRepeated` (read from the records, not from how the
 * node treats the kind, so a test still runs them if the kind's protection is lost), each with
 * parameters that pass its field rules. The tests of that promise (exactly-once.test.ts,
 * in-doubt.test.ts) run every such operation of the records: one added with that kind is tested
 * without editing them, and one with no parameters here fails its test by name.
 */
import type { IDataObject } from 'n8n-workflow';
import { RESOURCES } from '../../nodes/CryptoSettlement/resources';

/**
 * Parameters per `resource → operation`; an operation whose record has `moneyWith` also needs a case
 * named `resource → operation (moneyWith.name)` that adds those Additional Fields.
 */
const PARAMETERS: Record<string, IDataObject> = {
	'currency → swap': { amount: 5, from: 'ngn', to: 'ghs' },
	'wallet → create': { assetId: 'a1', label: 'customer-1' },
	'wallet → create (with a settlement bank)': { assetId: 'a1', label: 'customer-2', additionalFields: { bankId: '39', accountNumber: '0123456789', autoSettlement: true } },
	'payoutAddress → create': { address: 'TXyz', token: 'USDT', network: 'TRC20', label: 'ops' },
	'bankAccount → create': { bankId: '39', accountNumber: '0123456789' },
	'sandbox → mockDeposit': { walletAddress: 'TQ1', asset: 'TRX_TEST', amountInUSD: 50, cryptoReceived: 312.5, reference: 'mock-1', txHash: '0xabc' },
};

export interface NeverRepeated {
	/** `resource → operation`, with ` (moneyWith.name)` for the variant that adds those fields. */
	name: string;
	/** Whether the request the operation sends (its record's method and path) is this one. */
	sends: (request: { method: string; path: string }) => boolean;
}

/** Every never-repeated operation of the records (and its `moneyWith` variant). */
export const NEVER_REPEATED: NeverRepeated[] = Object.entries(RESOURCES).flatMap(([resource, { specs }]) =>
	Object.entries(specs)
		.filter(([, spec]) => spec.kind === 'neverRepeated')
		.flatMap(([operation, spec]) => {
			const path = new RegExp(`^/v1${spec.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
			const sends = (request: { method: string; path: string }) => request.method === spec.method && path.test(request.path);
			const name = `${resource} → ${operation}`;
			return [{ name, sends }, ...(spec.moneyWith ? [{ name: `${name} (${spec.moneyWith.name})`, sends }] : [])];
		}),
);

/** The node parameters of a never-repeated operation; an operation without a case fails loudly. */
export function parametersOf(name: string): IDataObject {
	const parameters = PARAMETERS[name];
	if (!parameters) throw new Error(`No parameters for the never-repeated operation ${name}: add a case to test/node/never-repeated.ts`);
	const [resource, operation] = name.replace(/ \(.*\)$/, '').split(' → ');
	return { resource, operation, ...parameters };
}

/** Cases for operations the records do not mark never repeated (renamed or of another kind now). */
export const staleCases = (): string[] => Object.keys(PARAMETERS).filter((name) => !NEVER_REPEATED.some((operation) => operation.name === name));
