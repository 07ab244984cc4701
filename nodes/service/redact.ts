/**
 * Hides the credential's secrets where the service can put them, once, as its text comes in; what the
 * node writes itself is never rewritten, and a figure is never searched for a PIN's digits (the rules:
 * docs/guardrails.md, "Secrets: what is hidden where"; docs/usage.md, "Hostile answers and careless inputs").
 */

import { sharedOf } from './boundedMemory';

export const REDACTED = '[redacted]';

/** Keys whose values are secrets whatever they hold. */
const SECRET_KEY =
	/secret|password|passphrase|verificationkey|apikey|api_key|privatekey|private_key|^pin$/i;

/** Whether a key names a secret, remembered per key: an answer's records repeat the same few keys. */
const secretKeys = new Map<string, boolean>();
function isSecretKey(key: string): boolean {
	let named = secretKeys.get(key);
	if (named === undefined) {
		named = SECRET_KEY.test(key);
		if (secretKeys.size < 2000) secretKeys.set(key, named);
	}
	return named;
}

const LONG_SECRET_LENGTH = 8;
const FIGURE = /^[+-]?\d+(?:[.,]\d+)*$/;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What may stand before a whole token, and after it (a sentence's `.`, `,`, `;`, `:`, `!`, `?` only before a break). */
const BEFORE = `(?<=^|[\\s"'\`(\\[{<=:])`;
const BREAK = `$|[\\s"'\`)\\]}>]`;
const AFTER = `(?=${BREAK}|[.,;:!?](?:${BREAK}))`;

interface Matcher {
	secret: string;
	/** Not a figure: replaced anywhere in errors and log lines (and in records when long). */
	wordlike: boolean;
}

/**
 * How a value is read: `record`, a record the service answered (its figures kept); `error`, a
 * refusal or a library's error (a whole-token figure hidden too); `echo`, the details of one of the
 * node's own errors, which may quote what it sent (a secret's key, or a secret that is not a figure,
 * hidden; a figure in text never: the node's words quote amounts and ids the user typed).
 */
type Reading = 'record' | 'error' | 'echo';

/** A list of secrets' matchers, and the numbers a secret prints as (`1234`, never `0000`): only these can be a number's value. */
type Matchers = readonly Matcher[] & { readonly numbers: ReadonlySet<number> };

/** Each list of secrets' matchers, made once: a busy statement's answers are many pages, each cleaned as it comes in. */
const matchersMade = new WeakMap<readonly string[], Matchers>();

const matchersOf = (secrets: readonly string[]): Matchers =>
	sharedOf(matchersMade, secrets, makeMatchers);

function makeMatchers(secrets: readonly string[]): Matchers {
	const matchers = [...new Set(secrets)]
		// Longest first, so a secret that contains a shorter one is replaced whole.
		.sort((a, b) => b.length - a.length)
		.map((secret) => ({
			secret,
			wordlike: !/^\d+$/.test(secret),
		}));
	const numbers = new Set(
		secrets.filter((secret) => String(Number(secret)) === secret).map(Number),
	);
	return Object.assign(matchers, { numbers });
}

function redactText(text: string, matchers: readonly Matcher[], reading: Reading): string {
	let result = text;
	for (const { secret, wordlike } of matchers) {
		if (!result.includes(secret)) continue;
		const anywhere = wordlike && (reading === 'error' || secret.length >= LONG_SECRET_LENGTH);
		// The whole-token pattern is made only here, where a secret stands in the text: matchers are
		// made for every item's secrets, and most answers hold none (docs/speed.md).
		const wholeToken = new RegExp(`${BEFORE}${escapeRegExp(secret)}${AFTER}`, 'g');
		result = anywhere ? result.split(secret).join(REDACTED) : result.replace(wholeToken, REDACTED);
	}
	return result;
}

/** Only the secrets that are not figures, wherever they stand (`echo`). */
function redactWordlike(text: string, matchers: readonly Matcher[]): string {
	let result = text;
	for (const { secret, wordlike } of matchers)
		if (wordlike && result.includes(secret)) result = result.split(secret).join(REDACTED);
	return result;
}

/** Whether `text` holds any of the secrets (a loop, not a callback per text: a busy day's pages hold many records' texts). */
function holdsSecret(text: string, matchers: readonly Matcher[]): boolean {
	for (const { secret } of matchers) if (text.includes(secret)) return true;
	return false;
}

function walkValue(
	current: unknown,
	key: string,
	depth: number,
	matchers: Matchers,
	reading: Reading,
): unknown {
	if (typeof current === 'string') {
		// Most texts hold no secret: they are given back before any other test (a busy day's records are many).
		if (!holdsSecret(current, matchers)) return current;
		if (isSecretKey(key)) return REDACTED;
		if (reading === 'record' && FIGURE.test(current.trim())) return current;
		return reading === 'echo'
			? redactWordlike(current, matchers)
			: redactText(current, matchers, reading);
	}
	// A number is a secret only under a secret's key, and only when a secret prints as it.
	if (typeof current === 'number')
		return matchers.numbers.has(current) && isSecretKey(key) ? REDACTED : current;
	if (!current || typeof current !== 'object' || depth > 50) return current;
	if (Array.isArray(current)) {
		let copy: unknown[] | undefined;
		for (let index = 0; index < current.length; index++) {
			const entry: unknown = current[index];
			const next = walkValue(entry, key, depth + 1, matchers, reading);
			if (next !== entry) (copy ??= [...current])[index] = next;
		}
		return copy ?? current;
	}
	let copy: Record<string, unknown> | undefined;
	const object = current as Record<string, unknown>;
	// `for…in`, not a list of keys per object (a busy day's pages hold many): answers are parsed JSON,
	// whose objects inherit no enumerable keys.
	for (const entryKey in object) {
		const entry = object[entryKey];
		const next = walkValue(entry, entryKey, depth + 1, matchers, reading);
		if (next !== entry) (copy ??= { ...object })[entryKey] = next;
	}
	return copy ?? current;
}

/**
 * A record the service answered (or a webhook delivery's body) with every secret replaced where it
 * stands as a whole token of a text or as the value of a secret's key. Parts without a secret are
 * returned as they are, so the common case allocates nothing.
 */
export function redact<T>(value: T, secrets: readonly string[]): T {
	return secrets.length ? (walkValue(value, '', 0, matchersOf(secrets), 'record') as T) : value;
}

/** A refusal the service answered (an error answer's body), read like an error (above). */
export function redactRefusal<T>(value: T, secrets: readonly string[]): T {
	return secrets.length ? (walkValue(value, '', 0, matchersOf(secrets), 'error') as T) : value;
}

/** A text the service or a library wrote (never the node's own words), read like an error (above). */
export function redactMessage(text: string, secrets: readonly string[]): string {
	return secrets.length ? redactText(text, matchersOf(secrets), 'error') : text;
}

/** Secret-looking keys, removed at any depth from records that may hold account settings. */
export function withoutSecretKeys<T>(value: T): T {
	const walk = (current: unknown, depth: number): unknown => {
		if (!current || typeof current !== 'object' || depth > 50) return current;
		if (Array.isArray(current)) return current.map((entry) => walk(entry, depth + 1));
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(current))
			if (!isSecretKey(key)) copy[key] = walk(entry, depth + 1);
		return copy;
	};
	return walk(value, 0) as T;
}

/** An error's parts that are not the node's own words: its details, the service's messages, its context. */
const DETAILS = ['errorResponse', 'messages', 'context'];
/** A library's or n8n's error (a `cause`) is nobody's words of the node: every text part is read. */
const FOREIGN = [
	'message',
	'description',
	'stack',
	'errorResponse',
	'messages',
	'context',
	'config',
	'request',
	'response',
	'options',
];

/**
 * The last defence on an error leaving the node, against what quotes the request (changed in place and
 * returned; what is cleaned of it: docs/guardrails.md, "Secrets: what is hidden where").
 */
export function redactError<E>(error: E, secrets: readonly string[]): E {
	if (!secrets.length || !error || typeof error !== 'object') return error;
	const matchers = matchersOf(secrets);
	const target = error as Record<string, unknown>;
	cleanParts(target, DETAILS, matchers, 'echo');
	const cause = target.cause;
	if (cause && typeof cause === 'object') {
		if (cause instanceof Error)
			cleanForeign(cause as unknown as Record<string, unknown>, matchers, 0);
		else cleanParts(target, ['cause'], matchers, 'error');
	}
	return error;
}

function cleanForeign(error: Record<string, unknown>, matchers: Matchers, depth: number): void {
	cleanParts(error, FOREIGN, matchers, 'error');
	const cause = error.cause;
	if (cause instanceof Error && depth < 5)
		cleanForeign(cause as unknown as Record<string, unknown>, matchers, depth + 1);
	else if (cause !== undefined) cleanParts(error, ['cause'], matchers, 'error');
}

function cleanParts(
	target: Record<string, unknown>,
	keys: readonly string[],
	matchers: Matchers,
	reading: Reading,
): void {
	for (const key of keys) {
		if (!(key in target) || target[key] === undefined) continue;
		try {
			const next = walkValue(target[key], '', 0, matchers, reading);
			if (next !== target[key]) target[key] = next;
		} catch {
			// a read-only property keeps its value; the others are still cleaned
		}
	}
}
