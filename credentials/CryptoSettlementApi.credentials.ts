import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

/** Strips trailing slashes so `https://host/v1` and `https://host/v1/` behave the same. */
function normalizeBaseUrl(baseUrl: unknown): string {
	return String(baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/**
 * Why a credential cannot be used, naming the field, or undefined when it can: the base URL must be
 * an absolute http(s) URL without query, fragment or user info (they would corrupt every path or
 * leak), and Production must use https (the app secret and the PIN travel in every request).
 */
export function credentialProblem(credentials: {
	baseUrl?: unknown;
	environment?: unknown;
}): { field: string; message: string } | undefined {
	const text = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	const field = 'Base URL';
	const parts = /^(https?):\/\/([^/?#\s]+)(\/[^\s]*)?$/i.exec(text);
	if (!parts || !/^[a-z0-9.:[\]-]+$/i.test(parts[2].slice(parts[2].lastIndexOf('@') + 1))) {
		return {
			field,
			message:
				'The Base URL must be an absolute http:// or https:// URL, such as https://api.example.com/v1',
		};
	}
	if (text.includes('?') || text.includes('#')) {
		return { field, message: 'The Base URL must not contain a query (?…) or a fragment (#…)' };
	}
	if (parts[2].includes('@')) {
		return { field, message: 'The Base URL must not contain a user name or password' };
	}
	if (credentials.environment === 'production' && parts[1].toLowerCase() !== 'https') {
		return {
			field,
			message:
				'Production requires an https:// Base URL: over http:// the app secret and PIN would travel in clear text',
		};
	}
	return undefined;
}

export class CryptoSettlementApi implements ICredentialType {
	name = 'cryptoSettlementApi';

	displayName = 'Crypto Settlement API';

	icon: Icon = {
		light: 'file:../icons/cryptoSettlement.svg',
		dark: 'file:../icons/cryptoSettlement.dark.svg',
	};

	documentationUrl = 'https://github.com/crypto-settlement/n8n-nodes-crypto-settlement#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'App ID',
			name: 'appId',
			type: 'string',
			default: '',
			required: true,
			description: 'Application ID from the dashboard (Developers → API Credentials)',
		},
		{
			displayName: 'App Secret',
			name: 'appSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Application secret from the dashboard. Regenerating it there invalidates the old one at once.',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Sandbox', value: 'sandbox' },
				{ name: 'Production', value: 'production' },
			],
			default: 'sandbox',
			description:
				'Sent as the X-Service-Env header on every request. Production moves real money.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com/v1',
			description: 'API base URL including the version segment /v1. A trailing slash is fine.',
		},
		{
			displayName: 'Transaction PIN',
			name: 'pin',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'PIN set on the dashboard, used by withdrawals and currency swaps when the node does not set one',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Webhook verification secret from the dashboard; the trigger node compares it with the x-webhook-secret header of incoming webhooks',
		},
		{
			displayName:
				'Guardrails — set by the owner of this credential. They are checked before any withdrawal or swap is sent, for every workflow and AI agent that uses this credential; people who may only use it can neither see nor change them.',
			name: 'guardrailsNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Max per Withdrawal (USD)',
			name: 'maxPerWithdrawalUsd',
			// A fixed value: a guardrail read from an expression could change with the data it guards.
			noDataExpression: true,
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 0,
			description:
				"Largest single withdrawal or swap, in USD (0: no limit). Crypto and NGN/GHS amounts are valued at the service's current rate; an item that cannot be valued is refused.",
		},
		{
			displayName:
				'No limit per withdrawal (0): one withdrawal or swap may pay out any amount. Enter a USD amount to cap it.',
			name: 'noLimitPerWithdrawal',
			type: 'notice',
			default: '',
			displayOptions: { show: { maxPerWithdrawalUsd: [0] } },
		},
		{
			displayName: 'Max per Day (USD)',
			name: 'maxPerDayUsd',
			noDataExpression: true,
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 0,
			description:
				"Total per UTC day for this credential, in USD (0: no limit): today's withdrawals but the refunded ones, read from the service's own list, plus what the run is about to send",
		},
		{
			displayName:
				'No limit per day (0): a looping workflow or an agent may pay out the whole balance. Enter a USD amount to cap each UTC day.',
			name: 'noLimitPerDay',
			type: 'notice',
			default: '',
			displayOptions: { show: { maxPerDayUsd: [0] } },
		},
		{
			displayName: 'Allowed Destinations',
			name: 'destinations',
			noDataExpression: true,
			type: 'options',
			options: [
				{ name: 'Any Address', value: 'any' },
				{ name: 'Saved Payout Addresses Only', value: 'savedOnly' },
				{ name: 'Addresses Listed Below Only', value: 'allowList' },
			],
			default: 'any',
			description:
				"Where crypto withdrawals may go. Bank withdrawals always go to saved bank accounts. With either restriction, this credential cannot add or remove payout addresses or bank accounts, nor set a wallet's settlement bank, not even a new wallet's: manage them in the service's dashboard.",
		},
		{
			displayName:
				'Crypto may go to any address: a mistyped or injected address is paid. Choose saved payout addresses or a list to restrict it.',
			name: 'anyDestination',
			type: 'notice',
			default: '',
			displayOptions: { show: { destinations: ['any'] } },
		},
		{
			displayName: 'Allowed Addresses',
			name: 'allowedAddresses',
			noDataExpression: true,
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			placeholder:
				'e.g. USDT:TRC20:TXyz… (one a line; a bare address allows any token and network)',
			description:
				'One address a line, optionally as TOKEN:NETWORK:address (TOKEN::address for a token without networks, such as BTC)',
			displayOptions: { show: { destinations: ['allowList'] } },
		},
		{
			displayName: 'Require External ID in Production',
			name: 'requireExternalId',
			noDataExpression: true,
			type: 'boolean',
			default: true,
			description:
				'Whether a withdrawal with a Production credential needs a mapped External ID: a derived one changes with every execution, so a re-run or "Execute step" could pay again',
		},
		{
			displayName: 'Allow Agent Payments',
			name: 'allowAgentPayments',
			noDataExpression: true,
			type: 'boolean',
			default: false,
			description:
				"Whether the node used as an AI agent's tool may run withdrawals and swaps (every other guardrail still applies). Reads are always allowed.",
		},
		{
			displayName: 'Agent Payments Need Human Review',
			name: 'agentPaymentsNeedHumanReview',
			noDataExpression: true,
			type: 'boolean',
			default: true,
			description:
				"Whether an AI agent's withdrawal or swap goes only after a person approved that very call: the tool must reach the agent through one of n8n's human review steps for tools (n8n 2.x; on n8n 1.x agent payments are then refused). Off: agent payments need no review (every other guardrail still applies).",
			displayOptions: { show: { allowAgentPayments: [true] } },
		},
		{
			displayName: 'Allow Sub-Workflow Payments',
			name: 'allowSubWorkflowPayments',
			type: 'boolean',
			default: false,
			noDataExpression: true,
			description:
				"Whether a withdrawal or swap may run in a workflow started by another workflow (n8n's Execute Workflow node, an AI agent's Call n8n Workflow Tool, an error workflow). n8n does not tell the node which started it, so on, an AI agent pays through a sub-workflow whatever Allow Agent Payments says and without review; every other guardrail still applies.",
		},
		{
			displayName:
				"Payments in sub-workflows are allowed: any workflow or AI agent that can start a workflow holding this node can pay through it, without Allow Agent Payments or a person's review. Turn it on only if every workflow that may call these is trusted to pay.",
			name: 'subWorkflowPaymentsAllowed',
			type: 'notice',
			default: '',
			displayOptions: { show: { allowSubWorkflowPayments: [true] } },
		},
	];

	/**
	 * Applied in code rather than through `={{$credentials…}}` header expressions: the declarative
	 * engine would evaluate those for every item. Also supplies the base URL, so the node needs no
	 * per-item base URL expression either.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const problem = credentialProblem(credentials);
		if (problem)
			throw new Error(`Crypto Settlement API credential, ${problem.field}: ${problem.message}`);
		const relative = !/^https?:\/\//i.test(requestOptions.url ?? '');
		return {
			...requestOptions,
			baseURL:
				relative && !requestOptions.baseURL
					? normalizeBaseUrl(credentials.baseUrl)
					: requestOptions.baseURL,
			headers: {
				...requestOptions.headers,
				'x-app-id': String(credentials.appId ?? ''),
				'x-app-secret': String(credentials.appSecret ?? ''),
				'X-Service-Env': String(credentials.environment ?? 'sandbox'),
			},
		};
	}

	/** An authenticated list (docs/api.md), not a public rate endpoint, so a wrong pair fails here. */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "") }}',
			url: '/trades/wallets',
			method: 'GET',
			qs: { page: 1, size: 1 },
			// A redirect would carry the app secret to its target.
			disableFollowRedirect: true,
		},
		// n8n's credential dialog shows these instead of the bare HTTP status text ("Unauthorized").
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The service refused this App ID and App Secret (HTTP 401: wrong app id and secret combination). Copy both again from the dashboard (Developers → API Credentials), and check that Environment matches them: Sandbox keys do not work in Production, nor the reverse.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The App ID and App Secret were accepted, but this account has no API access (HTTP 403). Ask the service to enable API access for your integration, and check any IP allowlist on the dashboard.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answers at this Base URL (HTTP 404). It must be the API base including the version segment, such as https://api.example.com/v1.',
				},
			},
		],
	};
}
