/**
 * Workflow-test harness: runs workflows through n8n-core's real WorkflowExecute with the package
 * loaded from dist/ by n8n-core's PackageDirectoryLoader, the way n8n loads community packages.
 *
 * Unlike n8n's own test helper, the credentials helper applies the credential type's declared
 * `authenticate` (function or generic), so request headers are exactly what n8n would send.
 * HTTP is left to the caller (nock, or the local sandbox).
 */
export { testCredential, type CredentialTestResult } from './credential-test';
export { HarnessCredentialsHelper } from './credentials';
export { loadEditorList, type EditorListRequest } from './editor-list';
export {
	ACTION_NODE,
	CREDENTIAL_TYPE,
	HarnessNodeTypes,
	loadPackage,
	PACKAGE_NAME,
	PACKAGE_ROOT,
	TRIGGER_NODE,
	type LoadedPackage,
} from './package';
export {
	actionWorkflow,
	createAdditionalData,
	runWorkflow,
	serializeRun,
	type RunOptions,
	type RunResult,
} from './run';
