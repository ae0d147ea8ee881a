/** Names of the NFT read model's stored collections, shared by both NFT areas. */
export const STORE_COLLECTIONS = {
  collections: 'collections',
  assets: 'assets',
  burns: 'burns',
  transfers: 'transfers',
  wallets: 'wallets',
  auctions: 'auctions',
  auctionCancels: 'auctionCancels',
  bids: 'bids',
  bidCancels: 'bidCancels',
  trades: 'trades',
} as const;
