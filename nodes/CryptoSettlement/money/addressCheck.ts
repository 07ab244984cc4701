import type { IExecuteSingleFunctions } from 'n8n-workflow';
import type { ApiRequest, HttpCall } from '../../service/api';
import { ROUTES } from '../../service/routes';
import { callApi } from '../../service/transport';
import { contextForItem } from '../engine/engine';
import { addressName, sameAddress } from '../fields/addresses';
import { violation } from '../fields/rules';
import { Params } from '../record/params';
import type { AddressCheck, OperationSpec } from '../record/record';

/** Service checks of one batch in flight at once. */
const CHECKS_IN_FLIGHT = 4;

/**
 * The service's own check (Payout Address → Validate) of each row's payout address whose form the node
 * cannot decide, before any row of the batch is sent (docs/addresses.md): a refusal or no usable answer
 * makes the row invalid (fail closed). The same address, token and network is asked once per batch.
 */
export async function checkAddressesWithService(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	spec: OperationSpec,
	rows: Array<{ index: number; check: AddressCheck }>,
): Promise<Map<number, Error>> {
	const verdicts = new Map<string, Promise<string | undefined>>();
	const keyOf = (check: AddressCheck) =>
		JSON.stringify([check.token, check.network ?? '', check.address]);
	const queue = [...new Map(rows.map((row) => [keyOf(row.check), row])).values()];
	const workers = Array.from({ length: Math.min(CHECKS_IN_FLIGHT, queue.length) }, async () => {
		for (let row = queue.shift(); row; row = queue.shift()) {
			const verdict = askService(contextForItem(ctx, row.index), http, row.check);
			verdicts.set(keyOf(row.check), verdict);
			await verdict;
		}
	});
	await Promise.all(workers);
	const refused = new Map<number, Error>();
	for (const { index, check } of rows) {
		const problem = await verdicts.get(keyOf(check));
		if (problem === undefined) continue;
		try {
			const rule = violation(check.field, `${check.field} ${problem}`, check.address);
			new Params(contextForItem(ctx, index), spec).assert(rule);
		} catch (error) {
			refused.set(index, error as Error);
		}
	}
	return refused;
}

/** What the service's check answers in `data` (docs/api.md: the address, token and network it checked, echoed). */
interface AddressEcho {
	valid?: unknown;
	address?: unknown;
	token?: unknown;
	network?: unknown;
}

/**
 * Undefined when a "valid" answer names the address, token and network asked (a coin without
 * networks: none); otherwise what it named instead, or that it named nothing to compare (fail
 * closed: docs/addresses.md, "What the service's answer must name").
 */
function echoProblem(check: AddressCheck, data: AddressEcho): string | undefined {
	const named = (value: unknown) =>
		typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
	const [address, token, network] = [named(data.address), named(data.token), named(data.network)];
	if (address === undefined) return 'answered valid without naming the address it checked';
	if (!sameAddress(check.address, address))
		return `answered valid for the address "${address}" instead`;
	if (token === undefined) return 'answered valid without naming the token it checked';
	if (token.toUpperCase() !== check.token.toUpperCase())
		return `answered valid for the token "${token}" instead`;
	if (check.network !== undefined && network === undefined)
		return 'answered valid without naming the network it checked';
	if (network !== undefined && network.toUpperCase() !== (check.network ?? '').toUpperCase())
		return `answered valid for the network "${network}" instead`;
	return undefined;
}

/** Undefined when the service says the address is valid; otherwise the rule, worded for the row's error. */
async function askService(
	ctx: IExecuteSingleFunctions,
	http: HttpCall,
	check: AddressCheck,
): Promise<string | undefined> {
	const what = addressName(check.token, check.network);
	const { path } = ROUTES.validateAddress;
	const request: ApiRequest = {
		method: 'POST',
		route: path,
		url: path,
		body: {
			address: check.address,
			token: check.token,
			...(check.network ? { network: check.network } : {}),
		},
	};
	const asked = `the service's address check (Payout Address → Validate), asked because ${check.why}`;
	try {
		const response = await callApi(ctx, http, request, 'safe');
		const data = response.body.data as AddressEcho | undefined;
		if (
			response.statusCode === 200 &&
			response.json &&
			response.body.success !== false &&
			data?.valid === true
		) {
			const other = echoProblem(check, data);
			return (
				other &&
				`could not be checked as a ${what}: ${asked}, ${other} (an answer about another address passes nothing); run the node again, and check the credential's Base URL if it persists`
			);
		}
		if (response.statusCode === 422 || (response.statusCode === 200 && data?.valid === false)) {
			const said =
				response.body.errors?.find((entry) => entry.field === 'address')?.message ??
				response.body.errors?.[0]?.message ??
				response.body.message ??
				'invalid wallet address';
			return `is not a ${what}: ${asked}, answered "${said}"`;
		}
		return `could not be checked as a ${what}: ${asked}, answered HTTP ${response.statusCode}${response.body.message ? ` "${response.body.message}"` : ''}; run the node again when the service answers`;
	} catch (error) {
		return `could not be checked as a ${what}: ${asked}, got no answer (${(error as Error).message}); run the node again when the service answers`;
	}
}
