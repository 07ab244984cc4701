/**
 * The route table: one file per resource of the node (nodes/CryptoSettlement/operations/), in the
 * order the table was always matched in. Paths are relative to /v1.
 */
import { accountRoutes } from './account';
import { assetRoutes } from './asset';
import { bankRoutes } from './bank';
import { bankAccountRoutes } from './bankAccount';
import type { Route } from './context';
import { currencyRoutes } from './currency';
import { mockDepositRoutes } from './mockDeposit';
import { payoutAddressRoutes } from './payoutAddress';
import { rateRoutes } from './rate';
import { transactionRoutes } from './transaction';
import { walletRoutes } from './wallet';
import { webhookEventRoutes } from './webhookEvent';
import { withdrawalRoutes } from './withdrawal';

export type { Context, Route } from './context';

export const routes: Route[] = [
	...accountRoutes,
	...assetRoutes,
	...walletRoutes,
	...withdrawalRoutes,
	...payoutAddressRoutes,
	...bankRoutes,
	...bankAccountRoutes,
	...transactionRoutes,
	...currencyRoutes,
	...rateRoutes,
	...webhookEventRoutes,
	...mockDepositRoutes,
];

/** One path segment against one template part: true when it matches (parameters are captured). */
function matchPart(part: string, segment: string, params: Record<string, string>): boolean {
	if (!(part.startsWith('{') && part.endsWith('}'))) return part === segment;
	if (!segment) return false;
	try {
		params[part.slice(1, -1)] = decodeURIComponent(segment);
	} catch {
		params[part.slice(1, -1)] = segment;
	}
	return true;
}

/** Matches a path (relative to /v1) against the route table. */
export function matchRoute(
	method: string,
	path: string,
):
	| { route: Route; params: Record<string, string> }
	| { route: undefined; params: Record<string, never> } {
	const segments = path.split('/');
	for (const route of routes) {
		if (route.method !== method) continue;
		const parts = route.template.split('/');
		if (parts.length !== segments.length) continue;
		const params: Record<string, string> = {};
		if (parts.every((part, index) => matchPart(part, segments[index], params)))
			return { route, params };
	}
	return { route: undefined, params: {} };
}
