import pino from 'pino';

export type Logger = pino.Logger;

export interface LoggerOptions {
  name: string;
  level?: string;
  /** Where lines go; stdout unless a test captures them. */
  destination?: pino.DestinationStream;
}

/** JSON logs on stdout, one object a line, as log shippers expect. */
export function createLogger({ name, level = 'info', destination }: LoggerOptions): Logger {
  return pino({ name, level, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** A logger that drops everything, for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
