/** The editor's dropdown and resource-locator lists, asked of the action node as n8n asks them. */
import { ExecutionLifecycleHooks, LoadOptionsContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type INodeListSearchResult,
	type INodeParameters,
	type INodePropertyOptions,
	type IWorkflowBase,
} from 'n8n-workflow';
import { HarnessCredentialsHelper } from './credentials';
import { ACTION_NODE, CREDENTIAL_TYPE, loadPackage } from './package';
import { actionWorkflow, createAdditionalData } from './run';

export interface EditorListRequest {
	/** A `methods.loadOptions` or `methods.listSearch` method of the action node. */
	method: string;
	/** The node's parameters as the editor holds them when it asks. */
	parameters: INodeParameters;
	/** The selected credential's data; `null`: the node has none selected; 'unreadable': n8n cannot read it. */
	credentials: ICredentialDataDecryptedObject | null | 'unreadable';
	/** For list search: the text typed in the search box and the token of the next page. */
	filter?: string;
	paginationToken?: string;
}

/**
 * Asks the action node for an editor list the way n8n's DynamicNodeParametersService does (the
 * REST call behind a dropdown or a resource locator): a temporary node holding the current
 * parameters and the credential, and the method called on n8n-core's LoadOptionsContext.
 */
export async function loadEditorList(
	request: EditorListRequest,
): Promise<INodePropertyOptions[] | INodeListSearchResult> {
	const { nodeTypes, credentialType } = await loadPackage();
	const nodeType = nodeTypes.getByNameAndVersion(ACTION_NODE, 1);
	const { loadOptions = {}, listSearch = {} } = nodeType.methods ?? {};
	const node = actionWorkflow(request.parameters).nodes[0];
	node.name = 'Temp-Node';
	if (request.credentials === null) delete node.credentials;
	const workflow = new Workflow({ nodes: [node], connections: {}, nodeTypes, active: false });
	const hooks = new ExecutionLifecycleHooks('internal', 'harness-editor', {} as IWorkflowBase);
	const credentialsHelper = new HarnessCredentialsHelper(
		{ [CREDENTIAL_TYPE]: credentialType },
		// Without the type's data the harness's credentials helper fails to decrypt, as n8n's may.
		request.credentials && request.credentials !== 'unreadable'
			? { [CREDENTIAL_TYPE]: request.credentials }
			: {},
	);
	const additionalData = createAdditionalData({
		hooks,
		credentialsHelper,
		executionId: 'harness-editor',
		currentNodeParameters: request.parameters,
	});
	const context = new LoadOptionsContext(
		workflow,
		node,
		additionalData,
		`parameters.${request.method}`,
	);
	if (loadOptions[request.method]) return await loadOptions[request.method].call(context);
	if (listSearch[request.method]) {
		return await listSearch[request.method].call(context, request.filter, request.paginationToken);
	}
	throw new Error(`the action node has no editor list method ${request.method}`);
}
