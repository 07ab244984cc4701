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
		dueAt: core.now() + core.options.lifecycleDelayMs,
		run: () => finishWithdrawal(core, id),
	});
}

/**
 * Reverses a withdrawal that is still open (`pending` or `processing`) now, in service time: the
 * debit comes back and withdrawal.reversed is sent, as when its destination is on the reverse list
 * (docs/fake-api.md, "A refund the day after its payout"). Undefined when there is no such
 * withdrawal; a `completed`, `rejected`, `reversed` or `cancelled` one is final and is refused.
 */
export function reverseWithdrawal(
	core: FakeApiCore,
	idOrExternalId: string,
	reason?: string,
): Withdrawal | undefined {
	const withdrawal = core.state.withdrawals.find(
		(candidate) =>
			candidate.id === idOrExternalId ||
			(candidate.externalId !== null && candidate.externalId === idOrExternalId),
	);
	if (!withdrawal) return undefined;
	if (withdrawal.status !== 'pending' && withdrawal.status !== 'processing') {
		throw badRequest(
			`withdrawal ${withdrawal.id} is ${withdrawal.status}, a final status: only a pending or processing withdrawal can be reversed`,
		);
	}
	withdrawal.status = 'reversed';
	withdrawal.reason = reason || 'payout failed after broadcast; funds returned';
	core.adjustBalance(withdrawal.currency, withdrawal.debitedAmount);
	withdrawal.updatedAt = core.iso();
	core.emit('withdrawal.reversed', withdrawal.id, withdrawalPayload(withdrawal));
	core.save();
	return withdrawal;
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
			withdrawal.type === 'crypto'
				? `0x${randomBytes(32).toString('hex')}`
				: `NIP${core.now()}${randomBytes(4).toString('hex')}`;
	}
	if (withdrawal.status !== 'completed')
		core.adjustBalance(withdrawal.currency, withdrawal.debitedAmount);
	withdrawal.updatedAt = now;
	core.emit(`withdrawal.${withdrawal.status}`, withdrawal.id, withdrawalPayload(withdrawal));
	core.save();
}
