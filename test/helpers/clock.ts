/** Everything jest can fake but `Date`. */
const REAL = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'requestAnimationFrame',
	'cancelAnimationFrame',
	'requestIdleCallback',
	'cancelIdleCallback',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
] as const;

/** The wall clock stands at `now` (moved with `jest.setSystemTime`); timers, ticks and I/O stay real. */
export function onlyDateAt(now: number): void {
	jest.useFakeTimers({ now, doNotFake: [...REAL] });
}
