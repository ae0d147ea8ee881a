import { Writable } from 'node:stream';
import { createLogger, isProbePath, logRequest, silentLogger, type RequestLogLine } from './logger';

describe('loggers', () => {
  it('writes JSON lines naming the service', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(String(chunk))) });
    const logger = createLogger({ name: 'gateway', destination: sink });
    logger.info({ reqId: 'r1' }, 'request');
    expect(JSON.parse(lines[0])).toMatchObject({ service: 'gateway', reqId: 'r1', msg: 'request', level: 30 });
  });

  it('has a silent logger for tests and defaults', () => {
    expect(silentLogger().isLevelEnabled('fatal')).toBe(false);
    expect(createLogger({ name: 'x', level: 'warn' }).isLevelEnabled('info')).toBe(false);
  });

  it('logs requests at info, failures and cut-off answers at warn, probes and scrapes at debug', () => {
    const levels: number[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void levels.push(JSON.parse(String(chunk)).level)) });
    const logger = createLogger({ name: 'gateway', level: 'debug', destination: sink });
    const line: RequestLogLine = { method: 'GET', url: '/api/x', route: 'x', statusCode: 200, responseTime: 1.5, reqId: 'r1' };
    logRequest(logger, line, false);
    logRequest(logger, { ...line, statusCode: 503 }, false);
    logRequest(logger, { ...line, aborted: true }, false);
    logRequest(logger, { ...line, statusCode: 503, url: '/readyz' }, true);
    expect(levels).toEqual([30, 40, 40, 20]);
  });

  it('knows the health probes and the metrics scrape', () => {
    expect(['/livez', '/readyz', '/healthz', '/metrics', '/api/nft/assets'].map(isProbePath)).toEqual([true, true, true, true, false]);
  });
});
