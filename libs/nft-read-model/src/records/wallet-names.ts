import { addressFromPublicKey } from '@ledger-api/ledger';

/**
 * Public keys and addresses as the read model stores them. An address is
 * derived once per public key (two hashes and a base58 encoding each time
 * otherwise), and every key or address is held as one string however many
 * records name it, where JSON parsing makes a fresh copy per occurrence.
 */
export class WalletNames {
  private readonly addresses = new Map<string, string>();
  private readonly strings = new Map<string, string>();

  constructor(readonly networkVersion: number) {}

  /** The one copy of a public key or address. */
  shared(name: string): string {
    const known = this.strings.get(name);
    if (known !== undefined) return known;
    this.strings.set(name, name);
    return name;
  }

  addressOf(publicKey: string): string {
    let address = this.addresses.get(publicKey);
    if (address === undefined) {
      address = this.shared(addressFromPublicKey(publicKey, this.networkVersion));
      this.addresses.set(this.shared(publicKey), address);
    }
    return address;
  }
}
