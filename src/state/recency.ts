// Values in least recently used order, for the caps and budgets that cut the oldest first. Moving
// a value to the newest end relinks two nodes and allocates nothing. (A Set kept in that order
// with delete-then-add reallocates its hash table every few moves, and a long-lived Set's table is
// reallocated in the old generation: one move per streamed update fed the full collector.)
// vscode-free.

interface Node<T> {
  readonly value: T;
  prev?: Node<T>;
  next?: Node<T>;
}

export class Recency<T> implements Iterable<T> {
  private readonly nodes = new Map<T, Node<T>>();
  /** The least recently touched. */
  private head?: Node<T>;
  /** The most recently touched. */
  private tail?: Node<T>;

  get size(): number {
    return this.nodes.size;
  }

  has(value: T): boolean {
    return this.nodes.has(value);
  }

  /** The value is now the newest (added when missing). */
  touch(value: T): void {
    let n = this.nodes.get(value);
    if (n === this.tail && n) return;
    if (n) this.unlink(n);
    else this.nodes.set(value, (n = { value }));
    n.prev = this.tail;
    if (this.tail) this.tail.next = n;
    else this.head = n;
    this.tail = n;
  }

  delete(value: T): boolean {
    const n = this.nodes.get(value);
    if (!n) return false;
    this.unlink(n);
    this.nodes.delete(value);
    return true;
  }

  /** The least recently touched value. */
  oldest(): T | undefined {
    return this.head?.value;
  }

  /** Oldest first. The value just yielded may be deleted meanwhile; no other. */
  *[Symbol.iterator](): Iterator<T> {
    for (let n = this.head; n;) {
      const next = n.next;
      yield n.value;
      n = next;
    }
  }

  private unlink(n: Node<T>): void {
    if (n.prev) n.prev.next = n.next;
    else this.head = n.next;
    if (n.next) n.next.prev = n.prev;
    else this.tail = n.prev;
    n.prev = n.next = undefined;
  }
}
