/** Deposit and withdrawal assets (the node's `asset` resource). */
import { withdrawalAssetsInfo } from '../catalog';
import { ok } from '../http';
import type { Route } from './context';

export const assetRoutes: Route[] = [
	{
		method: 'GET',
		template: '/trades/assets',
		access: 'credentials',
		handle: (ctx) => ok('assets retrieved successfully', ctx.core.state.assets),
	},
	{
		method: 'GET',
		template: '/payments/supported-assets-info',
		access: 'credentials',
		handle: () => ok('data fetched', withdrawalAssetsInfo()),
	},
];
