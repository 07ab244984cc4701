/**
 * The operations whose record's kind is `singleWrite` (read from the records, not from how the
 * node treats the kind, so a test still runs them if the kind's protection is lost), each with
 * the parameters of its case in the contract table (operation-cases.ts), which pass its field
 * rules. The tests of that promise (exactly-once.test.ts, in-doubt.test.ts) run every such
 * operation of the records: one added with that kind is tested without editing them, and one
 * with no case in the table fails its test by name.
 */
import type { IDataObject } from 'n8n-workflow';
import { RESOURCES } from '../../nodes/CryptoSettlement/operations';
import { CASES } from './operation-cases';

export interface SingleWrite {
	/** `resource → operation`, with ` (moneyWith.name)` for the variant that adds those fields. */
	name: string;
	/** Whether the request the operation sends (its record's method and path) is this one. */
	sends: (request: { method: string; path: string }) => boolean;
}

/** Every never-repeated operation of the records (and its `moneyWith` variant). */
export const SINGLE_WRITES: SingleWrite[] = Object.entries(RESOURCES).flatMap(
	([resource, { specs }]) =>
		Object.entries(specs)
			.filter(([, spec]) => spec.kind === 'singleWrite')
			.flatMap(([operation, spec]) => {
				const path = new RegExp(`^/v1${spec.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
				const sends = (request: { method: string; path: string }) =>
					request.method === spec.method && path.test(request.path);
				const name = `${resource} → ${operation}`;
				return [
					{ name, sends },
					...(spec.moneyWith ? [{ name: `${name} (${spec.moneyWith.name})`, sends }] : []),
				];
			}),
);

/**
 * The node parameters of a never-repeated operation: its contract case's, without its `moneyWith`
 * fields, or, for the variant named after them, the case that adds some of them. An operation
 * without such a case fails loudly.
 */
export function parametersOf(name: string): IDataObject {
	const [, resource, operation, variant] = /^(\S+) → (\S+?)(?: \((.*)\))?$/.exec(name) ?? [];
	const moneyWith = RESOURCES[resource]?.specs[operation]?.moneyWith;
	const cases = Object.values(CASES)
		.map(({ params }) => params)
		.filter((params) => params.resource === resource && params.operation === operation);
	const adds = (params: IDataObject) =>
		(moneyWith?.fields ?? []).some(
			(field) => field in ((params.additionalFields as IDataObject | undefined) ?? {}),
		);
	if (variant !== undefined) {
		const parameters = cases.find(adds);
		if (!parameters)
			throw new Error(
				`No parameters for the never-repeated operation ${name}: its case in test/helpers/operation-cases.ts adds none of ${moneyWith?.fields.join(', ')}`,
			);
		return parameters;
	}
	const [parameters] = cases;
	if (!parameters)
		throw new Error(
			`No parameters for the never-repeated operation ${name}: add its case to test/helpers/operation-cases.ts`,
		);
	if (!moneyWith || !adds(parameters)) return parameters;
	const additionalFields = Object.fromEntries(
		Object.entries(parameters.additionalFields as IDataObject).filter(
			([field]) => !moneyWith.fields.includes(field),
		),
	);
	return { ...parameters, additionalFields };
}
