import type { Transaction } from '@ledger-api/ledger';
import { TestLedger, testPublicKey } from '@ledger-api/ledger/testing';
import type { PermissionEntry } from '../projection';

const ADMIN = testPublicKey('guardian-admin');

export interface GroupDraft {
  name: string;
  priority: number;
  active: boolean;
  default: boolean;
  allow?: PermissionEntry[];
  deny?: PermissionEntry[];
}

export interface UserDraft {
  publicKey: string;
  groupNames?: string[];
  allow?: PermissionEntry[];
  deny?: PermissionEntry[];
}

/** A TestLedger with the two Guardian transaction types. */
export class GuardianLedger extends TestLedger {
  setGroup(group: GroupDraft): Transaction {
    return this.transaction({ typeGroup: 9002, type: 1, senderPublicKey: ADMIN, asset: { setGroupPermissions: group } });
  }

  setUser(user: UserDraft): Transaction {
    return this.transaction({ typeGroup: 9002, type: 0, senderPublicKey: ADMIN, asset: { setUserPermissions: user } });
  }
}

export const permission = (transactionType: number, transactionTypeGroup: number): PermissionEntry => ({ transactionType, transactionTypeGroup });
