import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';

/** The services' web framework, the store and the database drivers: the gateway ships none of them. */
const FORBIDDEN = ['koa', '@koa/router', 'mongodb', 'mingo'];

const GATEWAY_DIR = join(__dirname, '..');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** Where Node finds package `name` from `dir`: the nearest node_modules up the tree holding it. */
function findPackage(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(at) === at) return undefined;
  }
}

/** Every package the gateway loads at run time, by name, with the chain of packages that brings it in. */
function productionClosure(): Map<string, string[]> {
  const chains = new Map<string, string[]>();
  const visited = new Set<string>();
  const queue: Array<{ dir: string; chain: string[] }> = [{ dir: realpathSync(GATEWAY_DIR), chain: [] }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { dir, chain } = next;
    if (visited.has(dir)) continue;
    visited.add(dir);
    const manifest = readManifest(dir);
    const path = [...chain, manifest.name];
    if (!chains.has(manifest.name)) chains.set(manifest.name, path);
    const optionalPeers = Object.entries(manifest.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional);
    const optional = new Set([...Object.keys(manifest.optionalDependencies ?? {}), ...optionalPeers.map(([name]) => name)]);
    const names = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    for (const name of names) {
      const found = findPackage(name, dir);
      if (found) queue.push({ dir: found, chain: path });
      else if (!optional.has(name)) throw new Error(`${path.join(' > ')} needs ${name}, which is not installed`);
    }
  }
  return chains;
}

/** The packages a source file imports or requires by name (node builtins left out). */
function importedPackages(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:from|import|require)\s*\(?\s*'([^'.][^']*)'/g)].map(([, specifier]) => specifier);
  return specifiers
    .filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

/** The gateway's shipped source files: everything under src but tests and test kits. */
function productionSources(dir = join(GATEWAY_DIR, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe("the gateway's production dependencies", () => {
  const closure = productionClosure();

  it('are walked through every level of node_modules', () => {
    // Direct, a workspace lib and a dependency of one: the walk reaches all three.
    expect([...closure.keys()]).toEqual(expect.arrayContaining(['express', '@ledger-api/http-core', 'pino']));
  });

  it('hold no web framework of the services, no store and no database driver', () => {
    const reachable = FORBIDDEN.filter((name) => closure.has(name)).map((name) => closure.get(name)?.join(' > '));
    expect(reachable).toEqual([]);
  });

  it('name every package the shipped code imports', () => {
    const { dependencies = {} } = readManifest(GATEWAY_DIR);
    const undeclared = productionSources().flatMap((file) =>
      importedPackages(readFileSync(file, 'utf8'))
        .filter((name) => !(name in dependencies))
        .map((name) => `${relative(GATEWAY_DIR, file)} imports ${name}`),
    );
    expect(undeclared).toEqual([]);
  });
});
