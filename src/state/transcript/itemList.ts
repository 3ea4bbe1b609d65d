// A session's items in arrival order, found by id in O(1), with the oldest dropped when the count
// or the total size passes its limit. Absolute indexes stay stable while the head is dropped (the
// dropped prefix is compacted lazily), so views can page by index. Every change of the total is
// reported to `meter` (the agent's memory budget, agentBudget.ts) after the list is consistent, so
// the budget may cut this very list (`cutOldest`) from within the report.
import type { TranscriptItem } from './model';

export interface ItemListLimits {
  /** Items kept; past it the oldest tenth is dropped. */
  maxItems: number;
  /** Characters kept across all items; past it the oldest items are dropped down to 90%. */
  maxChars: number;
}

export class ItemList {
  private list: TranscriptItem[] = [];
  /** Index in `list` of the first live item. */
  private head = 0;
  /** Absolute index of `list[head]`. */
  private base = 0;
  private readonly byId = new Map<string, number>();
  /** Size (characters) each live item counts, by id. */
  private readonly sizes = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly limits: ItemListLimits,
    private readonly meter?: (delta: number) => void,
  ) {}

  /** Absolute index of the oldest item held. */
  get firstIndex(): number {
    return this.base;
  }
  /** Absolute index one past the newest item. */
  get endIndex(): number {
    return this.base + this.list.length - this.head;
  }
  get size(): number {
    return this.list.length - this.head;
  }
  /** Characters counted for the items held. */
  get chars(): number {
    return this.total;
  }

  at(abs: number): TranscriptItem | undefined {
    return abs < this.base ? undefined : this.list[abs - this.base + this.head];
  }
  item(itemId: string): TranscriptItem | undefined {
    const abs = this.byId.get(itemId);
    return abs === undefined ? undefined : this.at(abs);
  }
  indexOf(itemId: string): number | undefined {
    return this.byId.get(itemId);
  }
  sizeOf(itemId: string): number {
    return this.sizes.get(itemId) ?? 0;
  }

  /** Items with absolute index in [from, to). */
  slice(from: number, to = this.endIndex): TranscriptItem[] {
    const a = Math.max(from, this.base) - this.base + this.head;
    const b = Math.max(to, this.base) - this.base + this.head;
    return this.list.slice(a, b);
  }

  /** Adds an item at the end, counting `size` characters; may drop the oldest items. */
  push(item: TranscriptItem, size: number): void {
    this.byId.set(item.itemId, this.endIndex);
    this.sizes.set(item.itemId, size);
    this.total += size;
    this.list.push(item);
    this.trim(size);
  }

  /** A held item grew or shrank to `size` characters; may drop the oldest items (never the newest). */
  resize(itemId: string, size: number): void {
    const old = this.sizes.get(itemId);
    if (old === undefined) return;
    this.sizes.set(itemId, size);
    this.total += size - old;
    this.trim(size - old);
  }

  clear(): void {
    const total = this.total;
    this.list = [];
    this.head = 0;
    this.base = 0;
    this.byId.clear();
    this.sizes.clear();
    this.total = 0;
    if (total) this.meter?.(-total);
  }

  /** Drops the oldest items until `chars` are freed, keeping the newest `keep`; returns the characters freed. */
  cutOldest(chars: number, keep = 1): number {
    const before = this.total;
    while (this.size > keep && before - this.total < chars) this.dropHead();
    this.compact();
    const freed = before - this.total;
    if (freed) this.meter?.(-freed);
    return freed;
  }

  /** Applies the list's own limits, then reports the net change (`added` plus what was dropped). */
  private trim(added: number): void {
    const before = this.total;
    this.trimToLimits();
    const delta = added - (before - this.total);
    if (delta) this.meter?.(delta);
  }

  private trimToLimits(): void {
    const { maxItems, maxChars } = this.limits;
    if (this.size <= maxItems && this.total <= maxChars) return;
    // Drop a tenth more than needed, so a full list does not drop one item per new item.
    const keepItems = this.size > maxItems ? Math.max(0, maxItems - Math.ceil(maxItems / 10)) : maxItems;
    const keepChars = this.total > maxChars ? Math.floor(maxChars * 0.9) : maxChars;
    while (this.size > 1 && (this.size > keepItems || this.total > keepChars)) this.dropHead();
    this.compact();
  }

  private dropHead(): void {
    const id = this.list[this.head].itemId;
    this.byId.delete(id);
    this.total -= this.sizes.get(id) ?? 0;
    this.sizes.delete(id);
    this.list[this.head] = undefined as unknown as TranscriptItem; // let the item go now, not at the next compaction
    this.head++;
    this.base++;
  }

  private compact(): void {
    if (this.head * 2 > this.list.length) {
      this.list = this.list.slice(this.head);
      this.head = 0;
    }
  }
}
