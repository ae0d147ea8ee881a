import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { checkBreakingChanges, readApprovals, readDocument } from '../breaking/approvals';
import { APPROVALS_FILE, DOCUMENT_FILE, RELEASED_FILE } from '../paths';

/**
 * `npm run openapi:breaking` (part of `npm run lint`): fails while the API document holds a
 * breaking change since the released one that the approvals file does not list.
 */
const { values } = parseArgs({
  options: {
    released: { type: 'string', default: RELEASED_FILE },
    current: { type: 'string', default: DOCUMENT_FILE },
    approvals: { type: 'string', default: APPROVALS_FILE },
  },
});
const shown = (file: string) => relative(process.cwd(), file);

const check = checkBreakingChanges(readDocument(values.released), readDocument(values.current), readApprovals(values.approvals));
const out = (line: string) => process.stdout.write(`${line}\n`);
for (const change of check.approved) out(`approved breaking change: ${change}`);
for (const change of check.unused) out(`approval of no change (remove it from ${shown(values.approvals)}): ${change}`);
if (check.unapproved.length === 0) {
  out(`openapi: no unapproved breaking change since ${shown(values.released)}`);
} else {
  for (const change of check.unapproved) out(`breaking change: ${change}`);
  out(
    `openapi: ${check.unapproved.length} breaking change(s) since ${shown(values.released)}: undo them, or list each line ` +
      `as it is printed, with the reason, in ${shown(values.approvals)}`,
  );
  process.exitCode = 1;
}
