import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from './processes';

/** One of the repository's npm scripts, run as `npm run` runs it, with extra arguments: whether it failed, and what it printed. */
export async function runNpmScript(script: string, args: string[]): Promise<{ failed: boolean; output: string }> {
  try {
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT });
    return { failed: false, output: stdout };
  } catch (error) {
    return { failed: true, output: (error as { stdout: string }).stdout };
  }
}
