import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The system Chromium: CI installs it (.ci/run); a test that needs it fails without it rather than skip. */
export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const ALLOWED_HOST = '127.0.0.1';

export interface HeadlessPage {
  page: Page;
  /** Every URL the browser asked for, including those it was refused. */
  requested: string[];
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * One page in a headless Chromium with a fresh profile, allowed to reach 127.0.0.1 only:
 * a request to any other host is recorded and refused, so the page works as it would offline.
 */
export async function openHeadlessPage(): Promise<HeadlessPage> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const requested: string[] = [];
  const errors: string[] = [];
  context.on('request', (request) => requested.push(request.url()));
  await context.route(
    (url) => url.hostname !== ALLOWED_HOST,
    (route) => route.abort('blockedbyclient'),
  );
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return {
    page,
    requested,
    errors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The requested URLs whose host is not 127.0.0.1 (data: URLs never leave the page). */
export const foreignRequests = (urls: string[]) => urls.filter((url) => !url.startsWith('data:') && new URL(url).hostname !== ALLOWED_HOST);
