/** Envelopes (docs/api.md) and the error type the handlers throw. */
/** One broken rule of a request body: the field, the service's message, the value received. */
export interface Violation {
	field: string;
	message: string;
	value?: unknown;
}

export interface ValidationEntry {
	message: string;
	field: string;
	location: string;
}

export interface Reply {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

/** An API error answered with the error envelope (docs/api.md). */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly errors: ValidationEntry[] = [],
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

export const MESSAGES = {
	notAuthenticated: "you're not authenticated",
	wrongCredentials: 'wrong app id and secret combination',
	badEnvironment: 'X-Service-Env must be one of sandbox, production',
	noApiAccess: 'you do not have api access',
	validation: 'validation errors',
	tooManyRequests: 'too many requests, please try again later',
	serverError: 'something went wrong!',
} as const;

/** Success envelope (docs/api.md). */
export function ok(message: string, data: unknown = {}, meta: Record<string, unknown> = {}): Reply {
	return { status: 200, body: { message, success: true, data, meta, summary: {}, stats: {} } };
}

/** Error envelope (docs/api.md) with the 429 and 500 exceptions (docs/api.md). */
export function errorBody(
	status: number,
	message: string,
	errors: ValidationEntry[] = [],
): unknown {
	if (status === 429) return { message };
	if (status >= 500) return { success: false, message, meta: {}, errors };
	return { success: false, message, meta: {}, errors, data: {} };
}

export function toEntries(violations: Violation[], location = 'body'): ValidationEntry[] {
	return violations.map((violation) => ({
		message: violation.message,
		field: violation.field,
		location,
	}));
}

/** Throws a 422 `validation errors` when there is any violation. */
export function assertValid(violations: Violation[], location = 'body'): void {
	if (violations.length)
		throw new ApiError(422, MESSAGES.validation, toEntries(violations, location));
}

export function notFound(message: string): ApiError {
	return new ApiError(404, message);
}

export function badRequest(message: string): ApiError {
	return new ApiError(400, message);
}
