// The time-zone lane (docs/development.md): the money, statement and event tests once more with
// n8n's process in each time zone below, as n8n runs under its `TZ`. Every service date has one
// reading (a date without a zone is UTC) and every day is the UTC day, so none of these tests may
// depend on the zone the machine or n8n runs in. CI runs it after the quick lane (.ci/run).
import { spawnSync } from 'node:child_process';

/** Our users' own zone (UTC+1), the furthest east (UTC+14) and the furthest west (UTC-12). */
export const TIME_ZONES = ['Africa/Lagos', 'Pacific/Kiritimati', 'Etc/GMT+12'];

/** The tests that read or write a date: money (Max per Day), the statement, both triggers and the events. */
export const TIME_ZONE_TESTS =
	'test/(CryptoSettlement/(money|statement)|events|CryptoSettlementTrigger|CryptoSettlementPollTrigger)/';

for (const zone of TIME_ZONES) {
	console.log(`\nTime-zone lane: TZ=${zone}`);
	const run = spawnSync(
		'npx',
		['jest', '--selectProjects', 'quick', '--testPathPattern', TIME_ZONE_TESTS],
		{
			stdio: 'inherit',
			env: { ...process.env, TZ: zone },
		},
	);
	if (run.status !== 0) {
		console.error(`The time-zone lane failed under TZ=${zone}`);
		process.exit(run.status ?? 1);
	}
}
