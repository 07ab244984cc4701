/**
 * The panel shows the credential's guardrails before any run (issue 36, High 1 and Medium 3): a
 * money-moving operation (records' `money` is `pays` or `destination`) shows the field 'Credential
 * Guardrails', whose one option n8n's editor loads through the node's load-options method, here
 * called on n8n-core's LoadOptionsContext (test/helpers/editor-list.ts) as the editor's REST call
 * does. What the field shows is asserted as text: "no limit" and ⚠ where nothing is limited, each
 * limit with its unit, a refusal (never "no limit") for a value the checks cannot read, and a
 * clear wording with no credential or an unreadable one; never a secret. The field has no routing
 * and is no field of any operation record, from which alone the pipeline builds requests.
 * The browser check (e2e/lib/browser.mjs, guardrailsFieldCheck) reads it in a real editor.
 */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { ACTION_NODE, loadEditorList, loadPackage, type EditorListRequest } from '../../helpers';
import { SPECS } from '../../../nodes/CryptoSettlement/operations';
import { GUARDRAILS_SHOWN } from '../../../nodes/CryptoSettlement/fields/fields';
import { guardrailsInShort } from '../../../nodes/CryptoSettlement/money/guardrailSummary';
import { CREDENTIALS, PIN, SECRET, WEBHOOK_SECRET } from '../../helpers/node';

/** What the editor's field shows for the node's selected credential: its one loaded option. */
async function shown(credentials: EditorListRequest['credentials']): Promise<INodePropertyOptions> {
	const options = (await loadEditorList({
		method: 'getCredentialGuardrails',
		parameters: { resource: 'withdrawal', operation: 'createCrypto' },
		credentials,
	})) as INodePropertyOptions[];
	// Always one option, of the field's constant default: the editor never flags the field.
	expect(options).toHaveLength(1);
	expect(options[0].value).toBe(GUARDRAILS_SHOWN);
	expect(JSON.stringify(options)).not.toMatch(new RegExp([SECRET, PIN, WEBHOOK_SECRET].join('|')));
	return options[0];
}

describe('what the field shows for the selected credential', () => {
	test('a new credential (the defaults): ⚠, "no limit" for each guardrail, what is not limited named', async () => {
		const option = await shown(CREDENTIALS);
		expect(option.name).toBe('⚠ Sandbox: no limit per withdrawal, no limit per day, any address');
		expect(option.description).toBe(
			"AI agents may not pay. Workflows started by another workflow (Execute Workflow, an AI agent's Call n8n Workflow Tool) may not pay. Not limited: the amount per withdrawal, the total per day, where crypto goes. Set in 'Crypto Settlement account' (Guardrails).",
		);
	});

	test('a Production credential with no limits: ⚠ Production, each guardrail "no limit"', async () => {
		const option = await shown({ ...CREDENTIALS, environment: 'production' });
		expect(option.name).toBe(
			'⚠ Production: no limit per withdrawal, no limit per day, any address',
		);
		expect(option.description).toContain(
			'Not limited: the amount per withdrawal, the total per day, where crypto goes.',
		);
	});

	test('a Production credential with one limit: ⚠ stays, naming what is still not limited', async () => {
		const option = await shown({
			...CREDENTIALS,
			environment: 'production',
			maxPerWithdrawalUsd: 100,
		});
		expect(option.name).toBe(
			'⚠ Production: max 100.00 USD per withdrawal, no limit per day, any address',
		);
		expect(option.description).toContain('Not limited: the total per day, where crypto goes.');
	});

	test('a configured credential: each limit with its unit, no warning', async () => {
		const option = await shown({
			...CREDENTIALS,
			maxPerWithdrawalUsd: 500,
			maxPerDayUsd: '2000',
			destinations: 'savedOnly',
			allowAgentPayments: true,
		});
		expect(option.name).toBe(
			'Sandbox: max 500.00 USD per withdrawal, max 2000.00 USD per day, saved payout addresses only',
		);
		expect(option.description).toBe(
			"AI agents may pay, each approved by a person. Workflows started by another workflow (Execute Workflow, an AI agent's Call n8n Workflow Tool) may not pay. Set in 'Crypto Settlement account' (Guardrails).",
		);
		expect(
			(
				await shown({
					...CREDENTIALS,
					maxPerWithdrawalUsd: 1,
					maxPerDayUsd: 1,
					destinations: 'allowList',
					allowedAddresses: 'TA\nUSDT:TRC20:TB',
				})
			).name,
		).toBe('Sandbox: max 1.00 USD per withdrawal, max 1.00 USD per day, 2 listed addresses only');
	});

	test.each([
		['a limit that is not a number', { maxPerDayUsd: 'lots' }, '\'Max per Day (USD)\' is "lots"'],
		['a negative limit', { maxPerWithdrawalUsd: -5 }, "'Max per Withdrawal (USD)' is -5"],
		[
			'an unknown Allowed Destinations',
			{ destinations: 'friendsOnly' },
			'\'Allowed Destinations\' is "friendsOnly"',
		],
		[
			'an allow list without an address',
			{ destinations: 'allowList', allowedAddresses: '# none yet' },
			'\'Allowed Addresses\' is "# none yet"',
		],
	])(
		'%s refuses every payment, and the field says so, never "no limit"',
		async (_case, values, named) => {
			const option = await shown({ ...CREDENTIALS, ...values });
			expect(option.name).toBe(
				'⛔ Every payment refused: a guardrail of the credential cannot be read',
			);
			expect(option.description).toContain(
				`The credential's guardrail ${named}, which the node cannot read`,
			);
			// The rule may mention that 0 means no limit; nothing says a guardrail is off.
			expect(option.description).not.toMatch(/no limit per|Not limited|any address/);
		},
	);

	test('no credential selected: says so', async () => {
		const option = await shown(null);
		expect(option.name).toBe('No credential selected');
		expect(option.description).toBe(
			'Select a Crypto Settlement API credential to see its guardrails here',
		);
	});

	test('a credential n8n cannot read: says they could not be read, and that a payment is checked when it runs', async () => {
		const option = await shown('unreadable');
		expect(option.name).toBe(
			"⚠ The guardrails of 'Crypto Settlement account' could not be read here",
		);
		expect(option.description).toMatch(
			/^no credentials of type cryptoSettlementApi were given to the harness\. A payment is checked against them when the node runs/,
		);
	});

	test("as an AI agent's tool, the field first says whether agents may pay", () => {
		expect(guardrailsInShort(CREDENTIALS, 'Shared', { asTool: true }).name).toBe(
			'AI agents may not pay · ⚠ Sandbox: no limit per withdrawal, no limit per day, any address',
		);
		expect(
			guardrailsInShort(
				{ ...CREDENTIALS, allowAgentPayments: true, agentPaymentsNeedHumanReview: false },
				'Shared',
				{ asTool: true },
			).name,
		).toMatch(/^AI agents may pay, without review · /);
	});
});

describe('where the field is, and what it is', () => {
	async function description() {
		const { nodeTypes } = await loadPackage();
		return nodeTypes.getByNameAndVersion(ACTION_NODE).description;
	}

	/** Every operation, and whether the records say it moves money or changes where it goes. */
	const OPERATIONS = Object.entries(SPECS).flatMap(([resource, specs]) =>
		Object.entries(specs).map(([operation, spec]) => ({
			resource,
			operation,
			movesMoney: spec.money === 'pays' || spec.money === 'destination',
		})),
	);

	test('shown, first, exactly for the operations whose records move money or change where it goes', async () => {
		const desc = await description();
		expect(OPERATIONS.filter((o) => o.movesMoney).length).toBeGreaterThan(0);
		for (const { resource, operation, movesMoney } of OPERATIONS) {
			const values = NodeHelpers.getNodeParameters(
				desc.properties,
				{ resource, operation },
				true,
				false,
				{ typeVersion: 1 } as INode,
				desc,
			) as INodeParameters;
			const visible = desc.properties.filter(
				(p) =>
					p.name !== 'resource' &&
					p.name !== 'operation' &&
					NodeHelpers.displayParameter(values, p, null, null, values),
			);
			expect([
				`${resource}:${operation}`,
				visible.some((p) => p.name === 'credentialGuardrails'),
			]).toEqual([`${resource}:${operation}`, movesMoney]);
			if (movesMoney) expect(visible[0].name).toBe('credentialGuardrails');
		}
	});

	test('read-only and inert: a constant default that is never stored, no routing, no expression (so no agent fills it)', async () => {
		const desc = await description();
		const entries = desc.properties.filter((p) => p.name === 'credentialGuardrails');
		expect(entries.length).toBeGreaterThan(0);
		for (const entry of entries as INodeProperties[]) {
			expect(entry).toMatchObject({
				type: 'options',
				default: GUARDRAILS_SHOWN,
				noDataExpression: true,
				typeOptions: { loadOptionsMethod: 'getCredentialGuardrails' },
			});
			expect(entry.routing).toBeUndefined();
		}
		const stored = NodeHelpers.getNodeParameters(
			desc.properties,
			{ resource: 'withdrawal', operation: 'createCrypto' },
			false,
			false,
			{ typeVersion: 1 } as INode,
			desc,
		);
		expect(stored).not.toHaveProperty('credentialGuardrails');
	});

	test('the wording module loads first without breaking the description (the browser check loads it so)', async () => {
		await jest.isolateModulesAsync(async () => {
			await import('../../../nodes/CryptoSettlement/money/guardrailSummary');
			const { properties } = await import('../../../nodes/CryptoSettlement/operations');
			expect(properties.filter((p) => p.name === 'credentialGuardrails').length).toBeGreaterThan(0);
		});
	});
});
