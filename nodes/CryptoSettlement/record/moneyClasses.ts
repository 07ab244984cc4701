/** One class of the table: what it does, and what each reader decides by it. */
interface MoneyClassRow {
	/** The class's name in the README's tables (tooling/operations-table.cjs). */
	name: string;
	/** What its operations do, in words (the README; what agents are told they may never do). */
	does: string;
	/** What the credential's guardrails do to it, in words (the README). */
	guardrails: string;
	/** Whether an AI agent may run it, in words (the README). */
	agents: string;
	/** The panel shows the Credential Guardrails field above its operations (operations/index.ts). */
	showsGuardrails: boolean;
	/** Refused whenever Allowed Destinations is not Any Address (money/guardrails.ts checkMoneyClass). */
	refusedUnderRestrictedDestinations: boolean;
	/** Set when an AI agent may never run it: what it is refused, "This tool may not …". */
	refusedToAgents?: string;
}

/**
 * What an operation can do to money, which decides who may run it (README, "Guardrails"): the
 * one table of the classes a record's `money` names, with the words every reader uses (the
 * guardrails' refusals, the README's tables through tooling/operations-table.cjs) and what each
 * reader decides by the class (its columns). A new kind of write (a cancel, say) that fits no class
 * is a new row here, and every reader follows it.
 */
export const MONEY_CLASSES = {
	pays: {
		name: 'pays',
		does: 'moves money out (withdrawals, swaps)',
		guardrails: 'all of them, batch-wide; takes Dry Run',
		agents:
			"only with **Allow Agent Payments**, and a person's review of each call unless **Agent Payments Need Human Review** is off",
		showsGuardrails: true,
		refusedUnderRestrictedDestinations: false,
	},
	destination: {
		name: 'changes where money goes',
		does: "changes where money goes (saved payout addresses and bank accounts, a wallet's settlement bank)",
		guardrails:
			"refused whenever **Allowed Destinations** is not Any Address, so the credential cannot add a destination and then pay it (manage destinations in the service's dashboard, or with another credential)",
		agents: 'never',
		showsGuardrails: true,
		refusedUnderRestrictedDestinations: true,
		refusedToAgents: 'change where money goes',
	},
	settings: {
		name: 'changes settings or replays events',
		does: 'changes account settings or replays webhook events',
		guardrails: '—',
		agents: 'never',
		showsGuardrails: false,
		refusedUnderRestrictedDestinations: false,
		refusedToAgents: 'change account settings or replay events',
	},
	none: {
		name: 'moves nothing',
		does: 'reads, quotes and checks, and writes that move nothing',
		guardrails: '—',
		agents: 'always',
		showsGuardrails: false,
		refusedUnderRestrictedDestinations: false,
	},
} as const satisfies Record<string, MoneyClassRow>;

export type MoneyClass = keyof typeof MONEY_CLASSES;

/** The classes an AI agent may never run, with what it is refused. */
export type RefusedToAgents = {
	[C in MoneyClass]: (typeof MONEY_CLASSES)[C] extends { refusedToAgents: string } ? C : never;
}[MoneyClass];

/** Whether a class is one AI agents may never run (the table's `refusedToAgents`). */
export const refusedToAgents = (money: MoneyClass): money is RefusedToAgents =>
	'refusedToAgents' in MONEY_CLASSES[money];

/** What AI agents may never do through this node, in words, from the table ("changes where money goes …, or …"). */
export const NEVER_FOR_AGENTS = (Object.keys(MONEY_CLASSES) as MoneyClass[])
	.filter(refusedToAgents)
	.map((money) => MONEY_CLASSES[money].does)
	.join(', or ');
