/**
 * A set that also draws a member at random in constant time: members sit in
 * an array, and a removal moves the last member into the freed slot. The
 * order of the members is an implementation detail, but a deterministic one,
 * so a seeded generator drawing from it stays reproducible.
 */
export class PickableSet<T> {
  private readonly members: T[] = [];
  private readonly positions = new Map<T, number>();

  get size(): number {
    return this.members.length;
  }

  has(member: T): boolean {
    return this.positions.has(member);
  }

  /** The member at `position` (0 <= position < size). */
  at(position: number): T {
    return this.members[position];
  }

  /** False when it was already a member. */
  add(member: T): boolean {
    if (this.positions.has(member)) return false;
    this.positions.set(member, this.members.length);
    this.members.push(member);
    return true;
  }

  /** False when it was not a member. */
  delete(member: T): boolean {
    const position = this.positions.get(member);
    if (position === undefined) return false;
    const last = this.members.pop()!;
    this.positions.delete(member);
    if (last !== member) {
      this.members[position] = last;
      this.positions.set(last, position);
    }
    return true;
  }

  values(): IterableIterator<T> {
    return this.members.values();
  }
}
