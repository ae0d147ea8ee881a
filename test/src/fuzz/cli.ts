import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * `npm run fuzz -- --runs <n> [--seed <s>]`: the fuzz suite with more requests, or
 * another seed, than CI runs. FUZZ_RUNS and FUZZ_SEED work as well.
 */
const USAGE = 'usage: npm run fuzz -- [--runs <n>] [--seed <s>]';
const FLAGS: Record<string, string> = { '--runs': 'FUZZ_RUNS', '--seed': 'FUZZ_SEED' };

function settingsFrom(args: string[]): Record<string, string> {
  const settings: Record<string, string> = {};
  for (let index = 0; index < args.length; index += 2) {
    const variable = FLAGS[args[index]];
    const value = args[index + 1];
    if (!variable || value === undefined || !/^-?\d+$/.test(value)) throw new Error(USAGE);
    settings[variable] = value;
  }
  return settings;
}

function main(): void {
  const settings = settingsFrom(process.argv.slice(2));
  const testWorkspace = resolve(__dirname, '../..');
  const jest = require.resolve('jest/bin/jest', { paths: [testWorkspace] });
  const run = spawn(process.execPath, [jest, '--runInBand', 'src/fuzz'], {
    cwd: testWorkspace,
    env: { ...process.env, ...settings },
    stdio: 'inherit',
  });
  run.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

try {
  main();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
