#!/usr/bin/env node
// Pages per poll of the Crypto Settlement Poll Trigger under steady volume: N new records between
// polls for 30 polls, through n8n-core's PollContext against a local list service (the poll tests'
// stand-in, compiled into .build by `tsc -p bench/tsconfig.json`). Prints, per list shape, the
// pages the busiest poll read against the bound ceil(N / page size) + 1, the mean, the requests of
// a quiet poll, and whether every record was emitted exactly once.
//
// Usage: npm run bench (last rows), or alone after it compiled: node bench/poll-pages.mjs [--per-poll 900 --polls 30]

import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

const SHAPES = [
	{
		label: 'records, newest first',
		source: 'records',
		list: 'trades',
		size: 100,
		order: 'newestFirst',
		meta: 'full',
	},
	{
		label: 'records, oldest first without meta.pages',
		source: 'records',
		list: 'trades',
		size: 100,
		order: 'oldestFirst',
		meta: 'hasNextPage',
	},
	{
		label: 'stored deliveries, newest first',
		source: 'webhookEvents',
		list: 'deliveries',
		size: 200,
		order: 'newestFirst',
		meta: 'full',
	},
];

async function measure(shape, perPoll, polls) {
	const { startListService, trade, delivery } = require(
		path.join(ROOT, '.build', 'test', 'helpers', 'poll', 'list-service.js'),
	);
	const { Poller } = require(
		path.join(ROOT, '.build', 'test', 'helpers', 'poll', 'poll-harness.js'),
	);
	const service = await startListService();
	try {
		Object.assign(service, { order: shape.order, meta: shape.meta });
		service.clock = Date.parse('2026-03-01T12:00:00.000Z');
		let created = 0;
		const minute = (count) => {
			const start = service.clock;
			for (let i = 1; i <= count; i++) {
				const at = start + Math.floor((i * 60_000) / count);
				service.records[shape.list].push(
					shape.list === 'deliveries' ? delivery(++created, at) : trade(++created, at),
				);
			}
			service.clock = start + 60_000;
		};
		minute(500);
		const credentials = {
			appId: 'bench-app',
			appSecret: 'bench-secret-0001',
			environment: 'sandbox',
			baseUrl: service.url,
			pin: '',
		};
		const poller = await Poller.create({ source: shape.source, events: ['*'] }, credentials);
		await poller.poll();
		const baseline = service.records[shape.list].length;
		const pages = [];
		const emitted = [];
		for (let poll = 0; poll < polls; poll++) {
			minute(perPoll);
			service.clearRequests();
			const result = await poller.poll();
			if (result.error) throw result.error;
			emitted.push(...(result.items ?? []).map((item) => String(item.id)));
			pages.push(service.pagesOf(shape.list).length);
		}
		service.clearRequests();
		await poller.poll();
		const quiet = service.requests.length;
		const expected = service.records[shape.list]
			.slice(baseline)
			.map((record) => String(record.payload?.id ?? record.id));
		const once =
			emitted.length === expected.length &&
			new Set(emitted).size === emitted.length &&
			expected.every((id) => emitted.includes(id));
		return { pages, quiet, once };
	} finally {
		await service.close();
	}
}

/**
 * The state n8n saves with every poll, after `events` trades at 1,000 a poll, polls 10 s apart on
 * the service's clock (6,000 a minute; Max Pages per Poll 20), ids as long as the service's (24
 * characters), one trade in 100 pending for three polls (the state-size test's volumes): its largest size as JSON against docs/trigger.md's 512 KB, and whether every event came once.
 */
async function stateSize(events) {
	const { startListService, trade } = require(
		path.join(ROOT, '.build', 'test', 'helpers', 'poll', 'list-service.js'),
	);
	const { Poller } = require(
		path.join(ROOT, '.build', 'test', 'helpers', 'poll', 'poll-harness.js'),
	);
	const { STATE_MAX_BYTES } = require(
		path.join(ROOT, 'dist', 'nodes', 'CryptoSettlementPollTrigger', 'cursor.js'),
	);
	const service = await startListService();
	try {
		service.clock = Date.parse('2026-03-01T12:00:00.000Z');
		let created = 0;
		const add = (count, pendingEvery = 0) => {
			const start = service.clock;
			const added = Array.from({ length: count }, (_, i) => {
				const n = ++created;
				const status = pendingEvery && n % pendingEvery === 0 ? 'pending' : 'completed';
				return {
					...trade(n, start + Math.floor(((i + 1) * 10_000) / (count + 1)), status),
					id: `66f1c0ffee${String(n).padStart(14, '0')}`,
				};
			});
			service.records.trades.push(...added);
			service.clock = start + 10_000;
			return added;
		};
		add(300);
		const credentials = {
			appId: 'bench-app',
			appSecret: 'bench-secret-0001',
			environment: 'sandbox',
			baseUrl: service.url,
			pin: '',
		};
		const poller = await Poller.create(
			{ source: 'records', events: ['*'], options: { maxPagesPerPoll: 20 } },
			credentials,
		);
		await poller.poll();
		const baseline = service.records.trades.length;
		const emitted = [];
		const pending = [];
		let largest = 0;
		const poll = async () => {
			const result = await poller.poll();
			if (result.error) throw result.error;
			emitted.push(...(result.items ?? []).map((item) => `${item.event} ${item.id}`));
			largest = Math.max(largest, JSON.stringify(poller.staticData).length);
		};
		while (created - baseline < events) {
			pending.push(add(1000, 100).filter((record) => record.status === 'pending'));
			for (const record of pending.at(-4) ?? []) record.status = 'completed';
			await poll();
		}
		for (const record of pending.flat()) record.status = 'completed';
		for (let i = 0; i < 3; i++) {
			service.clock += 60_000;
			await poll();
		}
		const expected = [
			...service.records.trades.slice(baseline).map((record) => `trade.completed ${record.id}`),
			...pending.flat().map((record) => `trade.pending ${record.id}`),
		];
		const once =
			emitted.length === expected.length &&
			new Set(emitted).size === emitted.length &&
			expected.every((event) => emitted.includes(event));
		return { largest, bound: STATE_MAX_BYTES, once, events: emitted.length };
	} finally {
		await service.close();
	}
}

export async function pollPagesRows({
	perPoll = option('per-poll', 900),
	polls = option('polls', 30),
} = {}) {
	const lines = [
		`\npoll trigger, ${perPoll} new records between polls, ${polls} polls, Max Pages per Poll 10 (pages per poll per list)`,
	];
	lines.push(
		`${'list'.padEnd(44)} ${'busiest'.padStart(7)} ${'bound'.padStart(5)} ${'mean'.padStart(5)}  quiet poll   each once`,
	);
	for (const shape of SHAPES) {
		const { pages, quiet, once } = await measure(shape, perPoll, polls);
		const bound = Math.ceil(perPoll / shape.size) + 1;
		const busiest = Math.max(...pages);
		const mean = pages.reduce((sum, value) => sum + value, 0) / pages.length;
		const lists = shape.source === 'records' ? 2 : 1;
		lines.push(
			`${shape.label.padEnd(44)} ${String(busiest).padStart(7)} ${String(bound).padStart(5)} ${mean.toFixed(1).padStart(5)}  ${`${quiet} req / ${lists} list${lists > 1 ? 's' : ''}`.padEnd(12)} ${once ? 'yes' : 'NO'}`,
		);
		lines.push(
			`bench: poll pages per poll (${shape.label}) = ${busiest} (bound ${bound}): ${busiest <= bound && quiet === lists && once ? 'met' : 'NOT met'}`,
		);
	}
	const { largest, bound, once, events } = await stateSize(option('state-events', 50_000));
	lines.push(
		`poll trigger state after ${events} events (1,000 a poll, 10 s apart): largest ${(largest / 1024).toFixed(0)} KB of ${bound / 1024} KB, each once: ${once ? 'yes' : 'NO'}`,
	);
	lines.push(
		`bench: poll state size after ${events} events = ${(largest / 1024).toFixed(0)} KB (bound ${bound / 1024} KB): ${largest <= bound && once ? 'met' : 'NOT met'}`,
	);
	return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await pollPagesRows());
