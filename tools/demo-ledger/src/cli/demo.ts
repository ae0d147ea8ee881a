import { writeDemoLedger, type DemoLedgerOptions } from '../generator';

const USAGE = 'usage: ledger:demo <out.jsonl> [--seed N] [--blocks N] [--assets N] [--network N]';

export interface CommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

interface DemoCommand {
  path: string;
  options: DemoLedgerOptions;
}

const INTEGER_FLAGS: Record<string, keyof DemoLedgerOptions> = {
  '--seed': 'seed',
  '--blocks': 'blockCount',
  '--assets': 'assetCount',
  '--network': 'networkVersion',
};

function parseArguments(args: string[]): DemoCommand {
  const options: DemoLedgerOptions = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const option = INTEGER_FLAGS[arg];
    if (option) {
      const value = args[++i];
      if (value === undefined || !/^-?\d+$/.test(value)) throw new Error(`${arg} needs an integer value`);
      options[option] = Number(value);
    } else if (arg.startsWith('--')) {
      throw new Error(`unknown option ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) throw new Error(positional.length === 0 ? 'missing output path' : 'expected a single output path');
  return { path: positional[0], options };
}

/**
 * Writes the demo ledger as JSON Lines and prints a one-line JSON summary:
 *   node tools/demo-ledger/dist/cli/demo.js <out.jsonl> [--seed N] [--blocks N] [--assets N] [--network N]
 * Returns the process exit code.
 */
export function runDemoCommand(args: string[], output: CommandOutput): number {
  let command: DemoCommand;
  try {
    command = parseArguments(args);
  } catch (error) {
    output.stderr(`ledger:demo: ${(error as Error).message}\n${USAGE}\n`);
    return 1;
  }
  try {
    const summary = writeDemoLedger(command.path, command.options);
    output.stdout(`${JSON.stringify({ file: command.path, ...summary })}\n`);
    return 0;
  } catch (error) {
    output.stderr(`ledger:demo failed: ${(error as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) {
  process.exitCode = runDemoCommand(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}
