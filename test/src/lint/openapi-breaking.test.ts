import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/ledger-files';
import { runNpmScript } from '../support/npm-script';
import { ROOT } from '../support/processes';

/**
 * `npm run lint` refuses a breaking change to the API document unless it is approved: its
 * `openapi:breaking` step, run as the lint runs it, against the committed released document,
 * with a planted current document and approvals file.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests edit the document's plain JSON
type Document = any;

const committedDocument = (): Document => JSON.parse(readFileSync(join(ROOT, 'gateway/openapi.json'), 'utf8'));

type Approval = { change: string; reason: string };

/** The changes approved since the release: the committed document makes them, so a planted one does too. */
const committedApprovals = (): Approval[] => JSON.parse(readFileSync(join(ROOT, 'gateway/openapi.approved-changes.json'), 'utf8')).approved;

async function breakingStep(current: Document, approved: Approval[] = []) {
  const dir = tempDir('breaking');
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(current));
  writeFileSync(join(dir, 'approvals.json'), JSON.stringify({ approved: [...committedApprovals(), ...approved] }));
  return runNpmScript('openapi:breaking', ['--current', join(dir, 'openapi.json'), '--approvals', join(dir, 'approvals.json')]);
}

/** The committed document with the asset list's `limit` capped lower: a client asking for 100 now gets a 422. */
function withLowerLimit(): Document {
  const document = committedDocument();
  const limit = document.paths['/api/nft/assets'].get.parameters.find((parameter: { name: string }) => parameter.name === 'limit');
  limit.schema.maximum = 50;
  return document;
}

const LOWER_LIMIT = 'GET /api/nft/assets query parameter limit: maximum 100 -> 50';
const TIMEOUT_MS = 60_000;

describe('the breaking change check of npm run lint', () => {
  it(
    'fails on a breaking change nobody approved, naming it',
    async () => {
      const { failed, output } = await breakingStep(withLowerLimit());
      expect(failed).toBe(true);
      expect(output).toContain(`breaking change: ${LOWER_LIMIT}\n`);
    },
    TIMEOUT_MS,
  );

  it(
    'fails on a response field removed from a shared schema',
    async () => {
      const document = committedDocument();
      delete document.components.schemas.Asset.properties.collectionId;
      document.components.schemas.Asset.required = document.components.schemas.Asset.required.filter((name: string) => name !== 'collectionId');
      const { failed, output } = await breakingStep(document);
      expect(failed).toBe(true);
      expect(output).toContain('breaking change: GET /api/nft/assets response 200 application/json $.data[].anyOf[0].collectionId: removed\n');
    },
    TIMEOUT_MS,
  );

  it(
    'passes a breaking change the approvals file lists',
    async () => {
      const { failed, output } = await breakingStep(withLowerLimit(), [{ change: LOWER_LIMIT, reason: 'pages of 100 assets overload the store' }]);
      expect(failed).toBe(false);
      expect(output).toContain(`approved breaking change: ${LOWER_LIMIT}\n`);
    },
    TIMEOUT_MS,
  );

  it(
    'passes additive changes: a new optional parameter, a new operation, a new response field',
    async () => {
      const document = committedDocument();
      document.paths['/api/nft/assets'].get.parameters.push({ name: 'owner', in: 'query', required: false, schema: { type: 'string' } });
      document.paths['/api/nft/assets/count'] = { get: { operationId: 'countAssets', responses: { '200': { description: 'OK' } } } };
      document.components.schemas.Asset.properties.mintedAt = { type: 'string' };
      const { failed, output } = await breakingStep(document);
      expect(failed).toBe(false);
      expect(output).toContain('no unapproved breaking change');
    },
    TIMEOUT_MS,
  );
});
