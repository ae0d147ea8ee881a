/** What a random draw needs of a collection: its size and its members by position. */
export interface Drawable<T> {
  readonly size: number;
  at(position: number): T;
}

/**
 * A small seeded generator (mulberry32). The demo ledger must be byte-identical
 * for a given seed on every machine and Node version, which Math.random cannot give.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('cannot pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Uniform integer in [0, size). */
  index(size: number): number {
    return Math.floor(this.next() * size);
  }

  /** A member drawn uniformly from a list that gives members by position. */
  draw<T>(members: Drawable<T>): T {
    if (members.size === 0) throw new Error('cannot draw from an empty set');
    return members.at(this.index(members.size));
  }

  /**
   * Up to `count` distinct members, in random order: the first steps of a
   * Fisher-Yates shuffle, with the swapped positions kept aside, so it costs
   * `count` draws whatever the size.
   */
  drawDistinct<T>(members: Drawable<T>, count: number): T[] {
    const swapped = new Map<number, number>();
    const drawn: T[] = [];
    for (let i = 0; i < Math.min(count, members.size); i++) {
      const j = i + this.index(members.size - i);
      drawn.push(members.at(swapped.get(j) ?? j));
      swapped.set(j, swapped.get(i) ?? i);
    }
    return drawn;
  }

  /** Up to `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, count);
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }

  /** Index chosen with probability proportional to its weight; -1 when all weights are 0. */
  weightedIndex(weights: readonly number[]): number {
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    if (total <= 0) return -1;
    let remaining = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      remaining -= weights[i];
      if (remaining < 0 && weights[i] > 0) return i;
    }
    return weights.findLastIndex((weight) => weight > 0);
  }

  /** `bytes` random bytes as lower-case hex; `bytes` must be a multiple of 4. */
  hex(bytes: number): string {
    const buffer = Buffer.allocUnsafe(bytes);
    for (let offset = 0; offset < bytes; offset += 4) buffer.writeUInt32BE(Math.floor(this.next() * 4294967296), offset);
    return buffer.toString('hex');
  }

  /** A decimal string of exactly `length` digits, without a leading zero. */
  digits(length: number): string {
    let out = String(this.int(1, 9));
    for (let i = 1; i < length; i++) out += String(this.int(0, 9));
    return out;
  }
}
