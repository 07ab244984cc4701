/** The contract table's cases (operation-cases.ts) of account, assets, deposit wallets and mock deposits. */
import { setupNock } from '../../helpers/node';
import { describeContractTotal, describeOperations } from '../../helpers/operation-cases';

setupNock();

describeOperations('operations/deposits');
describeContractTotal();
