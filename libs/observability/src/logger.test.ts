import { Writable } from 'node:stream';
import { createLogger, silentLogger } from './logger';

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
});
