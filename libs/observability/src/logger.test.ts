import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { bufferedDestination, createLogger, isProbePath, requestLog, silentLogger, type RequestLogLine } from './logger';

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

  it('writes a lone line out soon, whole, without waiting for more to fill a write', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'logger-')), 'log');
    const destination = bufferedDestination(openSync(file, 'w'));
    createLogger({ name: 'gateway', destination }).info({ reqId: 'lone \u00e9\u2028' }, 'request completed');
    // The periodic flush writes it within 250 ms; the deadline is generous.
    const deadline = Date.now() + 2_000;
    while (readFileSync(file, 'utf8') === '' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ reqId: 'lone \u00e9\u2028', msg: 'request completed' });
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
    const log = requestLog(logger);
    log(line, false);
    log({ ...line, statusCode: 503 }, false);
    log({ ...line, aborted: true }, false);
    log({ ...line, statusCode: 503, url: '/livez' }, true);
    expect(levels).toEqual([30, 40, 40, 20]);
  });

  it("writes a request's line byte for byte as pino writes the same fields", () => {
    const written: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void written.push(String(chunk))) });
    const logger = createLogger({ name: 'gateway', destination: sink });
    const lines: RequestLogLine[] = [
      { method: 'GET', url: '/api/nft/assets?q="a\\b"&n=\u00e9\u2028', route: 'nft-base', statusCode: 200, responseTime: 0.4, reqId: 'r-1' },
      { method: 'HEAD', url: '/', route: 'unmatched', statusCode: 404, responseTime: 12, reqId: 'r2', userAgent: 'curl/8 "x"', edge: true },
      { method: 'POST', url: '/x', route: 'x', statusCode: 503, responseTime: 1.5, reqId: 'r3', userAgent: undefined, aborted: true, edge: true },
    ];
    const log = requestLog(logger);
    for (const line of lines) {
      log(line);
      if (line.statusCode >= 500 || line.aborted) logger.warn(line, 'request completed');
      else logger.info(line, 'request completed');
    }
    const withoutTime = written.map((text) => text.replace(/"time":"[^"]*"/, '"time":""'));
    expect(withoutTime).toHaveLength(6);
    for (let index = 0; index < 6; index += 2) expect(withoutTime[index]).toBe(withoutTime[index + 1]);
  });

  it('writes no request line below the logger level', () => {
    const written: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void written.push(String(chunk))) });
    const log = requestLog(createLogger({ name: 'gateway', level: 'warn', destination: sink }));
    log({ method: 'GET', url: '/', route: 'x', statusCode: 200, responseTime: 1, reqId: 'r1' });
    log({ method: 'GET', url: '/', route: 'x', statusCode: 500, responseTime: 1, reqId: 'r2' });
    expect(written.map((text) => JSON.parse(text).reqId)).toEqual(['r2']);
  });

  it('knows the public liveness probe; readiness and metrics are not on a public port', () => {
    expect(['/livez', '/readyz', '/metrics', '/api/nft/assets'].map(isProbePath)).toEqual([true, false, false, false]);
  });
});
