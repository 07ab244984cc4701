import { NodeOperationError, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';
import { fieldOf } from './nodeDescription';
import { checkRequired, violation, type Violation } from '../fields/rules';
import type { OperationSpec } from './record';
import { scalarText } from '../../service/values';
import { namingItsRow, rowOf } from '../../service/rows';
import { listed, STABLECOINS, UTXO_TOKENS } from '../../service/catalog';

const NETWORK_HINT = ` 'Token' is an expression here, so set 'Network' and 'Fee Level' to expressions too: a network only for ${listed(STABLECOINS, 'and')}, a fee level only for ${listed(UTXO_TOKENS, 'and')} (empty otherwise).`;

/** Values never repeated in an error message. */
const SECRET_FIELDS = new Set(['pin']);

/** Text as sent: strings as they are, whole numbers printed exactly; undefined for anything else. */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
	return undefined;
}

export function typeName(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'number')
		return Number.isInteger(value) ? 'a number too large to print exactly' : 'a decimal number';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function describeValue(field: string, value: unknown): string {
	if (SECRET_FIELDS.has(field)) return 'received a value that is hidden';
	if (value === undefined || value === null || value === '') return 'received nothing';
	return `received ${JSON.stringify(value)}`;
}

/** The node's refusal of an item (the context's own, unless named): what is wrong, and what to do. */
export function itemError(
	ctx: IExecuteSingleFunctions,
	message: string,
	description: string,
	itemIndex = ctx.getItemIndex(),
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/**
 * Reads one item's parameters (expressions already resolved by n8n) and raises the first broken
 * field rule as a NodeOperationError before anything is sent.
 */
export class Params {
	constructor(
		readonly ctx: IExecuteSingleFunctions,
		/** The operation being run: its fields give the labels and which values are resource locators. */
		readonly spec: OperationSpec,
	) {}

	get itemIndex(): number {
		return this.ctx.getItemIndex();
	}

	/** A parameter's resolved value; resource locators give their plain value. */
	raw(name: string, fallback?: unknown): unknown {
		const locator = fieldOf(this.spec, name)?.type === 'resourceLocator';
		return this.ctx.getNodeParameter(name, fallback, locator ? { extractValue: true } : undefined);
	}

	/**
	 * A trimmed string, or undefined when empty. Text fields take text, and whole numbers printed
	 * exactly (IDs and account numbers often arrive as numbers); an object, an array, a boolean or
	 * a number that does not print exactly is refused rather than sent as "[object Object]" or "1e+21".
	 */
	text(name: string, fallback = ''): string | undefined {
		const value = this.raw(name, fallback);
		if (value === undefined || value === null) return undefined;
		return this.asText(name, value).trim() || undefined;
	}

	/** A string that must not be empty after trimming. */
	requiredText(name: string): string {
		const value = this.text(name);
		this.assert(checkRequired(name, value).map((v) => ({ ...v, value: this.raw(name, '') })));
		return value as string;
	}

	/** An ID placed in the URL path: `.` and `..` would make the URL point at another endpoint. */
	pathId(name: string): string {
		const value = this.requiredText(name);
		if (value === '.' || value === '..')
			this.assert(violation(name, `${name} cannot be "." or ".."`, value));
		return value;
	}

	/** The 'Additional Fields' collection of the current operation. */
	additional(): IDataObject {
		return (this.raw('additionalFields', {}) as IDataObject) ?? {};
	}

	/** A text field of 'Additional Fields', or undefined when not set. */
	additionalText(name: string): string | undefined {
		const value = this.additional()[name];
		if (value === undefined || value === null || value === '') return undefined;
		return this.asText(name, value).trim() || undefined;
	}

	/** A value as text (textOf), or the field's refusal. */
	private asText(name: string, value: unknown): string {
		const text = textOf(value);
		if (text === undefined)
			this.assert(violation(name, `${name} must be text, not ${typeName(value)}`, value));
		return text as string;
	}

	/**
	 * The label the editor shows for this parameter on the current operation, so an error names the
	 * field the user sees ('amount' is 'Amount (USD)' on a withdrawal and 'Amount' on a swap).
	 */
	label(name: string): string {
		return fieldOf(this.spec, name)?.displayName ?? name;
	}

	/**
	 * Whether the parameter or its 'Additional Fields' entry is set by an expression (Dry Run has
	 * both: the operation's own and the one of workflows saved before it).
	 */
	isExpression(name: string): boolean {
		const { parameters } = this.ctx.getNode();
		const values = [parameters[name], (parameters.additionalFields as IDataObject)?.[name]];
		return values.some((value) => typeof value === 'string' && value.startsWith('='));
	}

	/**
	 * Throws the first violation (the rules list the actionable one first), worded with the
	 * field's visible label: "'Amount (USD)' must have at most 2 decimal places …".
	 */
	assert(violations: Violation[]): void {
		if (!violations.length) return;
		const [first] = violations;
		const label = this.label(first.field);
		// The rules word their messages with the API's field name ("amount must …"): the label replaces it.
		const named = first.message.startsWith(`${first.field} `);
		const rule = named
			? `'${label}' ${first.message.slice(first.field.length + 1)}`
			: `Invalid '${label}': ${first.message}`;
		const received = describeValue(first.field, first.value);
		const text =
			received === 'received nothing' && /is required$/.test(rule) ? rule : `${rule}, ${received}`;
		const fromExpression = this.isExpression(first.field);
		const hint =
			(first.field === 'network' || first.field === 'feeLevel') && this.isExpression('token')
				? NETWORK_HINT
				: '';
		throw namingItsRow(
			itemError(
				this.ctx,
				text,
				`Fix '${label}'${fromExpression ? ' (set by an expression)' : ''} for ${rowOf(this.itemIndex, first.field === 'externalId' ? undefined : this.typedExternalId())}. Nothing was sent to the service for this item.${hint}`,
			),
		);
	}

	/** The External ID typed for this row, to name the row by; none when the operation has none or it is not plain. */
	private typedExternalId(): string | undefined {
		if (!fieldOf(this.spec, 'externalId')) return undefined;
		try {
			return scalarText(this.ctx.getNodeParameter('externalId', '')).trim() || undefined;
		} catch {
			return undefined;
		}
	}

	/** A refusal that is not a single field's rule (for example sandbox-only operations). */
	fail(message: string, description: string): never {
		throw itemError(this.ctx, message, description);
	}
}
