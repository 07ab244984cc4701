/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
// Every link of the docs to a file of this repository reaches it, and every `#anchor` a heading of
// that page (as GitHub names headings): the README is a front door whose depth lives in docs/, so a
// moved section must not leave a link behind.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const markdownIn = (dir: string) =>
	fs.existsSync(path.join(ROOT, dir))
		? fs
				.readdirSync(path.join(ROOT, dir))
				.filter((file) => file.endsWith('.md'))
				.map((file) => path.posix.join(dir, file))
		: [];
const PAGES = [
	'README.md',
	'CHANGELOG.md',
	...markdownIn('docs'),
	...markdownIn('templates'),
	...markdownIn('fake-api'),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\- _]/gu, '')
		.replace(/ /g, '-');
}

function anchorsOf(page: string): Set<string> {
	const text = fs.readFileSync(path.join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
	return new Set([...text.matchAll(/^#{1,6} (.*)$/gm)].map(([, heading]) => anchorOf(heading)));
}

/** What a link points at that does not exist, or undefined. */
function brokenLink(page: string, target: string, anchor: string | undefined): string | undefined {
	if (/^[a-z]+:/.test(target)) return undefined;
	const file = target
		? path.posix.normalize(path.posix.join(path.posix.dirname(page), target))
		: page;
	if (!fs.existsSync(path.join(ROOT, file))) return `${page} links ${target}, which does not exist`;
	if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor))
		return `${page} links ${target}#${anchor}, which ${file} has no heading for`;
	return undefined;
}

test('every link of the docs reaches a file of the repository and a heading of that page', () => {
	const broken: string[] = [];
	for (const page of PAGES) {
		const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
		for (const [, target, anchor] of text.matchAll(/\]\(([^)\s#]*)(?:#([^)\s]+))?\)/g)) {
			const problem = brokenLink(page, target, anchor);
			if (problem) broken.push(problem);
		}
	}
	expect(broken).toEqual([]);
});

test('the check sees a missing page and a missing heading', () => {
	expect(anchorOf("What stays out of the node's reach")).toBe('what-stays-out-of-the-nodes-reach');
	expect(brokenLink('README.md', 'docs/guardrails.md', 'max-per-day')).toBeUndefined();
	expect(brokenLink('README.md', 'docs/guardrails.md', 'no-such-heading')).toBeDefined();
	expect(brokenLink('README.md', 'docs/no-such-page.md', undefined)).toBeDefined();
});
