// The NFT ledger builder for tests, published as `@ledger-api/nft-read-model/testing`
// so that no production import ever loads it.
export * from './ledger-builder';
