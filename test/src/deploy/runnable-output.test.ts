import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tempDir } from '../support/ledger-files';
import { ROOT } from '../support/processes';

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

describe('the runnable output the image ships', () => {
  const release = tempDir('release');
  let files: string[];

  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'deploy/build-runnable.mjs'), '--image', '--out', release], { stdio: 'pipe' });
    files = filesBelow(release);
  });

  it('holds every entry point the image runs, with the manifests and the API document', () => {
    for (const entry of [
      'services/guardian/dist/main.js',
      'services/nft-base/dist/main.js',
      'services/nft-exchange/dist/main.js',
      'gateway/dist/index.js',
      'gateway/openapi.json',
      'libs/ledger/dist/cli/publish.js',
      'libs/runtime/dist/cli/ledger-status.js',
    ]) {
      expect(files).toContain(entry);
    }
    expect(files.filter((file) => file.endsWith('package.json')).length).toBeGreaterThanOrEqual(12);
  });

  it('holds no test, test kit, store contract suite, demo ledger generator or dev launcher', () => {
    const devOrTest = /\.test\.|\/testing\/|\/contract\/|demo-ledger|test-kit|local-stack|supervisor/;
    expect(files.filter((file) => devOrTest.test(file))).toEqual([]);
  });
});
