import pino from 'pino';

export type Logger = pino.Logger;

export interface LoggerOptions {
  name: string;
  level?: string;
  /** Where lines go; stdout unless a test captures them. */
  destination?: pino.DestinationStream;
}

/**
 * JSON logs on stdout, one object a line, as log shippers expect. Lines are
 * written asynchronously, so no request waits on the pipe behind stdout; what is
 * still buffered when the process exits is flushed then.
 */
export function createLogger({ name, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    { name, level, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** A logger that drops everything, for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** The one shape of a request's log line, at the gateway and at the services alike. */
export interface RequestLogLine {
  method: string;
  url: string;
  /** A small, fixed set of names (the matched route, or the area at the gateway), never the raw path. */
  route: string;
  statusCode: number;
  /** Milliseconds from the request's arrival to the end of its answer. */
  responseTime: number;
  reqId: string;
  userAgent?: string;
  /** Set when the client left before its answer was complete. */
  aborted?: true;
}

const PROBE_PATHS = new Set(['/livez', '/readyz', '/healthz', '/metrics']);

/** Health probes and metric scrapes: every prober sends them every few seconds. */
export function isProbePath(path: string): boolean {
  return PROBE_PATHS.has(path);
}

/**
 * Logs a finished request: probes and scrapes (see isProbePath) at debug, where
 * they do not drown the requests, even when they fail (readiness reports that
 * itself); 5xx answers and cut-off ones at warn; the rest at info.
 */
export function logRequest(logger: Logger, line: RequestLogLine, probe: boolean): void {
  if (probe) logger.debug(line, 'request completed');
  else if (line.statusCode >= 500 || line.aborted) logger.warn(line, 'request completed');
  else logger.info(line, 'request completed');
}
