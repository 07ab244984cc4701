/** Saved payout addresses (the node's `payoutAddress` resource). */
import { imageOf, isStablecoin } from '../catalog';
import { assertValid, ok, type Violation } from '../http';
import type { PayoutAddress } from '../types';
import { deleteRecordRoute, type Route } from './context';
import {
	isBlank,
	isWalletAddress,
	optionalString,
	requiredString,
	text,
	tokenNetworkFee,
} from './validation';

/** docs/api.md, "Field rules": an unsupported token/network pair is reported as an invalid address. */
function addressViolations(body: Record<string, unknown>): Violation[] {
	const violations: Violation[] = [];
	violations.push(...requiredString('address', body.address));
	const pair = tokenNetworkFee(body, 'optional');
	// An unsupported pair is not a network entry here but an invalid address (docs/api.md).
	const pairUnsupported = pair.some(
		(violation) =>
			violation.field === 'network' && !isBlank(body.network) && isStablecoin(body.token),
	);
	violations.push(
		...pair.filter((violation) => !(pairUnsupported && violation.field === 'network')),
	);
	const tokenOk = !pair.some((violation) => violation.field === 'token');
	const addressGiven = !isBlank(body.address) && typeof body.address === 'string';
	if (
		pairUnsupported ||
		(tokenOk &&
			addressGiven &&
			!pair.length &&
			!isWalletAddress(body.address, body.token, body.network))
	) {
		violations.push({ field: 'address', message: 'invalid wallet address', value: body.address });
	}
	return violations;
}

export const payoutAddressRoutes: Route[] = [
	{
		method: 'POST',
		template: '/payments/wallet-addresses/validate',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid(addressViolations(body));
			const data: Record<string, unknown> = { address: body.address, token: body.token };
			if (isStablecoin(body.token)) data.network = body.network;
			data.valid = true;
			return ok('wallet address is valid', data);
		},
	},
	{
		method: 'POST',
		template: '/payments/wallet-addresses',
		access: 'credentials',
		handle: (ctx) => {
			const { body } = ctx;
			assertValid([...addressViolations(body), ...optionalString('label', body.label)]);
			const address = (body.address as string).trim();
			const token = body.token as string;
			const network = isStablecoin(token) ? (body.network as string) : undefined;
			const label = text(body.label) ?? '';
			const { state } = ctx.core;
			const now = ctx.core.iso();
			const existing = state.payoutAddresses.find(
				(candidate) =>
					candidate.address === address &&
					candidate.token === token &&
					candidate.network === network,
			);
			if (existing) {
				existing.label = label;
				existing.updatedAt = now;
				return ok('wallet address updated successfully', existing);
			}
			const id = ctx.core.newId();
			const record: PayoutAddress = {
				_id: id,
				id,
				createdAt: now,
				updatedAt: now,
				user: state.account.user,
				address,
				...(network ? { network } : {}),
				token,
				label,
				avatar: imageOf(token),
				isBusiness: true,
				integration: state.account.id,
			};
			state.payoutAddresses.push(record);
			return ok('wallet address added successfully', record);
		},
	},
	{
		method: 'GET',
		template: '/payments/wallet-addresses',
		access: 'credentials',
		handle: (ctx) => ok('data fetched', [...ctx.core.state.payoutAddresses].reverse()),
	},
	deleteRecordRoute({
		template: '/payments/wallet-addresses/{payoutAddressId}',
		records: (ctx) => ctx.core.state.payoutAddresses,
		missing: 'wallet address not found',
		message: 'wallet address deleted successfully',
	}),
];
