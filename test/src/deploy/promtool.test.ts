import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT } from '../support/processes';

/**
 * The alert rules as Prometheus reads them: `promtool check rules` on alerts.yaml and on the
 * groups of the component's PrometheusRule, and `promtool test rules` on alerts.test.yaml (the
 * main alerts, silent and firing). promtool comes with Debian's `prometheus` package, which
 * .ci/run installs: without it these tests are skipped on a workstation and fail in CI.
 */
const OBSERVABILITY = join(ROOT, 'deploy/observability');
const installed = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd: OBSERVABILITY, encoding: 'utf8' });
  return { status: run.status, output: run.error ? String(run.error) : `${run.stdout}${run.stderr}` };
}

(installed || process.env.CI ? describe : describe.skip)('the alert rules under promtool', () => {
  it('are valid rules, in alerts.yaml and in the PrometheusRule', () => {
    expect(promtool('check', 'rules', 'alerts.yaml')).toEqual({ status: 0, output: expect.stringMatching(/SUCCESS: \d+ rules found/) });
    const rule = parse(readFileSync(join(ROOT, 'deploy/k8s/components/monitoring/prometheus-rule.yaml'), 'utf8')) as { spec: { groups: unknown } };
    const dir = mkdtempSync(join(tmpdir(), 'prometheus-rule-'));
    try {
      writeFileSync(join(dir, 'groups.yaml'), stringify({ groups: rule.spec.groups }));
      expect(promtool('check', 'rules', join(dir, 'groups.yaml'))).toEqual({ status: 0, output: expect.stringMatching(/SUCCESS: \d+ rules found/) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pass their unit tests', () => {
    expect(promtool('test', 'rules', 'alerts.test.yaml')).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('fail a unit test that expects an alert the rules do not raise', () => {
    const dir = mkdtempSync(join(tmpdir(), 'promtool-'));
    try {
      const tests = parse(readFileSync(join(OBSERVABILITY, 'alerts.test.yaml'), 'utf8')) as {
        rule_files: string[];
        tests: { alert_rule_test: { exp_alerts: unknown[] }[] }[];
      };
      tests.rule_files = [join(OBSERVABILITY, 'alerts.yaml')];
      // The consumer that is 500 events behind, asked for while it is still pending.
      tests.tests[0].alert_rule_test[0].exp_alerts = tests.tests[0].alert_rule_test[1].exp_alerts;
      writeFileSync(join(dir, 'wrong.test.yaml'), stringify(tests));
      expect(promtool('test', 'rules', join(dir, 'wrong.test.yaml'))).toMatchObject({ status: 1, output: expect.stringContaining('FAILED') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
