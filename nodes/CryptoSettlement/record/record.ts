import { sharedOf } from '../../service/boundedMemory';
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import type { HttpCall, RetryPolicy } from '../../service/api';
import type { Params } from './params';
import type { MoneyClass, RefusedToAgents } from './moneyClasses';

/** The key that makes a withdrawal happen at most once, and where it came from. */
export interface IdempotencyKey {
	externalId: string;
	/** Derived from the execution because the user left 'External ID' empty. */
	derived: boolean;
}

/**
 * What a field that may name the record asked for holds, which says how it is compared with the id
 * asked: a record id or an External ID by the one rule of each (service/ids.ts), an address as
 * fields/addresses.ts compares the service's echo of one (`sameAddress`).
 */
export type ShownAs = 'recordId' | 'externalId' | 'address';

/** How an answer shows back a value sent (`echoes`). */
export type Echo = 'value' | 'address' | 'accountNumber';

/** An address for the service's check: the field it came from, and why its form could not decide. */
export interface AddressCheck {
	field: string;
	address: string;
	token: string;
	network?: string;
	why: string;
}

/** What an operation sends, after its parameters passed the field rules. */
export interface RequestParts {
	/** For withdrawals: the External ID, what a record found under it must match, and 'Return Full Record'. */
	idempotency?: IdempotencyKey & { expected: IDataObject; fullRecord?: boolean };
	pathParams?: Record<string, string>;
	qs?: IDataObject;
	body?: IDataObject;
	/** Input echoed in the output when the service answers with an empty `data`. */
	identity?: IDataObject;
	/** For paged lists: the node's own filter, applied to the records fetched (Limit counts the matches). */
	keep?: (record: IDataObject) => boolean;
	/** 'Dry Run': every check runs, and the request is output instead of sent. */
	dryRun?: boolean;
	/**
	 * A payout address whose form cannot decide whether it is valid (fields/addresses.ts): the
	 * service's own check (Payout Address → Validate) decides before any item of the batch is sent.
	 */
	addressCheck?: AddressCheck;
	/** The item's value in USD, when the guardrails valued it. */
	valueUsd?: number;
	/**
	 * For withdrawals: the withdrawal already found under the External ID while the batch was
	 * checked (pipeline/batch.ts): the item is reported as it and never sent.
	 */
	existing?: IDataObject;
}

/** The specification, the service's public notes, third-party code, or nothing at all. */
type EndpointSource =
	| 'spec'
	| 'spec + public notes'
	| 'public notes'
	| 'public notes (third-party)'
	| 'unconfirmed';

interface OperationBase {
	/** Display name, action and description shown in n8n. */
	option: Omit<INodePropertyOptions, 'value' | 'routing'>;
	method: IHttpRequestMethods;
	/** Path relative to the base URL; `{name}` placeholders come from `pathParams`. */
	path: string;
	/** Where the endpoint is documented (docs/api.md, "Endpoints and their sources"). */
	source: EndpointSource;
	/** Its fields in the editor's order; their displayOptions name only fields of this operation (resource and operation are added). */
	fields: INodeProperties[];
	/** Validates the item's parameters (throwing before any request) and builds the request. */
	build?: (params: Params) => RequestParts | Promise<RequestParts>;
	/** What to tell the user for a given HTTP status of this operation, instead of the generic hint. */
	errorHint?: Partial<Record<number, string>>;
	/** Requests per minute the service allows on this route, per integration (docs/api.md, "Rate limits"). */
	rateLimit?: number;
	/** Shapes each output record of this operation (a withdrawal names each amount's currency). */
	output?: (record: IDataObject) => IDataObject;
	/** Adds what the node can find out to an error of this operation (a payout's limits after a 403); never throws. */
	explainError?: (ctx: IExecuteSingleFunctions, error: unknown) => Promise<void>;
	/** The money class of an item adding any of these Additional Fields, and its name's ending (docs/architecture.md). */
	moneyWith?: { money: RefusedToAgents; name: string; fields: string[] };
	/** The path parameter naming the one record, and its other id fields (docs/architecture.md, "Operation records"). */
	byId?: { param: string; alsoShownAs?: Record<string, ShownAs> };
	/** Body fields the answer shows back: as sent (a number also as text, text without case), an address, a masked account number. */
	echoes?: Record<string, Echo>;
}

/** An operation's record; its kind decides how it is sent, repeated and output (docs/architecture.md, "Operation records"). */
export type OperationSpec = OperationBase &
	/** What the operation can do to money: who may run it, and which guardrails apply. */
	(| {
				money: 'pays';
				/** What the credential's guardrails check (money/guardrails.ts); such operations also take 'Dry Run'. */
				payment: (parts: RequestParts) => Payment;
		  }
		| { money: Exclude<MoneyClass, 'pays'>; payment?: never }
	) &
	(
		| {
				kind: 'read';
				/** Turns the service's `data` into output items when unwrapping the envelope is not enough. */
				records?: (data: unknown) => IDataObject[];
		  }
		| { kind: 'update' | 'delete' | 'singleWrite' | 'wholeList' }
		| { kind: 'pagedList'; pageSize: number }
		| {
				kind: 'report';
				/** Every route it reads, `METHOD /path` (the README's Operations table). */
				reads: string[];
				/** How much it reads, and where that is described (the README's Operations table). */
				readsNote: string;
				/** The item's output, read through `http`; never rewritten afterwards (docs/guardrails.md, "Secrets: what is hidden where"). */
				report: (params: Params, http: HttpCall) => Promise<INodeExecutionData[]>;
		  }
		| {
				kind: 'withdrawal';
				/** Where a withdrawal is read by its id or External ID (the path of withdrawal → get). */
				lookupPath: string;
		  }
	);

export type OperationKind = OperationSpec['kind'];

/** How each kind may be repeated after an ambiguous failure (docs/architecture.md, "An item's lifecycle", step 5). */
export const RETRY_OF_KIND: Record<OperationKind, RetryPolicy> = {
	read: 'safe',
	update: 'safe',
	delete: 'safe',
	pagedList: 'safe',
	wholeList: 'safe',
	report: 'safe',
	singleWrite: 'never',
	withdrawal: 'withdrawal',
};

export type ResourceSpecs = Record<string, OperationSpec>;

/** What a money-moving item would do, as its operation record states it (`payment`). */
export interface Payment {
	/** The amount as the request states it: in USD, in a token, or in a local currency. */
	amount: { usd: number } | { token: string; crypto: number } | { fiat: string; value: number };
	/** A crypto destination, checked against the allowed destinations. */
	destination?: { token: string; network?: string; address: string };
	/** The withdrawal's External ID (swaps have none). */
	key?: IdempotencyKey;
}

/** What the batch tells a send, and what the send tells the batch. */
export interface SendTurn {
	/**
	 * The error of an in-doubt attempt of this item earlier in the run (n8n's Retry On Fail), for
	 * kinds that can resolve it without sending (withdrawals, by their External ID).
	 */
	earlierInDoubt?: Error;
	/**
	 * The write took effect (the service created it, with this id): the item's turn ends here, so
	 * reading the record back does not hold up the next item's send.
	 */
	created: (id?: string) => void;
	/**
	 * The send was answered without a creation (a refusal, or no clear answer): no further item
	 * starts until this one settles, so that a failure still stops the items not yet sent.
	 */
	notCreated: () => void;
}

/**
 * A value per key (a node run, an operation record), made by `make` on the key's first use and kept
 * as long as the key lives, never longer.
 */
export function keptFor<K extends object, V>(): (key: K, make: (key: K) => V) => V {
	const made = new WeakMap<K, V>();
	return (key, make) => sharedOf(made, key, make);
}
