import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { WALLET_FAILURES_KEPT } from '../../nodes/events/tokenAndWalletNames';
import { listServiceForEachTest } from '../helpers/poll/list-service-per-test';
import { captureLogs, CREDENTIALS, TriggerHarness } from '../helpers/webhook';

/**
 * Issue #48, point 11: the wallet-label lookups remember a failed wallet for a minute, so an outage
 * of the wallet lookup is not asked about the same wallet with every event. That memory is bounded:
 * during an outage each wallet adds a failure, and past WALLET_FAILURES_KEPT the oldest is forgotten
 * (its wallet may be asked again within the minute), through n8n-core's WebhookContext. n8n's clock
 * is the test's (only `Date` is faked): the minute is the test's, whatever the machine's speed.
 */
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const local = listServiceForEachTest(T0, { testClock: true });

beforeEach(() => {
	captureLogs();
});

const envelope = (data: unknown) => ({
	status: 200,
	body: { success: true, message: 'ok', data, meta: {}, summary: {}, stats: {} },
});

test(`an outage of the wallet lookup over ${WALLET_FAILURES_KEPT + 1} wallets: at most ${WALLET_FAILURES_KEPT} failures remembered, the oldest forgotten first; every event emitted`, async () => {
	const walletAsked = new Map<string, number>();
	local.service.fault = (path) => {
		if (path === '/trades/assets') return envelope([{ id: 'a-usdt', symbol: 'USDT' }]);
		const wallet = /^\/trades\/wallets\/(.+)$/.exec(path)?.[1];
		if (wallet === undefined) return undefined;
		walletAsked.set(wallet, (walletAsked.get(wallet) ?? 0) + 1);
		return { status: 503, body: { success: false, message: 'wallet service down' } };
	};
	const credentials: ICredentialDataDecryptedObject = {
		...CREDENTIALS,
		appId: 'app-wallets-down',
		baseUrl: local.service.url,
	};
	const h = await TriggerHarness.create({ events: ['*'], credentials });
	let n = 0;
	/** A deposit of `wallet`, delivered and confirmed: its item (the label `null`: the lookup fails). */
	const deposit = async (wallet: string): Promise<IDataObject> => {
		const record: IDataObject = {
			id: `t${String(++n).padStart(6, '0')}`,
			status: 'completed',
			asset: 'a-usdt',
			wallet,
			amountReceived: 25,
			createdAt: new Date(T0).toISOString(),
		};
		local.service.records.trades.push(record);
		const delivered = await h.deliver({
			body: { event: 'trade.completed', id: record.id, status: 'completed' },
		});
		expect(delivered).toMatchObject({ status: 200, started: true });
		return delivered.items[0];
	};
	const wallets = Array.from({ length: WALLET_FAILURES_KEPT + 1 }, (_, i) => `w-${i}`);
	for (const wallet of wallets)
		expect(await deposit(wallet)).toMatchObject({ token: 'USDT', walletLabel: null });
	expect(wallets.every((wallet) => walletAsked.get(wallet) === 1)).toBe(true);
	// Within the minute: the newest failures hold their wallets back; the oldest was forgotten.
	await deposit(wallets[WALLET_FAILURES_KEPT]);
	await deposit(wallets[1]);
	expect(walletAsked.get(wallets[WALLET_FAILURES_KEPT])).toBe(1);
	expect(walletAsked.get(wallets[1])).toBe(1);
	await deposit(wallets[0]);
	expect(walletAsked.get(wallets[0])).toBe(2);
	// A minute on, every wallet may be asked again.
	jest.setSystemTime(Date.now() + 61_000);
	await deposit(wallets[WALLET_FAILURES_KEPT]);
	expect(walletAsked.get(wallets[WALLET_FAILURES_KEPT])).toBe(2);
});

// The label names the customer a deposit is credited to (the credit template's reference), and is
// kept for the process: an answer about another wallet (a cache or a proxy answering another path)
// must not become this wallet's label.
test('a wallet lookup answered with another wallet gives no label (and keeps none); the next minute the right one is read', async () => {
	let wrong = true;
	local.service.fault = (path) => {
		if (path === '/trades/assets') return envelope([{ id: 'a-usdt', symbol: 'USDT' }]);
		if (path === '/trades/wallets/w-alice')
			return envelope(
				wrong ? { id: 'w-bob', label: 'customer-bob' } : { id: 'w-alice', label: 'customer-alice' },
			);
		return undefined;
	};
	const credentials: ICredentialDataDecryptedObject = {
		...CREDENTIALS,
		appId: 'app-wallets-wrong',
		baseUrl: local.service.url,
	};
	const h = await TriggerHarness.create({ events: ['*'], credentials });
	let n = 0;
	const deposit = async (): Promise<IDataObject> => {
		const record: IDataObject = {
			id: `t${String(++n).padStart(6, '0')}`,
			status: 'completed',
			asset: 'a-usdt',
			wallet: 'w-alice',
			amountReceived: 25,
			createdAt: new Date(T0).toISOString(),
		};
		local.service.records.trades.push(record);
		const delivered = await h.deliver({
			body: { event: 'trade.completed', id: record.id, status: 'completed' },
		});
		expect(delivered).toMatchObject({ status: 200, started: true });
		return delivered.items[0];
	};
	expect(await deposit()).toMatchObject({ walletLabel: null });
	wrong = false;
	jest.setSystemTime(Date.now() + 61_000);
	expect(await deposit()).toMatchObject({ walletLabel: 'customer-alice' });
});
