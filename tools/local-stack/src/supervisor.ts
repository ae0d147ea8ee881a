/**
 * Keeps a set of child processes running: a child that exits on its own is started
 * again after a delay that doubles with each quick crash, so a child that cannot
 * start does not spin, and one that ran well for a while comes back at once.
 */

/** The part of a ChildProcess the supervisor relies on. */
export interface SupervisedProcess {
  readonly pid?: number;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

export interface ChildDefinition {
  name: string;
  start(): SupervisedProcess;
}

export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** A child that stayed up this long before exiting gets the initial delay again. */
  stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, stableAfterMs: 30_000 };

export interface SupervisorOptions {
  policy?: RestartPolicy;
  log(line: string): void;
  now?: () => number;
}

interface ChildState {
  definition: ChildDefinition;
  process?: SupervisedProcess;
  startedAt: number;
  nextDelayMs: number;
  restartTimer?: NodeJS.Timeout;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `code ${code}`;
}

function hasExited(child: SupervisedProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

export class Supervisor {
  private readonly children: ChildState[];
  private readonly policy: RestartPolicy;
  private readonly now: () => number;
  private stopping = false;

  constructor(
    definitions: ChildDefinition[],
    private readonly options: SupervisorOptions,
  ) {
    this.policy = options.policy ?? DEFAULT_RESTART_POLICY;
    this.now = options.now ?? Date.now;
    this.children = definitions.map((definition) => ({ definition, startedAt: 0, nextDelayMs: this.policy.initialDelayMs }));
  }

  start(): void {
    for (const child of this.children) this.launch(child);
  }

  /**
   * Sends `signal` to every running child and cancels pending restarts. Children still
   * running after `killAfterMs` get SIGKILL: a child that cannot handle its signal must
   * not keep the stack alive. Resolves once every child has exited.
   */
  async stop(signal: NodeJS.Signals, killAfterMs: number): Promise<void> {
    this.stopping = true;
    const running = this.children.flatMap((child) => {
      clearTimeout(child.restartTimer);
      return child.process && !hasExited(child.process) ? [child.process] : [];
    });
    const exits = running.map((child) => new Promise<void>((done) => child.once('exit', () => done())));
    for (const child of running) child.kill(signal);
    const escalation = setTimeout(() => {
      for (const child of running) if (!hasExited(child)) child.kill('SIGKILL');
    }, killAfterMs);
    await Promise.all(exits);
    clearTimeout(escalation);
  }

  private launch(child: ChildState): void {
    const process = child.definition.start();
    child.process = process;
    child.startedAt = this.now();
    this.options.log(`${child.definition.name} started (pid ${process.pid})`);
    process.once('exit', (code, signal) => this.onExit(child, code, signal));
  }

  private onExit(child: ChildState, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping) return;
    const upMs = this.now() - child.startedAt;
    if (upMs >= this.policy.stableAfterMs) child.nextDelayMs = this.policy.initialDelayMs;
    const delayMs = child.nextDelayMs;
    child.nextDelayMs = Math.min(delayMs * 2, this.policy.maxDelayMs);
    this.options.log(`${child.definition.name} exited with ${describeExit(code, signal)} after ${seconds(upMs)}; restarting in ${seconds(delayMs)}`);
    child.restartTimer = setTimeout(() => this.launch(child), delayMs);
  }
}
