import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { openApiDocumentSchema, type OpenApiDocument } from './document';
import { breakingChanges } from './document-changes';

/** The approvals file: each breaking change made on purpose since the last release, as the check names it. */
export const approvalsSchema = z.strictObject({
  approved: z.array(z.strictObject({ change: z.string().min(1), reason: z.string().min(1) })),
});

export type Approvals = z.infer<typeof approvalsSchema>;

export interface BreakingCheck {
  /** Breaking changes nobody approved: the check fails on any. */
  unapproved: string[];
  approved: string[];
  /** Approvals that name no change (any more): worth removing, harmless. */
  unused: string[];
}

export function checkBreakingChanges(released: OpenApiDocument, current: OpenApiDocument, approvals: Approvals): BreakingCheck {
  const changes = breakingChanges(released, current);
  const listed = new Set(approvals.approved.map((approval) => approval.change));
  return {
    unapproved: changes.filter((change) => !listed.has(change)),
    approved: changes.filter((change) => listed.has(change)),
    unused: [...listed].filter((change) => !changes.includes(change)),
  };
}

/** A JSON file read through its schema; a file that does not fit names the file and the problem. */
export function readJsonFile<T>(file: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export const readDocument = (file: string) => readJsonFile(file, openApiDocumentSchema);
export const readApprovals = (file: string) => readJsonFile(file, approvalsSchema);
