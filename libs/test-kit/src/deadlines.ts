/**
 * How late a timer or an answer may come on a loaded machine (CI shares two cores with
 * other work). A test of a deadline a rule sets (a request timeout, a proxy timeout, a
 * shutdown budget) allows this much beyond it: it shows the deadline is kept at all, not
 * how fast the machine is. How fast is for the benchmarks.
 */
export const TIMER_SLACK_MS = 5_000;

/** Expects something that took `elapsedMs` to have ended by `deadlineMs`, give or take TIMER_SLACK_MS. */
export function expectWithinDeadline(elapsedMs: number, deadlineMs: number): void {
  expect(elapsedMs).toBeLessThan(deadlineMs + TIMER_SLACK_MS);
}
