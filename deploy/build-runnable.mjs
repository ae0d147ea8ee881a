// The runnable output of every workspace that runs (npm start, the image): each package's
// src/ transpiled file by file into its dist/, as tsc lays it out, without type-checking
// (`npm run lint` and the tests do that with tsc) and without tests or test kits.
//
//   node deploy/build-runnable.mjs                      every workspace npm start runs, into its dist/
//   node deploy/build-runnable.mjs --image --out DIR    what the image ships (no dev launchers), as a
//                                                       release tree: DIR/<workspace>/{package.json,dist}
//   ... --image --with-demo-ledger --out DIR            the same with the demo ledger generator, for the
//                                                       seed of a first Docker Compose run (the demo-seed image)
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

// The demo ledger generator and the local launcher are for npm start, never for the image.
const DEV_ONLY = new Set(['libs/demo-ledger', 'libs/local-stack']);
// Never run: test helpers, the system tests and the client (a package of its own).
const NEVER = new Set(['libs/test-kit', 'test', 'client']);

const image = process.argv.includes('--image');
const withDemoLedger = process.argv.includes('--with-demo-ledger');
const outFlag = process.argv.indexOf('--out');
const OUT = outFlag === -1 ? ROOT : resolve(process.argv[outFlag + 1]);
// Beside its output a release tree holds what a package reads at run time: its manifest, and the gateway's API document.
const RELEASE_FILES = ['package.json', 'openapi.json'];

function workspaces() {
  const under = (folder) => readdirSync(join(ROOT, folder)).map((name) => `${folder}/${name}`);
  const shipped = (path) => !(image && DEV_ONLY.has(path)) || (withDemoLedger && path === 'libs/demo-ledger');
  return [...under('libs'), ...under('services'), 'gateway'].filter((path) => !NEVER.has(path) && shipped(path));
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

const started = performance.now();
let count = 0;
for (const workspace of workspaces()) {
  const src = join(ROOT, workspace, 'src');
  const outdir = join(OUT, workspace, 'dist');
  // Whatever an earlier build left (compiled tests included) goes: dist/ is exactly what runs.
  rmSync(outdir, { recursive: true, force: true });
  if (OUT !== ROOT) {
    mkdirSync(join(OUT, workspace), { recursive: true });
    for (const file of RELEASE_FILES.filter((name) => existsSync(join(ROOT, workspace, name))))
      copyFileSync(join(ROOT, workspace, file), join(OUT, workspace, file));
  }
  const entryPoints = sourceFiles(src);
  count += entryPoints.length;
  await build({ entryPoints, outdir, outbase: src, format: 'cjs', platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' });
}
process.stdout.write(`build: ${count} files transpiled in ${Math.round(performance.now() - started)} ms\n`);
