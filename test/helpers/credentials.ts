/**
 * A credentials helper that applies the credential type's declared `authenticate` (function or
 * generic), unlike n8n's own test helper, so request headers are exactly what n8n would send.
 */
import {
	ICredentialsHelper,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeProperties,
	type IWorkflowExecuteAdditionalData,
	type Workflow,
} from 'n8n-workflow';

/** Resolves `={{ $credentials.x }}`-style values of a generic `authenticate` with n8n's own expression engine. */
function resolveWithCredentials(
	value: unknown,
	credentials: ICredentialDataDecryptedObject,
	workflow: Workflow | undefined,
	node: INode | undefined,
): unknown {
	if (typeof value !== 'string' || !value.startsWith('=') || !workflow || !node) return value;
	return workflow.expression.getParameterValue(value, null, 0, 0, node.name, [], 'internal', {
		$credentials: credentials,
	});
}

/** Applies the credential type's declared authentication, as n8n's CredentialsHelper does. */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.types[typeName]?.authenticate;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const options: IHttpRequestOptions = { ...requestOptions };
		for (const [target, values] of Object.entries(authenticate.properties)) {
			const key = target as 'headers' | 'qs' | 'body';
			const resolved: IDataObject = {};
			for (const [name, value] of Object.entries(values as IDataObject)) {
				resolved[name] = resolveWithCredentials(
					value,
					credentials,
					workflow,
					node,
				) as IDataObject[string];
			}
			options[key] = { ...((options[key] as IDataObject) ?? {}), ...resolved };
		}
		return options;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by the harness');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const found = this.credentials[type];
		if (!found) throw new Error(`no credentials of type ${type} were given to the harness`);
		return { ...found };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}

/** The Crypto Settlement API credential of a running fake API's sandbox account, with `extra` fields (a PIN). */
export const sandboxCredentials = (
	api: { appId: string; appSecret: string; url: string },
	extra: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject => ({
	appId: api.appId,
	appSecret: api.appSecret,
	environment: 'sandbox',
	baseUrl: api.url,
	...extra,
});
