import pino from 'pino';

export type Logger = pino.Logger;

export interface LoggerOptions {
  name: string;
  level?: string;
  /** Where lines go; stdout unless a test captures them. */
  destination?: pino.DestinationStream;
}

// Lines are gathered into writes of at least this size (up to MAX_WRITE_BYTES), and written at least this often.
const WRITE_BYTES = 64 * 1024;
const MAX_WRITE_BYTES = 256 * 1024;
const FLUSH_INTERVAL_MS = 250;

/** pino's ISO `time`, formatted once per millisecond: under load many lines share one. */
function isoTimeOncePerMillisecond(): () => string {
  let formattedAt = -1;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== formattedAt) {
      formattedAt = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

/**
 * Where log lines are written: the file descriptor `fd`, asynchronously, so no
 * request waits on the pipe behind stdout, and gathered into few writes, each a
 * system call. A line waits at most FLUSH_INTERVAL_MS, and what is still
 * buffered when the process exits is flushed then.
 *
 * Lines reach sonic-boom as buffers. In its string mode each write measures the byte
 * length of all the text it holds, so that larger writes cost more per line, not less; as
 * buffers, a line is encoded once and the writes can be large. A cached answer at the
 * gateway, own CPU per request, 8 alternated rounds: 44.4 µs with the string mode and 4 KiB
 * writes, 42.4 µs with buffers and 4 KiB writes, 38.6 µs with buffers and 64 KiB writes;
 * 33.8 µs writing no request lines (bench-results/gateway-costs-2026-11-28.md).
 */
export function bufferedDestination(fd: number): pino.DestinationStream {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    minLength: WRITE_BYTES,
    maxWrite: MAX_WRITE_BYTES,
    periodicFlush: FLUSH_INTERVAL_MS,
    contentMode: 'buffer',
  });
  // sonic-boom's types give write a string whatever the mode.
  const writeBuffer = destination.write.bind(destination) as unknown as (data: Buffer) => boolean;
  return { write: (line: string) => writeBuffer(Buffer.from(line)) };
}

/** JSON logs on stdout, one object a line, as log shippers expect. */
export function createLogger({ name, level = 'info', destination }: LoggerOptions): Logger {
  return pino({ name, level, base: { service: name }, timestamp: isoTimeOncePerMillisecond() }, destination ?? bufferedDestination(1));
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
  /** Set when the gateway answered from its edge cache instead of asking the service. */
  edge?: true;
}

/** The gateway's public liveness probe; the rest of the probes and the scrapes are on the admin port, which logs nothing. */
const PROBE_PATHS = new Set(['/livez']);

/** Load balancers' health checks: every one of them sends them every few seconds. */
export function isProbePath(path: string): boolean {
  return PROBE_PATHS.has(path);
}

const LEVEL = { debug: 20, info: 30, warn: 40 } as const;

/** A string as JSON writes it. */
const json = (value: string) => JSON.stringify(value);

/**
 * The writer of finished requests' log lines: probes (see isProbePath) at debug, where
 * they do not drown the requests, even when they fail (readiness reports that
 * itself); 5xx answers and cut-off ones at warn; the rest at info.
 *
 * Each line is the one pino writes for `logger.info(line, 'request completed')` (the same
 * fields in the same order, after the logger's time and bindings), put together from a
 * template rather than by pino's walk over an object's keys: a request's log line was
 * the largest single cost of a cached answer at the gateway.
 */
export function requestLog(logger: Logger): (line: RequestLogLine, probe?: boolean) => void {
  // pino.symbols is pino's published way to the destination, time function and bindings a line is made of.
  const parts = logger as unknown as Record<symbol, unknown>;
  const stream = parts[pino.symbols.streamSym] as pino.DestinationStream;
  const time = parts[pino.symbols.timeSym] as () => string;
  const bindings = parts[pino.symbols.chindingsSym] as string;
  return (line, probe = false) => {
    const level = probe ? LEVEL.debug : line.statusCode >= 500 || line.aborted ? LEVEL.warn : LEVEL.info;
    if (level < logger.levelVal) return;
    const userAgent = line.userAgent === undefined ? '' : `,"userAgent":${json(line.userAgent)}`;
    const flags = `${line.aborted ? ',"aborted":true' : ''}${line.edge ? ',"edge":true' : ''}`;
    stream.write(
      `{"level":${level}${time()}${bindings},"method":${json(line.method)},"url":${json(line.url)},"route":${json(line.route)}` +
        `,"statusCode":${line.statusCode},"responseTime":${line.responseTime},"reqId":${json(line.reqId)}${userAgent}${flags},"msg":"request completed"}\n`,
    );
  };
}
