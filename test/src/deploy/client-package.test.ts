import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeDemoLedger } from '@ledger-api/demo-ledger';
import { waitFor } from '@ledger-api/test-kit';
import { startGuardianBehindGateway } from '../support/guardian-behind-gateway';
import { tempDir } from '../support/ledger-files';
import { isReady, ROOT, type RunningProcess } from '../support/processes';

/**
 * The client as a developer gets it: `npm pack` of client/, installed into a fresh project
 * without the network, then used from plain JavaScript (require and import) against a running
 * gateway, on the project's Node.js and on the oldest its `engines` admit, and from TypeScript
 * checked by tsc against the declarations the package ships, under every module resolution its
 * README names.
 */
const CLIENT = join(ROOT, 'client');
const MANIFEST = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { engines: { node: string } };
const OLDEST_MAJOR = Number(/^>=(\d+)$/.exec(MANIFEST.engines.node)?.[1]);

/**
 * A Node.js of the oldest major the engines admit, from PATH outside node_modules (where the
 * project's own Node.js is): the machine's, as the npm that installs the project runs on.
 */
function oldestNode(): string | undefined {
  const dirs = (process.env.PATH ?? '').split(':').filter((dir) => dir && !dir.includes('node_modules'));
  return dirs
    .map((dir) => join(dir, 'node'))
    .filter(existsSync)
    .find((node) => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.startsWith(`v${OLDEST_MAJOR}.`));
}

interface LockEntry {
  version: string;
  integrity?: string;
  dependencies?: Record<string, string>;
}

/**
 * A lockfile for a project that depends on the tarball alone, with the client's runtime
 * dependencies pinned to what the repository's lockfile installs: `npm ci` then takes them from
 * the npm cache by their integrity, with no registry to ask.
 */
function scratchLockfile(tarball: string): object {
  const repositoryLock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
  const packages: Record<string, object> = {
    '': { name: 'scratch', dependencies: { '@ledger-api/client': `file:${tarball}` } },
    'node_modules/@ledger-api/client': { version: manifest.version, resolved: `file:${tarball}`, dependencies: manifest.dependencies },
  };
  const pending = Object.keys(manifest.dependencies);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const key = `node_modules/${name}`;
    if (key in packages) continue;
    const { version, integrity, dependencies } = repositoryLock.packages[key];
    packages[key] = { version, integrity, dependencies };
    pending.push(...Object.keys(dependencies ?? {}));
  }
  return { name: 'scratch', lockfileVersion: 3, requires: true, packages };
}

const USE_WITH_REQUIRE = `
const { createLedgerApiClient } = require('@ledger-api/client');
(async () => {
  const api = createLedgerApiClient(process.argv[2]);
  const { data, response } = await api.GET('/api/guardian/groups', { params: { query: { limit: 2, orderBy: 'name:asc' } } });
  console.log(JSON.stringify({ status: response.status, names: data.data.map((group) => group.name) }));
})();
`;

const USE_WITH_IMPORT = `
import { createLedgerApiClient, liveEvents } from '@ledger-api/client';
const api = createLedgerApiClient(process.argv[2]);
const { error, response } = await api.GET('/api/guardian/groups/{id}', { params: { path: { id: 'no such group' } } });
const stop = new AbortController();
for await (const event of liveEvents(process.argv[2], 'guardian', { signal: stop.signal })) {
  console.log(JSON.stringify({ status: response.status, message: error.message, first: event.event, height: event.data.height }));
  stop.abort();
}
`;

// No top-level await: the same code is checked as an ES module and as CommonJS.
const TYPED_USE = `
import { createLedgerApiClient, liveEvents, type HeightConflict, type Schemas } from '@ledger-api/client';
export async function use(): Promise<void> {
  const api = createLedgerApiClient('http://127.0.0.1:4003');
  const { data } = await api.GET('/api/guardian/groups', { params: { query: { limit: 2 } } });
  const groups: Schemas['Group'][] = data?.data ?? [];
  const priority: number = groups[0].priority;
  // @ts-expect-error: the document has no such path
  await api.GET('/api/guardian/nothing');
  // @ts-expect-error: limit is a number
  await api.GET('/api/guardian/groups', { params: { query: { limit: 'two' } } });
  const past = await api.GET('/api/guardian/groups/{id}', { params: { path: { id: 'admins' }, query: { height: 3, blockId: 'ab'.repeat(32) } } });
  const head: number | undefined = (past.error as HeightConflict | undefined)?.head;
  // @ts-expect-error: height is a number
  await api.GET('/api/guardian/groups', { params: { query: { height: 'three' } } });
  for await (const event of liveEvents('http://127.0.0.1:4003', 'nft/exchange')) {
    if (event.event === 'block.applied') console.log(event.data.transactions.length, priority, head);
  }
}
`;

/** Each module resolution the README names, with the module kind it goes with and the consumer file it checks. */
const RESOLUTIONS: [string, { module: string; file: string }][] = [
  ['nodenext', { module: 'nodenext', file: 'check.mts' }],
  ['nodenext', { module: 'nodenext', file: 'check.cts' }],
  ['node16', { module: 'node16', file: 'check.mts' }],
  ['bundler', { module: 'preserve', file: 'check.ts' }],
  ['node10', { module: 'commonjs', file: 'check.ts' }],
];

function tsconfig(moduleResolution: string, { module, file }: { module: string; file: string }) {
  // TypeScript 6 deprecates node10 (and says so as an error) but still resolves by it.
  const deprecated = moduleResolution === 'node10' ? { ignoreDeprecations: '6.0' } : {};
  const compilerOptions = {
    module,
    moduleResolution,
    target: 'es2022',
    lib: ['es2022', 'dom', 'dom.iterable'],
    types: [],
    strict: true,
    noEmit: true,
  };
  return { compilerOptions: { ...compilerOptions, ...deprecated }, files: [file] };
}

const running: RunningProcess[] = [];
let packed: string;
let files: string[];
let app: string;

beforeAll(() => {
  packed = tempDir('client-pack');
  const [tarball] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', packed], { cwd: CLIENT, encoding: 'utf8', stdio: 'pipe' }),
  ) as {
    filename: string;
    files: { path: string }[];
  }[];
  files = tarball.files.map((file) => file.path).sort();
  app = join(packed, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, dependencies: { '@ledger-api/client': `file:../${tarball.filename}` } }),
  );
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(scratchLockfile(`../${tarball.filename}`)));
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: app, stdio: 'pipe' });
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((child) => child.stop('SIGKILL')));
  rmSync(packed, { recursive: true, force: true });
});

it('packs built JavaScript and declarations, with the README, LICENSE and CHANGELOG, and nothing else', () => {
  expect(files.filter((file) => !/^dist\/.+\.(js|d\.ts)$/.test(file))).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
  expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/live-events.js', 'dist/generated/schema.d.ts']));
  expect(files.filter((file) => file.includes('.test.'))).toEqual([]);
});

it('installs with no workspace package among its dependencies', () => {
  const installed = JSON.parse(readFileSync(join(app, 'node_modules/@ledger-api/client/package.json'), 'utf8')) as Record<string, unknown>;
  expect(Object.keys(installed.dependencies as object).filter((name) => name.startsWith('@ledger-api/'))).toEqual([]);
  expect(installed).not.toHaveProperty('private');
  expect(installed).toMatchObject({ license: 'MIT', exports: { '.': { types: './dist/index.d.ts' } } });
});

describe('from plain JavaScript against a running gateway', () => {
  let base: string;
  beforeAll(async () => {
    const ledgerFile = join(tempDir('client-ledger'), 'ledger.jsonl');
    writeDemoLedger(ledgerFile, { blockCount: 50 });
    const started = await startGuardianBehindGateway({ LEDGER_FILE: ledgerFile }, running);
    base = started.base;
    await waitFor(() => isReady(started.admin), 'the gateway', 60_000, 100);
    writeFileSync(join(app, 'use.cjs'), USE_WITH_REQUIRE);
    writeFileSync(join(app, 'use.mjs'), USE_WITH_IMPORT);
  }, 120_000);

  const oldest = oldestNode();
  // On a workstation without that Node.js the case is skipped; CI has it (the system's Node.js) and fails without it.
  const nodes = [['the project', process.execPath], ...(oldest || process.env.CI ? [[`the oldest admitted (${OLDEST_MAJOR})`, oldest ?? '']] : [])];

  it.each(nodes)('answers with require and with import, on %s Node.js', (_which, node) => {
    expect(node).not.toBe('');
    const run = (script: string) => JSON.parse(execFileSync(node, [script, base], { cwd: app, encoding: 'utf8' })) as Record<string, unknown>;
    expect(run('use.cjs')).toMatchObject({ status: 200, names: [expect.any(String), expect.any(String)] });
    expect(run('use.mjs')).toEqual({ status: 404, message: expect.stringMatching(/not found/i), first: 'position', height: expect.any(Number) });
  });
});

it.each(RESOLUTIONS)('type-checks a TypeScript consumer against the declarations it ships, moduleResolution %s (%o)', (resolution, kind) => {
  writeFileSync(join(app, kind.file), TYPED_USE);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig(resolution, kind)));
  const checked = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
  expect(checked.stdout + checked.stderr).toBe('');
  expect(checked.status).toBe(0);
});

it('claims in its README what these tests cover', () => {
  const readme = readFileSync(join(CLIENT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  expect(readme).toContain(`Node.js ${OLDEST_MAJOR} or later`);
  for (const [resolution] of RESOLUTIONS) expect(readme).toContain(`\`${resolution}\``);
});
