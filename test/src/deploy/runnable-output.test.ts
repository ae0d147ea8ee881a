import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { tempDir } from '../support/ledger-files';
import { ROOT, RUNNABLE, RUNNABLE_NODE_OPTIONS } from '../support/processes';

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

const release = tempDir('release');

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'deploy/build-runnable.mjs'), '--image', '--out', release], { stdio: 'pipe' });
});

describe('the runnable output the image ships', () => {
  let files: string[];

  beforeAll(() => {
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
    for (const devOnly of ['libs/test-kit', 'test', 'client', 'tools']) {
      expect(files.filter((file) => file.startsWith(`${devOnly}/`))).toEqual([]);
    }
  });

  it('holds no test, test kit, store contract suite, demo ledger generator or dev launcher', () => {
    const devOrTest = /\.test\.|\/testing\/|\/contract\/|demo-ledger|test-kit|local-stack|supervisor/;
    expect(files.filter((file) => devOrTest.test(file))).toEqual([]);
  });
});

interface BuildRecord {
  builder: string;
  target: string;
  workspaces: string[];
}

const buildRecord = (tree: string) => JSON.parse(readFileSync(join(tree, 'runnable.json'), 'utf8')) as BuildRecord;

/** Runs `script` with node from the repository root, under `nodeOptions`: what it printed. */
function runNode(script: string, nodeOptions: string): string {
  const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: nodeOptions } });
  if (run.status !== 0) throw new Error(`node -e failed: ${run.stderr}`);
  return run.stdout;
}

describe('the runnable output npm start and the system tests run', () => {
  it('is the image’s output, byte for byte, with the launcher and the demo ledger generator of npm start besides', () => {
    const image = buildRecord(release);
    const local = buildRecord(RUNNABLE);
    expect(local).toMatchObject({ builder: image.builder, target: image.target });
    expect(local.workspaces.sort()).toEqual([...image.workspaces, 'tools/demo-ledger', 'tools/local-stack'].sort());
    for (const workspace of image.workspaces) {
      const output = filesBelow(join(release, workspace, 'dist'));
      expect([workspace, filesBelow(join(RUNNABLE, workspace, 'dist')).sort()]).toEqual([workspace, output.sort()]);
      // The source maps differ only in the path from the tree to the sources.
      for (const file of output.filter((name) => name.endsWith('.js'))) {
        const [shipped, run] = [release, RUNNABLE].map((tree) => readFileSync(join(tree, workspace, 'dist', file), 'utf8'));
        expect([workspace, file, run === shipped]).toEqual([workspace, file, true]);
      }
    }
  });

  it('resolves every workspace package to its output in the tree, never to tsc’s dist/ folders', () => {
    const { workspaces } = buildRecord(RUNNABLE);
    const imports = workspaces.flatMap((workspace) =>
      Object.keys(manifestOf(workspace).dependencies ?? {})
        .filter((name) => name.startsWith('@ledger-api/'))
        .map((name) => ({ from: join(RUNNABLE, workspace, 'dist'), name })),
    );
    const script = `const { createRequire } = require('node:module');
      const imports = ${JSON.stringify(imports)};
      console.log(JSON.stringify(imports.map(({ from, name }) => createRequire(from + '/').resolve(name))));`;
    const resolved = JSON.parse(runNode(script, '')) as string[];
    expect(imports.length).toBeGreaterThan(20);
    expect(resolved.filter((file) => !file.startsWith(`${RUNNABLE}/`))).toEqual([]);
  });

  it('maps stack traces to the TypeScript source under the Node.js options the image runs with', () => {
    const script = `const { loadConfig } = require('${join(RUNNABLE, 'libs/config/dist/index.js')}');
      const { z } = require('zod');
      try { loadConfig(z.object({ PORT: z.string() }), {}); } catch (error) { console.log(error.stack); }`;
    const source = join(ROOT, 'libs/config/src/index.ts');
    expect(runNode(script, RUNNABLE_NODE_OPTIONS)).toContain(`(${source}:`);
    // Without them the same error names the transpiled file: the maps are what makes the difference.
    expect(runNode(script, '')).toContain(`(${join(RUNNABLE, 'libs/config/dist/index.js')}:`);
  });

  it('runs under the Node.js options of the image’s processes and of npm start', () => {
    const stages = readFileSync(join(ROOT, 'deploy/Dockerfile'), 'utf8').split(/^FROM /m);
    for (const stage of ['runtime', 'demo-seed']) {
      const body = stages.find((text) => new RegExp(`^\\S+ AS ${stage}$`, 'm').test(text.split('\n')[0]));
      expect([stage, body]).toEqual([stage, expect.stringContaining(`\nENV NODE_OPTIONS=${RUNNABLE_NODE_OPTIONS}\n`)]);
    }
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toContain(`node ${RUNNABLE_NODE_OPTIONS} .runnable/tools/local-stack/dist/launcher.js`);
  });
});
