import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../support/processes';

/**
 * `npm run lint` builds every package with the project's compiler settings, and a projection
 * that changes a document it read or put does not compile: what ProjectionContext hands out
 * and keeps is read-only at every depth. The planted projection is compiled as if it stood in
 * the NFT read model, against the built declarations of the libs it imports.
 */
const PLANTED = join(ROOT, 'libs/nft-read-model/src/planted-projection.ts');

const projection = (body: string) => `import type { ProjectionContext } from '@ledger-api/ledger';
import type { Doc } from '@ledger-api/store';

interface AssetDoc extends Doc {
  ownerAddress: string;
  bidIds: string[];
  owner: { key: string };
}

export async function apply(ctx: ProjectionContext): Promise<void> {
  const asset = await ctx.get<AssetDoc>('assets', 'a');
  if (!asset) return;
  ${body}
}
`;

/** The compiler's errors for the planted projection, as `TS<code>: <message>`. */
function typeErrors(body: string): string[] {
  const configPath = join(ROOT, 'libs/nft-read-model/tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    { noEmit: true, incremental: false, composite: false },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${configPath}`);
  const host = ts.createCompilerHost(config.options);
  const code = projection(body);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    fileName === PLANTED ? ts.createSourceFile(fileName, code, languageVersion) : getSourceFile(fileName, languageVersion, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => fileName === PLANTED || fileExists(fileName);
  const program = ts.createProgram({ rootNames: [PLANTED], options: config.options, host });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === PLANTED)
    .map((diagnostic) => `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
}

describe('a projection changing a document in place', () => {
  it('does not compile when it pushes onto a list of a document it read', () => {
    expect(typeErrors("asset.bidIds.push('b');")).toEqual([
      expect.stringMatching(/^TS2339: Property 'push' does not exist on type 'readonly string\[\]'/),
    ]);
  });

  it('does not compile when it sets a member of a document it read, at any depth', () => {
    expect(typeErrors("asset.ownerAddress = 'x';\n  asset.owner.key = 'y';")).toEqual([
      expect.stringMatching(/^TS2540: Cannot assign to 'ownerAddress' because it is a read-only property/),
      expect.stringMatching(/^TS2540: Cannot assign to 'key' because it is a read-only property/),
    ]);
  });

  it('compiles when it puts a new document built from the one it read', () => {
    expect(typeErrors("ctx.put('assets', { ...asset, ownerAddress: 'x', bidIds: [...asset.bidIds, 'b'] });")).toEqual([]);
  });
});
