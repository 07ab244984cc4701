/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
// test/ mirrors the source (docs/architecture.md, "Folders"): a test of nodes/<path>/ lives in
// test/<path without nodes/>/, so a reader finds a folder's tests beside its name, and every helper
// lives in test/helpers/. A test file named after the round that wrote it cannot hide here.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const TEST = path.join(ROOT, 'test');

/** Folders of test/ that are not a source folder's mirror, and what each holds. */
const OWN_FOLDERS: Record<string, string> = {
	package: 'the package as a whole: docs, templates, imports, contents, release',
	'fake-api': 'the fake API seen through the node',
	helpers: 'every helper the tests share',
	setup: "jest's set-up files",
	types: 'type declarations of dev dependencies',
};

function walk(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? walk(full) : [path.relative(TEST, full)];
	});
}
const FILES = walk(TEST);

/** The source folder a test folder mirrors (`CryptoSettlement/money` → `nodes/CryptoSettlement/money`). */
const mirrored = (folder: string) => (folder === 'credentials' ? 'credentials' : `nodes/${folder}`);

describe('test/ mirrors the source', () => {
	test("every folder of tests is a source folder, or one of test/'s own", () => {
		const folders = [
			...new Set(
				FILES.filter((file) => file.endsWith('.test.ts')).map((file) => path.dirname(file)),
			),
		];
		const strays = folders.filter(
			(folder) =>
				!OWN_FOLDERS[folder.split(path.sep)[0]] &&
				!fs.existsSync(path.join(ROOT, mirrored(folder))),
		);
		expect(strays).toEqual([]);
		// the check reads the tree: it saw the action node's folders and both triggers
		expect(folders).toEqual(
			expect.arrayContaining([
				'CryptoSettlement/money',
				'CryptoSettlementTrigger',
				'CryptoSettlementPollTrigger',
			]),
		);
	});

	test("every helper is in test/helpers/ (a .ts file there, or jest's set-up, nothing else outside tests)", () => {
		const helpersElsewhere = FILES.filter(
			(file) =>
				file.endsWith('.ts') &&
				!file.endsWith('.test.ts') &&
				!file.endsWith('.d.ts') &&
				!file.startsWith(`helpers${path.sep}`),
		);
		expect(helpersElsewhere).toEqual([]);
		const testsInHelpers = FILES.filter(
			(file) => file.startsWith(`helpers${path.sep}`) && file.endsWith('.test.ts'),
		);
		expect(testsInHelpers).toEqual([]);
	});
});
