/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
/**
 * Statement → Get gives the same bytes as before a change of how it is made (docs/statement.md,
 * "Speed"): a seeded day of 5,000 records (and a day on each side of it) through n8n-core's engine
 * against the fake API, in eight configurations (summary derived and given, lines, exceptions, and
 * the files in the three formats with dates, payee names and one currency), each output's text
 * compared with its fingerprint in same-output.json (SHA-256 and length), written from the outputs
 * of main before the busy-day work (docs/statement.md, "What keeps a busy day small"). A wallet label
 * holds a secret, so redaction is in the bytes too.
 *
 * What is not the node's is made fixed first: the fake API's random wallet addresses (each wallet's
 * becomes `address-<n>`), the time of the read (`readAt`) and the hours an open record has waited,
 * which grow with the clock. After a change that means to change an output, write the fingerprints
 * again: SAME_OUTPUT_WRITE=1 npx jest test/CryptoSettlement/statement/same-output.test.ts.
 */
import { sandboxCredentials } from '../../helpers/credentials';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { startFakeApi, type FakeApi, type SeededDay } from '../../../fake-api/src/server';
import { runNode, WEBHOOK_SECRET } from '../../helpers/node';

const DAY = '2026-03-10';
const FINGERPRINTS = path.join(__dirname, 'same-output.json');
const WRITE = process.env.SAME_OUTPUT_WRITE === '1';

let fakeApi: FakeApi;
let credentials: IDataObject;
let seeded: SeededDay;

/** The seeded wallets' addresses (random in the fake API) made fixed, in the deposits too. */
function fixAddresses(api: FakeApi) {
	const fixed = new Map(
		api.state.wallets.map((wallet, index) => [wallet.address, `address-${index + 1}`]),
	);
	for (const wallet of api.state.wallets) wallet.address = fixed.get(wallet.address) as string;
	for (const trade of api.state.trades)
		if (fixed.has(trade.address)) trade.address = fixed.get(trade.address) as string;
}

/** An output as text, without what the clock alone changes. */
const clockFree = (text: string) =>
	text
		.replace(/"readAt":"[^"]*"/g, '"readAt":"…"')
		.replace(/Not final after \d+ hours/g, 'Not final after … hours');

const fileText = (item: INodeExecutionData, property: string) =>
	Buffer.from(String(item.binary?.[property]?.data), 'base64').toString('utf8');

/** Each item's json, and each of its files' text with its name and type, as text. */
function outputText(items: INodeExecutionData[]): string {
	return items
		.map((item) => {
			const files = Object.keys(item.binary ?? {}).map((property) => {
				const { fileName, mimeType } = item.binary?.[property] ?? {};
				return `${property} ${String(fileName)} ${String(mimeType)}\n${fileText(item, property)}`;
			});
			return [JSON.stringify(item.json), ...files].join('\n');
		})
		.join('\n');
}

const fingerprint = (text: string) => ({
	sha256: createHash('sha256').update(text).digest('hex'),
	length: text.length,
});

const upper = (balances: Record<string, number>) =>
	Object.fromEntries(Object.entries(balances).map(([c, v]) => [c.toUpperCase(), v]));

/** The configurations compared: the outputs, the balances given or derived, the file formats and their options. */
const CONFIGURATIONS: Record<string, (given: IDataObject) => IDataObject> = {
	'summary, balances derived': () => ({ output: 'summary' }),
	'summary, balances given': (given) => ({ output: 'summary', options: given }),
	lines: (given) => ({ output: 'lines', options: given }),
	exceptions: () => ({ output: 'exceptions' }),
	'file, Xero CSV': (given) => ({ output: 'file', options: given }),
	'file, QuickBooks CSV, MM/DD/YYYY, payee names': (given) => ({
		output: 'file',
		options: {
			...given,
			fileFormat: 'quickbooksCsv',
			dateFormat: 'MM/DD/YYYY',
			payeeNames: { [`${DAY}-customer-2`]: 'Ada "the customer" Obi, Ltd' },
		},
	}),
	'file, OFX, payee names': (given) => ({
		output: 'file',
		options: {
			...given,
			fileFormat: 'ofx',
			payeeNames: { [`${DAY}-customer-3`]: 'A payee whose name is longer than OFX allows & more' },
		},
	}),
	'file, Xero CSV, DD/MM/YYYY, NGN only': (given) => ({
		output: 'file',
		options: { ...given, dateFormat: 'DD/MM/YYYY', fileCurrency: 'NGN' },
	}),
};

describe('Statement → Get gives the same bytes as before', () => {
	const outputs: Record<string, ReturnType<typeof fingerprint>> = {};

	beforeAll(async () => {
		fakeApi = await startFakeApi({ lifecycleDelayMs: 60_000 });
		credentials = sandboxCredentials(fakeApi);
		fakeApi.seedDay({ day: '2026-03-09', records: 300 });
		seeded = fakeApi.seedDay({ day: DAY, records: 5000 });
		fakeApi.seedDay({ day: '2026-03-11', records: 300 });
		fixAddresses(fakeApi);
		// A label holding a secret of the credentials: redacted wherever it is written.
		const wallet = fakeApi.state.wallets.find((each) => each.label === `${DAY}-customer-1`);
		if (wallet) wallet.label = `${DAY}-customer-1 ${WEBHOOK_SECRET}`;
	});
	afterAll(async () => {
		await fakeApi.close();
		if (WRITE) fs.writeFileSync(FINGERPRINTS, `${JSON.stringify(outputs, null, '\t')}\n`);
	});

	it.each(Object.keys(CONFIGURATIONS))('%s', async (name) => {
		const parameters = CONFIGURATIONS[name]({ openingBalances: upper(seeded.openingBalances) });
		const result = await runNode(
			{ resource: 'statement', operation: 'get', day: DAY, ...parameters },
			{ credentials },
		);
		if (result.error)
			throw new Error(`${result.error.message} — ${result.error.description ?? ''}`);
		const text = clockFree(outputText(result.items));
		expect(text).not.toContain(WEBHOOK_SECRET);
		outputs[name] = fingerprint(text);
		if (!WRITE)
			expect(outputs[name]).toEqual(
				(JSON.parse(fs.readFileSync(FINGERPRINTS, 'utf8')) as Record<string, unknown>)[name],
			);
	});
});
