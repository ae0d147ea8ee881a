import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { bufferedDestination, createLogger, isProbePath, logRequest, silentLogger, type RequestLogLine } from './logger';

describe('loggers', () => {
  it('writes JSON lines naming the service', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(String(chunk))) });
    const logger = createLogger({ name: 'gateway', destination: sink });
    logger.info({ reqId: 'r1' }, 'request');
    expect(JSON.parse(lines[0])).toMatchObject({ service: 'gateway', reqId: 'r1', msg: 'request', level: 30 });
  });

  it('stamps lines with the ISO time of their millisecond', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(String(chunk))) });
    const logger = createLogger({ name: 'gateway', destination: sink });
    const now = jest.spyOn(Date, 'now');
    try {
      for (const millisecond of [1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_001]) {
        now.mockReturnValue(millisecond);
        logger.info('line');
      }
    } finally {
      now.mockRestore();
    }
    expect(lines.map((line) => JSON.parse(line).time)).toEqual(['2023-11-14T22:13:20.000Z', '2023-11-14T22:13:20.000Z', '2023-11-14T22:13:20.001Z']);
  });

  it('writes a lone line out soon, without waiting for more to fill a write', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'logger-')), 'log');
    const fd = openSync(file, 'w');
    const destination = bufferedDestination(fd);
    try {
      const written = once(destination as unknown as Writable, 'write', { signal: AbortSignal.timeout(2_000) });
      createLogger({ name: 'gateway', destination }).info({ reqId: 'lone' }, 'request completed');
      await written;
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ reqId: 'lone', msg: 'request completed' });
    } finally {
      // Closes the file as well.
      (destination as unknown as { destroy(): void }).destroy();
    }
  });

  it('has a silent logger for tests and defaults', () => {
    expect(silentLogger().isLevelEnabled('fatal')).toBe(false);
    expect(createLogger({ name: 'x', level: 'warn' }).isLevelEnabled('info')).toBe(false);
  });

  it('logs requests at info, failures and cut-off answers at warn, probes at debug', () => {
    const levels: number[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void levels.push(JSON.parse(String(chunk)).level)) });
    const logger = createLogger({ name: 'gateway', level: 'debug', destination: sink });
    const line: RequestLogLine = { method: 'GET', url: '/api/x', route: 'x', statusCode: 200, responseTime: 1.5, reqId: 'r1' };
    logRequest(logger, line, false);
    logRequest(logger, { ...line, statusCode: 503 }, false);
    logRequest(logger, { ...line, aborted: true }, false);
    logRequest(logger, { ...line, statusCode: 503, url: '/livez' }, true);
    expect(levels).toEqual([30, 40, 40, 20]);
  });

  it('knows the public liveness probe; readiness and metrics are not on a public port', () => {
    expect(['/livez', '/readyz', '/metrics', '/api/nft/assets'].map(isProbePath)).toEqual([true, false, false, false]);
  });
});
