/** The contract table's cases (operation-cases.ts) of transactions, currency swap, rates and webhook events. */
import { setupNock } from '../../helpers/node';
import { describeOperations } from '../../helpers/operation-cases';

setupNock();

describeOperations('operations/rates-records');
