import { addressFromPublicKey } from './address';

describe('addressFromPublicKey', () => {
  it.each([
    ['034151a3ec46b5670a682b0a63394f863587d1bc97483b1b6c70eb58e7f0aed192', 23, 'AGeYmgbg2LgGxRW2vNNJvQ88PknEJsYizC'],
    ['028f2b9da9607c02296fc963d20292dd57feb72031be1aa67102c8a3f4940e74db', 23, 'ATo8spkEzS83uq15nXWhGLNCwVXjFZw9VP'],
    ['034151a3ec46b5670a682b0a63394f863587d1bc97483b1b6c70eb58e7f0aed192', 30, 'D61mfSggzbvQgTUe6JhYKH2doHaqJ3Dyib'],
  ])('derives the address of %s with version %i', (publicKey, version, address) => {
    expect(addressFromPublicKey(publicKey, version)).toBe(address);
  });
});
