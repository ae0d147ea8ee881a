import { addressFromPublicKey } from '@ledger-api/ledger';
import { NftLedgerBuilder } from './ledger-builder';

describe('NftLedgerBuilder', () => {
  it('chains consecutive blocks through previousBlock with timestamps that grow with the height', () => {
    const ledger = new NftLedgerBuilder();
    const [first, second] = ledger.emptyBlocks(2);
    if (first.event !== 'block.applied' || second.event !== 'block.applied') throw new Error('expected applied blocks');
    expect([first.block.height, second.block.height]).toEqual([1, 2]);
    expect(second.block.previousBlock).toBe(first.block.id);
    expect(second.block.timestamp.epoch).toBeGreaterThan(first.block.timestamp.epoch);
    expect(second.block.timestamp.human).toBe(new Date(second.block.timestamp.unix * 1000).toISOString());
  });

  it('gives the same wallets and ids for the same steps, and the next block after a revert a new id', () => {
    const build = () => {
      const ledger = new NftLedgerBuilder(30);
      const alice = ledger.wallet('alice');
      ledger.block(ledger.collection(alice, { name: 'Cards', description: 'Cards', maximumSupply: 5, jsonSchema: {} }));
      const reverted = ledger.revert();
      const replacement = ledger.block(ledger.burn(alice, 'f'.repeat(64)));
      return { ledger, alice, reverted, replacement };
    };
    const one = build();
    const two = build();
    expect(two.ledger.events).toEqual(one.ledger.events);
    expect(one.alice.address).toBe(addressFromPublicKey(one.alice.publicKey, 30));
    expect(one.replacement.block.height).toBe(one.reverted.block.height);
    expect(one.replacement.block.id).not.toBe(one.reverted.block.id);
  });

  it("numbers each sender's nonces and builds every NFT transaction type", () => {
    const ledger = new NftLedgerBuilder();
    const alice = ledger.wallet('alice');
    const id = 'a'.repeat(64);
    const txs = [
      ledger.collection(alice, { name: 'Cards', description: 'Cards', maximumSupply: 5, jsonSchema: {} }),
      ledger.token(alice, id, { name: 'x' }),
      ledger.transfer(alice, [id], 'AddressOfSomeone'),
      ledger.burn(alice, id),
      ledger.auction(alice, { nftIds: [id], startAmount: '1', expiration: { blockHeight: 9 } }),
      ledger.auctionCancel(alice, id),
      ledger.bid(alice, id, '2'),
      ledger.bidCancel(alice, id),
      ledger.acceptTrade(alice, id, id, { fee: '7' }),
    ];
    expect(txs.map((tx) => [tx.typeGroup, tx.type])).toEqual([
      [9000, 0],
      [9000, 1],
      [9000, 2],
      [9000, 3],
      [9001, 0],
      [9001, 1],
      [9001, 2],
      [9001, 3],
      [9001, 4],
    ]);
    expect(txs.map((tx) => tx.nonce)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(new Set(txs.map((tx) => tx.id)).size).toBe(txs.length);
    expect(txs[8].fee).toBe('7');
    expect(txs[1].asset).toEqual({ nftToken: { collectionId: id, attributes: { name: 'x' } } });
  });
});
