import type { z } from 'zod';
import type { GroupDoc } from '../projection';
import type { groupResource } from './schema';

export function presentGroup(doc: GroupDoc): z.infer<typeof groupResource> {
  return { name: doc.name, priority: doc.priority, active: doc.active, default: doc.default, allow: doc.allow, deny: doc.deny };
}
