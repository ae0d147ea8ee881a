import { createECDH, createHash } from 'node:crypto';
import { addressFromPublicKey } from '@ledger-api/ledger';

export interface DemoWallet {
  index: number;
  publicKey: string;
  address: string;
  /** Silent wallets only ever receive, so their public key never appears on the ledger. */
  signs: boolean;
}

const SIGNING_WALLETS = 60;
const SILENT_WALLETS = 5;
const STUDIO_COUNT = 6;

/**
 * The demo's wallets. Keys are genuine compressed secp256k1 keys derived from
 * the seed, so the ledger looks like a real one and addresses can be checked
 * with any ARK tool.
 */
export class WalletPool {
  readonly all: DemoWallet[];
  readonly signers: DemoWallet[];
  readonly silent: DemoWallet[];
  readonly guardianAdmin: DemoWallet;
  /** Register the NFT collections and mint most of their assets. */
  readonly studios: DemoWallet[];
  /** Every signer except the Guardian administrator: they trade and pay. */
  readonly traders: DemoWallet[];
  readonly traderIndexes: number[];

  constructor(seed: number, networkVersion: number) {
    this.all = [];
    for (let index = 0; index < SIGNING_WALLETS + SILENT_WALLETS; index++) {
      const publicKey = derivePublicKey(seed, index);
      this.all.push({
        index,
        publicKey,
        address: addressFromPublicKey(publicKey, networkVersion),
        signs: index < SIGNING_WALLETS,
      });
    }
    this.signers = this.all.filter((wallet) => wallet.signs);
    this.silent = this.all.filter((wallet) => !wallet.signs);
    this.guardianAdmin = this.all[0];
    this.studios = this.all.slice(1, 1 + STUDIO_COUNT);
    this.traders = this.signers.slice(1);
    this.traderIndexes = this.traders.map((wallet) => wallet.index);
  }

  get(index: number): DemoWallet {
    return this.all[index];
  }
}

function derivePublicKey(seed: number, index: number): string {
  const privateKey = createHash('sha256').update(`demo-ledger-wallet:${seed}:${index}`).digest();
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return ecdh.getPublicKey('hex', 'compressed');
}
