import type { ICredentialDataDecryptedObject, Logger } from 'n8n-workflow';
import { secretsOf } from '../service/credentials';
import { redact, redactMessage } from '../service/redact';

/**
 * What one delivery writes to n8n's log, and the secrets of the credential it is checked with: the log lines
 * are the node's own words, written as they are; only an unexpected error's text is cleaned (`unexpected`;
 * docs/guardrails.md, "Secrets: what is hidden where").
 */
export class DeliveryLog {
	private secrets: readonly string[] = [];

	constructor(private readonly logger: Logger) {}

	/** The secrets to hide from here on: those of the credential the delivery is checked with. */
	useCredential(credentials: ICredentialDataDecryptedObject | undefined): void {
		this.secrets = credentials ? secretsOf(credentials) : [];
	}

	/** What the service sent (the delivery's body, its headers): secrets replaced where they stand as values or whole tokens. */
	redact<T>(value: T): T {
		return redact(value, this.secrets);
	}

	/** An error the node did not make (a library's, n8n's), its text cleaned like a refusal's (service/redact.ts). */
	unexpected(prefix: string, error: unknown): void {
		const message = (error as { message?: unknown } | undefined)?.message;
		this.logger.error(
			`${prefix}: ${redactMessage(typeof message === 'string' ? message : String(error), this.secrets)}`,
		);
	}

	error(message: string): void {
		this.logger.error(message);
	}

	warn(message: string): void {
		this.logger.warn(message);
	}

	info(message: string): void {
		this.logger.info(message);
	}
}
