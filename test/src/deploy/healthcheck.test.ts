import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../support/processes';

/**
 * The image's HEALTHCHECK (deploy/healthcheck.mjs) against an admin port that is live but not
 * ready, as a gateway's is while one area is down: the gateway counts as healthy, a service does
 * not until its /readyz says so. Each check reads the command line of a stand-in process.
 */
const SCRIPT = join(ROOT, 'deploy/healthcheck.mjs');

let admin: Server;
let ready = false;
const standIns: ChildProcess[] = [];

beforeAll(async () => {
  admin = createServer((req, res) => res.writeHead(req.url === '/livez' || ready ? 200 : 503).end()).listen(0, '127.0.0.1');
  await once(admin, 'listening');
});

afterAll(async () => {
  for (const child of standIns) child.kill();
  admin.close();
  await once(admin, 'close');
});

/** A process whose command line names `entryPoint`, as the container's command would. */
async function standIn(entryPoint: string): Promise<string> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', entryPoint], { stdio: 'ignore' });
  standIns.push(child);
  await once(child, 'spawn');
  return `/proc/${child.pid}/cmdline`;
}

/** Runs the check as Docker would, without blocking this process, which serves the admin port. */
function healthy(cmdline: string, port = (admin.address() as AddressInfo).port): Promise<boolean> {
  return new Promise((resolve) => {
    const env = { ...process.env, ADMIN_PORT: String(port) };
    execFile(process.execPath, [SCRIPT, cmdline], { env, timeout: 10_000 }, (error) => resolve(error === null));
  });
}

describe('the image health check', () => {
  it('counts a live gateway healthy whatever its areas say', async () => {
    ready = false;
    expect(await healthy(await standIn('gateway/dist/index.js'))).toBe(true);
  });

  it('counts a service healthy only once it is ready', async () => {
    const service = await standIn('services/nft-exchange/dist/main.js');
    ready = false;
    expect(await healthy(service)).toBe(false);
    ready = true;
    expect(await healthy(service)).toBe(true);
  });

  it('counts a process whose admin port does not answer unhealthy', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    expect(await healthy(await standIn('gateway/dist/index.js'), port)).toBe(false);
  });
});
