// Sizes of untrusted values, measured without recursion (a value nested a million levels deep is
// counted like any other) and without walking past the limit that matters (so measuring a 64 MB
// value against a 64 KiB limit costs about 64 KiB of work).
import type { ContentBlock } from '../../protocol/domain';
import type { Truncation } from './model';
import { detachedCopy } from '../planBytes';

/**
 * Approximate size in characters of a JSON-like value: string lengths, plus a few characters per
 * key, number, boolean and null. Stops as soon as the count passes `limit` and returns it (a value
 * over the limit reports some number greater than `limit`, not its full size).
 */
export function approxSize(value: unknown, limit = Number.MAX_SAFE_INTEGER): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') n += v.length + 2;
    else if (v === null || typeof v !== 'object') n += 4;
    else if (Array.isArray(v)) {
      n += 2;
      for (let i = 0; i < v.length && n <= limit; i++) {
        n += 1;
        stack.push(v[i]);
      }
    } else {
      n += 2;
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        n += k.length + 4;
        stack.push((v as Record<string, unknown>)[k]);
        if (n > limit) break;
      }
    }
    if (n > limit) return n;
  }
  return n;
}

/** The first `room` characters of `s`, never splitting a surrogate pair. */
export function cutText(s: string, room: number): string {
  if (s.length <= room) return s;
  let end = Math.max(0, room);
  const c = s.charCodeAt(end - 1);
  if (end > 0 && c >= 0xd800 && c <= 0xdbff) end--;
  // A copy, not a slice: V8 keeps a slice as a view into the whole string (a 1 MiB head of a
  // 64 MiB chunk would keep the 64 MiB alive).
  return detachedCopy(s.slice(0, end));
}

/** What of one content block fits in `room` characters. */
export interface Fit {
  /** The block kept (a text block may be cut to fit); undefined when dropped whole. */
  block: ContentBlock | undefined;
  /** Characters the kept block counts. */
  size: number;
  /** Text characters cut off. */
  droppedChars: number;
  /** 1 when a non-text block was dropped whole. */
  droppedBlocks: number;
}

/** Keeps `b` when it fits in `room`; a text block is cut to fit, any other block is kept whole or dropped. */
export function fitBlock(b: ContentBlock, room: number): Fit {
  if (b.type === 'text') {
    if (b.text.length <= room) return { block: b, size: b.text.length, droppedChars: 0, droppedBlocks: 0 };
    const text = cutText(b.text, room);
    const dropped = b.text.length - text.length;
    return text.length > 0
      ? { block: { ...b, text }, size: text.length, droppedChars: dropped, droppedBlocks: 0 }
      : { block: undefined, size: 0, droppedChars: dropped, droppedBlocks: 0 };
  }
  const size = approxSize(b, Math.max(0, room));
  return size <= room ? { block: b, size, droppedChars: 0, droppedBlocks: 0 } : { block: undefined, size: 0, droppedChars: 0, droppedBlocks: 1 };
}

/** A raw JSON field (`rawInput`, `_meta`…) kept only when it fits in `limit`. */
export function keepRaw<T>(value: T, limit: number): { value: T | undefined; size: number } {
  if (value === undefined || value === null) return { value, size: 0 };
  const size = approxSize(value, limit);
  return size <= limit ? { value, size } : { value: undefined, size: 0 };
}

/** Adds what was just dropped to an item's truncation record (created on first use). */
export function noteDrop(t: Truncation | undefined, limit: number, drop: { chars?: number; blocks?: number; field?: string }): Truncation {
  const out = t ?? { limit, droppedChars: 0, droppedBlocks: 0, droppedFields: [] };
  out.limit = limit;
  out.droppedChars += drop.chars ?? 0;
  out.droppedBlocks += drop.blocks ?? 0;
  if (drop.field && !out.droppedFields.includes(drop.field)) out.droppedFields.push(drop.field);
  return out;
}
