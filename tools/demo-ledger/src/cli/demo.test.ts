import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDemoCommand } from './demo';

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runDemoCommand(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

describe('ledger:demo command', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'demo-cli-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('writes the ledger and prints a one-line JSON summary', () => {
    const path = join(directory, 'out.jsonl');
    const result = run([path, '--seed', '3', '--blocks', '120']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ file: path, blocks: 120 });
    expect(summary.reverts).toBeGreaterThanOrEqual(1);
    expect(summary.byType['9000/0']).toBeGreaterThan(0);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(120 + 2 * summary.reverts);
  });

  it('mints the number of assets --assets asks for', () => {
    const path = join(directory, 'assets.jsonl');
    const result = run([path, '--blocks', '60', '--assets', '150']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).byType['9000/1']).toBe(150);
  });

  it('is deterministic for a given seed', () => {
    const first = join(directory, 'first.jsonl');
    const second = join(directory, 'second.jsonl');
    expect(run([first, '--seed', '4', '--blocks', '60']).code).toBe(0);
    expect(run(['--seed', '4', '--blocks', '60', second]).code).toBe(0);
    expect(readFileSync(second)).toEqual(readFileSync(first));
  });

  it.each([
    [[], /missing output path/],
    [['a.jsonl', 'b.jsonl'], /single output path/],
    [['--seed'], /--seed needs an integer value/],
    [['out.jsonl', '--seed', 'abc'], /--seed needs an integer value/],
    [['out.jsonl', '--fast'], /unknown option --fast/],
  ])('fails with a usage message for %j', (args, message) => {
    const result = run(args.map((arg) => (arg.endsWith('.jsonl') ? join(directory, arg) : arg)));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/usage: ledger:demo <out.jsonl>/);
    expect(existsSync(join(directory, 'out.jsonl'))).toBe(false);
  });

  it('reports an option value the generator refuses without writing anything', () => {
    const path = join(directory, 'out.jsonl');
    const result = run([path, '--blocks', '3']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/blockCount must be an integer of at least 50/);
    expect(existsSync(path)).toBe(false);
  });

  it('reports an output path it cannot write', () => {
    const result = run([join(directory, 'missing', 'out.jsonl'), '--blocks', '50']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/ledger:demo failed: ENOENT/);
  });
});
