/**
 * A map that keeps at most `capacity` values, dropping the least recently used.
 * Holds results derived from a collection's current documents; the owner
 * clears it whenever a document changes.
 */
export class RecentValues<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.values.get(key);
    if (value !== undefined) {
      this.values.delete(key);
      this.values.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.values.delete(key);
    if (this.values.size >= this.capacity) this.values.delete(this.values.keys().next().value as string);
    this.values.set(key, value);
  }

  clear(): void {
    // Clearing allocates a fresh table even when there is nothing to drop, and writes clear after every document.
    if (this.values.size > 0) this.values.clear();
  }
}

/**
 * A cache key for JSON-shaped query input, or null when the value holds
 * anything JSON cannot represent faithfully (RegExp, Date, undefined), which
 * could make different queries collide on one key.
 */
export function jsonKey(value: unknown): string | null {
  return isJsonShaped(value) ? JSON.stringify(value) : null;
}

function isJsonShaped(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonShaped);
  if (typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === null || Object.getPrototypeOf(prototype) === null) && Object.values(value).every(isJsonShaped);
}
