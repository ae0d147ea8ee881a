// The runnable output of every workspace that runs (npm start, the system tests, the image): each
// package's src/ transpiled file by file, as tsc lays it out, without type-checking (`npm run lint`
// and the tests do that with tsc) and without tests or test kits, for the Node.js line the image
// runs (the `engines` field, which a test holds to the image's). Nothing reads tsc's dist/ folders
// to run: the processes npm start and the tests start run this output, as the image does.
//
//   node deploy/build-runnable.mjs                      every workspace npm start runs, into .runnable/,
//                                                       linked to this checkout's installed dependencies
//   node deploy/build-runnable.mjs --image --out DIR    what the image ships (no dev launchers), as a
//                                                       release tree over the image's own dependencies
//   ... --image --with-demo-ledger --out DIR            the same with the demo ledger generator, for the
//                                                       seed of a first Docker Compose run (the demo-seed image)
//
// Either tree is laid out as the image's /app: DIR/<workspace>/{package.json,dist}, and
// DIR/runnable.json says how it was built.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build, version as esbuildVersion } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
/** Where npm start and the system tests run the platform from. */
const LOCAL_TREE = join(ROOT, '.runnable');

// The demo ledger generator and the local launcher are development tools for npm start, never for the image.
const DEV_ONLY = new Set(['tools/demo-ledger', 'tools/local-stack']);
// Never run: test helpers, the system tests, the client (a package of its own) and the OpenAPI writer.
const NEVER = new Set(['libs/test-kit', 'test', 'client', 'tools/openapi']);

const image = process.argv.includes('--image');
const withDemoLedger = process.argv.includes('--with-demo-ledger');
const outFlag = process.argv.indexOf('--out');
// Only the local tree finds its dependencies in this checkout; a release tree is copied over the image's.
if (!image && outFlag !== -1) throw new Error('--out needs --image: the local tree is always .runnable/');
const OUT = outFlag === -1 ? LOCAL_TREE : resolve(process.argv[outFlag + 1]);
// Beside its output a release tree holds what a package reads at run time: its manifest, and the gateway's API document.
const RELEASE_FILES = ['package.json', 'openapi.json'];

/** `node26` for `"engines": { "node": "^26.0.0" }`: the one line the project and its image run. */
function nodeTarget() {
  const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const major = /^\^(\d+)\.\d+\.\d+$/.exec(engines?.node ?? '')?.[1];
  if (!major) throw new Error(`package.json engines.node must read ^<major>.0.0, not ${engines?.node}`);
  return `node${major}`;
}

function workspaces() {
  const under = (folder) => readdirSync(join(ROOT, folder)).map((name) => `${folder}/${name}`);
  const shipped = (path) => !(image && DEV_ONLY.has(path)) || (withDemoLedger && path === 'tools/demo-ledger');
  return [...under('libs'), ...under('services'), 'gateway', ...under('tools')].filter((path) => !NEVER.has(path) && shipped(path));
}

/** The package's source files that run: no tests, no `testing/` kits, no declarations. */
function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'testing') files.push(...sourceFiles(path));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts')) {
      files.push(path);
    }
  }
  return files;
}

/** A relative symbolic link at `path` to `target`, replacing whatever an earlier build left there. */
function link(path, target) {
  rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(relative(dirname(path), target), path);
}

/**
 * The local tree resolves as the image's /app does: each workspace package to its own output in
 * the tree (node_modules/@ledger-api/*), never to tsc's dist/; the rest to the checkout's
 * node_modules above it, and a workspace's own node_modules (a dependency at another version) too.
 */
function linkDependencies(built) {
  rmSync(join(OUT, 'node_modules'), { recursive: true, force: true });
  for (const workspace of built) {
    const { name } = JSON.parse(readFileSync(join(ROOT, workspace, 'package.json'), 'utf8'));
    link(join(OUT, 'node_modules', name), join(OUT, workspace));
    const own = join(ROOT, workspace, 'node_modules');
    if (existsSync(own)) link(join(OUT, workspace, 'node_modules'), own);
  }
}

const started = performance.now();
const target = nodeTarget();
const built = workspaces();
let count = 0;
for (const workspace of built) {
  const src = join(ROOT, workspace, 'src');
  const outdir = join(OUT, workspace, 'dist');
  // Whatever an earlier build left (a file since deleted) goes: dist/ is exactly what runs.
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(join(OUT, workspace), { recursive: true });
  for (const file of RELEASE_FILES.filter((name) => existsSync(join(ROOT, workspace, name))))
    copyFileSync(join(ROOT, workspace, file), join(OUT, workspace, file));
  const entryPoints = sourceFiles(src);
  count += entryPoints.length;
  await build({ entryPoints, outdir, outbase: src, format: 'cjs', platform: 'node', target, sourcemap: true, logLevel: 'warning' });
}
if (!image) linkDependencies(built);
const manifest = { builder: `esbuild ${esbuildVersion}`, target, sourcemap: true, workspaces: built };
writeFileSync(join(OUT, 'runnable.json'), `${JSON.stringify(manifest, null, 2)}\n`);
process.stdout.write(
  `build: ${count} files transpiled for ${target} into ${relative(ROOT, OUT) || '.'} in ${Math.round(performance.now() - started)} ms\n`,
);
