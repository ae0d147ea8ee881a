import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseAllDocuments, parse } from 'yaml';
import { ROOT } from '../support/processes';

/**
 * deploy/k8s as kustomize reads it: every file a kustomization names exists, every object
 * fits the Kubernetes API's schema (and the Prometheus Operator's), and the guards hold:
 * autoscaled Deployments leave their replica count to the autoscaler, MongoDB is opt-in and
 * locked down, NetworkPolicies keep the admin ports private, Prometheus scrapes them and
 * alerts with the rules of deploy/observability/alerts.yaml.
 */
const K8S = join(ROOT, 'deploy/k8s');
/** The base URL of alerts.yaml's runbook links, which a deployment replaces with its own. */
const EXAMPLE_RUNBOOK_BASE = 'https://github.com/example/ledger-query-platform/blob/main/deploy/README.md';
const OVERLAYS = ['base', 'overlays/production', 'overlays/with-mongodb'];

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are read as the plain data they are */
type Manifest = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: any; data?: any };

interface Kustomization {
  resources?: string[];
  components?: string[];
  patches?: { path?: string; patch?: string }[];
  labels?: { pairs: Record<string, string>; includeTemplates?: boolean }[];
}

const readYaml = (file: string): any => parse(readFileSync(file, 'utf8'));
const readManifests = (file: string): Manifest[] => parseAllDocuments(readFileSync(file, 'utf8')).map((document) => document.toJSON() as Manifest);
const kustomizationOf = (dir: string): Kustomization => readYaml(join(dir, 'kustomization.yaml')) as Kustomization;
const isKustomization = (path: string) => existsSync(join(path, 'kustomization.yaml'));

/** Every kustomization a build reads, from `dir` through its resources and components. */
function kustomizations(dir: string): string[] {
  const { resources = [], components = [] } = kustomizationOf(dir);
  const nested = [...resources, ...components].map((entry) => resolve(dir, entry)).filter(isKustomization);
  return [dir, ...nested.flatMap(kustomizations)];
}

/** The files of objects a build takes in (not its patches). */
function resourceFiles(dir: string): string[] {
  return kustomizations(dir).flatMap((from) =>
    (kustomizationOf(from).resources ?? []).map((entry) => resolve(from, entry)).filter((path) => !isKustomization(path)),
  );
}

const objectsOf = (dir: string) => resourceFiles(dir).flatMap(readManifests);
const named = (objects: Manifest[], kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name);

/** The container ports every Deployment gets from the base's shared patch, by name. */
const workloadPorts = (): string[] =>
  (readManifests(join(K8S, 'base/workload-defaults.yaml'))[0].spec.template.spec.containers[0].ports as { name: string }[]).map(({ name }) => name);

/** The problems kubernetes-models finds, run in a process of its own: its packages are ESM only. */
function schemaProblems(objects: Manifest[]): string[] {
  const output = execFileSync(process.execPath, [join(ROOT, 'test/src/deploy/kubernetes-schemas.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
  });
  return JSON.parse(output) as string[];
}

describe('the Kubernetes manifests', () => {
  it.each(OVERLAYS)('%s: names only files that exist, whose every object fits its schema', (overlay) => {
    const dir = join(K8S, overlay);
    for (const from of kustomizations(dir)) {
      const { resources = [], components = [], patches = [] } = kustomizationOf(from);
      const files = [...resources, ...components, ...patches.flatMap(({ path }) => path ?? [])].map((entry) => resolve(from, entry));
      expect(files.filter((file) => !existsSync(file)).map((file) => relative(K8S, file))).toEqual([]);
    }
    const objects = objectsOf(dir);
    expect(objects.length).toBeGreaterThan(0);
    expect(schemaProblems(objects)).toEqual([]);
  });

  it('takes the NATS sign-in from the Secret, never from the ConfigMap', () => {
    const projector = named(objectsOf(join(K8S, 'base')), 'Deployment', 'projector')!.spec.template.spec.containers[0];
    for (const variable of ['NATS_USER', 'NATS_PASSWORD', 'NATS_TOKEN']) {
      expect(projector.env).toContainEqual({
        name: variable,
        valueFrom: { secretKeyRef: { name: 'ledger-api-secrets', key: variable, optional: true } },
      });
    }
    const configMap = readFileSync(join(K8S, 'base/config.env'), 'utf8');
    expect(configMap).not.toMatch(/^(NATS_USER|NATS_PASSWORD|NATS_TOKEN)=/m);
    expect(configMap).not.toMatch(/^NATS_URL=\w+:\/\/[^/]*@/m);
  });

  it('mounts the optional Secret of NATS files where the examples name them', () => {
    const pod = named(objectsOf(join(K8S, 'base')), 'Deployment', 'projector')!.spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'nats', secret: { secretName: 'ledger-api-nats', optional: true } });
    const mount = pod.containers[0].volumeMounts.find(({ name }: { name: string }) => name === 'nats');
    expect(mount).toEqual({ name: 'nats', mountPath: '/etc/ledger-api/nats', readOnly: true });
    const examples = readFileSync(join(K8S, 'base/secrets.example.yaml'), 'utf8');
    expect([...examples.matchAll(/NATS_(?:CREDS|TLS_\w+)_FILE=(\S+)/g)].map(([, path]) => path.startsWith(`${mount.mountPath}/`))).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('has example Secrets that fit their schema', () => {
    expect(schemaProblems(readManifests(join(K8S, 'base/secrets.example.yaml')))).toEqual([]);
  });

  it('finds a wrong object wrong', () => {
    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'bad' },
      spec: { podSelector: {}, policyTypes: ['Sideways'] },
    };
    expect(schemaProblems([policy as Manifest])).toEqual([expect.stringMatching(/^NetworkPolicy\/bad: .*policyTypes/)]);
  });

  it('leaves the replica count of every autoscaled Deployment to its autoscaler, in the base and the overlays', () => {
    const objects = objectsOf(join(K8S, 'base'));
    const targets = objects.filter((object) => object.kind === 'HorizontalPodAutoscaler').map((hpa) => hpa.spec.scaleTargetRef.name as string);
    expect([...new Set(targets)].sort()).toEqual(['api', 'gateway']);
    for (const target of targets) expect(named(objects, 'Deployment', target)?.spec).not.toHaveProperty('replicas');
    for (const overlay of OVERLAYS) {
      const patches = kustomizations(join(K8S, overlay)).flatMap((from) => kustomizationOf(from).patches ?? []);
      expect(patches.filter(({ patch }) => patch && /\breplicas:/.test(patch))).toEqual([]);
    }
  });

  it('runs MongoDB only where an overlay takes the component, with authentication, a pinned image and no root', () => {
    const component = join(K8S, 'components/mongodb');
    expect(kustomizations(join(K8S, 'overlays/production'))).not.toContain(component);
    expect(kustomizations(join(K8S, 'base'))).not.toContain(component);
    expect(kustomizations(join(K8S, 'overlays/with-mongodb'))).toContain(component);
    expect(objectsOf(join(K8S, 'overlays/production')).filter((object) => object.kind === 'StatefulSet')).toEqual([]);

    const objects = objectsOf(component);
    const pods = objects.flatMap((object) => (object.spec?.template ? [object.spec.template.spec] : []));
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: expect.any(Number), seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.securityContext.runAsUser).not.toBe(0);
      for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
        expect(container.image).toMatch(/^mongo:\d+\.\d+\.\d+$/);
        expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      }
    }
    for (const pod of pods)
      for (const container of [...(pod.initContainers ?? []), ...pod.containers]) expect(patchedMongo(container.image)).toBe(true);
    const mongod = named(objects, 'StatefulSet', 'mongo')!.spec.template.spec.containers[0];
    expect(mongod.args).toContain('--keyFile');
    expect(mongod.env).toContainEqual({
      name: 'MONGO_INITDB_ROOT_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'ledger-api-mongodb', key: 'root-password' } },
    });
  });

  it('closes every pod, then opens the public port of the gateway, the api to the gateway and the admin ports to monitoring', () => {
    const policies = objectsOf(join(K8S, 'base')).filter((object) => object.kind === 'NetworkPolicy');
    const platform = { 'app.kubernetes.io/name': 'ledger-api' };
    const closing = policies.filter(({ spec }) => spec.ingress === undefined);
    expect(closing.map(({ spec }) => [spec.podSelector, spec.policyTypes])).toEqual([[{ matchLabels: platform }, ['Ingress']]]);

    const openings = policies.flatMap(({ metadata, spec }) =>
      (spec.ingress ?? []).flatMap((rule: any) =>
        (rule.ports as { port: string }[]).map(({ port }) => ({ policy: metadata.name, to: spec.podSelector.matchLabels, port, from: rule.from })),
      ),
    );
    expect(openings.every(({ to }) => to['app.kubernetes.io/name'] === 'ledger-api')).toBe(true);
    expect(openings.filter(({ from }) => from === undefined).map(({ to, port }) => [to['app.kubernetes.io/component'], port])).toEqual([
      ['gateway', 'http'],
    ]);
    const admin = openings.filter(({ port }) => port === 'admin');
    const gatewayPods = [{ podSelector: { matchLabels: { ...platform, 'app.kubernetes.io/component': 'gateway' } } }];
    const monitoring = [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }];
    expect(admin.map(({ to, from }) => [to['app.kubernetes.io/component'], from])).toEqual([
      ['api', gatewayPods],
      [undefined, monitoring],
    ]);
    expect(new Set(openings.map(({ port }) => port))).toEqual(new Set(workloadPorts()));
  });
});

/**
 * The last security fix of each MongoDB release line: CVE-2025-14847 (unauthenticated memory
 * disclosure) and the fixes after it left 7.0 before 7.0.32 and 8.0 before 8.0.21 exposed.
 * A pin on a line not listed here fails until the line's last fix is added.
 */
const MONGO_FIXED_IN: Record<string, number> = { '7.0': 32, '8.0': 21 };

function patchedMongo(image: string): boolean {
  const [, line, patch] = /^mongo:(\d+\.\d+)\.(\d+)$/.exec(image) ?? [];
  return line in MONGO_FIXED_IN && Number(patch) >= MONGO_FIXED_IN[line];
}

describe('the MongoDB pin check', () => {
  it('takes the last fix of a line and later, nothing before and no line it does not know', () => {
    expect(['mongo:7.0.32', 'mongo:7.0.40', 'mongo:8.0.21'].map(patchedMongo)).toEqual([true, true, true]);
    expect(['mongo:7.0.14', 'mongo:7.0.31', 'mongo:8.0.20', 'mongo:6.0.99', 'mongo:7', 'mongo:latest'].map(patchedMongo)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('the Prometheus Operator resources', () => {
  const component = objectsOf(join(K8S, 'components/monitoring'));
  const alerts = readYaml(join(ROOT, 'deploy/observability/alerts.yaml')) as {
    groups: { rules: { alert: string; expr: string; annotations: Record<string, string> }[] }[];
  };

  it('scrape the admin port of every pod the base labels', () => {
    const monitor = named(component, 'PodMonitor', 'ledger-api')!;
    const baseLabels = Object.assign({}, ...(kustomizationOf(join(K8S, 'base')).labels ?? []).map(({ pairs }) => pairs));
    expect(baseLabels).toMatchObject(monitor.spec.selector.matchLabels);
    expect(monitor.spec.podMetricsEndpoints).toEqual([expect.objectContaining({ port: 'admin', path: '/metrics' })]);
    expect(workloadPorts()).toContain('admin');
    expect(kustomizations(join(K8S, 'overlays/production'))).toContain(join(K8S, 'components/monitoring'));
  });

  it('alert with the rules of alerts.yaml, a target down included', () => {
    expect(named(component, 'PrometheusRule', 'ledger-api')!.spec.groups).toEqual(alerts.groups);
    const rules = alerts.groups.flatMap(({ rules }) => rules);
    expect(rules.filter(({ expr }) => /^up\{job="ledger-api"\} == 0$/.test(expr)).map(({ alert }) => alert)).toEqual(['LedgerApiTargetDown']);
  });

  it('label both objects for kube-prometheus-stack and take the runbooks base from the overlay', () => {
    const { labels = [], replacements = [] } = readYaml(join(K8S, 'components/monitoring/kustomization.yaml')) as {
      labels?: { pairs: Record<string, string>; fields: { kind: string; path: string }[] }[];
      replacements?: { source: { kind: string; name: string; fieldPath: string } }[];
    };
    expect(labels).toEqual([
      {
        pairs: { release: 'kube-prometheus-stack' },
        fields: ['PodMonitor', 'PrometheusRule'].map((kind) => ({ kind, path: 'metadata/labels', create: true })),
      },
    ]);
    expect(replacements.map(({ source }) => source)).toEqual([
      { kind: 'ConfigMap', name: 'ledger-api-monitoring', fieldPath: 'data.RUNBOOK_BASE_URL' },
    ]);
    const settings = named(objectsOf(join(K8S, 'overlays/production')), 'ConfigMap', 'ledger-api-monitoring');
    expect(settings?.metadata).toMatchObject({ annotations: { 'config.kubernetes.io/local-config': 'true' } });
  });

  it('link every alert to its runbook, a section of deploy/README.md', () => {
    const readme = readFileSync(join(ROOT, 'deploy/README.md'), 'utf8');
    const anchors = new Set(
      [...readme.matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
        heading
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const links = alerts.groups.flatMap(({ rules }) => rules.map(({ alert, annotations }) => [alert, annotations.runbook_url]));
    expect(links.filter(([alert, url]) => url !== `${EXAMPLE_RUNBOOK_BASE}#${alert.toLowerCase()}` || !anchors.has(alert.toLowerCase()))).toEqual([]);
  });
});

/** Where kubectl is installed, its kustomize builds the overlays as `kubectl apply -k` would. */
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

(hasKubectl ? describe : describe.skip)('the overlays as kubectl kustomize renders them', () => {
  const rendered = (overlay: string): Manifest[] =>
    parseAllDocuments(execFileSync('kubectl', ['kustomize', join(K8S, overlay)], { encoding: 'utf8' })).map(
      (document) => document.toJSON() as Manifest,
    );

  it.each(OVERLAYS)('%s: renders objects that fit their schemas', (overlay) => {
    const objects = rendered(overlay);
    expect(objects.length).toBeGreaterThan(0);
    expect(schemaProblems(objects)).toEqual([]);
    expect(objects.filter((object) => object.metadata.name === 'ledger-api-monitoring')).toEqual([]);
  });

  it('overlays/production: labels the monitoring objects and links every alert to a runbook under its base', () => {
    const objects = rendered('overlays/production');
    const base = named(objectsOf(join(K8S, 'overlays/production')), 'ConfigMap', 'ledger-api-monitoring')!.data.RUNBOOK_BASE_URL as string;
    expect(base).toMatch(/^https:\/\//);
    for (const kind of ['PodMonitor', 'PrometheusRule'])
      expect(named(objects, kind, 'ledger-api')?.metadata).toMatchObject({ labels: { release: 'kube-prometheus-stack' } });
    const rules = named(objects, 'PrometheusRule', 'ledger-api')!.spec.groups.flatMap(
      ({ rules }: { rules: { alert: string; annotations: any }[] }) => rules,
    );
    expect(rules.length).toBeGreaterThan(0);
    expect(
      rules.filter(({ alert, annotations }: { alert: string; annotations: any }) => annotations.runbook_url !== `${base}#${alert.toLowerCase()}`),
    ).toEqual([]);
  });
});
