/** The contract table's cases (operation-cases.ts) of withdrawals, payout addresses, banks and bank accounts. */
import { setupNock } from '../../helpers/node';
import { describeOperations } from '../../helpers/operation-cases';

setupNock();

describeOperations('operations/payouts');
