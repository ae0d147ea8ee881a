import { readFileSync } from 'node:fs';
import { startGateway, type RunningServer } from './testing/gateway-harness';

let gateway: RunningServer;

beforeAll(async () => {
  gateway = await startGateway({});
});

afterAll(() => gateway.close());

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Record<string, string> {
  return Object.fromEntries((policy ?? '').split(';').map((directive) => directive.trim().split(/\s+(.*)/, 2) as [string, string]));
}

describe('the API reference page', () => {
  it('is served at /api/docs and loads only scripts and styles of this origin', async () => {
    const response = await fetch(`${gateway.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, source]) => source);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(source).toMatch(/^\/api\/docs\//);
    expect(page).not.toMatch(/<script>|<style|style=/);
    expect(directives(response.headers.get('content-security-policy'))).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it("serves Swagger UI's files from the package and points it at the gateway's document", async () => {
    const bundle = await fetch(`${gateway.url}/api/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(await bundle.text()).toBe(readFileSync(require.resolve('swagger-ui-dist/swagger-ui-bundle.js'), 'utf8'));
    const start = await (await fetch(`${gateway.url}/api/docs/reference.js`)).text();
    expect(start).toContain("url: '/api/openapi.json'");
    expect(start).toContain('validatorUrl: null');
  });

  it('serves none of the package files it does not use', async () => {
    for (const file of ['index.html', 'swagger-initializer.js', 'package.json', '..%2Fpackage.json']) {
      const response = await fetch(`${gateway.url}/api/docs/${file}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found' });
    }
  });

  it('is where /docs leads', async () => {
    const response = await fetch(`${gateway.url}/docs`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/api/docs');
  });
});
