/**
 * Keeps secrets inside the node: the service may echo a PIN in a validation entry or return the
 * webhook secret inside a record. Every output record and every error passes through here.
 */

export const REDACTED = '[redacted]';

/**
 * In output records, secrets shorter than this are replaced only where they stand as a whole token
 * (not inside a longer run of letters and digits): a 4-digit PIN replaced inside every amount,
 * hash and account number would corrupt the records. In errors and log lines every occurrence is
 * replaced, whatever the length: they are read by people, and a short PIN echoed inside a service
 * message ("invalid transaction pin 4711") must not reach them.
 */
const SUBSTRING_MIN_LENGTH = 8;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function redactText(text: string, secrets: readonly string[], anywhere: boolean): string {
	let result = text;
	for (const secret of secrets) {
		if (result.trim() === secret) return REDACTED;
		if (!result.includes(secret)) continue;
		result =
			anywhere || secret.length >= SUBSTRING_MIN_LENGTH
				? result.split(secret).join(REDACTED)
				: result.replace(new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(secret)}(?![A-Za-z0-9])`, 'g'), REDACTED);
	}
	return result;
}

/** Longest first, so a secret that contains a shorter one is replaced whole. */
const byLength = (secrets: readonly string[]) => [...secrets].sort((a, b) => b.length - a.length);

/**
 * `value` with every secret replaced, at any depth (strings and numbers alike). Parts without a
 * secret are returned as they are, so the common case allocates nothing. `anywhere`: replace
 * short secrets inside text too (errors and logs; see SUBSTRING_MIN_LENGTH).
 */
export function redact<T>(value: T, secrets: readonly string[], { anywhere = false } = {}): T {
	if (!secrets.length) return value;
	const ordered = byLength(secrets);
	const walk = (current: unknown, depth: number): unknown => {
		if (typeof current === 'string') return redactText(current, ordered, anywhere);
		if (typeof current === 'number') return ordered.includes(String(current)) ? REDACTED : current;
		if (!current || typeof current !== 'object' || depth > 50) return current;
		if (Array.isArray(current)) {
			let copy: unknown[] | undefined;
			current.forEach((entry, index) => {
				const next = walk(entry, depth + 1);
				if (next !== entry) (copy ??= [...current])[index] = next;
			});
			return copy ?? current;
		}
		let copy: Record<string, unknown> | undefined;
		for (const [key, entry] of Object.entries(current)) {
			const next = walk(entry, depth + 1);
			if (next !== entry) (copy ??= { ...(current as Record<string, unknown>) })[key] = next;
		}
		return copy ?? current;
	};
	return walk(value, 0) as T;
}

/** A log line or other text for people, with every occurrence of every secret replaced. */
export function redactMessage(text: string, secrets: readonly string[]): string {
	return secrets.length ? redactText(text, byLength(secrets), true) : text;
}

/** Secret-looking keys, removed at any depth from records that may hold account settings. */
const SECRET_KEY = /secret|password|passphrase|verificationkey|apikey|api_key|privatekey|private_key|^pin$/i;

export function withoutSecretKeys<T>(value: T): T {
	const walk = (current: unknown, depth: number): unknown => {
		if (!current || typeof current !== 'object' || depth > 50) return current;
		if (Array.isArray(current)) return current.map((entry) => walk(entry, depth + 1));
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(current)) {
			if (!SECRET_KEY.test(key)) copy[key] = walk(entry, depth + 1);
		}
		return copy;
	};
	return walk(value, 0) as T;
}

/** Redacts an error in place (message, description, context and the service's answer) and returns it. */
export function redactError<E>(error: E, secrets: readonly string[]): E {
	if (!secrets.length || !error || typeof error !== 'object') return error;
	const target = error as Record<string, unknown>;
	for (const key of ['message', 'description', 'context', 'errorResponse', 'cause', 'messages', 'stack']) {
		if (key in target && target[key] !== undefined) {
			try {
				if (target[key] instanceof Error) redactError(target[key], secrets);
				else target[key] = redact(target[key], secrets, { anywhere: true });
			} catch {
				// a read-only property keeps its value; the others are still redacted
			}
		}
	}
	return error;
}
