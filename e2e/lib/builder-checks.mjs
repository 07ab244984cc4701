// Issue #73 in a real n8n 2.41.1: what an AI assistant building workflows meets through n8n's
// instance MCP server (Settings → MCP access; `/mcp-server/http`, Streamable HTTP, Bearer key), with
// a scripted MCP client and no model (docs/e2e.md, "The workflow builder check"):
//
//   1. search_nodes for each phrasing of e2e/lib/mcp-phrasings.json (the list docs/usage.md quotes):
//      a node of this package is among the first five results; the rank is printed per phrasing;
//   2. get_node_types for the action node narrowed to Withdrawal → Create Crypto: its size in
//      characters, and that Create Crypto's type declares the top-level `dryRun` once (the saved
//      workflows' `additionalFields.dryRun` only beside it, saying either one on means a dry run);
//   3. create_workflow_from_code: Manual Trigger → Crypto Settlement (Withdrawal → Create Crypto,
//      Dry Run on, the sandbox credential), run with execute_workflow, read with
//      get_workflow_execution: the output is the Dry Run with the fake API's figures, and no
//      withdrawal reaches the fake API.
//
// The MCP server is n8n 2.x only (1.123 has none): run on line 2, while `n8n start` runs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CREDENTIAL_ID, CREDENTIAL_NAME, sandboxApi } from '../../tooling/setup.mjs';
import { secs, sleep } from '../../tooling/util.mjs';
import { assert, check, say } from './report.mjs';
import { mcpClient, textOf } from './subworkflow-checks.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The phrasings, by job (docs/usage.md's table quotes exactly these: test/package/mcp-phrasings.test.ts). */
export const PHRASINGS = JSON.parse(
	fs.readFileSync(path.join(HERE, 'mcp-phrasings.json'), 'utf8'),
).jobs;

export const PACKAGE_PREFIX = 'n8n-nodes-crypto-settlement.';
const ACTION = `${PACKAGE_PREFIX}cryptoSettlement`;
/** n8n's search_nodes shows at most five nodes per query (searchNodeTypes(query, 5)). */
const TOP = 5;

const DRY_RUN = {
	amount: '40',
	address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
	externalId: 'mcp-builder-dry-run-1',
	node: 'Dry Run the Payout',
};

/**
 * search_nodes' text, per query: the nodes in the order shown, without the [RELATED] ones n8n adds
 * after a node (those are not search results). `## "<query>"` heads each query's part.
 */
export function searchRanks(text, queries) {
	const parts = text.split(/\n\n---\n\n/);
	const byQuery = new Map();
	for (const part of parts) {
		const heading = /^## "(.*)"\n/.exec(part);
		if (!heading) continue;
		const nodes = [...part.matchAll(/^- (\S+)((?: \[[A-Z]+\])*)$/gm)]
			.filter((m) => !m[2].includes('[RELATED]'))
			.map((m) => m[1]);
		byQuery.set(heading[1], nodes);
	}
	return queries.map((query) => {
		const nodes = byQuery.get(query);
		const index = nodes ? nodes.findIndex((id) => id.startsWith(PACKAGE_PREFIX)) : -1;
		return {
			query,
			nodes: nodes ?? [],
			rank: index < 0 ? undefined : index + 1,
			found: nodes?.[index],
		};
	});
}

/** The body of one `export type <name> = { … };` of a generated type file. */
export function typeBlock(text, name) {
	const start = text.indexOf(`export type ${name} = {`);
	if (start < 0) return undefined;
	const end = text.indexOf('\n};', start);
	return text.slice(start, end < 0 ? undefined : end + 3);
}

/** Where a generated type declares `dryRun`: its path in the parameters (`dryRun`, `additionalFields.dryRun`). */
export function dryRunDeclarations(block) {
	const found = [];
	const stack = [];
	for (const line of block.split('\n').slice(1)) {
		const open = /^\s*'?([A-Za-z_$][\w$]*)'?\??:\s*\{\s*$/.exec(line);
		if (open) {
			stack.push(open[1]);
			continue;
		}
		if (/^\s*\};?\s*$/.test(line)) {
			stack.pop();
			continue;
		}
		if (/^\s*dryRun\??:/.test(line)) found.push([...stack, 'dryRun'].join('.'));
	}
	return found;
}

const withdrawalPosts = (sandbox, from) =>
	sandbox.requests
		.slice(from)
		.filter((r) => r.method === 'POST' && /\/payments\/withdraw\//.test(r.path));

/** The workflow an assistant would write with n8n's workflow SDK (create_workflow_from_code). */
export function dryRunWorkflowCode() {
	return `import { workflow, node, trigger, newCredential } from '@n8n/workflow-sdk';

const start = trigger({
  type: 'n8n-nodes-base.manualTrigger',
  version: 1,
  config: { name: 'Start', position: [0, 0] }
});

const dryRunPayout = node({
  type: '${ACTION}',
  version: 1,
  config: {
    name: '${DRY_RUN.node}',
    position: [240, 0],
    parameters: {
      resource: 'withdrawal',
      operation: 'createCrypto',
      dryRun: true,
      token: 'USDT',
      network: 'TRC20',
      walletAddress: '${DRY_RUN.address}',
      amountType: 'usd',
      amount: '${DRY_RUN.amount}',
      externalId: '${DRY_RUN.externalId}'
    },
    credentials: { cryptoSettlementApi: newCredential('${CREDENTIAL_NAME}', '${CREDENTIAL_ID}') },
    output: [{ dryRun: true, message: 'Dry run: every check passed; nothing was sent' }]
  }
});

export default workflow('mcp-dry-run', 'e2e: a Dry Run built through the MCP server')
  .add(start)
  .to(dryRunPayout);
`;
}

/** The key of the instance MCP server: GET creates it the first time; once made it is shown redacted, so rotate then. */
async function mcpKey(n8n) {
	const got = await n8n.rest('GET', '/mcp/api-key');
	if (got?.apiKey && !got.apiKey.includes('*'))
		return { key: got.apiKey, how: 'GET /rest/mcp/api-key' };
	const rotated = await n8n.rest('POST', '/mcp/api-key/rotate');
	assert(
		rotated?.apiKey && !rotated.apiKey.includes('*'),
		`no key from POST /rest/mcp/api-key/rotate: ${JSON.stringify(rotated).slice(0, 200)}`,
	);
	return { key: rotated.apiKey, how: 'POST /rest/mcp/api-key/rotate (GET showed it redacted)' };
}

/** A tool's answer: its structured content when given, else its text parsed as JSON when it is JSON. */
function structured(result) {
	if (result?.structuredContent) return result.structuredContent;
	try {
		return JSON.parse(textOf(result));
	} catch {
		return undefined;
	}
}

/** Phase 2 on n8n 2.x (n8n running, the owner logged in): the three steps of an assistant's build. */
export async function builderChecks({ n8n, sandbox, artifacts }) {
	const t0 = Date.now();
	let client;
	let tools = [];
	const connected = await check(
		"instance MCP server: access turned on (PATCH /rest/mcp/settings), a key, and the builder's tools listed",
		async () => {
			const settings = await n8n.rest('PATCH', '/mcp/settings', { mcpAccessEnabled: true });
			assert(
				settings?.mcpAccessEnabled === true,
				`PATCH /rest/mcp/settings answered ${JSON.stringify(settings)}`,
			);
			const { key, how } = await mcpKey(n8n);
			client = mcpClient(`${n8n.baseUrl}/mcp-server/http`, {
				headers: { authorization: `Bearer ${key}` },
				timeoutMs: 120_000,
			});
			await client.connect();
			tools = await client.tools();
			const names = tools.map((tool) => tool.name);
			const missing = [
				'search_nodes',
				'get_node_types',
				'create_workflow_from_code',
				'execute_workflow',
				'get_workflow_execution',
			].filter((name) => !names.includes(name));
			assert(!missing.length, `tools missing: ${missing.join(', ')}; listed: ${names.join(', ')}`);
			return `key by ${how}; ${names.length} tools`;
		},
	);
	if (!connected) return;

	// 1. search_nodes, all phrasings in one call (as a model asks: the tool takes a list of queries)
	const queries = PHRASINGS.flatMap(({ phrasings }) => phrasings);
	let ranks;
	const searched = await check(
		`search_nodes answered the ${queries.length} phrasings of e2e/lib/mcp-phrasings.json`,
		async () => {
			const text = textOf(await client.call('search_nodes', { queries }));
			ranks = searchRanks(text, queries);
			const unanswered = ranks.filter((r) => !r.nodes.length).map((r) => r.query);
			assert(
				ranks.length === queries.length,
				`parsed ${ranks.length} of ${queries.length} queries`,
			);
			return `${text.length} characters; ${unanswered.length ? `no node at all for ${JSON.stringify(unanswered)}` : 'every phrasing found nodes'}`;
		},
	);
	if (searched) {
		for (const { job, phrasings } of PHRASINGS) {
			for (const phrasing of phrasings) {
				const r = ranks.find((x) => x.query === phrasing);
				await check(
					`search_nodes "${phrasing}" (${job}): a node of this package among the first ${TOP}`,
					async () => {
						assert(
							r.rank && r.rank <= TOP,
							`not in n8n's results; they were ${JSON.stringify(r.nodes)}`,
						);
						return `rank ${r.rank} (${r.found.slice(PACKAGE_PREFIX.length)})${r.rank > 1 ? `, after ${r.nodes.slice(0, r.rank - 1).join(', ')}` : ''}`;
					},
				);
			}
		}
		say(`     search_nodes ranks: ${ranks.map((r) => `"${r.query}" ${r.rank ?? '-'}`).join('; ')}`);
	}

	// 2. get_node_types narrowed to Withdrawal → Create Crypto
	await check(
		"get_node_types for Withdrawal → Create Crypto: its size, and `dryRun` declared once in Create Crypto's type",
		async () => {
			const request = { nodeId: ACTION, resource: 'withdrawal', operation: 'createCrypto' };
			const result = await client.call('get_node_types', { nodeIds: [request] });
			const text = textOf(result);
			assert(
				!result.isError && text.includes('CryptoSettlementV1WithdrawalCreateCryptoParams'),
				`get_node_types answered: ${text.slice(0, 400)}`,
			);
			if (artifacts) fs.writeFileSync(path.join(artifacts, 'get-node-types-createCrypto.ts'), text);
			const operationTypes = [
				...text.matchAll(/^export type CryptoSettlementV1(\w+)Params = \{/gm),
			].map((m) => m[1]);
			const block = typeBlock(text, 'CryptoSettlementV1WithdrawalCreateCryptoParams');
			const declared = dryRunDeclarations(block);
			say(
				`     get_node_types ${JSON.stringify(request)}: ${text.length} characters in all; ${operationTypes.length} operation types ` +
					`(${operationTypes.length > 1 ? "the whole node: the discriminators narrow only the built-in nodes' definitions" : 'Create Crypto only'}); ` +
					`Create Crypto's type ${block.length} characters; dryRun declared at ${JSON.stringify(declared)}`,
			);
			// The one Dry Run is the top-level field. n8n's type generator also lists the collection option
			// kept for saved workflows (the contract lets a workflow set it there, and n8n drops an undeclared
			// option: the saved dry run would pay), which the editor shows only while set; its description
			// says either one on means a dry run, so a model cannot pay by picking the wrong one
			// (docs/usage.md, "Dry Run, one field").
			assert(
				declared.filter((at) => at === 'dryRun').length === 1,
				`Create Crypto's type declares the top-level dryRun ${declared.filter((at) => at === 'dryRun').length} times`,
			);
			assert(
				declared.every((at) => at === 'dryRun' || at === 'additionalFields.dryRun'),
				`Create Crypto's type declares dryRun at ${declared.join(', ')}`,
			);
			assert(
				!declared.includes('additionalFields.dryRun') ||
					/either Dry Run on means a dry run/i.test(block),
				"the saved workflows' Dry Run does not say that either one on means a dry run",
			);
			return `${text.length} characters (${operationTypes.length} operation types); Create Crypto's type ${block.length}; dryRun declared at ${declared.join(', ')}`;
		},
	);

	// 3. create_workflow_from_code, then run it
	const before = sandbox.requests.length;
	let workflowId;
	const created = await check(
		'create_workflow_from_code: Manual Trigger → Crypto Settlement (Withdrawal → Create Crypto, Dry Run on, the sandbox credential)',
		async () => {
			const schema =
				tools.find((tool) => tool.name === 'create_workflow_from_code')?.inputSchema ?? {};
			const required = schema.required ?? [];
			assert(
				required.includes('code'),
				`create_workflow_from_code's input schema: ${JSON.stringify(schema).slice(0, 300)}`,
			);
			const args = { code: dryRunWorkflowCode(), versionName: 'Dry run of a USDT payout' };
			for (const name of required)
				assert(
					name in args,
					`create_workflow_from_code requires ${name}, which this check does not give`,
				);
			const result = await client.call('create_workflow_from_code', args);
			const out = structured(result);
			assert(
				!result.isError && out?.workflowId,
				`create_workflow_from_code answered: ${textOf(result).slice(0, 600)}`,
			);
			workflowId = out.workflowId;
			const saved = await n8n.rest('GET', `/workflows/${workflowId}`);
			const payout = saved.nodes.find((node) => node.type === ACTION);
			assert(
				payout?.parameters?.dryRun === true && payout.parameters.operation === 'createCrypto',
				`saved node: ${JSON.stringify(payout).slice(0, 400)}`,
			);
			assert(
				payout.credentials?.cryptoSettlementApi?.id === CREDENTIAL_ID,
				`saved credential: ${JSON.stringify(payout.credentials)}`,
			);
			const warnings = (out.warnings ?? []).map((w) => w.code).join(', ');
			return `workflow ${workflowId}, ${out.nodeCount} nodes, credential ${CREDENTIAL_NAME}${warnings ? `; warnings: ${warnings}` : ''}`;
		},
	);
	if (!created) return;

	await check(
		"the built workflow run (execute_workflow, manual): the Dry Run with the fake API's figures, and no withdrawal sent",
		async () => {
			const started = structured(
				await client.call('execute_workflow', { workflowId, executionMode: 'manual' }),
			);
			assert(started?.executionId, `execute_workflow answered ${JSON.stringify(started)}`);
			let execution;
			const deadline = Date.now() + 60_000;
			for (;;) {
				execution = structured(
					await client.call('get_workflow_execution', {
						workflowId,
						executionId: String(started.executionId),
						includeData: true,
					}),
				);
				if (
					execution?.execution &&
					!['new', 'running', 'waiting'].includes(execution.execution.status)
				)
					break;
				assert(
					Date.now() < deadline,
					`execution ${started.executionId} still ${execution?.execution?.status} after 60 s`,
				);
				await sleep(500);
			}
			assert(
				execution.execution.status === 'success',
				`execution ${started.executionId}: ${execution.execution.status} ${JSON.stringify(execution.data ?? execution.error).slice(0, 600)}`,
			);
			const runData =
				execution.data?.resultData?.runData ?? execution.data?.runData ?? execution.data;
			const item = runData?.[DRY_RUN.node]?.[0]?.data?.main?.[0]?.[0]?.json;
			assert(item, `no output of ${DRY_RUN.node}: ${JSON.stringify(execution.data).slice(0, 600)}`);
			assert(
				item.dryRun === true && item.externalId === DRY_RUN.externalId,
				`output: ${JSON.stringify(item).slice(0, 600)}`,
			);
			// The figures, as the fake API quotes them (a fee estimate is a read) for the account's fee bearer
			const quote = await sandboxApi(sandbox, 'POST', '/payments/estimate-network-fee', {
				token: 'USDT',
				network: 'TRC20',
				walletAddress: DRY_RUN.address,
				amount: Number(DRY_RUN.amount),
			});
			const amount = Number(DRY_RUN.amount);
			const bearer = sandbox.state.account.withdrawalFeeBearer;
			const usd = (value) => `${value.toFixed(2)} USD`;
			const expected =
				bearer === 'business'
					? {
							leavesBalance: usd(amount + quote.fee),
							recipientReceives: `${usd(amount)} in USDT on TRC20`,
						}
					: {
							leavesBalance: usd(amount),
							recipientReceives: `${usd(amount - quote.fee)} in USDT on TRC20`,
						};
			const { payout } = item;
			assert(
				payout?.fee === quote.fee &&
					payout.leavesBalance === expected.leavesBalance &&
					payout.recipientReceives === expected.recipientReceives,
				`payout ${JSON.stringify(payout)}; the fake API quotes a fee of ${quote.fee} USD, fee bearer ${bearer}: expected ${JSON.stringify(expected)}`,
			);
			const sent = withdrawalPosts(sandbox, before);
			assert(
				!sent.length,
				`withdrawal requests reached the fake API: ${JSON.stringify(sent.map((r) => [r.path, r.body?.externalId]))}`,
			);
			assert(
				!sandbox.state.withdrawals.some((w) => w.externalId === DRY_RUN.externalId),
				"the fake API holds a withdrawal under the Dry Run's External ID",
			);
			return `"${payout.summary}"; no withdrawal sent (MCP checks ${secs(Date.now() - t0)} in all)`;
		},
	);
}
