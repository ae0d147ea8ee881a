/** NFT transaction type groups and types (docs/ledger-events.md section 3). */
export const NFT_BASE_TYPE_GROUP = 9000;
export const NFT_EXCHANGE_TYPE_GROUP = 9001;

export const NftBaseType = { collection: 0, token: 1, transfer: 2, burn: 3 } as const;
export const NftExchangeType = { auction: 0, auctionCancel: 1, bid: 2, bidCancel: 3, acceptTrade: 4 } as const;

/** An auction must expire more than this many blocks above the block that carries it, or the exchange refuses it. */
export const NFT_AUCTION_SAFETY_DISTANCE = 51;
