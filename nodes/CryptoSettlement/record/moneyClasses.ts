/**
 * What an operation can do to money, which decides who may run it (README, "Guardrails"): the
 * one table of the classes a record's `money` names, with the words every reader uses (the
 * guardrails' refusals, the README's tables through tooling/operations-table.cjs). A new kind of
 * write (a cancel, say) that fits no class is a new row here.
 */
export const MONEY_CLASSES = {
	pays: {
		name: 'pays',
		does: 'moves money out (withdrawals, swaps)',
		guardrails: 'all of them, batch-wide; takes Dry Run',
		agents: "only with **Allow Agent Payments**, and a person's review of each call unless **Agent Payments Need Human Review** is off",
	},
	destination: {
		name: 'changes where money goes',
		does: "changes where money goes (saved payout addresses and bank accounts, a wallet's settlement bank)",
		guardrails:
			"refused whenever **Allowed Destinations** is not Any Address, so the credential cannot add a destination and then pay it (manage destinations in the service's dashboard, or with another credential)",
		agents: 'never',
		/** What an AI agent is refused: "This tool may not …". */
		refusedToAgents: 'change where money goes',
	},
	settings: {
		name: 'changes settings or replays events',
		does: 'changes account settings or replays webhook events',
		guardrails: '—',
		agents: 'never',
		refusedToAgents: 'change account settings or replay events',
	},
	none: {
		name: 'moves nothing',
		does: 'reads, quotes and checks, and writes that move nothing',
		guardrails: '—',
		agents: 'always',
	},
} as const;

export type MoneyClass = keyof typeof MONEY_CLASSES;

/** The classes an AI agent may never run, with what it is refused. */
export type RefusedToAgents = { [C in MoneyClass]: (typeof MONEY_CLASSES)[C] extends { refusedToAgents: string } ? C : never }[MoneyClass];
