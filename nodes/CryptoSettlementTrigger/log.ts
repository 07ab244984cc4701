import type { ICredentialDataDecryptedObject, Logger } from 'n8n-workflow';
import { secretsOf } from '../service/credentials';
import { redact, redactError, redactMessage } from '../service/redact';

/**
 * What one delivery writes to n8n's log, and the errors and items it hands on, with the
 * credential's secrets (app secret, PIN, webhook secret) replaced: the service may echo them in an
 * answer (a 5xx message, a record), and the node's own messages quote such answers. The same
 * redaction as the action node's (service/redact.ts).
 */
export class DeliveryLog {
	private secrets: readonly string[] = [];

	constructor(private readonly logger: Logger) {}

	/** The secrets to hide from here on: those of the credential the delivery is checked with. */
	useCredential(credentials: ICredentialDataDecryptedObject | undefined): void {
		this.secrets = credentials ? secretsOf(credentials) : [];
	}

	/** An item or record: secrets replaced where they stand as values or whole tokens. */
	redact<T>(value: T): T {
		return redact(value, this.secrets);
	}

	redactError<E>(error: E): E {
		return redactError(error, this.secrets);
	}

	/** Log lines: every secret replaced where it stands as a whole token (service/redact.ts). */
	error(message: string): void {
		this.logger.error(redactMessage(message, this.secrets));
	}

	warn(message: string): void {
		this.logger.warn(redactMessage(message, this.secrets));
	}

	info(message: string): void {
		this.logger.info(redactMessage(message, this.secrets));
	}
}
