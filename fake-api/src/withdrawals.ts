/** Withdrawals through their life: debited and pending, then completed, rejected or reversed. */
import { randomBytes } from 'node:crypto';

import { round } from './catalog';
import type { FakeApiCore } from './core';
import { badRequest } from './http';
import { publicWithdrawal, type NewWithdrawal } from './records';
import type { Withdrawal } from './types';


/**
 * Creates a pending withdrawal: debits the balance (amount + fee when the business bears the
 * fee, the amount alone when the user does), emits withdrawal.pending, schedules the outcome.
 */
export function createWithdrawal(core: FakeApiCore, input: NewWithdrawal): Withdrawal {
	const { gross, ...fields } = input;
	const feeBearer = core.state.account.withdrawalFeeBearer;
	const debitedAmount = round(feeBearer === 'business' ? gross + input.fee : gross, 2);
	const payoutAmount = round(feeBearer === 'business' ? gross : gross - input.fee, 2);
	if (payoutAmount <= 0) throw badRequest('amount is too small to cover the withdrawal fee');
	core.ensureBalance(input.currency, debitedAmount);
	const now = core.iso();
	const withdrawal: Withdrawal = {
		...fields,
		id: core.newId(),
		status: 'pending',
		payoutAmount,
		debitedAmount,
		feeBearer,
		txHash: null,
		reason: null,
		createdAt: now,
		updatedAt: now,
	};
	core.adjustBalance(input.currency, -debitedAmount);
	core.state.withdrawals.push(withdrawal);
	core.emit(`withdrawal.pending`, withdrawal.id, withdrawalPayload(withdrawal));
	scheduleWithdrawal(core, withdrawal.id);
	return withdrawal;
}

function withdrawalPayload(withdrawal: Withdrawal): Record<string, unknown> {
	const { id, status, ...rest } = publicWithdrawal(withdrawal);
	return { id, status, ...rest };
}

export function scheduleWithdrawal(core: FakeApiCore, id: string): void {
	core.scheduler.add({
		kind: 'lifecycle',
		dueAt: Date.now() + core.options.lifecycleDelayMs,
		run: () => finishWithdrawal(core, id),
	});
}

function finishWithdrawal(core: FakeApiCore, id: string): void {
	const withdrawal = core.state.withdrawals.find((candidate) => candidate.id === id);
	if (!withdrawal || withdrawal.status !== 'pending') return;
	const destination = withdrawal.walletAddress ?? withdrawal.accountNumber ?? '';
	// A stuck payout stays pending for good (docs/fake-api.md, "Lifecycle").
	if (core.options.stuckAddresses.includes(destination)) return;
	const now = core.iso();
	if (core.options.rejectAddresses.includes(destination)) {
		withdrawal.status = 'rejected';
		withdrawal.reason = 'withdrawal failed an internal check before broadcast';
	} else if (core.options.reverseAddresses.includes(destination)) {
		withdrawal.status = 'reversed';
		withdrawal.reason = 'payout failed after broadcast; funds returned';
	} else {
		withdrawal.status = 'completed';
		withdrawal.txHash =
			withdrawal.type === 'crypto' ? `0x${randomBytes(32).toString('hex')}` : `NIP${Date.now()}${randomBytes(4).toString('hex')}`;
	}
	if (withdrawal.status !== 'completed') core.adjustBalance(withdrawal.currency, withdrawal.debitedAmount);
	withdrawal.updatedAt = now;
	core.emit(`withdrawal.${withdrawal.status}`, withdrawal.id, withdrawalPayload(withdrawal));
	core.save();
}
