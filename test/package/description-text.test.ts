/**
 * Every text the nodes' descriptions (and the credential's fields) show (a node's description, its fields' descriptions, hints,
 * placeholders, options' descriptions and actions, the node's hints, and builderHint texts) reads
 * as written: descriptions are often built from parts (fields/fields.ts amountField, the records),
 * and a part ending in a full stop joined with ": …" gave "(settlementCurrency).: a decimal number"
 * (issue 73).
 */
import type { INodeTypeDescription } from 'n8n-workflow';
import { CryptoSettlement } from '../../nodes/CryptoSettlement/CryptoSettlement.node';
import { CryptoSettlementPollTrigger } from '../../nodes/CryptoSettlementPollTrigger/CryptoSettlementPollTrigger.node';
import { CryptoSettlementTrigger } from '../../nodes/CryptoSettlementTrigger/CryptoSettlementTrigger.node';
import { CryptoSettlementApi } from '../../credentials/CryptoSettlementApi.credentials';

const descriptions: INodeTypeDescription[] = [
	new CryptoSettlement(),
	new CryptoSettlementTrigger(),
	new CryptoSettlementPollTrigger(),
].map((node) => node.description);

/** The texts a person or a model reads: keys whose values are prose, at any depth. */
const PROSE = new Set([
	'description',
	'hint',
	'action',
	'placeholder',
	'message',
	'subtitle',
	'searchHint',
	'propertyHint',
	'relationHint',
	'notice',
]);

function texts(
	value: unknown,
	path: string,
	out: Array<{ path: string; text: string }>,
): Array<{ path: string; text: string }> {
	if (Array.isArray(value)) value.forEach((entry, index) => texts(entry, `${path}[${index}]`, out));
	else if (value && typeof value === 'object') {
		for (const [key, entry] of Object.entries(value)) {
			if (typeof entry === 'string' && PROSE.has(key) && !entry.startsWith('='))
				out.push({ path: `${path}.${key}`, text: entry });
			else texts(entry, `${path}.${key}`, out);
		}
	}
	return out;
}

/** Punctuation no sentence of ours has: a joined part's full stop before more punctuation, a space before it, doubled stops. */
const SLIPS: Array<[string, RegExp]> = [
	['".:" (a part ending in a full stop joined with a colon)', /\.:/],
	['a full stop, comma, semicolon or colon before another one', /[.,;:][.,;:](?!\.)/],
	['".." (doubled full stop)', /(?<!\.)\.\.(?!\.)/],
	['a space before punctuation', / [.,;:)](?![A-Za-z0-9])/],
	['two spaces', / {2}/],
	['an empty sentence', /\.\s*\./],
];

const credential = new CryptoSettlementApi();
const all = [
	...descriptions.flatMap((description) => texts(description, description.name, [])),
	...texts(credential.properties, credential.name, []),
];

test('the descriptions hold texts to check', () => {
	expect(all.length).toBeGreaterThan(100);
});

test.each(SLIPS)('no description text has %s', (_what, pattern) => {
	// URLs, and a format's notation (TOKEN::address), are not prose.
	const found = all.filter(({ text }) =>
		pattern.test(text.replace(/https?:\/\/\S+/g, 'URL').replace(/\b::\b/g, '-')),
	);
	expect(found).toEqual([]);
});
