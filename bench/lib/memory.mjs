// A duplicate memory the benches start from: keys remembered `perHour` an hour, the newest in the
// current hour (docs/trigger.md states 1,000 an hour), through the build's own `remember`.
import crypto from 'node:crypto';

const HOUR_MS = 3_600_000;

/** Random keys, as many as the trigger's keys are long in base64url (remember keeps their start). */
export function randomKeys(count) {
	return Array.from({ length: count }, () => crypto.randomBytes(9).toString('base64url'));
}

/** Remembers `keys` into `memory`, `perHour` an hour, the last of them in the current hour; returns the hours used. */
export function rememberByHour(remember, memory, keys, perHour, now = Date.now()) {
	const hours = Math.ceil(keys.length / perHour);
	for (let hour = 0; hour < hours; hour++)
		remember(
			memory,
			keys.slice(hour * perHour, (hour + 1) * perHour),
			now - (hours - 1 - hour) * HOUR_MS,
		);
	return hours;
}
