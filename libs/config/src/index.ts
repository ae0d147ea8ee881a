import { accessSync, constants } from 'node:fs';
import { z } from 'zod';

export * from './areas';
export * from './block-timestamp';
export * from './hex';

/** Every problem found in the environment, so an operator fixes them all in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Parses the environment against a zod object schema; empty strings count as unset. */
export function loadConfig<S extends z.ZodType>(schema: S, env: Env = process.env): z.output<S> {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`));
}

/** For process entry points: print every problem and exit 1 instead of starting half-configured. */
export function loadConfigOrExit<S extends z.ZodType>(schema: S, env: Env = process.env): z.output<S> {
  try {
    return loadConfig(schema, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

const integerText = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));

const isReadableFile = (path: string) => {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
};

/** Reusable environment variable parsers. */
export const env = {
  port: (fallback: number) => integerText(1, 65535).default(fallback),
  int: (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) => integerText(min, max).default(fallback),
  url: (protocols: string[]) =>
    z.string().refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      },
      `must be a URL (${protocols.join(', ')})`,
    ),
  /** A path checked at start, so a missing mount is reported with the rest of the configuration. */
  file: () => z.string().refine(isReadableFile, 'must name a readable file'),
  flag: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .transform((value) => value === 'true' || value === '1')
      .default(fallback),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};
