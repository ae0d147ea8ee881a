import { packedJson, unpackedJson } from './packed-json';

const hex = (length: number, digit = 'c') => digit.repeat(length);

const transfer = {
  id: hex(64, 'a'),
  version: 2,
  network: 23,
  typeGroup: 9000,
  type: 2,
  nonce: '7',
  senderPublicKey: `02${hex(64, 'b')}`,
  fee: '5000000',
  amount: '0',
  asset: { nftTransfer: { nftIds: [hex(64, '1'), hex(64, 'f')], recipientId: 'AXyz' } },
  signature: '3045022100' + hex(118, 'e'),
};

const roundTrip = (value: unknown) => unpackedJson(packedJson(value));

describe('packed JSON', () => {
  it('gives a ledger transaction back exactly, member order included, in about two thirds of its JSON text', () => {
    const text = packedJson(transfer);
    expect(JSON.stringify(roundTrip(transfer))).toBe(JSON.stringify(transfer));
    expect(text.length).toBeLessThan(JSON.stringify(transfer).length * 0.7);
  });

  it.each([
    ['a string', 'ab'.repeat(40)],
    ['a number', 12.5],
    ['null', null],
    ['an array', [1, 'cd'.repeat(40)]],
  ])('keeps %s', (_what, value) => {
    expect(roundTrip(value)).toEqual(value);
  });

  it.each([
    ['an odd run of hex digits', { memo: hex(33, 'd') }],
    ['upper-case hex, kept as it is', { memo: hex(64, 'D') }],
    ['a run longer than one marker announces', { memo: hex(2000, '9') }],
    ['hex inside a member name', { [hex(40, 'a')]: 1 }],
    ['control characters and the marker itself in a string', { memo: '\u0001\u0002 line\nbreak \u0000' }],
    ['text beyond Latin-1', { memo: 'gift 🎁 café' }],
    ['short hex runs', { memo: 'abc123', list: ['ff', hex(31, '0')] }],
  ])('keeps %s', (_what, attributes) => {
    const tx = { ...transfer, asset: { nftToken: { collectionId: hex(64, '4'), attributes } } };
    expect(JSON.stringify(roundTrip(tx))).toBe(JSON.stringify(tx));
  });
});
