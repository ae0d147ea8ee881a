import { setTimeout as delay } from 'node:timers/promises';
import { GracefulShutdown } from './shutdown';

function recordingLogger() {
  const lines: { level: 'info' | 'error'; message: string; details?: unknown }[] = [];
  const log =
    (level: 'info' | 'error') =>
    (first: unknown, second?: string): void => {
      lines.push(typeof first === 'string' ? { level, message: first } : { level, message: second ?? '', details: first });
    };
  return { logger: { info: log('info'), error: log('error') } as never, lines };
}

describe('GracefulShutdown', () => {
  it('logs the signal, stops once however often it is asked, then exits 0', async () => {
    const { logger, lines } = recordingLogger();
    const exits: number[] = [];
    const stop = jest.fn(async () => {
      await delay(10);
    });
    const shutdown = new GracefulShutdown({ logger, stop, exit: (code) => exits.push(code) });
    await Promise.all([shutdown.shutdown('SIGTERM'), shutdown.shutdown('SIGINT')]);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([0]);
    expect(lines).toEqual([{ level: 'info', message: 'shutting down', details: { signal: 'SIGTERM' } }]);
  });

  it('exits 1 once the deadline passes with work still running', async () => {
    const { logger, lines } = recordingLogger();
    const exits: number[] = [];
    const shutdown = new GracefulShutdown({
      logger,
      deadlineMs: 20,
      stop: () => new Promise<void>(() => undefined),
      exit: (code) => exits.push(code),
    });
    void shutdown.shutdown('SIGTERM');
    await delay(100);
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toEqual({ level: 'error', message: 'shutdown deadline passed, exiting' });
  });

  it('exits 1 when stopping fails', async () => {
    const { logger, lines } = recordingLogger();
    const exits: number[] = [];
    const shutdown = new GracefulShutdown({ logger, stop: async () => Promise.reject(new Error('close failed')), exit: (code) => exits.push(code) });
    await shutdown.shutdown('SIGINT');
    expect(exits).toEqual([1]);
    expect(lines.at(-1)?.message).toBe('shutdown failed');
  });

  it('starts on the signals it listens to', async () => {
    const { logger } = recordingLogger();
    const exits: number[] = [];
    const before = process.listeners('SIGUSR2');
    new GracefulShutdown({ logger, stop: async () => undefined, exit: (code) => exits.push(code) }).listen(['SIGUSR2']);
    const added = process.listeners('SIGUSR2').filter((listener) => !before.includes(listener));
    try {
      expect(added).toHaveLength(1);
      process.emit('SIGUSR2', 'SIGUSR2');
      await delay(10);
      expect(exits).toEqual([0]);
    } finally {
      for (const listener of added) process.off('SIGUSR2', listener);
    }
  });
});
