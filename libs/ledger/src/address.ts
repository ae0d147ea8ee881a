import { createHash } from 'node:crypto';

// bs58check ships its CommonJS build under declarations TypeScript reads as ESM,
// so it is loaded through require with the one function this module uses typed here.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const bs58check: { encode(payload: Uint8Array): string } = require('bs58check').default;

export const MAINNET_VERSION = 23;

/** The ledger address of a public key: base58check(version byte || RIPEMD-160(public key bytes)). */
export function addressFromPublicKey(publicKey: string, networkVersion: number = MAINNET_VERSION): string {
  const hash = createHash('ripemd160').update(Buffer.from(publicKey, 'hex')).digest();
  return bs58check.encode(Buffer.concat([Buffer.from([networkVersion]), hash]));
}
