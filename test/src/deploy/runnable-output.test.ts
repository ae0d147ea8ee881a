import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { tempDir } from '../support/ledger-files';
import { ROOT } from '../support/processes';

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

const manifestOf = (workspace: string) => JSON.parse(readFileSync(join(ROOT, workspace, 'package.json'), 'utf8')) as Manifest;

/** The workspaces the shipped entry points run, and every workspace they depend on at run time. */
function shippedWorkspaces(): string[] {
  const workspaces = [...readdirSync(join(ROOT, 'libs')).map((name) => `libs/${name}`), 'gateway'];
  const byName = new Map(workspaces.map((workspace) => [manifestOf(workspace).name, workspace]));
  const shipped = new Set(['services/guardian', 'services/nft-base', 'services/nft-exchange', 'gateway']);
  for (const workspace of shipped) {
    for (const dependency of Object.keys(manifestOf(workspace).dependencies ?? {})) {
      const dependencyWorkspace = byName.get(dependency);
      if (dependencyWorkspace) shipped.add(dependencyWorkspace);
    }
  }
  return [...shipped].sort();
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

  it('holds exactly the workspaces the entry points depend on at run time: no dev-only workspace', () => {
    const workspaces = files.filter((file) => file.endsWith('/package.json')).map((file) => dirname(file));
    expect(workspaces.sort()).toEqual(shippedWorkspaces());
    for (const devOnly of ['libs/demo-ledger', 'libs/local-stack', 'libs/test-kit', 'test', 'client', 'tools']) {
      expect(files.filter((file) => file.startsWith(`${devOnly}/`))).toEqual([]);
    }
  });

  it('holds no test, test kit, store contract suite, demo ledger generator or dev launcher', () => {
    const devOrTest = /\.test\.|\/testing\/|\/contract\/|demo-ledger|test-kit|local-stack|supervisor/;
    expect(files.filter((file) => devOrTest.test(file))).toEqual([]);
  });
});
