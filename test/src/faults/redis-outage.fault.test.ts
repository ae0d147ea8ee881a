import { AREAS } from '@ledger-api/config';
import { startLocalStack, type LocalStack } from '../support/local-stack';
import { timedGet } from '../support/load';
import { waitFor } from '@ledger-api/test-kit';
import { redisKeyCount, startTestRedis, type TestRedis } from '../support/redis';

/**
 * Redis killed while the services keep their page cache in it and the gateway its
 * rate-limit counters: every area answers as before, only slower, and Redis is used
 * again once it is back.
 */
const PATHS = [
  '/api/guardian/groups',
  '/api/guardian/users?limit=3',
  '/api/nft/collections?limit=5',
  '/api/nft/assets?orderBy=fee:desc&limit=5',
  '/api/nft/exchange/auctions?limit=5',
  '/api/nft/exchange/trades?limit=5',
];
const ROUNDS_WITHOUT_REDIS = 3;
/** Slower is fine without Redis; a hang is not. */
const ANSWER_LIMIT_WITHOUT_REDIS_MS = 5_000;

let redis: TestRedis | undefined;
let stack: LocalStack | undefined;
const answersBefore = new Map<string, string>();

beforeAll(async () => {
  redis = await startTestRedis();
  stack = await startLocalStack({ blocks: 80, env: { REDIS_URL: redis.url } });
  for (const path of PATHS) {
    const answer = await timedGet(`${stack.gateway}${path}`);
    expect(answer.status).toBe(200);
    answersBefore.set(path, answer.body);
  }
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await redis?.process.stop('SIGKILL');
}, 60_000);

async function answersDifferingFromBefore(): Promise<string[]> {
  const differing: string[] = [];
  for (const path of PATHS) {
    const answer = await timedGet(`${stack!.gateway}${path}`);
    if (answer.status !== 200 || answer.body !== answersBefore.get(path)) differing.push(`${path}: ${answer.status} ${answer.body.slice(0, 200)}`);
    else if (answer.ms > ANSWER_LIMIT_WITHOUT_REDIS_MS) differing.push(`${path}: answered after ${answer.ms} ms`);
  }
  return differing;
}

/** Sends a request to every path and checks each area's pages and the gateway's counters landed in Redis. */
async function redisInUse(paths = PATHS): Promise<boolean> {
  for (const path of paths) await timedGet(`${stack!.gateway}${path}`);
  const pages = await Promise.all(AREAS.map((area) => redisKeyCount(redis!.port, `ledger-api:${area.name}:*`)));
  const counters = await redisKeyCount(redis!.port, 'gateway:rate-limit:*');
  return pages.every((count) => count > 0) && counters > 0;
}

describe('Redis killed under the stack', () => {
  it('is used for pages and rate limits while it runs', async () => {
    await waitFor(redisInUse, 'pages and counters in Redis', 20_000, 200);
  }, 30_000);

  it('leaves every area answering the same bodies while it is down', async () => {
    await redis!.kill();
    for (let round = 0; round < ROUNDS_WITHOUT_REDIS; round++) expect(await answersDifferingFromBefore()).toEqual([]);
  }, 120_000);

  it('is used again once it is back', async () => {
    await redis!.restart();
    expect(await redisKeyCount(redis!.port, '*')).toBe(0);
    // Each service keeps the pages it served in memory too and answers them from there; a page
    // rendered before its Redis client is back stays there alone. Pages not asked for yet go to Redis.
    let attempt = 0;
    const newPages = () => {
      attempt += 1;
      return PATHS.map((path) => `${path}${path.includes('?') ? '&' : '?'}page=${attempt}`);
    };
    await waitFor(() => redisInUse(newPages()), 'pages and counters in the restarted Redis', 60_000, 500);
    expect(await answersDifferingFromBefore()).toEqual([]);
  }, 90_000);
});
