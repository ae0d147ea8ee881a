import type { z } from 'zod';
import type { UserDoc } from '../projection';
import type { userDetailResource, userSummaryResource } from './schema';

const ALLOW = 1;
const DENY = 0;

export function presentUserSummary(doc: UserDoc): z.infer<typeof userSummaryResource> {
  return { publicKey: doc.publicKey, groups: doc.groups, allow: doc.allow, deny: doc.deny };
}

export function presentUserDetail(doc: UserDoc): z.infer<typeof userDetailResource> {
  return {
    publicKey: doc.publicKey,
    groups: doc.groups,
    permissions: [
      { kind: ALLOW, types: doc.allow },
      { kind: DENY, types: doc.deny },
    ],
  };
}
