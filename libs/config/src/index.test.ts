import { z } from 'zod';
import { ConfigError, env, loadConfig } from './index';

const schema = z.object({
  PORT: env.port(8080),
  WORKERS: env.int(2, 1, 16),
  NATS_URL: env.url(['nats']).optional(),
  VERBOSE: env.flag(false),
  LOG_LEVEL: env.logLevel(),
});

function problemsOf(variables: Record<string, string>): string[] {
  try {
    loadConfig(schema, variables);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies defaults and treats empty strings as unset', () => {
    expect(loadConfig(schema, { PORT: '', VERBOSE: '1' })).toEqual({ PORT: 8080, WORKERS: 2, VERBOSE: true, LOG_LEVEL: 'info' });
  });

  it('converts and checks values', () => {
    expect(loadConfig(schema, { PORT: '4003', WORKERS: '16', NATS_URL: 'nats://127.0.0.1:4222', LOG_LEVEL: 'warn' })).toMatchObject({
      PORT: 4003,
      WORKERS: 16,
      NATS_URL: 'nats://127.0.0.1:4222',
    });
  });

  it('lists every problem, named by variable', () => {
    const problems = problemsOf({ PORT: '70000', WORKERS: 'many', NATS_URL: 'http://x', VERBOSE: 'maybe', LOG_LEVEL: 'loud' });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual(['PORT', 'WORKERS', 'NATS_URL', 'VERBOSE', 'LOG_LEVEL']);
    expect(problems[1]).toBe('WORKERS: must be a whole number');
    expect(problems[2]).toBe('NATS_URL: must be a URL (nats)');
  });

  it('says all of it in the error message', () => {
    expect(() => loadConfig(schema, { PORT: '0' })).toThrow(/Invalid configuration:\n {2}- PORT: /);
  });
});
