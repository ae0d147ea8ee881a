/** What a GET of a probe URL came to: a 200, another status, no connection, or no answer in time. */
export type ProbeResult = 'ready' | 'not ready' | 'unreachable' | 'timed out';

/** GETs `url` within `timeoutMs`; only the status matters, so the body is dropped (which frees the connection). */
export async function probe(url: string, timeoutMs: number): Promise<ProbeResult> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status === 200 ? 'ready' : 'not ready';
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable';
  }
}
