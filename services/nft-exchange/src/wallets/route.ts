import { defineRoute, notFound } from '@ledger-api/http';
import { transactionIdParams } from '@ledger-api/nft-model';
import type { Store } from '@ledger-api/store';
import { z } from 'zod';
import { exchangeWalletReader } from './exchange-wallet';
import { exchangeWalletResource } from './schema';

interface WalletRouteSpec {
  path: string;
  summary: string;
  description: string;
  tags: string[];
  notFoundMessage: string;
  /** The address of the wallet behind a record id; null when there is no such record. */
  addressOf(id: string): Promise<string | null>;
}

/** `GET .../{id}/wallets`: the exchange-form wallet behind an auction or bid, whatever its state. */
export function exchangeWalletRoute(store: Store, spec: WalletRouteSpec) {
  const exchangeWallet = exchangeWalletReader(store);
  const { path, summary, description, tags } = spec;
  return defineRoute({
    method: 'get',
    path,
    summary,
    description,
    tags,
    params: transactionIdParams,
    response: z.object({ data: exchangeWalletResource }),
    errors: [404],
    async handler({ params }) {
      const address = await spec.addressOf(params.id);
      if (address === null) throw notFound(spec.notFoundMessage);
      return { data: await exchangeWallet(address) };
    },
  });
}
