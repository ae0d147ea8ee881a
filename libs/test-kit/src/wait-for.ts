import { setTimeout as delay } from 'node:timers/promises';

/**
 * Polls until the condition holds, instead of guessing a sleep; fails naming `what`
 * once `timeoutMs` has passed. A condition that throws or rejects (a probe of a server
 * still starting) counts as not holding yet; its last error is reported on a timeout.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what = 'the condition',
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError === undefined ? '' : ` (last failure: ${lastError instanceof Error ? lastError.message : String(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await delay(intervalMs);
  }
}
