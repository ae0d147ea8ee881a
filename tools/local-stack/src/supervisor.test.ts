import { EventEmitter } from 'node:events';
import { Supervisor, type RestartPolicy, type SupervisedProcess } from './supervisor';

class FakeProcess extends EventEmitter implements SupervisedProcess {
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly signals: NodeJS.Signals[] = [];

  constructor(
    readonly pid: number,
    private readonly ignores: NodeJS.Signals[] = [],
  ) {
    super();
  }

  kill(signal: NodeJS.Signals): boolean {
    this.signals.push(signal);
    if (!this.ignores.includes(signal)) this.exit(null, signal);
    return true;
  }

  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

const policy: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 4_000, stableAfterMs: 10_000 };

function supervise(names: string[], options: { ignores?: NodeJS.Signals[] } = {}) {
  const started: Record<string, FakeProcess[]> = Object.fromEntries(names.map((name) => [name, []]));
  const log: string[] = [];
  let pid = 100;
  const supervisor = new Supervisor(
    names.map((name) => ({
      name,
      start: () => {
        const child = new FakeProcess(++pid, options.ignores);
        started[name].push(child);
        return child;
      },
    })),
    { policy, log: (line) => log.push(line) },
  );
  supervisor.start();
  const latest = (name: string) => started[name][started[name].length - 1];
  return { supervisor, started, latest, log };
}

/** Crashes `name` at once and returns the delay before it was started again. */
function crashAndMeasureRestart(stack: ReturnType<typeof supervise>, name: string): number {
  const before = stack.started[name].length;
  stack.latest(name).exit(1);
  let waited = 0;
  while (stack.started[name].length === before) {
    jest.advanceTimersByTime(100);
    waited += 100;
  }
  return waited;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('Supervisor', () => {
  it('starts every child and logs its pid', () => {
    const stack = supervise(['guardian', 'gateway']);
    expect(stack.started.guardian).toHaveLength(1);
    expect(stack.started.gateway).toHaveLength(1);
    expect(stack.log).toEqual(['guardian started (pid 101)', 'gateway started (pid 102)']);
  });

  it('restarts only the crashed child, with a delay doubling up to the cap', () => {
    const stack = supervise(['guardian', 'gateway']);
    const delays = [1, 2, 3, 4, 5].map(() => crashAndMeasureRestart(stack, 'guardian'));
    expect(delays).toEqual([500, 1000, 2000, 4000, 4000]);
    expect(stack.started.guardian).toHaveLength(6);
    expect(stack.started.gateway).toHaveLength(1);
  });

  it('logs which child exited, how, and when it comes back', () => {
    const stack = supervise(['nft-base']);
    jest.advanceTimersByTime(2_500);
    stack.latest('nft-base').exit(null, 'SIGKILL');
    expect(stack.log[1]).toBe('nft-base exited with signal SIGKILL after 2.5 s; restarting in 0.5 s');
    jest.advanceTimersByTime(500);
    stack.latest('nft-base').exit(3);
    expect(stack.log[3]).toBe('nft-base exited with code 3 after 0.0 s; restarting in 1.0 s');
  });

  it('goes back to the initial delay once a child stayed up for a while', () => {
    const stack = supervise(['guardian']);
    expect([1, 2, 3].map(() => crashAndMeasureRestart(stack, 'guardian'))).toEqual([500, 1000, 2000]);
    jest.advanceTimersByTime(policy.stableAfterMs);
    expect(crashAndMeasureRestart(stack, 'guardian')).toBe(500);
  });

  it('stops every child with the signal and restarts none of them', async () => {
    const stack = supervise(['guardian', 'gateway']);
    stack.latest('guardian').exit(1);
    const stopped = stack.supervisor.stop('SIGTERM', 5_000);
    await stopped;
    jest.advanceTimersByTime(60_000);
    expect(stack.started.guardian).toHaveLength(1);
    expect(stack.started.gateway[0].signals).toEqual(['SIGTERM']);
    expect(stack.started.guardian[0].signals).toEqual([]);
  });

  it('kills children that outlive the stop deadline', async () => {
    const stack = supervise(['guardian'], { ignores: ['SIGTERM'] });
    let stopped = false;
    const stopping = stack.supervisor.stop('SIGTERM', 5_000).then(() => (stopped = true));
    jest.advanceTimersByTime(4_900);
    await Promise.resolve();
    expect(stopped).toBe(false);
    jest.advanceTimersByTime(100);
    await stopping;
    expect(stack.started.guardian[0].signals).toEqual(['SIGTERM', 'SIGKILL']);
  });
});
