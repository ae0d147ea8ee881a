// Validates Kubernetes objects against the API's schemas (kubernetes-models, and the
// Prometheus Operator's CRDs). ESM only, as those packages are: the manifest test runs it in
// a process of its own. Reads a JSON array of objects on stdin; prints one JSON array, with a
// problem for each object that does not validate, or its kind unknown to the schemas.
import { readFileSync } from 'node:fs';

const PACKAGES = { 'monitoring.coreos.com': '@kubernetes-models/prometheus-operator' };

async function modelOf(apiVersion, kind) {
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const module = await import(`${PACKAGES[group] ?? 'kubernetes-models'}/${apiVersion}`);
  return module[kind];
}

const problems = [];
for (const object of JSON.parse(readFileSync(0, 'utf8'))) {
  const name = `${object.kind}/${object.metadata?.name}`;
  try {
    const Model = await modelOf(object.apiVersion, object.kind);
    if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
    new Model(object).validate();
  } catch (error) {
    problems.push(`${name}: ${error.message.split('\n').slice(0, 4).join(' ')}`);
  }
}
process.stdout.write(JSON.stringify(problems));
