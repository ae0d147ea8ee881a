/** Steady requests against a few paths, every answer kept, for watching a stack through a fault. */
export interface Sample {
  path: string;
  /** 0 when no answer came. */
  status: number;
  ms: number;
  headers: Record<string, string>;
  body: string;
  /** performance.now() when the request was sent. */
  sentAt: number;
}

export interface Load {
  samples: Sample[];
  stop(): Promise<Sample[]>;
}

const REQUEST_TIMEOUT_MS = 10_000;

export async function timedGet(url: string): Promise<Omit<Sample, 'path'>> {
  const sentAt = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = await response.text();
    return { status: response.status, ms: Math.round(performance.now() - sentAt), headers: Object.fromEntries(response.headers), body, sentAt };
  } catch (error) {
    return { status: 0, ms: Math.round(performance.now() - sentAt), headers: {}, body: String(error), sentAt };
  }
}

/** `workersPerPath` clients per path, each sending its next request when the last was answered. */
export function startLoad(gateway: string, paths: string[], workersPerPath = 2): Load {
  const samples: Sample[] = [];
  let running = true;
  const worker = async (path: string) => {
    while (running) samples.push({ path, ...(await timedGet(`${gateway}${path}`)) });
  };
  const workers = paths.flatMap((path) => Array.from({ length: workersPerPath }, () => worker(path)));
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(workers);
      return samples;
    },
  };
}
