import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, RUNNABLE } from '../support/processes';

/**
 * One Node.js line everywhere: the image runs it, the engines field and .nvmrc name it, the
 * npm scripts run on it (the `node` devDependency puts it first on their PATH, whatever Node
 * the machine has), and so these tests run on it too; the runnable output is built for it.
 */
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the Node.js line', () => {
  const imageMajor = /^ARG NODE_IMAGE=node:(\d+)-slim$/m.exec(read('deploy/Dockerfile'))?.[1];
  const manifest = JSON.parse(read('package.json')) as { engines: { node: string }; devDependencies: Record<string, string> };

  it('is the one the image ships, in engines, .nvmrc, the pinned Node package and the README', () => {
    expect(imageMajor).toMatch(/^\d+$/);
    expect(manifest.engines.node).toBe(`^${imageMajor}.0.0`);
    expect(read('.nvmrc').trim()).toBe(imageMajor);
    expect(manifest.devDependencies.node.split('.')[0]).toBe(imageMajor);
    expect(read('README.md')).toContain(`Node.js ${imageMajor}`);
  });

  it('is the one the runnable output is built for, which npm start, the tests and the image run', () => {
    const built = JSON.parse(readFileSync(join(RUNNABLE, 'runnable.json'), 'utf8')) as { builder: string; target: string };
    expect(built.builder).toMatch(/^esbuild /);
    expect(built.target).toBe(`node${imageMajor}`);
  });

  it('runs these tests', () => {
    expect(process.versions.node.split('.')[0]).toBe(imageMajor);
  });
});
