import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parsers } from 'prettier/plugins/yaml';
import { createMetrics } from './metrics';

/**
 * deploy/observability: the Grafana dashboard and the Prometheus alert rules
 * parse, and select only metrics the code registers, so a renamed metric
 * cannot leave a panel or an alert silently empty.
 */
const ROOT = resolve(__dirname, '../../..');
const DEPLOY = join(ROOT, 'deploy/observability');

interface YamlNode {
  type: string;
  value?: string;
  children?: (YamlNode | null)[];
}

/** Plain values from the syntax tree of prettier's YAML parser (the one the format check uses). */
function yamlValue(node: YamlNode | null | undefined): unknown {
  if (!node) return null;
  const children = node.children ?? [];
  switch (node.type) {
    case 'plain':
    case 'quoteDouble':
    case 'quoteSingle':
    case 'blockLiteral':
    case 'blockFolded':
      return node.value;
    case 'mapping':
    case 'flowMapping':
      return Object.fromEntries(children.map((item) => [yamlValue(item?.children?.[0]), yamlValue(item?.children?.[1])]));
    case 'sequence':
    case 'flowSequence':
      return children.map(yamlValue);
    case 'root':
    case 'document':
    case 'documentBody':
    case 'mappingKey':
    case 'mappingValue':
    case 'sequenceItem':
    case 'flowSequenceItem':
      return yamlValue(children.at(-1));
    default:
      throw new Error(`unexpected YAML node ${node.type}`);
  }
}

async function readYaml(file: string): Promise<unknown> {
  return yamlValue((await parsers.yaml.parse(readFileSync(file, 'utf8'), {} as never)) as YamlNode);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !/[/\\](testing|node_modules|dist)[/\\]/.test(file));
}

/** Every name the code exports a metric under: a histogram as its _bucket, _sum and _count series too. */
async function registeredNames(): Promise<Set<string>> {
  const names = new Set<string>();
  const add = (kind: string, name: string) => {
    names.add(name);
    if (kind.toLowerCase() === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
  };
  const workspaces = ['libs', 'services'].flatMap((group) => readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name, 'src')));
  for (const file of [...workspaces, join(ROOT, 'gateway/src')].flatMap(sourceFiles)) {
    const text = readFileSync(file, 'utf8');
    for (const [, kind, name] of text.matchAll(/\.(counter|gauge|histogram)\(\s*'([a-zA-Z_:][\w:]*)'/g)) add(kind, name);
    for (const [, kind, name] of text.matchAll(/new (?:Series)?(Counter|Gauge|Histogram)\(\{\s*name:\s*'([a-zA-Z_:][\w:]*)'/g)) add(kind, name);
  }
  for (const metric of await createMetrics('defaults').registry.getMetricsAsJSON()) add(String(metric.type), metric.name);
  // The series Prometheus writes itself for every target it scrapes.
  names.add('up');
  return names;
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

/** The metric names a PromQL expression selects: strings, label matchers, ranges, groupings and functions left out. */
function selectedMetrics(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}|\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const identifiers = [...bare.matchAll(/(?<![\w$.:])[a-zA-Z_:][\w:]*(?![\w:])(?!\s*\()/g)].map(([name]) => name);
  return identifiers.filter((name) => !KEYWORDS.has(name.toLowerCase()));
}

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: { severity?: string };
  annotations?: { summary?: string; description?: string };
}

describe('the observability files in deploy/', () => {
  let registered: Set<string>;
  beforeAll(async () => (registered = await registeredNames()));
  /** By the alert or panel that selects them: the metrics no code registers. */
  const unregistered = (queries: [string, string][]) => {
    const unknown = queries.map(([name, expr]) => [name, selectedMetrics(expr).filter((metric) => !registered.has(metric))] as const);
    return Object.fromEntries(unknown.filter(([, metrics]) => metrics.length > 0));
  };

  it('has alert rules for lag, faults, the lease, 5xx, upstream latency, Redis, feeds and the shared rate limit, on registered metrics', async () => {
    const { groups } = (await readYaml(join(DEPLOY, 'alerts.yaml'))) as { groups: { name: string; rules: AlertRule[] }[] };
    const rules = groups.flatMap((group) => group.rules);
    for (const rule of rules) {
      expect(rule).toMatchObject({ alert: expect.any(String), for: expect.stringMatching(/^\d+[smh]$/), labels: { severity: expect.any(String) } });
      expect(rule.annotations).toMatchObject({ summary: expect.any(String), description: expect.any(String) });
      expect(selectedMetrics(rule.expr).length).toBeGreaterThan(0);
    }
    expect(unregistered(rules.map((rule) => [rule.alert, rule.expr]))).toEqual({});
    const watched = rules.flatMap((rule) => selectedMetrics(rule.expr));
    for (const metric of [
      'ledger_consumer_pending_events',
      'ledger_lag_seconds',
      'ledger_projector_state',
      'http_request_duration_seconds_count',
      'gateway_upstream_duration_seconds_bucket',
      'page_cache_redis_failures_total',
      'edge_feed_state',
      'gateway_rate_limit_shared',
    ]) {
      expect(watched).toContain(metric);
    }
  });

  it('has a Grafana dashboard whose every panel queries registered metrics, the edge, feeds, streams, retries and rate limit included', () => {
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana-dashboard.json'), 'utf8')) as {
      panels: { id: number; type: string; title: string; targets?: { expr: string }[] }[];
    };
    const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    const queries = panels.flatMap((panel) => (panel.targets ?? []).map(({ expr }): [string, string] => [panel.title, expr]));
    expect(new Set(queries.map(([title]) => title)).size).toBe(panels.length);
    for (const [, expr] of queries) expect(selectedMetrics(expr).length).toBeGreaterThan(0);
    expect(unregistered(queries)).toEqual({});
    const shown = new Set(queries.flatMap(([, expr]) => selectedMetrics(expr)));
    const edgeAndUpstreams = [
      'edge_cache_requests_total',
      'edge_cache_bytes',
      'edge_feed_state',
      'live_streams_open',
      'gateway_upstream_retries_total',
    ];
    expect(edgeAndUpstreams.filter((metric) => !shown.has(metric))).toEqual([]);
    expect(shown.has('gateway_rate_limit_shared')).toBe(true);
  });

  it('has a scrape job for Prometheus without the Operator, named as the target-down alert selects', async () => {
    const { scrape_configs: jobs } = (await readYaml(join(DEPLOY, 'prometheus-scrape.yaml'))) as { scrape_configs: { job_name: string }[] };
    const { groups } = (await readYaml(join(DEPLOY, 'alerts.yaml'))) as { groups: { rules: AlertRule[] }[] };
    const selected = groups.flatMap(({ rules }) => rules).flatMap(({ expr }) => [...expr.matchAll(/\bup\{job="([^"]+)"\}/g)].map(([, job]) => job));
    expect(jobs.map(({ job_name: name }) => name)).toEqual(['ledger-api']);
    expect(selected).toEqual(['ledger-api']);
  });

  it('are referenced from deploy/README.md', () => {
    const readme = readFileSync(join(ROOT, 'deploy/README.md'), 'utf8');
    expect(readme).toContain('observability/alerts.yaml');
    expect(readme).toContain('observability/grafana-dashboard.json');
    expect(readme).toContain('observability/prometheus-scrape.yaml');
  });
});

describe('selectedMetrics', () => {
  it('finds the metrics of an expression and nothing else', () => {
    const expr =
      'histogram_quantile(0.95, sum by (area, le) (rate(gateway_upstream_duration_seconds_bucket{area!="x_y"}[5m]))) > 1 ' +
      'and on (service) absent(ledger_projector_state{state=~"caught_up|faulted"}) or up offset 5m';
    expect(selectedMetrics(expr)).toEqual(['gateway_upstream_duration_seconds_bucket', 'ledger_projector_state', 'up']);
  });
});
