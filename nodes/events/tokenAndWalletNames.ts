import { sleep, type IDataObject } from 'n8n-workflow';
import type { ApiContext, HttpCall } from '../service/api';
import { isSuccess } from '../service/apiErrors';
import { exchange, recordPath } from '../service/transport';
import { ROUTES } from '../service/routes';
import { isObject, scalarText } from '../service/values';
import { setNewest } from '../service/boundedMemory';
import { showsRecordId } from '../service/ids';
import { CREDENTIAL_TYPE } from '../service/credentials';
import { assetRef, depositAssetIndex, type AssetFacts } from '../service/depositAssets';
import { SAFE_ID } from './confirm';

/**
 * What an event's item names that its record holds only as an id (docs/trigger.md, "The item"):
 * the deposit asset's token symbol (`GET /trades/assets`) and the deposit wallet's label
 * (`GET /trades/wallets/{id}`), kept in this n8n process per credential. A lookup that fails or
 * takes too long leaves the value `null`: it never drops, delays for long or fails an event.
 */

/** The `data` of a successful GET, or undefined (no answer, an error, a 429): never throws. */
type FetchData = (route: string, url: string, timeoutMs: number) => Promise<unknown>;

/** A GET through the service client (pacing shared with the action node, no redirects, one attempt). */
function fetchData(ctx: ApiContext, http: HttpCall): FetchData {
	return async (route, url, timeoutMs) => {
		try {
			const outcome = await exchange(
				ctx,
				http,
				{ method: 'GET', route, url, timeoutMs },
				{ maxRateLimitedAttempts: 1 },
			);
			return outcome.kind === 'answered' && isSuccess(outcome.response)
				? outcome.response.body.data
				: undefined;
		} catch {
			return undefined;
		}
	};
}

/** How long a read asset list is used: the service adds or disables assets now and then. */
const ASSETS_FRESH_MS = 60 * 60_000;
/** After a failed lookup, or an asset id the list lacks, the same lookup waits this long. */
const RETRY_AFTER_MS = 60_000;
/** Wallet labels kept per credential (a label never changes: the API has no call to change it). */
const WALLETS_KEPT = 5_000;
/**
 * Failed wallet lookups remembered per credential, each for RETRY_AFTER_MS: during an outage of the
 * wallet lookup every wallet fails, and past this many the oldest failure is forgotten (that wallet
 * may be asked again within the minute: a request more, never an event less).
 */
export const WALLET_FAILURES_KEPT = 1_000;
/** How often a wait for a lookup looks at the deadline (ms). */
const DEADLINE_STEP_MS = 25;
/** Credentials kept. */
const CREDENTIALS_KEPT = 100;

interface Directory {
	assets?: { at: number; byRef: Map<string, AssetFacts> };
	assetsLoading?: Promise<void>;
	assetsTriedAt?: number;
	labels: Map<string, string>;
	labelsFailedAt: Map<string, number>;
}

const directories = new Map<string, Directory>();

/** The key of a credential's facts: its id and what selects the account (never a secret). */
function directoryKey(credentialId: string, credentials: IDataObject | undefined): string {
	const part = (name: string) => scalarText(credentials?.[name]).trim();
	return [credentialId, part('baseUrl'), part('environment'), part('appId')].join('\u0000');
}

function directoryOf(key: string): Directory {
	let directory = directories.get(key);
	if (!directory) {
		directory = { labels: new Map(), labelsFailedAt: new Map() };
		setNewest(directories, key, directory, CREDENTIALS_KEPT);
	}
	return directory;
}

/**
 * The lookups of one delivery or one poll. `deadline` (n8n's clock) ends them: no request starts
 * after it and none waits past it; `maxWalletReads` bounds the wallets read (not yet known).
 */
export class EventDirectory {
	private readonly directory: Directory;
	private walletReads = 0;

	constructor(
		key: string,
		private readonly fetch: FetchData | undefined,
		private readonly deadline: number,
		private readonly maxWalletReads: number,
	) {
		this.directory = directoryOf(key);
	}

	private timeLeft(): number {
		return this.deadline - Date.now();
	}

	/** How long a lookup started now may wait; undefined when nothing is read or too little time is left. */
	private requestTimeoutMs(): number | undefined {
		const timeoutMs = Math.min(5_000, this.timeLeft());
		return this.fetch && timeoutMs >= 250 ? timeoutMs : undefined;
	}

	/**
	 * A lookup's answer, or undefined once the deadline passes: a request may also wait for its
	 * route's pace or a free slot before it is sent, which its own timeout does not bound. A lookup
	 * given up on still fills the cache when it ends. Waits in short steps, so that no timer
	 * outlives the lookup by more than one step.
	 */
	private async withinDeadline<T>(lookup: Promise<T>): Promise<T | undefined> {
		let settled = false;
		const answer = lookup.finally(() => {
			settled = true;
		});
		const deadlinePassed = (async () => {
			while (!settled && this.timeLeft() > 0)
				await sleep(Math.min(DEADLINE_STEP_MS, this.timeLeft()));
			return undefined;
		})();
		return await Promise.race([answer, deadlinePassed]);
	}

	/** The token symbol (and network name) of a deposit asset by its id or identifier; token `null` when unknown. */
	async asset(ref: unknown): Promise<AssetFacts> {
		const text = assetRef(ref);
		if (text === '') return { token: null };
		const directory = this.directory;
		const known = () => directory.assets?.byRef.get(text);
		const fresh =
			directory.assets !== undefined && Date.now() - directory.assets.at <= ASSETS_FRESH_MS;
		const hit = known();
		if (fresh && hit) return hit;
		// Read the list when it is missing, old, or lacks this asset: at most once a minute (an old
		// list still answers meanwhile), or join a read in progress.
		if (directory.assetsLoading || Date.now() - (directory.assetsTriedAt ?? 0) >= RETRY_AFTER_MS)
			await this.loadAssets();
		return known() ?? { token: null };
	}

	private async loadAssets(): Promise<void> {
		const directory = this.directory;
		if (!directory.assetsLoading) {
			const fetch = this.fetch;
			const timeoutMs = this.requestTimeoutMs();
			if (!fetch || timeoutMs === undefined) return;
			directory.assetsTriedAt = Date.now();
			directory.assetsLoading = (async () => {
				const byRef = depositAssetIndex(
					await fetch(ROUTES.depositAssets.path, ROUTES.depositAssets.path, timeoutMs),
				);
				if (byRef) directory.assets = { at: Date.now(), byRef };
			})().finally(() => {
				directory.assetsLoading = undefined;
			});
		}
		await this.withinDeadline(directory.assetsLoading);
	}

	/** The label a deposit wallet was generated with, by the wallet's id; `null` when unknown. */
	async walletLabel(walletId: unknown): Promise<string | null> {
		const id = scalarText(walletId).trim();
		if (id === '' || !SAFE_ID.test(id)) return null;
		const { labels, labelsFailedAt } = this.directory;
		const known = labels.get(id);
		if (known !== undefined) return known;
		const now = Date.now();
		const fetch = this.fetch;
		const timeoutMs = this.requestTimeoutMs();
		if (!fetch || timeoutMs === undefined || this.walletReads >= this.maxWalletReads) return null;
		if (now - (labelsFailedAt.get(id) ?? 0) < RETRY_AFTER_MS) return null;
		this.walletReads++;
		const data = await this.withinDeadline(
			fetch(ROUTES.wallet.path, recordPath(ROUTES.wallet.path, id), timeoutMs),
		);
		const wallet = isObject(data) ? data : undefined;
		// The label names the customer a deposit is credited to and is kept: an answer about another
		// wallet gives none.
		const label =
			wallet && showsRecordId(wallet, id, wallet.address) ? scalarText(wallet.label).trim() : '';
		if (label === '') {
			rememberFailure(labelsFailedAt, id, Date.now());
			return null;
		}
		labelsFailedAt.delete(id);
		setNewest(labels, id, label, WALLETS_KEPT);
		return label;
	}
}

/**
 * Keeps a failed lookup's time, in the order they failed: the failures older than RETRY_AFTER_MS
 * (which no longer hold a lookup back) and those past WALLET_FAILURES_KEPT go, the oldest first.
 */
function rememberFailure(failedAt: Map<string, number>, id: string, now: number): void {
	failedAt.delete(id);
	failedAt.set(id, now);
	for (const [oldest, at] of failedAt) {
		if (failedAt.size <= WALLET_FAILURES_KEPT && now - at < RETRY_AFTER_MS) break;
		failedAt.delete(oldest);
	}
}

/**
 * The lookups of one delivery or poll with the credential selected on the node (keyed by its id,
 * else its name), read through `http` (none: nothing is read, every value stays `null`) for at most
 * `timeMs`.
 */
export function nodeDirectory(
	ctx: ApiContext,
	credentials: IDataObject | undefined,
	http: HttpCall | undefined,
	timeMs: number,
	maxWalletReads: number,
): EventDirectory {
	const selected = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	return new EventDirectory(
		directoryKey(String(selected?.id ?? selected?.name ?? ''), credentials),
		http === undefined ? undefined : fetchData(ctx, http),
		Date.now() + timeMs,
		maxWalletReads,
	);
}

/** How long naming one delivery's token and wallet label may take (docs/trigger.md, "Speed"). */
const DELIVERY_DESCRIBE_MS = 3_000;

/** The lookups of one webhook delivery (the trigger's, or Verify Delivery's): one wallet read at most, within DELIVERY_DESCRIBE_MS. */
export function deliveryDirectory(
	ctx: ApiContext,
	credentials: IDataObject | undefined,
	http: HttpCall | undefined,
): EventDirectory {
	return nodeDirectory(ctx, credentials, http, DELIVERY_DESCRIBE_MS, 1);
}
