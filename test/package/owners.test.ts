/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
// One owner per rule (docs/architecture.md, "One owner per rule"): where the node decides something
// that must read the same everywhere (whether two ids are the same, …), one module decides it, and
// code in nodes/ outside that module may not do it by hand. Each row of OWNERS says what is owned,
// by which module, and the patterns that give a hand-made copy away; its examples prove the
// patterns precise (they flag the copies, and pass the look-alikes the node needs: a token, a
// network or a status word in another case). A hit names the file, the line and the owner to use.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * A pattern that gives away a hand-made copy of an owned rule, matched against each line of code
 * (comments left out): a regular expression, or a local helper whose one-line definition matches
 * `helper` (it folds case, rounds, …) called on the same line with an argument matching `calledWith`.
 */
type Pattern =
	| { what: string; line: RegExp }
	| { what: string; helper: RegExp; calledWith: RegExp };

interface Owner {
	/** What is decided in one place. */
	what: string;
	/** The module that decides it, from the package root; the only file of nodes/ where the patterns may match. */
	owner: string;
	forbidden: Pattern[];
	/** Lines each pattern must flag, and look-alikes none may flag. */
	examples: { flagged: string[]; passed: string[] };
}

/** A name that holds an id: `id`, `_id`, `ids`, `externalId`, `walletId`, `record.id` (not `tradeIdOf`, `identity`). */
const ID = String.raw`(?:\b_?ids?\b|\b[a-z]\w*Ids?\b)`;
/** Folding letter case, applied to what comes just before it. */
const FOLD = String.raw`(?:\.to(?:Locale)?(?:Lower|Upper)Case\(|\.localeCompare\([^)]*sensitivity)`;

const OWNERS: Owner[] = [
	{
		what: 'whether two record ids, or two External IDs, are the same (record ids: hexadecimal without case; External IDs: exactly)',
		owner: 'nodes/service/ids.ts',
		forbidden: [
			// The fold applied to an id: `id.toLowerCase()`, `String(record.externalId).trim().toUpperCase()`.
			{
				what: "an id's case folded by hand",
				line: new RegExp(String.raw`${ID}(?:\)|\.trim\(\)|\s)*${FOLD}`),
			},
			// A literal `/…/i`, or `new RegExp(…, 'i')`, tested on an id.
			{
				what: 'an id tested with a case-insensitive regular expression',
				line: new RegExp(
					String.raw`(?:/[a-z]*i[a-z]*|,\s*['"\x60][a-z]*i[a-z]*['"\x60]\s*\))\.test\([^)]*${ID}`,
				),
			},
			{
				what: 'a local helper that folds case, called with an id',
				helper: new RegExp(
					String.raw`^\s*(?:export\s+)?const\s+(\w+)\s*=\s*(?:async\s*)?\([^)]*\)[^=]*=>.*${FOLD}`,
				),
				calledWith: new RegExp(String.raw`\(\s*[^)]*${ID}`),
			},
		],
		examples: {
			flagged: [
				'if (shown.some((id) => id.toLowerCase() === asked.toLowerCase())) continue;',
				'if (found.externalId.toUpperCase() !== key.externalId.toUpperCase()) throw error;',
				'const same = record.id.localeCompare(asked, undefined, { sensitivity: "base" }) === 0;',
				'if (asked.toLowerCase() === String(record.externalId).trim().toLowerCase()) return record;',
				'const keys = new Set(records.map((record) => scalarText(record._id).toUpperCase()));',
				'if (new RegExp(`^${asked}$`, "i").test(walletId)) return;',
				'return /^inv-\\d+$/i.test(externalId);',
				'const sameText = (a: unknown, b: unknown) => String(a).trim().toLowerCase() === String(b).trim().toLowerCase();\nif (!sameText(found.externalId, externalId)) throw error;',
			],
			passed: [
				'const token = scalarText(record.token).toUpperCase();',
				"if (network !== undefined && network.toUpperCase() !== (check.network ?? '').toUpperCase()) return 'other network';",
				'const status = scalarText(record.status).trim().toLowerCase();',
				"if (statusOf('withdrawal', scalarText(record.status).toLowerCase())?.refunded || tradeIdOf(record.trade) !== undefined) continue;",
				'const sameWord = (a: unknown, b: unknown) => String(a).trim().toLowerCase() === String(b).trim().toLowerCase();\nconst same = sameWord(record.token, wanted);',
				'const known = recordIdKey(record.id) === recordIdKey(asked);',
				// An id beside a word folded on the same line.
				"return id === '' ? undefined : { id, at: timeMs(record.createdAt), status: scalarText(record.status).trim().toLowerCase() };",
				'const found = `External ID ${externalId} holds ${withdrawalNamed(record)}, which was ${status.toLowerCase()} and refunded`;',
			],
		},
	},
	{
		what: "a service date's time (without a zone it is UTC, whatever n8n's TZ; unreadable is unreadable everywhere)",
		owner: 'nodes/service/values.ts',
		forbidden: [
			{ what: 'a date parsed by hand', line: /\bDate\.parse\(/ },
			{
				what: 'a date read from text by new Date',
				line: /\bnew Date\(\s*(?:['"\x60]|String\(|scalarText\(|\w+\.(?:createdAt|updatedAt|time|date)\b)/,
			},
		],
		examples: {
			flagged: [
				'const created = Date.parse(scalarText(record.createdAt));',
				"const told = Date.parse(dateHeader ?? '');",
				'const at = new Date(String(record.updatedAt)).getTime();',
				'const at = new Date(record.createdAt).getTime();',
			],
			passed: [
				'const from = new Date(day.start).toISOString();',
				'endDate: new Date(now + DAY_MS).toISOString(),',
				'const now = Date.now();',
				'const start = Date.UTC(2026, 2, 10);',
				'const created = timeMs(record.createdAt);',
			],
		},
	},
	{
		what: "money rounded to a currency's minor unit (once, half away from zero, on the number's decimal text) and written with its decimals",
		owner: 'nodes/service/money.ts',
		forbidden: [
			{
				what: 'money rounded by hand (scaled by a power of ten)',
				line: /\bMath\.(?:round|floor|ceil|trunc)\([^;]*\*\s*(?:1e\d+|10{2,})\b/,
			},
			{ what: 'a figure written with toFixed', line: /[\w)\]]\.toFixed\(/ },
		],
		examples: {
			flagged: [
				'parts.valueUsd = Math.round(value * 100) / 100;',
				'const difference = Math.round((amount - expectedAmount) * 1e8) / 1e8;',
				'row([date, line.amount.toFixed(2), payee]);',
				'return Number(value.toFixed(2));',
			],
			passed: [
				'const seconds = Math.round((now - running.startedAt) / 1000);',
				'return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);',
				'const hint = noise ? `; round it where it is computed, for example with .toFixed(${decimals})` : "";',
				'return `Not final after ${Math.floor(hours)} hours`;',
			],
		},
	},
];

/** Code lines of a source, comments blanked (so a comment explaining a rule is not a copy of it). */
function codeLines(source: string): string[] {
	const withoutBlocks = source.replace(/\/\*[\s\S]*?\*\//g, (block) =>
		block.replace(/[^\n]/g, ' '),
	);
	return withoutBlocks.split('\n').map((line) => line.replace(/(^|[^:'"`\\])\/\/.*$/, '$1'));
}

/** Where a source breaks a pattern: the 1-based lines. */
function hits(source: string, pattern: Pattern): number[] {
	const lines = codeLines(source);
	if ('line' in pattern)
		return lines.flatMap((line, index) => (pattern.line.test(line) ? [index + 1] : []));
	const helpers = lines.flatMap((line) => pattern.helper.exec(line)?.[1] ?? []);
	if (helpers.length === 0) return [];
	const called = new RegExp(String.raw`\b(?:${helpers.join('|')})${pattern.calledWith.source}`);
	return lines.flatMap((line, index) =>
		!pattern.helper.test(line) && called.test(line) ? [index + 1] : [],
	);
}

function walk(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory()
			? walk(full)
			: entry.name.endsWith('.ts')
				? [path.relative(ROOT, full).split(path.sep).join('/')]
				: [];
	});
}
const SOURCES = walk(path.join(ROOT, 'nodes'));

describe.each(OWNERS)('$owner owns $what', ({ owner, forbidden, examples }) => {
	test('the owner module exists', () => {
		expect(SOURCES).toContain(owner);
	});

	test('its patterns flag every hand-made copy of the examples, and none of the look-alikes', () => {
		for (const example of examples.flagged)
			expect({
				example,
				flagged: forbidden.some((pattern) => hits(example, pattern).length > 0),
			}).toEqual({ example, flagged: true });
		for (const example of examples.passed)
			expect({
				example,
				flagged: forbidden.some((pattern) => hits(example, pattern).length > 0),
			}).toEqual({ example, flagged: false });
	});

	test('no code in nodes/ outside the owner does it by hand', () => {
		const found = SOURCES.filter((file) => file !== owner).flatMap((file) => {
			const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
			const lines = source.split('\n');
			return forbidden.flatMap((pattern) =>
				hits(source, pattern).map(
					(line) => `${file}:${line}: ${pattern.what} (use ${owner}): ${lines[line - 1].trim()}`,
				),
			);
		});
		expect(found).toEqual([]);
	});
});
