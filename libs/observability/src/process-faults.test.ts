import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createLogger } from './logger';
import { exitOnUnexpectedErrors } from './process-faults';

interface LogLine {
  level: number;
  msg: string;
  origin: string;
  err: { message: string; stack: string } | string;
}

function capturedLogger() {
  const lines: LogLine[] = [];
  const destination = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(JSON.parse(String(chunk)) as LogLine)) });
  return { logger: createLogger({ name: 'faulty', destination }), lines };
}

/**
 * Runs a process that installs the handlers, then `fault`. Node runs this package's sources
 * as they are (it strips their types), so the process is as real as the services' own.
 */
function runFaultyProcess(fault: string) {
  const source = (file: string) => pathToFileURL(join(__dirname, file)).href;
  const script = [
    `import { createLogger } from '${source('logger.ts')}';`,
    `import { exitOnUnexpectedErrors } from '${source('process-faults.ts')}';`,
    `exitOnUnexpectedErrors(createLogger({ name: 'faulty' }));`,
    fault,
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '--no-warnings', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  const lines = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine);
  return { status: run.status, lines };
}

describe('exitOnUnexpectedErrors', () => {
  it('logs an uncaught exception or an unhandled rejection with its stack, then exits 1', () => {
    const { logger, lines } = capturedLogger();
    const events = new EventEmitter();
    const exits: number[] = [];
    exitOnUnexpectedErrors(logger, { events, exit: (code) => exits.push(code) });

    events.emit('uncaughtException', new Error('thrown in a listener'));
    events.emit('unhandledRejection', 'a rejection without an error');
    expect(exits).toEqual([1, 1]);
    expect(lines).toMatchObject([
      { level: 60, origin: 'uncaughtException', err: { message: 'thrown in a listener', stack: expect.stringContaining('process-faults.test.ts') } },
      { level: 60, origin: 'unhandledRejection', err: 'a rejection without an error' },
    ]);
  });

  it.each([
    ['an exception thrown in a timer', 'setTimeout(() => { throw new Error("thrown in a timer"); }, 1);', 'uncaughtException', 'thrown in a timer'],
    ['a rejected promise nothing handles', 'void Promise.reject(new Error("rejected unhandled"));', 'unhandledRejection', 'rejected unhandled'],
  ])('ends a real process on %s, its stack logged', (_, fault, origin, message) => {
    const { status, lines } = runFaultyProcess(fault);
    expect(status).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 60,
        origin,
        err: expect.objectContaining({ message, stack: expect.stringContaining(`Error: ${message}\n    at `) }),
      }),
    ]);
  });
});
