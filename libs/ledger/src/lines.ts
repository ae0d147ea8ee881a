import { createReadStream } from 'node:fs';
import { access, constants } from 'node:fs/promises';

export interface NumberedLine {
  /** 1-based; blank lines are skipped but counted. */
  number: number;
  text: string;
}

/** Rejects with a message naming the file when it cannot be read. */
export async function assertReadable(path: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch (error) {
    throw new Error(`cannot read ledger file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
}

/**
 * The non-blank lines of a text file, read chunk by chunk: the file is never
 * held in memory, and a slow consumer holds the reading back.
 */
export async function* readLines(path: string): AsyncGenerator<NumberedLine> {
  let number = 0;
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8' })) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      number += 1;
      const text = line.trimEnd();
      if (text !== '') yield { number, text };
    }
  }
  const last = rest.trimEnd();
  if (last !== '') yield { number: number + 1, text: last };
}
