// A new revision's content, as the plan store keeps it (store.ts): a private copy of the agent's
// plan, its size, and, over the byte cap, the head its type keeps (src/state/planTypes/). Copy
// and size reuse the current revision's unchanged parts (see the note below). vscode-free, no I/O.
import type { PlanContent } from '../../protocol/domain';
import { jsonClone } from '../json';
import { storedPlanBytes, type StoredPlanBytes } from '../planBytes';
import { limitPlan } from '../planTypes';

/** The sizes of a stored plan's array elements, by member name (for the next update's measure). */
export type StoredParts = StoredPlanBytes['parts'];

/** What the store keeps of an update: the content, its size, and what was cut from it. */
export interface StoredContent {
  readonly plan: PlanContent;
  readonly parts: StoredParts;
  readonly bytes: number;
  /** What was left out of the agent's content (over `maxPlanBytes`). */
  readonly truncated: string | undefined;
}

/**
 * The content the store keeps of `incoming`, given the current revision (`prev`), cut by its type
 * when it is over `maxPlanBytes`; undefined when it is the current revision's own (an identical
 * re-send, whatever the key order, changes nothing).
 */
export function storedContent(
  incoming: PlanContent,
  prev: { plan: PlanContent; parts: StoredParts } | undefined,
  maxPlanBytes: number,
): StoredContent | undefined {
  // Measured after the copy: a reused entry's size is known already, so an update costs what it
  // changed, not the whole plan.
  let plan = cloneReusing(incoming, prev?.plan) as PlanContent;
  if (prev && plan === prev.plan) return undefined;
  let measured = storedPlanBytes(plan, maxPlanBytes, prev);
  let truncated: string | undefined;
  if (measured.bytes > maxPlanBytes) {
    const cut = limitPlan(incoming, maxPlanBytes);
    if (cut) {
      truncated = cut.dropped;
      plan = cloneReusing(cut.plan, prev?.plan) as PlanContent;
      if (prev && plan === prev.plan) return undefined;
      measured = storedPlanBytes(plan, Infinity, prev);
    }
  }
  return { plan, parts: measured.parts, bytes: measured.bytes, truncated };
}

// Plan updates arrive by the thousand per turn and most of a plan stays the same from one update
// to the next (an entry's status changes), so the store neither serializes plans nor copies what
// did not change: a new revision reuses the previous revision's unchanged parts (store-owned and
// never mutated). Both helpers follow JSON semantics exactly (what JSON.stringify keeps): object
// keys in any order, `undefined` members left out, `undefined`/non-finite numbers read as null.

/**
 * A private copy of `next` as `JSON.parse(JSON.stringify(next))` would make it, except that the
 * parts with the same JSON as the matching part of `prev` (a copy made here earlier) are `prev`'s
 * own; `prev` itself when all of `next` has the same JSON as `prev`.
 */
export function cloneReusing(next: unknown, prev: unknown): unknown {
  if (prev === undefined || typeof next !== 'object' || next === null || typeof prev !== 'object' || prev === null) {
    const copy = cloneValue(next);
    return copy === prev ? prev : copy;
  }
  // One pass: each part is compared once, and a new container is made only from the first part
  // that differs (the parts before it are `prev`'s own). No difference at all: `prev` itself.
  if (Array.isArray(next)) return Array.isArray(prev) ? reuseArray(next as unknown[], prev as unknown[]) : cloneValue(next);
  if (Array.isArray(prev) || !isPlainObject(next)) return cloneValue(next);
  return reuseObject(next as Record<string, unknown>, prev as Record<string, unknown>);
}

function reuseArray(next: readonly unknown[], prev: readonly unknown[]): unknown {
  let out: unknown[] | undefined;
  for (let i = 0; i < next.length; i++) {
    const x: unknown = next[i];
    const p: unknown = prev[i];
    // The common case first: a plan entry that did not change.
    const y =
      typeof x === 'object' &&
      x !== null &&
      typeof p === 'object' &&
      p !== null &&
      !Array.isArray(p) &&
      Object.getPrototypeOf(x) === Object.prototype &&
      sameFlat(x as Record<string, unknown>, p as Record<string, unknown>)
        ? p
        : x === undefined || typeof x === 'function' || typeof x === 'symbol'
          ? null
          : i < prev.length
            ? cloneReusing(x, p)
            : cloneValue(x);
    if (out === undefined && (i >= prev.length || y !== prev[i])) {
      out = new Array<unknown>(next.length);
      for (let j = 0; j < i; j++) out[j] = prev[j];
    }
    if (out !== undefined) out[i] = y;
  }
  if (out !== undefined) return out;
  return next.length === prev.length ? prev : prev.slice(0, next.length);
}

function reuseObject(src: Record<string, unknown>, old: Record<string, unknown>): unknown {
  if (sameFlat(src, old)) return old;
  let out: Record<string, unknown> | undefined;
  let seen = 0;
  let kept = 0;
  for (const k in src) {
    if (!Object.prototype.hasOwnProperty.call(src, k)) continue;
    const x = src[k];
    seen++;
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    const had = Object.prototype.hasOwnProperty.call(old, k);
    const p = had ? old[k] : undefined;
    const y = p === undefined ? cloneValue(x) : cloneReusing(x, p);
    if (out === undefined && !(had && y === p)) out = reusedKeys(src, old, seen - 1);
    if (out !== undefined) setKey(out, k, y);
    kept++;
  }
  if (out !== undefined) return out;
  let n = 0;
  for (const k in old) if (Object.prototype.hasOwnProperty.call(old, k)) n++;
  // Every member reused: `prev` itself, unless it has members `next` does not.
  return n === kept ? old : reusedKeys(src, old, seen);
}

/**
 * The common case, checked first: an object of plain values (a plan entry whose status did not
 * change) with the same members as `old`, in the same order. False means "not shown equal here".
 */
function sameFlat(src: Record<string, unknown>, old: Record<string, unknown>): boolean {
  let n = 0;
  for (const k in src) {
    const x = src[k];
    if ((typeof x === 'object' && x !== null) || x === undefined || x !== old[k] || !Object.prototype.hasOwnProperty.call(src, k)) return false;
    n++;
  }
  for (const k in old) if (--n < 0 || !Object.prototype.hasOwnProperty.call(old, k)) return false;
  return n === 0;
}

/** A new object with `prev`'s values for the first `count` own keys of `src` (all reused, in `src`'s order). */
function reusedKeys(src: Record<string, unknown>, old: Record<string, unknown>, count: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let seen = 0;
  for (const k in src) {
    if (seen >= count) break;
    if (!Object.prototype.hasOwnProperty.call(src, k)) continue;
    seen++;
    const x = src[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    setKey(out, k, old[k]);
  }
  return out;
}

/** The same copy as `JSON.parse(JSON.stringify(v))` for plain JSON data, without the text. */
function cloneValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    return jsonClone(v); // the rare cases keep JSON's exact behaviour (and errors)
  }
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? null : cloneValue(x);
    }
    return out;
  }
  if (!isPlainObject(v)) return jsonClone(v);
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) {
    const x = src[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    setKey(out, k, cloneValue(x));
  }
  return out;
}

function isPlainObject(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** `__proto__` is an ordinary key in JSON: define it, never assign it. */
function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
