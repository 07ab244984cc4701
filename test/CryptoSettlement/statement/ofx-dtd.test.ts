/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console -- test code, outside the scanned folders: it runs libofx's ofxdump and says when it is absent */
/**
 * Every OFX file is valid OFX 1.02 (docs/statement.md, "The files"; issue #69 point 6), checked by an
 * independent parser that validates against the DTD: libofx's ofxdump (Debian package `ofx`, which
 * .ci/run installs). Through n8n-core's engine against a local service: with the service's balances,
 * without them but with Opening Balances (LEDGERBAL = opening + the day's net), and with neither (the
 * currency's file item fails, naming the currency and what is missing; per currency under Continue
 * On Fail). The test first proves ofxdump refuses a file without LEDGERBAL, so it can fail.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { runNode, serversClosedAfterEach } from '../../helpers/node';
import { localService } from '../../helpers/local-service';

const DAY = '2026-03-10';
const at = (minutes: number) => new Date(Date.parse(`${DAY}T00:00:00Z`) + minutes * 60_000).toISOString();
const servers = serversClosedAfterEach();
const HAS_OFXDUMP = spawnSync('sh', ['-c', 'command -v ofxdump']).status === 0;
if (!HAS_OFXDUMP) console.warn('ofx-dtd.test.ts: SKIPPED, ofxdump is not installed here (Debian: apt-get install -y ofx); .ci/run installs it, so CI validates');
const withOfxdump = HAS_OFXDUMP ? describe : describe.skip;

/** ofxdump's verdict on an OFX text: its DTD errors (empty when valid). */
function ofxErrors(text: string): string[] {
	const dir = mkdtempSync(join(tmpdir(), 'ofx-'));
	try {
		const file = join(dir, 'statement.ofx');
		writeFileSync(file, text);
		const run = spawnSync('ofxdump', [file], { encoding: 'utf8' });
		const errors = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /LibOFX ERROR|:E:/.test(line));
		return run.status === 0 ? errors : [...errors, `ofxdump exited ${String(run.status)}`];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const bank = (id: string, currency: string, payoutAmount: number, fee: number) => ({ id, externalId: `x-${id}`, status: 'completed', amount: 1, payoutAmount, fee, currency, bankName: 'Access Bank', accountNumber: '0123456789', createdAt: at(60) });
const WITHDRAWALS = [bank('n1', 'ngn', 5000, 50), bank('u1', 'usd', 20, 1.5)];

async function service(account: IDataObject) {
	const server = await localService((seen) => {
		const listed = seen.path === '/v1/payments/withdrawals' ? WITHDRAWALS : seen.path === '/v1/trades/transactions' || seen.path === '/v1/trades/wallets' ? [] : undefined;
		if (!listed) return { status: 200, body: { success: true, data: account } };
		return { status: 200, body: { success: true, message: 'ok', data: listed, meta: { page: 1, pages: 1, hasNextPage: false, totalDocs: listed.length } } };
	});
	servers.push(server);
	return { baseUrl: server.baseUrl };
}

const fileText = (item: INodeExecutionData) => Buffer.from(String(item.binary?.data?.data), 'base64').toString('utf8');
const ledgerBalance = (text: string) => /<LEDGERBAL>\r\n<BALAMT>([^<]*)<\/BALAMT>/.exec(text)?.[1];

withOfxdump('every OFX file is valid OFX 1.02, with its LEDGERBAL (#69 point 6), by ofxdump against the DTD', () => {
	it('ofxdump refuses the file without LEDGERBAL (the file written before when the service stated no balances)', async () => {
		const run = await runNode({ resource: 'statement', operation: 'get', day: DAY, output: 'file', options: { fileFormat: 'ofx' } }, { credentials: await service({ fiatWallets: { ngn: 100_000, usd: 500 } }) });
		expect(run.error).toBeUndefined();
		const text = fileText(run.items[0]);
		expect(ofxErrors(text)).toEqual([]);
		const without = text.replace(/<LEDGERBAL>[\s\S]*<\/LEDGERBAL>\r\n/, '');
		expect(without).not.toContain('LEDGERBAL');
		expect(ofxErrors(without).join('\n')).toMatch(/end tag for "STMTRS" which is not finished/);
	});

	it("with the service's balances: each currency's file is valid, LEDGERBAL the closing balance", async () => {
		const run = await runNode({ resource: 'statement', operation: 'get', day: DAY, output: 'file', options: { fileFormat: 'ofx' } }, { credentials: await service({ fiatWallets: { ngn: 100_000, usd: 500 } }) });
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => [item.json.currency, ledgerBalance(fileText(item)), ofxErrors(fileText(item))])).toEqual([
			['NGN', '100000.00', []],
			['USD', '500.00', []],
		]);
	});

	it('the service states no balances, Opening Balances are given: LEDGERBAL is opening + the day\'s net, and each file is valid', async () => {
		const credentials = await service({});
		const run = await runNode({ resource: 'statement', operation: 'get', day: DAY, output: 'file', options: { fileFormat: 'ofx', openingBalances: { NGN: 10_000, USD: 100 } } }, { credentials });
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => [item.json.currency, ledgerBalance(fileText(item)), ofxErrors(fileText(item))])).toEqual([
			['NGN', '4950.00', []],
			['USD', '78.50', []],
		]);
	});

	it('no balance stated and none given: the item fails naming the currency and what is missing; under Continue On Fail only that currency fails', async () => {
		const credentials = await service({});
		const failed = await runNode({ resource: 'statement', operation: 'get', day: DAY, output: 'file', options: { fileFormat: 'ofx' } }, { credentials });
		expect(failed.error?.message).toBe('The OFX file of NGN cannot be written: OFX requires its closing balance (LEDGERBAL), and the service states no balances and no Opening Balances were given, so the closing balance of NGN is not known');
		const partly = await runNode({ resource: 'statement', operation: 'get', day: DAY, output: 'file', options: { fileFormat: 'ofx', openingBalances: { NGN: 10_000 } } }, { credentials, continueOnFail: true });
		expect(partly.error).toBeUndefined();
		expect(partly.items).toHaveLength(2);
		const [ngn, usd] = partly.items;
		expect(ngn.json.currency).toBe('NGN');
		expect(ofxErrors(fileText(ngn))).toEqual([]);
		expect(usd.binary).toBeUndefined();
		expect(String(usd.json.error)).toBe('The OFX file of USD cannot be written: OFX requires its closing balance (LEDGERBAL), and no Opening Balance was given for USD (Opening Balances has NGN), so its closing balance is not known');
	});
});
