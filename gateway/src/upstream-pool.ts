export interface UpstreamPoolOptions {
  /** Whether an upstream set aside answers again (a request the service would serve answers 200). */
  probe(baseUrl: string): Promise<boolean>;
  /** How often an upstream set aside is probed. */
  recheckMs: number;
}

/**
 * The replicas of one area, taken in turn. A replica that refuses a connection (it is
 * stopping or restarting) or answers 503 (it is still replaying its ledger) is set aside
 * until a probe finds it serving again, so a rolling restart sends no request to a
 * replica that cannot answer it. With every replica set aside, all are tried: being
 * refused is no worse than answering 503 unasked.
 */
export class UpstreamPool {
  private turn = 0;
  private readonly setAside = new Set<string>();

  constructor(
    readonly baseUrls: readonly string[],
    private readonly options: UpstreamPoolOptions,
  ) {}

  /** The replica for a request's next attempt, none of those it `tried`; undefined once every one was. */
  pick(tried: readonly string[] = []): string | undefined {
    // The common case, a first try with every replica serving, builds no list per request.
    const from = tried.length === 0 && this.setAside.size === 0 ? this.baseUrls : this.candidates(tried);
    if (from.length === 0) return undefined;
    const picked = from[this.turn % from.length];
    this.turn = (this.turn + 1) % Number.MAX_SAFE_INTEGER;
    return picked;
  }

  /** The replicas not yet tried: those serving, or all of them when none is. */
  private candidates(tried: readonly string[]): readonly string[] {
    const untried = this.baseUrls.filter((url) => !tried.includes(url));
    const serving = untried.filter((url) => !this.setAside.has(url));
    return serving.length > 0 ? serving : untried;
  }

  /** `baseUrl` cannot answer now: no request goes there until a probe finds it serving. */
  setAsideUntilServing(baseUrl: string): void {
    // An area of one replica has nowhere else to send: its requests fail as they would anyway.
    if (this.baseUrls.length < 2 || this.setAside.has(baseUrl)) return;
    this.setAside.add(baseUrl);
    this.recheck(baseUrl);
  }

  private recheck(baseUrl: string): void {
    const probe = async () => {
      if (await this.options.probe(baseUrl).catch(() => false)) this.setAside.delete(baseUrl);
      else this.recheck(baseUrl);
    };
    // Probing never keeps a stopping gateway alive.
    setTimeout(() => void probe(), this.options.recheckMs).unref();
  }
}
