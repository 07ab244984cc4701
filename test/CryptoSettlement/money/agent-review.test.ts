/**
 * Agent payments with a person's approval (issue #35), through n8n-core's real WorkflowExecute
 * against a local HTTP server. The agent is scripted but asks the engine to run its tools exactly
 * as n8n's AI Agent (v3) does: an engine request per tool call, with `parentNodeName` set to the
 * human review node once a person approved a gated call (n8n's processHitlResponses), so the
 * engine itself sets the run's source the node reads.
 */
import type {
	EngineRequest,
	EngineResponse,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { ACTION_NODE, CREDENTIAL_TYPE, loadPackage, runWorkflow } from '../../helpers';
import { CREDENTIALS, serversClosedAfterEach } from '../../helpers/node';
import { envelope, localService, withdrawalService } from '../../helpers/local-service';

const AGENT = 'AI Agent';
const REVIEW = 'Review by Email';
const GATED = 'Pay Supplier';
const UNGATED = 'Pay Supplier (no review)';
const TOOL_TYPE = `${ACTION_NODE}Tool`;
const REVIEW_TYPE = 'n8n-nodes-base.emailSendHitlTool';

const REVIEW_REFUSAL =
	'A person must approve payments: add a human review step between this tool and the agent. Nothing was sent.';
/** A tool with its review step, run without a person's approval (a manual run, or the agent's call not passing through it). */
const NOT_APPROVED = `This call was not approved by a person, so nothing was sent: a payment by this tool goes only when a person approved that very call in its review step ('${REVIEW}'), and a manual run of the tool never is.`;
const AGENT_OFF =
	'This tool may not move money: the owner of the credential has not allowed AI agents to make payments. Ask a person to make this payment.';

/** One tool call of the scripted agent: which tool, its arguments, and the node the engine names as its source. */
interface Call {
	tool: string;
	args: IDataObject;
	/** Set as n8n's agent does after a person approved a gated call: the review node's name. */
	approvedBy?: string;
}

/** The agent: one engine request per call, in order; then it outputs what each tool run gave back. */
function scriptedAgent(calls: Call[]): INodeType {
	return {
		description: {
			displayName: 'Scripted Agent',
			name: 'scriptedAgent',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: AGENT },
			inputs: ['main', 'ai_tool'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions, response?: EngineResponse<{ answers: IDataObject[] }>) {
			// As n8n's agent does (its previousRequests): the engine answers only the latest request, whose metadata carries the earlier answers.
			const answers = [
				...(response?.metadata.answers ?? []),
				...(response?.actionResponses ?? []).map((r) => r.data as unknown as IDataObject),
			];
			const call = calls[answers.length];
			if (!call) return [[{ json: { answers } }]];
			const request: EngineRequest<{
				answers: IDataObject[];
				itemIndex?: number;
				parentNodeName?: string;
			}> = {
				actions: [
					{
						actionType: 'ExecutionNodeAction',
						nodeName: call.tool,
						input: call.args,
						type: 'ai_tool',
						id: `call-${answers.length + 1}`,
						metadata: {
							answers,
							itemIndex: 0,
							...(call.approvedBy ? { parentNodeName: call.approvedBy } : {}),
						},
					},
				],
				metadata: { answers },
			};
			return request as EngineRequest;
		},
	};
}

/** Passes its items on: the agent's main input (the engine resumes an agent through its source). */
const startType: INodeType = {
	description: {
		displayName: 'Start',
		name: 'start',
		group: ['trigger'],
		version: 1,
		description: '',
		defaults: { name: 'Start' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		return [this.getInputData()];
	},
};

/** A human review node type as n8n 2.x generates it (never run here: the scripted agent stands for it). */
const reviewType: INodeType = {
	description: {
		displayName: 'Send Email',
		name: 'emailSendHitlTool',
		group: ['transform'],
		version: 2.1,
		description: 'Request human approval for tools',
		defaults: { name: 'Send Email' },
		inputs: ['ai_tool'],
		outputs: ['ai_tool'],
		properties: [],
	},
};

/** n8n's Send Email node itself (send and wait in a workflow's main flow), not a review for tools. */
const emailType: INodeType = {
	description: {
		...reviewType.description,
		name: 'emailSend',
		inputs: ['main'],
		outputs: ['main'],
	},
};

const pay = (amount: number, ref: string) => ({ amount, ref });
const payParameters: IDataObject = {
	resource: 'withdrawal',
	operation: 'createCrypto',
	token: 'USDT',
	network: 'TRC20',
	walletAddress: 'TNfpNbjD7Ke8HgbPSBcxVG2QAo8a349nU2',
	amountType: 'usd',
	amount: "={{ $fromAI('amount', '', 'number') }}",
	externalId: "={{ $fromAI('ref', '', 'string') }}",
};

const node = (name: string, type: string, extra: Partial<INode> = {}): INode =>
	({
		id: name,
		name,
		type,
		typeVersion: type === REVIEW_TYPE ? 2.1 : 1,
		position: [0, 0],
		parameters: {},
		...extra,
	}) as INode;
const tool = (name: string, parameters = payParameters, extra: Partial<INode> = {}) =>
	node(name, TOOL_TYPE, {
		parameters: parameters as INodeParameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Crypto Settlement account' } },
		...extra,
	});
const link = (to: string) => ({ ai_tool: [[{ node: to, type: 'ai_tool' as const, index: 0 }]] });

const START = node('Start', 'test.start');
const start = { Start: { main: [[{ node: AGENT, type: 'main' as const, index: 0 }]] } };

/** Start → agent; tool → review node → agent, and an ungated copy of the tool straight into the agent. */
function gatedWorkflow(options: { nodes?: INode[]; connections?: IConnections } = {}) {
	return {
		nodes: [
			START,
			...(options.nodes ?? [
				node(AGENT, 'test.scriptedAgent'),
				node(REVIEW, REVIEW_TYPE),
				tool(GATED),
				tool(UNGATED),
			]),
		],
		connections: {
			...start,
			...(options.connections ?? {
				[GATED]: link(REVIEW),
				[REVIEW]: link(AGENT),
				[UNGATED]: link(AGENT),
			}),
		},
	};
}

async function service() {
	const withdrawals = withdrawalService();
	const server = await localService((request) => {
		if (request.method === 'GET' && request.path === '/v1/payments/wallet-addresses')
			return { status: 200, body: envelope([]) };
		return withdrawals.handler(request);
	});
	servers.push(server);
	const moneySent = () =>
		server.requests.filter(
			(r) => r.method === 'POST' && r.path.startsWith('/v1/payments/withdraw/'),
		).length;
	return { server, moneySent, baseUrl: server.baseUrl };
}

async function runAgent(calls: Call[], credentials: IDataObject, workflow = gatedWorkflow()) {
	const { nodeTypes } = await loadPackage();
	nodeTypes.register(TOOL_TYPE, nodeTypes.getByName(ACTION_NODE));
	const result = await runWorkflow({
		workflow,
		credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, ...credentials } as never },
		nodeTypes: {
			'test.start': startType,
			'test.scriptedAgent': scriptedAgent(calls),
			[REVIEW_TYPE]: reviewType,
			'n8n-nodes-base.emailSend': emailType,
		},
	});
	const runs = result.run.data.resultData.runData;
	/** Each tool run of `name`, in order: its error message, or its output item. */
	const toolRuns = (name: string) =>
		(runs[name] ?? []).map(
			(run) => run.error?.message ?? (run.data?.ai_tool ?? run.data?.main)?.[0]?.[0]?.json,
		);
	return { ...result, toolRuns, agentRan: !!runs[AGENT]?.at(-1)?.data };
}

const servers = serversClosedAfterEach();

const ON = { allowAgentPayments: true };

describe('agent payments need a human review (agentPaymentsNeedHumanReview, on by default)', () => {
	test('approved through the review node: paid once; asked again with the same External ID, answered as already submitted', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runAgent(
			[
				{ tool: GATED, args: pay(40, 'hitl-1'), approvedBy: REVIEW },
				{ tool: GATED, args: pay(40, 'hitl-1'), approvedBy: REVIEW },
			],
			{ baseUrl, ...ON },
		);
		expect(run.error).toBeUndefined();
		const [paid, again] = run.toolRuns(GATED) as IDataObject[];
		expect(paid).toMatchObject({ id: 'wd-1', externalId: 'hitl-1', alreadySubmitted: false });
		expect(again).toMatchObject({ id: 'wd-1', externalId: 'hitl-1', alreadySubmitted: true });
		expect(moneySent()).toBe(1);
	});

	test('the ungated copy of the tool in the same workflow is refused with words the model can read; nothing is sent', async () => {
		const { baseUrl, moneySent, server } = await service();
		const run = await runAgent([{ tool: UNGATED, args: pay(40, 'hitl-2') }], { baseUrl, ...ON });
		expect(run.agentRan).toBe(true);
		expect(run.toolRuns(UNGATED)).toEqual([REVIEW_REFUSAL]);
		expect(moneySent()).toBe(0);
		// The one request is a read: whether the External ID already holds this payment (a refusal never hides one).
		expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /v1/payments/withdrawal/hitl-2',
		]);
	});

	test('turned off, an agent pays without a review; the other guardrails still apply', async () => {
		const { baseUrl, moneySent } = await service();
		const off = { baseUrl, ...ON, agentPaymentsNeedHumanReview: false, maxPerWithdrawalUsd: 50 };
		const run = await runAgent(
			[
				{ tool: UNGATED, args: pay(80, 'hitl-3') },
				{ tool: UNGATED, args: pay(20, 'hitl-4') },
			],
			off,
		);
		const [over, within] = run.toolRuns(UNGATED);
		expect(over).toBe('Max per withdrawal is 50.00 USD; this item is 80.00 USD');
		expect(within).toMatchObject({ externalId: 'hitl-4' });
		expect(moneySent()).toBe(1);
	});

	test('a review does not lift Allow Agent Payments: off, the approved call is refused', async () => {
		const { baseUrl, moneySent } = await service();
		const run = await runAgent([{ tool: GATED, args: pay(40, 'hitl-5'), approvedBy: REVIEW }], {
			baseUrl,
		});
		expect(run.toolRuns(GATED)).toEqual([AGENT_OFF]);
		expect(moneySent()).toBe(0);
	});

	test('reads need no review', async () => {
		const { baseUrl } = await service();
		const reads = gatedWorkflow({
			nodes: [
				node(AGENT, 'test.scriptedAgent'),
				tool(UNGATED, { resource: 'payoutAddress', operation: 'getAll', returnAll: true }),
			],
			connections: { [UNGATED]: link(AGENT) },
		});
		const run = await runAgent([{ tool: UNGATED, args: {} }], { baseUrl, ...ON }, reads);
		expect(run.toolRuns(UNGATED)[0]).not.toBe(REVIEW_REFUSAL);
		expect(run.nodeError(UNGATED)).toBeUndefined();
	});

	describe('anything but a review node this tool is connected into is no review (fails closed)', () => {
		const cases: Array<
			[
				string,
				{
					calls: Call[];
					workflow?: ReturnType<typeof gatedWorkflow>;
					credentials?: IDataObject;
					refusal?: string;
				},
			]
		> = [
			[
				'a credential value that is not the boolean false',
				{
					calls: [{ tool: UNGATED, args: pay(40, 'odd-1') }],
					credentials: { agentPaymentsNeedHumanReview: 'false' },
				},
			],
			// The tool has its review step: the call did not pass through it.
			[
				'the source is the agent itself, named as the approver',
				{
					calls: [{ tool: GATED, args: pay(40, 'odd-2'), approvedBy: AGENT }],
					refusal: NOT_APPROVED,
				},
			],
			[
				'the source is a review node of another tool',
				{ calls: [{ tool: UNGATED, args: pay(40, 'odd-3'), approvedBy: REVIEW }] },
			],
			[
				'the review node is disabled',
				{
					calls: [{ tool: GATED, args: pay(40, 'odd-4'), approvedBy: REVIEW }],
					workflow: gatedWorkflow({
						nodes: [
							node(AGENT, 'test.scriptedAgent'),
							node(REVIEW, REVIEW_TYPE, { disabled: true }),
							tool(GATED),
							tool(UNGATED),
						],
					}),
				},
			],
			[
				'the source is a Send Email node that is not a human review for tools',
				{
					calls: [{ tool: GATED, args: pay(40, 'odd-5'), approvedBy: REVIEW }],
					workflow: gatedWorkflow({
						nodes: [
							node(AGENT, 'test.scriptedAgent'),
							node(REVIEW, 'n8n-nodes-base.emailSend'),
							tool(GATED),
							tool(UNGATED),
						],
					}),
				},
			],
			[
				'the source names a node the workflow does not have',
				{
					calls: [{ tool: GATED, args: pay(40, 'odd-6'), approvedBy: 'Ghost Review' }],
					workflow: gatedWorkflow({
						connections: {
							[GATED]: link('Ghost Review'),
							[REVIEW]: link(AGENT),
							[UNGATED]: link(AGENT),
						},
					}),
				},
			],
		];
		test.each(cases)(
			'%s',
			async (_label, { calls, workflow, credentials, refusal = REVIEW_REFUSAL }) => {
				const { baseUrl, moneySent } = await service();
				const run = await runAgent(calls, { baseUrl, ...ON, ...credentials }, workflow);
				expect(run.toolRuns(calls[0].tool)).toEqual([refusal]);
				expect(moneySent()).toBe(0);
			},
		);
	});

	test('a manual run of the gated tool (Execute step) is told that this call was not approved, never to add the review step it has', async () => {
		const { nodeTypes } = await loadPackage();
		nodeTypes.register(TOOL_TYPE, nodeTypes.getByName(ACTION_NODE));
		const { baseUrl, moneySent } = await service();
		const gated = gatedWorkflow();
		// The editor's Execute step on the tool: the tool starts the run, with no source.
		const run = await runWorkflow({
			workflow: {
				nodes: [
					tool(GATED, { ...payParameters, amount: 40, externalId: 'manual-1' }),
					...gated.nodes.filter((n) => n.name !== GATED),
				],
				connections: gated.connections,
			},
			credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl, ...ON } as never },
			nodeTypes: {
				'test.start': startType,
				'test.scriptedAgent': scriptedAgent([]),
				[REVIEW_TYPE]: reviewType,
			},
		});
		expect(run.error?.message).toBe(NOT_APPROVED);
		expect(run.error?.message).not.toMatch(/add a human review step/);
		expect((run.error as unknown as { description: string }).description).toBe(
			"Agent Payments Need Human Review is on in the Crypto Settlement API credential (Guardrails). To try a payment, ask the agent (for example in the chat), then approve the call when 'Review by Email' asks you.",
		);
		expect(moneySent()).toBe(0);
	});

	test('the node run with no source at all (not through the engine) is no review', async () => {
		const { nodeTypes } = await loadPackage();
		nodeTypes.register(TOOL_TYPE, nodeTypes.getByName(ACTION_NODE));
		const { baseUrl, moneySent } = await service();
		const run = await runWorkflow({
			workflow: {
				nodes: [tool(GATED, { ...payParameters, amount: 40, externalId: 'odd-7' })],
				connections: {},
			},
			credentials: { [CREDENTIAL_TYPE]: { ...CREDENTIALS, baseUrl, ...ON } as never },
		});
		expect(run.error?.message).toBe(REVIEW_REFUSAL);
		expect(moneySent()).toBe(0);
	});
});
