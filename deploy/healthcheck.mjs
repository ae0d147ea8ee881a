// The image's HEALTHCHECK, fitted to the process the container runs: a service is healthy
// once its /readyz says so (its read model can be served), the gateway while it is live.
// The gateway's /readyz asks after every area, so one area down would mark every gateway
// unhealthy and hold `compose up --wait` back for the others; its areas' own checks say that.
//   node deploy/healthcheck.mjs [/proc/<pid>/cmdline]    the container's command by default
import { readFileSync } from 'node:fs';

const TIMEOUT_MS = 2_500;

const command = readFileSync(process.argv[2] ?? '/proc/1/cmdline', 'utf8').split('\0');
// Behind an init (docker run --init) the command is the init's arguments, so any argument counts.
const path = command.some((argument) => argument.endsWith('gateway/dist/index.js')) ? '/livez' : '/readyz';
const response = await fetch(`http://127.0.0.1:${process.env.ADMIN_PORT}${path}`, { signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => undefined);
process.exit(response?.ok ? 0 : 1);
