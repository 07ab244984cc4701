import {
	NodeApiError,
	type IDataObject,
	type ILoadOptionsFunctions,
	type INodeListSearchResult,
	type INodePropertyOptions,
	type JsonObject,
} from 'n8n-workflow';
import type { Envelope } from './types';

/**
 * Choices for the editor's dropdowns and resource locators. A failing call raises the service's
 * own message (which n8n shows in the dropdown), never the request, which holds the credentials.
 */
async function fetchList(ctx: ILoadOptionsFunctions, url: string, qs: IDataObject = {}): Promise<IDataObject[]> {
	let response: { statusCode: number; body: Envelope };
	try {
		response = await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'cryptoSettlementApi', {
			method: 'GET',
			url,
			qs,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		});
	} catch (error) {
		const reason = (error as { code?: string; message?: string }).code ?? 'no answer';
		throw new NodeApiError(ctx.getNode(), { message: reason }, { message: `Could not load the list: ${reason}` });
	}
	const body: Envelope = response.body && typeof response.body === 'object' ? response.body : {};
	if (response.statusCode >= 400 || body.success === false) {
		const message = `${body.message || 'request failed'} (HTTP ${response.statusCode})`;
		throw new NodeApiError(ctx.getNode(), { message, httpCode: String(response.statusCode) } as JsonObject, {
			message: `Could not load the list: ${message}`,
			httpCode: String(response.statusCode),
		});
	}
	return Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

export async function getDepositAssets(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const assets = await fetchList(this, '/trades/assets');
	return assets
		.map((asset) => ({
			name: `${text(asset.name)} (${text(asset.symbol)}${asset.network ? ` on ${text(asset.network)}` : ''})`,
			value: text(asset.id ?? asset._id),
			description: asset.identifier ? `Identifier ${text(asset.identifier)}` : undefined,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** Banks of the chosen currency; where the operation has no currency, NGN and GHS banks together. */
export async function getBanks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const chosen = this.getCurrentNodeParameter('currency') as string | undefined;
	const currencies = chosen ? [chosen] : ['ngn', 'ghs'];
	const lists = await Promise.all(
		currencies.map(async (currency) =>
			(await fetchList(this, '/payments/banks', { currency })).map((bank) => ({ bank, currency })),
		),
	);
	return lists
		.flat()
		.map(({ bank, currency }) => ({
			name: chosen ? text(bank.name) : `${text(bank.name)} (${currency.toUpperCase()})`,
			value: text(bank.id),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

async function searchPaged(
	ctx: ILoadOptionsFunctions,
	url: string,
	toResult: (record: IDataObject) => { name: string; value: string },
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const response = await ctx.helpers.httpRequestWithAuthentication
		.call(ctx, 'cryptoSettlementApi', {
			method: 'GET',
			url,
			qs: { page, size: 100 },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})
		.catch((error: { code?: string }) => {
			throw new NodeApiError(
				ctx.getNode(),
				{ message: error.code ?? 'no answer' },
				{ message: `Could not load the list: ${error.code ?? 'no answer'}` },
			);
		});
	const body: Envelope = response.body && typeof response.body === 'object' ? response.body : {};
	if (response.statusCode >= 400 || body.success === false) {
		const message = `${body.message || 'request failed'} (HTTP ${response.statusCode})`;
		throw new NodeApiError(ctx.getNode(), { message } as JsonObject, {
			message: `Could not load the list: ${message}`,
		});
	}
	const records = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
	return {
		results: records.map(toResult),
		paginationToken: body.meta?.hasNextPage ? String(page + 1) : undefined,
	};
}

export async function searchWallets(
	this: ILoadOptionsFunctions,
	_filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	return await searchPaged(
		this,
		'/trades/wallets',
		(wallet) => ({
			name: `${text(wallet.label) || text(wallet.id)} — ${text(wallet.name)} ${text(wallet.address)}`.trim(),
			value: text(wallet.id),
		}),
		token,
	);
}

export async function searchBankAccounts(
	this: ILoadOptionsFunctions,
	_filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	return await searchPaged(
		this,
		'/payments/integration-banks',
		(account) => ({
			name: `${text(account.bankName)} ${text(account.accountNumber)} — ${text(account.accountName)}`.trim(),
			value: text(account.id),
		}),
		token,
	);
}

export async function searchPayoutAddresses(this: ILoadOptionsFunctions): Promise<INodeListSearchResult> {
	const addresses = await fetchList(this, '/payments/wallet-addresses');
	return {
		results: addresses.map((address) => ({
			name: `${text(address.label) || text(address.address)} — ${text(address.token)}${address.network ? ` ${text(address.network)}` : ''}`,
			value: text(address.id ?? address._id),
		})),
	};
}
